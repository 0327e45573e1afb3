/**
 * When a must-gather was collected, from its `timestamp` files.
 *
 * `oc adm must-gather` writes `<dest>/timestamp` (client side) and each gather image writes
 * `<dest>/<image-folder>/timestamp`. Each line is Go's `time.Time.String()`:
 *
 *   2021-08-03 12:11:56.91501602 +0200 CEST m=+1.651641915
 *
 * i.e. `YYYY-MM-DD hh:mm:ss[.fraction] ±hhmm ZONE [m=±monotonic]`, in any zone. The numeric
 * offset is authoritative; the zone abbreviation (`CEST`, `UTC`, `+03`) and the monotonic
 * clock reading are ignored. The client file holds two lines (start, end); an image folder's
 * file may hold several start/end pairs (one per gather step, seen in real archives: six
 * lines). So a file's start is its earliest line and its end its latest; a file with one
 * line has a start and no end (the gather did not finish writing it). Garbage lines are
 * skipped; a file with no good line is `undefined`. CRLF, a BOM and blank lines are tolerated.
 */

export interface GatherTimestamps {
  /** Earliest line, epoch ms. */
  start: number;
  /** Latest line, epoch ms; undefined when the file held a single good line. */
  end?: number | undefined;
  /** Good lines read. */
  lines: number;
}

const GO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?\s+([+-])(\d{2}):?(\d{2})(?:\s+(?!m=)\S+)?(?:\s+m=[+-]\d+(?:\.\d+)?)?$/;

/** One Go `time.String()` value as epoch ms (ms precision, fraction truncated); undefined if not one. */
export function parseGoTime(text: string): number | undefined {
  const m = GO_TIME.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  const offsetMin = (Number(oh) * 60 + Number(om)) * (sign === '-' ? -1 : 1);
  if (Math.abs(offsetMin) > 18 * 60) return undefined;
  const ms = frac === undefined ? 0 : Number(frac.padEnd(3, '0').slice(0, 3));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  // Reject dates Date.UTC silently rolled over (2021-02-31 → March).
  if (new Date(utc).getUTCDate() !== day) return undefined;
  return utc - offsetMin * 60_000;
}

/** Parse the text of one `timestamp` file (see the module comment). */
export function parseGatherTimestamps(text: string): GatherTimestamps | undefined {
  let start: number | undefined;
  let end: number | undefined;
  let lines = 0;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n|\r/)) {
    if (line.trim() === '') continue;
    const t = parseGoTime(line);
    if (t === undefined) continue;
    lines++;
    if (start === undefined || t < start) start = t;
    if (end === undefined || t > end) end = t;
  }
  if (start === undefined) return undefined;
  return { start, end: lines > 1 ? end : undefined, lines };
}

/**
 * The collection time of an archive: the latest end across its `timestamp` files (a file
 * with a single line contributes its start). Undefined when no file parses.
 */
export function collectionTime(files: Iterable<string | GatherTimestamps | undefined>): number | undefined {
  let latest: number | undefined;
  for (const file of files) {
    const parsed = typeof file === 'string' ? parseGatherTimestamps(file) : file;
    if (!parsed) continue;
    const t = parsed.end ?? parsed.start;
    if (latest === undefined || t > latest) latest = t;
  }
  return latest;
}

/** Earliest start and latest end across `timestamp` files: the window the gather ran in. */
export function gatherWindow(
  files: Iterable<string | GatherTimestamps | undefined>,
): { start: number; end: number } | undefined {
  let start: number | undefined;
  let end: number | undefined;
  for (const file of files) {
    const parsed = typeof file === 'string' ? parseGatherTimestamps(file) : file;
    if (!parsed) continue;
    const e = parsed.end ?? parsed.start;
    if (start === undefined || parsed.start < start) start = parsed.start;
    if (end === undefined || e > end) end = e;
  }
  return start === undefined || end === undefined ? undefined : { start, end };
}
