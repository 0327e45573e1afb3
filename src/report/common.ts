/**
 * Helpers shared by the renderers (JSON, HTML, Markdown, JUnit). Pure functions, no I/O.
 *
 * Archive text is hostile until proven otherwise: every renderer passes it through
 * {@link sanitizeText} (visible stand-ins for control characters, which are illegal in XML 1.0
 * and parse errors in HTML) and then through its own format's escaping.
 */
import { SEVERITIES, severityRank } from '../engine/findings.js';
import type { Finding, NotChecked, Passed, Severity } from '../engine/findings.js';
import type { Problem } from '../core/problems.js';
import type { Limits } from '../core/limits.js';
import type { Report, TimelineItem } from './model.js';

/** Evidence items shown per finding in the HTML and Markdown reports; the rest are counted. */
export const EVIDENCE_SHOWN = 10;

/** Severities, most severe first. */
export const SEVERITIES_DESC: readonly Severity[] = [...SEVERITIES].reverse();

// C0 controls but TAB, LF and CR; DEL and C1 controls; U+FFFE/U+FFFF; lone surrogates.
const UNSAFE_CHARS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Replaces characters that no report format may carry with visible stand-ins, one UTF-16 code
 * unit for one, so `Evidence.match` offsets stay valid: C0 controls become their Unicode
 * "control pictures" (NUL → ␀), DEL becomes ␡, everything else (C1 controls, U+FFFE/U+FFFF,
 * lone surrogates) becomes U+FFFD. TAB, LF and CR are kept.
 */
export function sanitizeText(text: string): string {
  return text.replace(UNSAFE_CHARS, (ch) => {
    const code = ch.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return '\uFFFD';
  });
}

/** Said once when the report names a compressed file: where its line numbers count. */
export const COMPRESSED_LINES_NOTE =
  'Paths name files exactly as stored in the input; in a compressed file (.gz, .xz) line numbers count lines of its decompressed text.';

/** Whether evidence or the digest names a compressed file (then {@link COMPRESSED_LINES_NOTE} is shown). */
export function namesCompressedFile(report: Pick<Report, 'findings' | 'digest'>): boolean {
  const compressed = (path: string): boolean => /\.(gz|xz)$/.test(path);
  if (report.findings.some((f) => f.evidence.some((e) => compressed(e.file)))) return true;
  return (report.digest?.components ?? []).some((c) => c.templates.some((t) => compressed(t.example.file) || t.files.some((f) => compressed(f.path))));
}

/**
 * Causes first (findings nothing explains), then the explained ones; each group most severe
 * first, then by ruleId; equal keys keep their input order. Being explained never lowers a
 * finding's severity, only its place.
 */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  const explained = (f: Finding): number => (f.explainedBy.length > 0 ? 1 : 0);
  return findings
    .map((finding, index) => ({ finding, index }))
    .sort(
      (a, b) =>
        explained(a.finding) - explained(b.finding) ||
        severityRank(b.finding.severity) - severityRank(a.finding.severity) ||
        compareStrings(a.finding.ruleId, b.finding.ruleId) ||
        a.index - b.index,
    )
    .map((x) => x.finding);
}

/** By ruleId; equal keys keep their input order. */
export function sortByRuleId<T extends NotChecked | Passed>(items: readonly T[]): T[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => compareStrings(a.item.ruleId, b.item.ruleId) || a.index - b.index)
    .map((x) => x.item);
}

/** By path, then severity (errors first), then reason; equal keys keep their input order. */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  const rank = (p: Problem): number => (p.severity === 'error' ? 0 : 1);
  return problems
    .map((problem, index) => ({ problem, index }))
    .sort(
      (a, b) =>
        compareStrings(a.problem.path, b.problem.path) ||
        rank(a.problem) - rank(b.problem) ||
        compareStrings(a.problem.reason, b.problem.reason) ||
        a.index - b.index,
    )
    .map((x) => x.problem);
}

/** By start time (unparsable last), then lane, then label; equal keys keep their input order. */
export function sortTimeline(items: readonly TimelineItem[]): TimelineItem[] {
  const key = (item: TimelineItem): number => parseTime(item.start) ?? Number.POSITIVE_INFINITY;
  return items
    .map((item, index) => ({ item, index }))
    .sort(
      (a, b) =>
        compareNumbers(key(a.item), key(b.item)) ||
        compareStrings(a.item.lane, b.item.lane) ||
        compareStrings(a.item.label, b.item.label) ||
        a.index - b.index,
    )
    .map((x) => x.item);
}

/** Code-unit order: locale-independent, so output never depends on the machine. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareNumbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Epoch ms of an ISO 8601 string; undefined when absent or unparsable. */
export function parseTime(iso: string | undefined): number | undefined {
  if (iso === undefined || iso === '') return undefined;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : undefined;
}

/** `2021-01-19 22:24:15Z`, with `.924` when the milliseconds are not zero. Always UTC. */
export function formatUtc(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  const iso = new Date(ms).toISOString();
  const date = iso.slice(0, 10);
  const time = iso.slice(11, 19);
  const millis = iso.slice(19, 23);
  return `${date} ${time}${millis === '.000' ? '' : millis}Z`;
}

