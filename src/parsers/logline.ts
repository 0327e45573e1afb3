/**
 * One log line at a time: the kubelet / `oc logs --timestamps` RFC 3339 prefix, the CRI
 * prefix (`<time> stdout|stderr F|P `), the journal prefix of host service logs
 * (`Aug 03 09:10:41.123456 host unit[pid]: `), and the klog header
 * (`I0803 09:28:09.024765       1 start.go:21] `).
 *
 * Built for GBs of logs: the hot paths are character checks on fixed offsets, no regex and
 * no allocation beyond the result; the exported regexes say the same thing for code that
 * prefers them. Nothing here throws, whatever the input.
 */

export type KlogLevel = 'I' | 'W' | 'E' | 'F';

/**
 * Where a yearless time (klog, journal) got its year: from the RFC 3339 prefix on the same
 * line, from the reference time (the archive's collection time), or, lacking both, from
 * the clock of the machine running the analysis.
 */
export type YearSource = 'prefix' | 'reference' | 'clock';

export interface KlogHeader {
  level: KlogLevel;
  /** Epoch ms (klog prints local time without zone; taken as UTC, as on RHCOS). */
  time: number;
  yearFrom: YearSource;
  thread: number;
  file: string;
  line: number;
  message: string;
}

export interface JournalHeader {
  host: string;
  /** Syslog identifier (`hyperkube`, `systemd`, `crio`, ...). */
  unit: string;
  pid: number | undefined;
  /** Epoch ms of the journal timestamp; the year comes from the reference time. */
  time: number;
  yearFrom: YearSource;
}

export interface LogLine {
  /** 1-based line number as given by the caller. */
  lineNo: number;
  raw: string;
  /** The line after the kubelet/CRI/journal prefix (and without a trailing `\r`). */
  text: string;
  /** Epoch ms, best available: RFC 3339 prefix, else journal time, else klog time. */
  time: number | undefined;
  stream: 'stdout' | 'stderr' | undefined;
  /** CRI `P` tag: the runtime split this line; the next line continues it. */
  partial: boolean | undefined;
  klog: KlogHeader | undefined;
  journal: JournalHeader | undefined;
}

export interface LogLineContext {
  /** Epoch ms of the archive's collection; gives klog/journal times their year. */
  referenceTime?: number | undefined;
  /** How far after the reference time a yearless line may be (default one day). */
  yearToleranceMs?: number | undefined;
}

// ---- regexes equivalent to the character scanners below (for other code to reuse) ----

/** RFC 3339 timestamp as kubelet and CRI-O write it, then a space or the end of line. */
export const RFC3339_PREFIX_RE =
  /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?([Zz]|[+-]\d\d:?\d\d)(?: |$)/;
/** CRI log line: timestamp, stream, tag (`F` full, `P` partial), message. */
export const CRI_PREFIX_RE =
  /^(\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:[Zz]|[+-]\d\d:?\d\d)) (stdout|stderr) ([FP])(?: |$)/;
/** klog header at the start of a string: level, month, day, h, m, s, µs, thread, file, line. */
export const KLOG_HEADER_RE =
  /^([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6}) +(\d+) ([^\s:\]]+):(\d+)\](?: |$)/;
