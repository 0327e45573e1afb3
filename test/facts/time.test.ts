import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { timeMs } from '../../src/facts/internal.js';

/** What timeMs gave before it read the canonical forms itself: the shape check, then Date.parse. */
function byDateParse(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value)) return undefined;
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : undefined;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

describe('timeMs', () => {
  it('reads the forms Kubernetes writes', () => {
    expect(timeMs('2021-08-03T09:14:59Z')).toBe(Date.UTC(2021, 7, 3, 9, 14, 59));
    expect(timeMs('2021-08-03T09:14:59.123456Z')).toBe(Date.UTC(2021, 7, 3, 9, 14, 59, 123));
    expect(timeMs('2021-08-03T09:14:59.1Z')).toBe(Date.UTC(2021, 7, 3, 9, 14, 59, 100));
    expect(timeMs('2021-08-03T09:14:59+02:00')).toBe(Date.UTC(2021, 7, 3, 7, 14, 59));
    expect(timeMs('4.6')).toBeUndefined();
    expect(timeMs('')).toBeUndefined();
    expect(timeMs(null)).toBeUndefined();
  });

  it('gives what Date.parse gives on any timestamp-shaped text, out-of-range fields included', () => {
    // Mostly in range (the forms read from their digits), else any digits, else any characters.
    const field = (width: number, min: number, max: number): fc.Arbitrary<string> =>
      fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min, max }).map((n) => pad(n, width)) },
        { weight: 2, arbitrary: fc.integer({ min: 0, max: 10 ** width - 1 }).map((n) => pad(n, width)) },
        { weight: 1, arbitrary: fc.string({ minLength: width, maxLength: width }) },
      );
    const stamp = fc
      .tuple(field(4, 1000, 2999), field(2, 1, 12), field(2, 1, 31), field(2, 0, 23), field(2, 0, 59), field(2, 0, 59), fc.option(fc.stringMatching(/^\.\d{0,11}$/)), fc.constantFrom('Z', 'Z', 'z', '', '+01:00'))
      .map(([y, mo, d, h, mi, s, fraction, zone]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction ?? ''}${zone}`);
    fc.assert(
      fc.property(stamp, (value) => {
        expect(timeMs(value), value).toBe(byDateParse(value));
      }),
      { numRuns: 20_000 },
    );
  });
});
