/**
 * The must-gather `timestamp` file: Go's `time.Time.String()` of the start and the end of
 * the gather, one a line (`2021-08-03 10:12:00.016988581 +0000 UTC m=+0.380233555`). Its
 * last time is the collection time, the reference that gives yearless log times a year.
 */

const GO_TIME_RE = /^\s*(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))? ([+-])(\d\d)(\d\d)(?: |$)/;

/** Epoch ms of a Go `time.Time.String()` value (the monotonic `m=+…` part is ignored). */
export function parseGoTime(s: string): number | undefined {
  const m = GO_TIME_RE.exec(s);
  if (!m) return undefined;
  const n = (i: number): number => Number(m[i] ?? '0');
  const ms = Number(((m[7] ?? '') + '000').slice(0, 3));
  const offset = (n(9) * 60 + n(10)) * 60_000 * (m[8] === '-' ? -1 : 1);
  const t = Date.UTC(n(1), n(2) - 1, n(3), n(4), n(5), n(6), ms) - offset;
  return Number.isFinite(t) ? t : undefined;
}

/** Start (first time) and end (last time) in a `timestamp` file; undefined where absent. */
export function parseGatherTimestamps(text: string): { start: number | undefined; end: number | undefined } {
  let start: number | undefined;
  let end: number | undefined;
  for (const line of text.split('\n', 1000)) {
    const t = parseGoTime(line);
    if (t === undefined) continue;
    start ??= t;
    end = t;
  }
  return { start, end };
}
