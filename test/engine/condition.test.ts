import { describe, it, expect } from 'vitest';
import { parseCondition, evaluateCondition, type Truth } from '../../src/engine/condition.js';

const values = (map: Record<string, Truth>) => (name: string): Truth => map[name] ?? 'unknown';

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

  it('rejects malformed conditions', () => {
    expect(() => parseCondition('a and')).toThrow(/signal name/);
    expect(() => parseCondition('a b')).toThrow(/unexpected/);
    expect(() => parseCondition('(a or b')).toThrow(/expected '\)'/);
  });
});
