/**
 * Which log lines the digest folds: klog error and fatal lines, and lines of a short, named list
 * of general failure patterns taken from what real archives hold (logrus / go-kit logfmt,
 * zap JSON and console encoders, Go runtime panics).
 *
 * Each pattern has literals searched over raw bytes with a cheap byte check at the hit (no
 * decoding, no regex), and a definition on the decoded line (`level`), the one that counts:
 * the literals only select the lines worth decoding.
 */
import type { LogLine } from '../parsers/logline.js';
import type { Literal } from '../parsers/scan.js';

export type PatternName = 'klog' | 'logfmt' | 'json' | 'zap' | 'go-panic';

export interface FailurePattern {
  name: PatternName;
  literals: Omit<Literal<PatternName>, 'tag'>[];
  /**
   * The definition, on the parsed line (the literals only select lines worth parsing): the
   * line's failure level (`E`, `error`, `FATAL`, `panic`, ...), or undefined when it is none.
   */
  level: (line: LogLine) => string | undefined;
  /** The same line at a non-failure level (a rule's near-miss), or undefined when there is none. */
  demote: (raw: string) => string | undefined;
}

/** A line the digest folds: which pattern, its level, and the message to template. */
export interface FailureLine {
  pattern: PatternName;
  /** As the line writes it: `E`/`F` (klog), `error`, `fatal`, `ERROR`, `panic`, ... */
  level: string;
  /** klog call site (`sync_worker.go:602`): where the line was printed. */
  site: string | undefined;
  /** klog: the message after the header; others: the text after the prefix. */
  message: string;
}

const SPACE = 32;
const TAB = 9;
const QUOTE = 34;

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 48 && byte <= 57;
}

function bytesAt(buffer: Buffer, at: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (buffer[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** The hit starts the line or follows a blank (or, when `quote`, a double quote). */
function startsWord(buffer: Buffer, at: number, lineStart: number, quote = false): boolean {
  if (at === lineStart) return true;
  const before = buffer[at - 1];
  return before === SPACE || before === TAB || (quote && before === QUOTE);
}

/** `E0803 09:28:09` / `F1231 …` at a hit of `E0`, `E1`, `F0`, `F1`: level, month, day, hour. */
function klogHeaderAt(buffer: Buffer, at: number, lineStart: number): boolean {
  return startsWord(buffer, at, lineStart) && isDigit(buffer[at + 2]) && isDigit(buffer[at + 3]) && isDigit(buffer[at + 4]) && buffer[at + 5] === SPACE && isDigit(buffer[at + 6]) && buffer[at + 8] === 58;
}

const LOGFMT_LEVELS = ['error', 'fatal', 'panic', '"error"', '"fatal"', '"panic"'];
const JSON_LEVELS = ['error"', 'fatal"', 'panic"', 'dpanic"'];
const ZAP_LEVELS = ['ERROR\t', 'FATAL\t', 'PANIC\t', 'DPANIC\t'];

const LOGFMT_RE = /(?:^|[\s"])level="?(error|fatal|panic)\b/;
const JSON_RE = /"level":"(error|fatal|d?panic)"/;
const ZAP_RE = /\t(ERROR|FATAL|D?PANIC)\t/;
const GO_CRASH_RE = /^(panic|fatal error): /;

export const FAILURE_PATTERNS: readonly FailurePattern[] = [
  {
    name: 'klog',
    // klog error and fatal lines (`E0803 10:14:13.632123 1 file.go:12] …`, `F…`), also after a kubelet, CRI or journal prefix
    literals: ['E0', 'E1', 'F0', 'F1'].map((text) => ({ text, accept: klogHeaderAt })),
    level: (line) => (line.klog?.level === 'E' || line.klog?.level === 'F' ? line.klog.level : undefined),
    demote: (raw) => replaceOnce(raw, /(^|\s)[EF](\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ [^\s:\]]+:\d+\])/, '$1I$2'),
  },
  {
    name: 'logfmt',
    // logrus / go-kit logfmt lines at level error, fatal or panic (`level=error msg="…"`)
    // `vel` (rarer first byte, faster to search than `level`) is searched once for logfmt and
    // JSON: the scanner merges equal literals.
    literals: [{ text: 'vel', accept: (b, at, start) => bytesAt(b, at - 2, 'level=') && startsWord(b, at - 2, start, true) && LOGFMT_LEVELS.some((l) => bytesAt(b, at + 4, l)) }],
    level: (line) => LOGFMT_RE.exec(line.text)?.[1],
    demote: (raw) => replaceOnce(raw, /(level="?)(?:error|fatal|panic)\b/, '$1info'),
  },
  {
    name: 'json',
    // zap / logr JSON lines at level error, fatal or panic (`{"level":"error",…}`)
    literals: [{ text: 'vel', accept: (b, at) => bytesAt(b, at - 3, '"level":"') && JSON_LEVELS.some((l) => bytesAt(b, at + 6, l)) }],
    level: (line) => JSON_RE.exec(line.text)?.[1],
    demote: (raw) => replaceOnce(raw, /"level":"(?:error|fatal|d?panic)"/, '"level":"info"'),
  },
  {
    name: 'zap',
    // zap console lines at level ERROR, FATAL or PANIC (`<time>\tERROR\t<logger>\t…`)
    // One search for the tab before the level (tabs are rare outside zap's console lines).
    literals: [{ text: '\t', accept: (b, at) => ZAP_LEVELS.some((l) => bytesAt(b, at + 1, l)) }],
    level: (line) => ZAP_RE.exec(line.text)?.[1],
    demote: (raw) => replaceOnce(raw, /\t(?:ERROR|FATAL|D?PANIC)\t/, '\tINFO\t'),
  },
  {
    name: 'go-panic',
    // Go runtime panics and fatal errors (`panic: …`, `fatal error: …` at the start of the message)
    // `fatal e` rather than `fatal error: `: long needles search slower.
    literals: [
      { text: 'panic: ', accept: (b, at, start) => startsWord(b, at, start) },
      { text: 'fatal e', accept: (b, at, start) => startsWord(b, at, start) && bytesAt(b, at, 'fatal error: ') },
    ],
    level: (line) => GO_CRASH_RE.exec(line.text)?.[1],
    demote: (raw) => replaceOnce(raw, /\b(?:panic|fatal error): /, 'recovered: '),
  },
];

const BY_NAME = new Map(FAILURE_PATTERNS.map((p) => [p.name, p]));

export function failurePattern(name: string): FailurePattern | undefined {
  return BY_NAME.get(name as PatternName);
}

/** Every pattern's literals, tagged with the pattern's name, for a {@link LiteralScanner}. */
export function failureLiterals(): Literal<PatternName>[] {
  return FAILURE_PATTERNS.flatMap((p) => p.literals.map((l) => ({ ...l, tag: p.name })));
}

/**
 * Whether a parsed line is a failure line, and its message. A klog header decides by its level
 * alone (an info line quoting `level=error` is info); other lines by the general patterns.
 */
export function failureLine(line: LogLine): FailureLine | undefined {
  const klog = line.klog;
  if (klog) {
    if (klog.level !== 'E' && klog.level !== 'F') return undefined;
    return { pattern: 'klog', level: klog.level, site: `${klog.file}:${klog.line}`, message: klog.message };
  }
  for (const pattern of FAILURE_PATTERNS) {
    const level = pattern.level(line);
    if (level !== undefined) return { pattern: pattern.name, level, site: undefined, message: line.text };
  }
  return undefined;
}

function replaceOnce(raw: string, find: RegExp, replacement: string): string | undefined {
  const out = raw.replace(find, replacement);
  return out === raw ? undefined : out;
}
