/**
 * Defensive readers for plain objects decoded from YAML/JSON. The facts modules take
 * `unknown` at their boundaries (an archive can hold anything) and narrow with these, so a
 * malformed object yields `undefined` fields instead of a throw.
 */

import { isPlainObject as isRecord, type PlainObject } from '../parsers/k8s.js';

export { isRecord, type PlainObject };

/** `obj[key]` when it is a plain object, else undefined. */
export function recordAt(obj: unknown, key: string): PlainObject | undefined {
  if (!isRecord(obj)) return undefined;
  const value = obj[key];
  return isRecord(value) ? value : undefined;
}

/** `obj[key]` when it is a non-empty string, else undefined. */
export function stringAt(obj: unknown, key: string): string | undefined {
  if (!isRecord(obj)) return undefined;
  const value = obj[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `obj[key]` when it is an array, else an empty array. */
export function arrayAt(obj: unknown, key: string): readonly unknown[] {
  if (!isRecord(obj)) return [];
  const value = obj[key];
  return Array.isArray(value) ? value : [];
}

/**
 * A Kubernetes timestamp (RFC 3339, e.g. `2021-08-03T09:14:59Z`) as epoch ms. Also accepts a
 * `Date` (js-yaml's default schema turns unquoted timestamps into Dates) and finite numbers
 * (already epoch ms). Anything else, including `null` and unparsable text, is undefined.
 */
export function timeMs(value: unknown): number | undefined {
  if (value instanceof Date) {
    const t = value.getTime();
    return Number.isFinite(t) ? t : undefined;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value === '') return undefined;
  const canonical = canonicalUtcMs(value);
  if (canonical !== undefined) return canonical;
  // Require a date-and-time shape so Date.parse's lenient fallbacks ("4.6", "1") are not taken.
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value)) return undefined;
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : undefined;
}

/**
 * The forms Kubernetes writes (`2021-08-03T09:14:59Z`, a MicroTime's `2021-08-03T09:14:59.123456Z`)
 * read from their digits, as Date.parse reads them (the fraction cut to milliseconds); undefined for
 * anything else, which Date.parse reads. Every event holds several: Date.parse was most of their cost.
 */
function canonicalUtcMs(value: string): number | undefined {
  const length = value.length;
  if (length < 20 || value.charCodeAt(length - 1) !== 90 /* Z */) return undefined;
  if (value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45 || value.charCodeAt(10) !== 84 || value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58) return undefined;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = digitsAt(value, 17, 2);
  // Date.UTC reads years 0-99 as 19xx, and carries a month 13 or an hour 24 over where Date.parse refuses them.
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  let ms = 0;
  if (length > 20) {
    // `.` and 1 to 9 digits before the Z.
    if (value.charCodeAt(19) !== 46 || length > 30 || length === 21) return undefined;
    const fraction = digitsAt(value, 20, length - 21);
    if (fraction < 0) return undefined;
    ms = Math.floor(fraction / 10 ** Math.max(0, length - 24)) * 10 ** Math.max(0, 24 - length);
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

/** The decimal number of `count` digits at `from`, or -1 where one is not a digit. */
function digitsAt(text: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/** A timestamp field of `obj` as epoch ms (see {@link timeMs}). */
export function timeAt(obj: unknown, key: string): number | undefined {
  return isRecord(obj) ? timeMs(obj[key]) : undefined;
}
