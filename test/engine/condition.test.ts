import { describe, it, expect } from 'vitest';
import { parseCondition, evaluateCondition, type SignalValues, type Truth } from '../../src/engine/condition.js';

const values = (map: Record<string, Truth>, counts: Record<string, number> = {}): SignalValues => ({
  truth: (name) => map[name] ?? 'unknown',
  count: (name) => counts[name] ?? (map[name] === true ? 1 : 0),
});

describe('rule conditions in three-valued logic', () => {
  it('parses and evaluates and / or / not with precedence', () => {
    const node = parseCondition('final_sync and unverified and not forced');
    expect(evaluateCondition(node, values({ final_sync: true, unverified: true, forced: false }))).toBe(true);
    expect(evaluateCondition(node, values({ final_sync: true, unverified: true, forced: true }))).toBe(false);
    expect(evaluateCondition(parseCondition('a or b and c'), values({ a: false, b: true, c: false }))).toBe(false);
    expect(evaluateCondition(parseCondition('(a or b) and c'), values({ a: true, b: false, c: true }))).toBe(true);
  });

  it('is unknown only when the missing data could change the answer', () => {
    expect(evaluateCondition(parseCondition('a or b'), values({ a: true }))).toBe(true);
    expect(evaluateCondition(parseCondition('a or b'), values({ a: false }))).toBe('unknown');
    expect(evaluateCondition(parseCondition('a and b'), values({ a: false }))).toBe(false);
    expect(evaluateCondition(parseCondition('not b'), values({}))).toBe('unknown');
  });

  it('compares evidence counts, unknown when the data is missing', () => {
    const node = parseCondition('lost_leader >= 3 and not forced');
    expect(evaluateCondition(node, values({ lost_leader: true, forced: false }, { lost_leader: 3 }))).toBe(true);
    expect(evaluateCondition(node, values({ lost_leader: true, forced: false }, { lost_leader: 2 }))).toBe(false);
    expect(evaluateCondition(node, values({ forced: false }))).toBe('unknown');
    expect(evaluateCondition(parseCondition('a < 1'), values({ a: false }))).toBe(true);
    expect(evaluateCondition(parseCondition('a == 2 or a > 5'), values({ a: true }, { a: 6 }))).toBe(true);
    expect(evaluateCondition(parseCondition('a <= 2'), values({ a: true }, { a: 3 }))).toBe(false);
  });

  it('absent(name) is true only when the data is missing, never unknown', () => {
    const node = parseCondition('line and absent(history)');
    expect(evaluateCondition(node, values({ line: true }))).toBe(true);
    expect(evaluateCondition(node, values({ line: true, history: false }))).toBe(false);
    expect(evaluateCondition(node, values({ line: true, history: true }))).toBe(false);
    expect(evaluateCondition(parseCondition('not absent(h)'), values({}))).toBe(false);
  });

  it('rejects malformed conditions', () => {
    expect(() => parseCondition('a >= b')).toThrow(/number/);
    expect(() => parseCondition('absent(and)')).toThrow(/signal name/);
    expect(() => parseCondition('absent a')).toThrow(/expected '\('/);
    expect(() => parseCondition('a and')).toThrow(/signal name/);
    expect(() => parseCondition('a b')).toThrow(/unexpected/);
    expect(() => parseCondition('(a or b')).toThrow(/expected '\)'/);
  });
});
