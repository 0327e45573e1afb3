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
  // Require a date-and-time shape so Date.parse's lenient fallbacks ("4.6", "1") are not taken.
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value)) return undefined;
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : undefined;
}

/** A timestamp field of `obj` as epoch ms (see {@link timeMs}). */
export function timeAt(obj: unknown, key: string): number | undefined {
  return isRecord(obj) ? timeMs(obj[key]) : undefined;
}