/** Finds a klog header after whitespace anywhere in a line (the match starts at the space). */
export const KLOG_FIND_RE = /\s[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ [^\s:\]]+:\d+\]/;
/** journalctl short(-precise) prefix: month, day, time, host, identifier, pid. */
export const JOURNAL_PREFIX_RE =
  /^([A-Z][a-z]{2}) ([ \d]\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))? (\S+) ([^\s[:]+)(?:\[(\d+)\])?:(?: |$)/;
/** `-- Logs begin at Tue 2021-08-03 09:10:29 UTC, end at Tue 2021-08-03 10:13:48 UTC. --` */
export const JOURNAL_BANNER_RE =
  /^-- Logs begin at \w+ (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)( UTC)?, end at \w+ (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)( UTC)?\. --/;

// ---- scratch registers: the scanners return an index and leave their fields here ----

let sTime = 0; // epoch ms
let sYear = 0;
let sMonth = 0; // 1-12
let sDay = 0;
let sHour = 0;
let sMin = 0;
let sSec = 0;
let sMs = 0;
let sStream = 0; // 0 none, 1 stdout, 2 stderr
let sPartial = false;
let sLevel = 0; // char code
let sThread = 0;
let sFileStart = 0;
let sFileEnd = 0;
let sLine = 0;
let sHostStart = 0;
let sHostEnd = 0;
let sUnitStart = 0;
let sUnitEnd = 0;
let sPid = -1;

const MS_PER_DAY = 86_400_000;
const HALF_YEAR_MS = 183 * MS_PER_DAY;
export const DEFAULT_YEAR_TOLERANCE_MS = MS_PER_DAY;
/** How far into a line `parseLogLine` looks for a klog header that is not at its start. */
export const KLOG_SEARCH_WINDOW = 4096;

/** Digit value at i, or -1 (also past the end: NaN fails both comparisons). */
function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

function two(s: string, i: number): number {
  const a = digit(s, i);
  if (a < 0) return -1;
  const b = digit(s, i + 1);
  if (b < 0) return -1;
  return a * 10 + b;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Reads `.fraction` at i (if any) into sMs; returns the index after it, or -1 for a bare dot. */
function scanFraction(s: string, i: number): number {
  sMs = 0;
  if (s.charCodeAt(i) !== 46 /* . */) return i;
  const start = ++i;
  let ms = 0;
  for (;;) {
    const c = digit(s, i);
    if (c < 0) break;
    if (i - start < 3) ms = ms * 10 + c;
    i++;
  }
  const n = i - start;
  if (n === 0) return -1;
  if (n === 1) ms *= 100;
  else if (n === 2) ms *= 10;
  sMs = ms;
  return i;
}

/** Validates sMonth..sSec as read. */
function clockValid(): boolean {
  return sMonth >= 1 && sMonth <= 12 && sDay >= 1 && sDay <= 31 && sHour <= 23 && sMin <= 59 && sSec <= 60;
}

/**
 * Scans an RFC 3339 timestamp at `p` (`2021-08-03T09:28:09.024882353Z`, any number of
 * fraction digits, `Z` or a `±hh:mm` / `±hhmm` offset). Returns the index after it, or -1;
 * on success the epoch ms is in the scratch time.
 */
function scanRfc3339(s: string, p: number): number {
  if (s.length < p + 20) return -1;
  const y1 = two(s, p);
  const y2 = two(s, p + 2);
  if (y1 < 0 || y2 < 0 || s.charCodeAt(p + 4) !== 45 || s.charCodeAt(p + 7) !== 45) return -1;
  sMonth = two(s, p + 5);
  sDay = two(s, p + 8);
  const t = s.charCodeAt(p + 10);
  if (t !== 84 /* T */ && t !== 116 /* t */) return -1;
  sHour = two(s, p + 11);
  sMin = two(s, p + 14);
  sSec = two(s, p + 17);
  if (s.charCodeAt(p + 13) !== 58 || s.charCodeAt(p + 16) !== 58) return -1;
  if (sMonth < 0 || sDay < 0 || sHour < 0 || sMin < 0 || sSec < 0 || !clockValid()) return -1;
  let i = scanFraction(s, p + 19);
  if (i < 0) return -1;
  const z = s.charCodeAt(i);
  let offset = 0;
  if (z === 90 /* Z */ || z === 122 /* z */) {
    i++;
  } else if (z === 43 /* + */ || z === 45 /* - */) {
    const oh = two(s, i + 1);
    let j = i + 3;
    if (s.charCodeAt(j) === 58) j++;
    const om = two(s, j);
    if (oh < 0 || om < 0) return -1;
    offset = (oh * 60 + om) * 60_000;
    if (z === 43) offset = -offset;
    i = j + 2;
  } else {
    return -1;
  }
  sYear = y1 * 100 + y2;
  sTime = Date.UTC(sYear, sMonth - 1, sDay, sHour, sMin, sSec, sMs) + offset;
  return i;
}

/** Epoch ms of an RFC 3339 timestamp starting at `start`, or undefined. */
export function parseRfc3339(s: string, start = 0): number | undefined {
  return scanRfc3339(s, start) < 0 ? undefined : sTime;
}

/**
 * Scans the kubelet / CRI prefix; returns where the text starts (0: no prefix) and leaves
 * time, stream and partial in the scratch registers.
 */
function scanPrefix(raw: string): number {
  sStream = 0;
  sPartial = false;
  const c0 = raw.charCodeAt(0);
  if (!(c0 >= 48 && c0 <= 57)) return 0;
  const end = scanRfc3339(raw, 0);
  if (end < 0) return 0;
  if (end === raw.length) return end;
  if (raw.charCodeAt(end) !== 32) return 0;
  const i = end + 1;
  const c = raw.charCodeAt(i);
  if (c === 115 /* s */ && (raw.startsWith('stdout ', i) || raw.startsWith('stderr ', i))) {
    const tag = raw.charCodeAt(i + 7);
    if (tag === 70 /* F */ || tag === 80 /* P */) {
      const after = raw.charCodeAt(i + 8);
      if (after === 32 || i + 8 === raw.length) {
        sStream = raw.charCodeAt(i + 3) === 111 /* o */ ? 1 : 2;
        sPartial = tag === 80;
        return Math.min(i + 9, raw.length);
      }
    }
  }
  return i;
}

/**
 * Length of the kubelet (`<RFC 3339> `) or CRI (`<RFC 3339> stdout F `) prefix of a raw
 * line; 0 when there is none.
 */
export function prefixLength(raw: string): number {
  return scanPrefix(raw);
}

/**
 * Scans a klog header at `p`; returns the index where the message starts, or -1. Fields are
 * left in the scratch registers.
 */
function scanKlog(s: string, p: number): number {
  const lv = s.charCodeAt(p);
  if (lv !== 73 /* I */ && lv !== 87 /* W */ && lv !== 69 /* E */ && lv !== 70 /* F */) return -1;
  if (s.length < p + 24) return -1;
  sMonth = two(s, p + 1);
  sDay = two(s, p + 3);
  if (sMonth < 0 || sDay < 0 || s.charCodeAt(p + 5) !== 32) return -1;
  sHour = two(s, p + 6);
  sMin = two(s, p + 9);
  sSec = two(s, p + 12);
  if (sHour < 0 || sMin < 0 || sSec < 0) return -1;
  if (s.charCodeAt(p + 8) !== 58 || s.charCodeAt(p + 11) !== 58 || s.charCodeAt(p + 14) !== 46) return -1;
  let micro = 0;
  for (let k = p + 15; k < p + 21; k++) {
    const d = digit(s, k);
    if (d < 0) return -1;
    micro = micro * 10 + d;
  }
  if (!clockValid() || s.charCodeAt(p + 21) !== 32) return -1;
  sMs = Math.floor(micro / 1000);
  let i = p + 22;
  while (s.charCodeAt(i) === 32) i++;
  let thread = 0;
  const threadStart = i;
  for (let d = digit(s, i); d >= 0; d = digit(s, ++i)) {
    if (i - threadStart < 15) thread = thread * 10 + d;
  }
  if (i === threadStart || s.charCodeAt(i) !== 32) return -1;
  const fileStart = ++i;
  const fileLimit = Math.min(s.length, fileStart + 512);
  for (; i < fileLimit; i++) {
    const c = s.charCodeAt(i);
    if (c === 58 /* : */) break;
    if (c === 32 || c === 93 /* ] */ || c === 9) return -1;
  }
  if (i === fileStart || s.charCodeAt(i) !== 58) return -1;
  const fileEnd = i++;
  let line = 0;
  const lineStart = i;
  for (let d = digit(s, i); d >= 0; d = digit(s, ++i)) {
    if (i - lineStart < 15) line = line * 10 + d;
  }
  if (i === lineStart || s.charCodeAt(i) !== 93) return -1;
  i++;
  if (i < s.length) {
    if (s.charCodeAt(i) !== 32) return -1;
    i++;
  }
  sLevel = lv;
  sThread = thread;
  sFileStart = fileStart;
  sFileEnd = fileEnd;
  sLine = line;
  return i;
}

/** Where the message of a klog header starting at `pos` begins, or -1 if no header is there. */
export function klogHeaderEnd(text: string, pos = 0): number {
  return scanKlog(text, pos);
}

/** Level of a klog header starting at `pos`, or undefined. */
export function klogLevelAt(text: string, pos = 0): KlogLevel | undefined {
  return scanKlog(text, pos) < 0 ? undefined : (String.fromCharCode(sLevel) as KlogLevel);
}

// ---- years ----

let cachedYearStart = 0;
let cachedYearEnd = 0;
let cachedYear = 1970;

/** UTC year of an epoch ms (cached: callers ask about the same reference time again and again). */
function yearOf(t: number): number {
  if (t >= cachedYearStart && t < cachedYearEnd) return cachedYear;
  const y = new Date(t).getUTCFullYear();
  if (Number.isNaN(y)) return 1970;
  cachedYear = y;
  cachedYearStart = Date.UTC(y, 0, 1);
  cachedYearEnd = Date.UTC(y + 1, 0, 1);
  return y;
}

function utcOf(year: number): number {
  return Date.UTC(year, sMonth - 1, sDay, sHour, sMin, sSec, sMs);
}

/** Year for the scratch clock nearest to an anchor time whose year is (about) `anchorYear`. */
function timeNearest(anchor: number, anchorYear: number): number {
  const t = utcOf(anchorYear);
  if (t - anchor > HALF_YEAR_MS) return utcOf(anchorYear - 1);
  if (anchor - t > HALF_YEAR_MS) return utcOf(anchorYear + 1);
  return t;
}

/** Latest year that does not put the scratch clock after `reference + tolerance`. */
function timeNotAfter(reference: number, tolerance: number): number {
  let y = yearOf(reference);
  const limit = reference + tolerance;
  for (let k = 0; k < 8; k++, y--) {
    if (sDay > daysInMonth(y, sMonth)) continue;
    const t = utcOf(y);
    if (t <= limit) return t;
  }
  return utcOf(yearOf(reference) - 1);
}

let sYearFrom: YearSource = 'clock';

/** Gives the scratch (yearless) clock a year; sets sYearFrom. */
function resolveYear(anchor: number | undefined, anchorYear: number, anchorFrom: YearSource, ctx: LogLineContext | undefined): number {
  if (anchor !== undefined) {
    sYearFrom = anchorFrom;
    return timeNearest(anchor, anchorYear);
  }
  const ref = ctx?.referenceTime;
  const tol = ctx?.yearToleranceMs ?? DEFAULT_YEAR_TOLERANCE_MS;
  if (ref !== undefined && Number.isFinite(ref)) {
    sYearFrom = 'reference';
    return timeNotAfter(ref, tol);
  }
  sYearFrom = 'clock';
  return timeNotAfter(Date.now(), tol);
}

export interface YearlessContext extends LogLineContext {
  /** Epoch ms of a nearby timestamp that has a year (the line's RFC 3339 prefix). */
  anchorTime?: number | undefined;
}

/**
 * Epoch ms of a klog timestamp without year: `I0803 09:28:09.024765`, `0803 09:28:09.024765`
 * or `0803 09:28:09` (leading spaces allowed). The year is the one nearest to `anchorTime`
 * if given, else the latest not after `referenceTime` (+ tolerance), else from the clock.
 */
export function parseKlogTimestamp(s: string, ctx?: YearlessContext): number | undefined {
  let p = 0;
  while (s.charCodeAt(p) === 32 || s.charCodeAt(p) === 9) p++;
  const c = s.charCodeAt(p);
  if (c === 73 || c === 87 || c === 69 || c === 70) p++;
  if (s.length < p + 13) return undefined;
  sMonth = two(s, p);
  sDay = two(s, p + 2);
  sHour = two(s, p + 5);
  sMin = two(s, p + 8);
  sSec = two(s, p + 11);
  if (sMonth < 0 || sDay < 0 || sHour < 0 || sMin < 0 || sSec < 0) return undefined;
  if (s.charCodeAt(p + 4) !== 32 || s.charCodeAt(p + 7) !== 58 || s.charCodeAt(p + 10) !== 58) return undefined;
  if (!clockValid()) return undefined;
  if (scanFraction(s, p + 13) < 0) return undefined;
  const anchor = ctx?.anchorTime;
  return resolveYear(anchor, anchor === undefined ? 0 : yearOf(anchor), 'prefix', ctx);
}

// ---- journal ----

const MONTHS = new Map<number, number>();
['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].forEach((m, i) => {
  MONTHS.set((m.charCodeAt(0) << 16) | (m.charCodeAt(1) << 8) | m.charCodeAt(2), i + 1);
});

/**
 * Scans a journalctl short / short-precise prefix (`Aug 03 09:17:42.077259 host unit[pid]: `).
 * Returns where the message starts, or -1; fields are left in the scratch registers.
 */
function scanJournal(s: string, p: number): number {
  if (s.length < p + 19) return -1;
  const m = MONTHS.get((s.charCodeAt(p) << 16) | (s.charCodeAt(p + 1) << 8) | s.charCodeAt(p + 2));
  if (m === undefined || s.charCodeAt(p + 3) !== 32 || s.charCodeAt(p + 6) !== 32) return -1;
  sMonth = m;
  sDay = s.charCodeAt(p + 4) === 32 ? digit(s, p + 5) : two(s, p + 4);
  sHour = two(s, p + 7);
  sMin = two(s, p + 10);
  sSec = two(s, p + 13);
  if (sDay < 0 || sHour < 0 || sMin < 0 || sSec < 0) return -1;
  if (s.charCodeAt(p + 9) !== 58 || s.charCodeAt(p + 12) !== 58 || !clockValid()) return -1;
  let i = scanFraction(s, p + 15);
  if (i < 0 || s.charCodeAt(i) !== 32) return -1;
  sHostStart = ++i;
  const hostLimit = Math.min(s.length, i + 256);
  while (i < hostLimit && s.charCodeAt(i) !== 32) i++;
  if (i === sHostStart || s.charCodeAt(i) !== 32) return -1;
  sHostEnd = i++;
  sUnitStart = i;
  const unitLimit = Math.min(s.length, i + 256);
  let c = 0;
  for (; i < unitLimit; i++) {
    c = s.charCodeAt(i);
    if (c === 91 /* [ */ || c === 58 /* : */) break;
    if (c === 32 || c === 9) return -1;
  }
  if (i === sUnitStart || i === unitLimit) return -1;
  sUnitEnd = i;
  sPid = -1;
  if (c === 91) {
    i++;
    let pid = 0;
    const pidStart = i;
    for (let d = digit(s, i); d >= 0; d = digit(s, ++i)) {
      if (i - pidStart < 15) pid = pid * 10 + d;
    }
    if (i === pidStart || s.charCodeAt(i) !== 93) return -1;
    sPid = pid;
    i++;
  }
  if (s.charCodeAt(i) !== 58) return -1;
  i++;
  if (i < s.length) {
    if (s.charCodeAt(i) !== 32) return -1;
    i++;
  }
  return i;
}

/** Length of a journal prefix (`Aug 03 09:10:41.123 host unit[pid]: `), 0 when there is none. */
export function journalPrefixLength(raw: string): number {
  const end = scanJournal(raw, 0);
  return end < 0 ? 0 : end;
}

/**
 * The `-- Logs begin at ..., end at ... --` banner journalctl writes before each boot's
 * entries (in host_service_logs, several hosts' journals are concatenated): its end time is
 * a good reference time for the journal lines that follow.
 */
export function parseJournalBanner(raw: string): { begin: number; end: number } | undefined {
  if (!raw.startsWith('-- Logs begin at ')) return undefined;
  const m = JOURNAL_BANNER_RE.exec(raw);
  if (!m) return undefined;
  const begin = Date.parse(`${(m[1] ?? '').replace(' ', 'T')}Z`);
  const end = Date.parse(`${(m[3] ?? '').replace(' ', 'T')}Z`);
  if (Number.isNaN(begin) || Number.isNaN(end)) return undefined;
  return { begin, end };
}

// ---- the line ----

function klogAt(text: string, p: number, anchor: number | undefined, anchorYear: number, anchorFrom: YearSource, ctx: LogLineContext | undefined): KlogHeader | undefined {
  const msg = scanKlog(text, p);
  if (msg < 0) return undefined;
  const level = String.fromCharCode(sLevel) as KlogLevel;
  const thread = sThread;
  const file = text.slice(sFileStart, sFileEnd);
  const line = sLine;
  const time = resolveYear(anchor, anchorYear, anchorFrom, ctx);
  return { level, time, yearFrom: sYearFrom, thread, file, line, message: text.slice(msg) };
}

/** Finds a klog header after whitespace within the first KLOG_SEARCH_WINDOW chars of `text`. */
function findKlog(text: string): number {
  const window = text.length > KLOG_SEARCH_WINDOW ? text.slice(0, KLOG_SEARCH_WINDOW) : text;
  const at = window.search(KLOG_FIND_RE);
  return at < 0 ? -1 : at + 1;
}

/**
 * Parses one raw log line (without its line break). Never throws.
 *
 * The klog header is looked for at the start of the text (after the prefix and any leading
 * blanks), else after whitespace further in (a container that printed without a newline gets
 * the next line glued on: `Fixing etcd log permissions.2021-08-03T09:27:15.488536997Z W0803 …`).
 */
export function parseLogLine(raw: string, lineNo: number, ctx?: LogLineContext): LogLine {
  let text = raw;
  let time: number | undefined;
  let stream: 'stdout' | 'stderr' | undefined;
  let partial: boolean | undefined;
  let klog: KlogHeader | undefined;
  let journal: JournalHeader | undefined;
  try {
    let anchor: number | undefined;
    let anchorYear = 0;
    let anchorFrom: YearSource = 'prefix';
    const end = scanPrefix(raw);
    if (end > 0) {
      time = anchor = sTime;
      anchorYear = sYear;
      if (sStream !== 0) {
        stream = sStream === 1 ? 'stdout' : 'stderr';
        partial = sPartial;
      }
      text = raw.slice(end);
    } else {
      const c0 = raw.charCodeAt(0);
      if (c0 >= 65 && c0 <= 83 /* A..S: month names */) {
        const jEnd = scanJournal(raw, 0);
        if (jEnd >= 0) {
          const host = raw.slice(sHostStart, sHostEnd);
          const unit = raw.slice(sUnitStart, sUnitEnd);
          const pid = sPid < 0 ? undefined : sPid;
          const jt = resolveYear(undefined, 0, 'reference', ctx);
          journal = { host, unit, pid, time: jt, yearFrom: sYearFrom };
          time = anchor = jt;
          anchorYear = yearOf(jt);
          anchorFrom = sYearFrom;
          text = raw.slice(jEnd);
        }
      }
    }
    const last = text.length - 1;
    if (last >= 0 && text.charCodeAt(last) === 13) text = text.slice(0, last);

    let p = 0;
    let c = text.charCodeAt(0);
    while (c === 32 || c === 9) c = text.charCodeAt(++p);
    if (c === 73 || c === 87 || c === 69 || c === 70) klog = klogAt(text, p, anchor, anchorYear, anchorFrom, ctx);
    if (klog === undefined && text.length > 40) {
      const at = findKlog(text);
      if (at >= 0) klog = klogAt(text, at, anchor, anchorYear, anchorFrom, ctx);
    }
    if (time === undefined && klog !== undefined) time = klog.time;
  } catch {
    // Unreachable by design; a log line must never stop the analysis.
  }
  return { lineNo, raw, text, time, stream, partial, klog, journal };
}