/** An ISO string for display: formatted in UTC when parsable, else the raw (sanitized) text. */
export function displayTime(iso: string | undefined): string {
  if (iso === undefined || iso === '') return '';
  const ms = parseTime(iso);
  return ms === undefined ? sanitizeText(iso) : formatUtc(ms);
}

/**
 * The normalized `href` of an `http:` or `https:` URL with no credentials, else undefined
 * (`javascript:`, `file:`, `data:`, relative or unparsable text stays plain text).
 */
export function httpUrl(text: string): string | undefined {
  const trimmed = text.trim();
  if (!/^https?:\/\//i.test(trimmed)) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  return url.href;
}

/** Splits `text` around `match` ([start, end), clamped); no match part when the range is empty. */
export function splitMatch(
  text: string,
  match: [number, number] | undefined,
): { before: string; match: string; after: string } {
  if (match === undefined) return { before: text, match: '', after: '' };
  const start = clampIndex(match[0], text.length);
  const end = clampIndex(match[1], text.length);
  if (end <= start) return { before: text, match: '', after: '' };
  return { before: text.slice(0, start), match: text.slice(start, end), after: text.slice(end) };
}

function clampIndex(value: number, length: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(Math.max(Math.trunc(value), 0), length);
}

/** Counts by severity as the report says, most severe first. */
export function countsDesc(report: Report): { severity: Severity; count: number }[] {
  return SEVERITIES_DESC.map((severity) => ({ severity, count: report.counts[severity] ?? 0 }));
}

/** Evidence beyond what is shown: the ones not shown plus the ones the engine dropped. */
export function evidenceNotShown(finding: Finding, shown: number): number {
  return Math.max(finding.evidence.length - shown, 0) + Math.max(finding.evidenceDropped, 0);
}

/** `1.5 GiB`-style size for limits and stats. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = unit === 0 ? String(value) : value.toFixed(value >= 100 ? 0 : 1).replace(/\.0$/, '');
  return `${text} ${units[unit]}`;
}

/** `1 GiB (1073741824 bytes)`: readable, and exact. */
export function formatByteCount(n: number): string {
  return `${formatBytes(n)} (${n} bytes)`;
}

/** The limits a report states, each with the option that sets it. */
export function limitRows(limits: Limits): { label: string; value: string }[] {
  return [
    { label: 'Largest entry read (--max-entry-bytes)', value: formatByteCount(limits.maxEntryBytes) },
    { label: 'Total bytes read at most (--max-total-bytes)', value: formatByteCount(limits.maxTotalBytes) },
    { label: 'Entries read at most (--max-entries)', value: String(limits.maxEntries) },
    { label: 'Longest log line kept whole (--max-line-bytes)', value: formatByteCount(limits.maxLineBytes) },
    { label: 'Largest YAML file parsed (--max-parse-bytes)', value: formatByteCount(limits.maxParseBytes) },
    { label: 'Largest inflation ratio (--max-inflation-ratio)', value: `${limits.maxInflationRatio}:1` },
  ];
}

/** Human name of a timeline lane. */
export function laneTitle(lane: string): string {
  switch (lane) {
    case 'history':
      return 'Update history';
    case 'cvo':
      return 'CVO pods';
    case 'operator':
      return 'Operators';
    case 'event':
      return 'Events';
    case 'node':
      return 'Nodes';
    case 'alert':
      return 'Alerts';
    case 'finding':
      return 'Findings';
    default:
      return sanitizeText(lane);
  }
}

/** Lane order on the timeline: the known lanes first, then the others by name. */
export function laneOrder(lanes: Iterable<string>): string[] {
  const known = ['history', 'cvo', 'operator', 'node', 'event', 'alert', 'finding'];
  const set = new Set(lanes);
  const first = known.filter((lane) => set.has(lane));
  const rest = [...set].filter((lane) => !known.includes(lane)).sort(compareStrings);
  return [...first, ...rest];
}

/** `verified` as a person reads it: the install is unverified by design. */
export function verifiedLabel(row: { verified: boolean; install: boolean }): string {
  if (row.verified) return '✓ verified';
  return row.install ? 'install (unverified by design)' : 'unverified';
}

/**
 * Remediation text cut into prose and code: text inside ``` fences is code, the rest prose.
 * Without fences, the whole text is one code block (rules write commands there).
 */
export function remediationBlocks(text: string): { kind: 'code' | 'text'; text: string }[] {
  const trimmed = text.replace(/^\s*\n/, '').replace(/\s+$/, '');
  if (trimmed === '') return [];
  if (!/^\s*```/m.test(trimmed)) return [{ kind: 'code', text: trimmed }];
  const blocks: { kind: 'code' | 'text'; text: string }[] = [];
  let kind: 'code' | 'text' = 'text';
  let lines: string[] = [];
  const flush = (): void => {
    const body = lines.join('\n').replace(/^\s*\n/, '').replace(/\s+$/, '');
    if (body !== '') blocks.push({ kind, text: body });
    lines = [];
  };
  for (const line of trimmed.split('\n')) {
    if (/^\s*```/.test(line)) {
      flush();
      kind = kind === 'text' ? 'code' : 'text';
    } else {
      lines.push(line);
    }
  }
  flush();
  return blocks;
}
