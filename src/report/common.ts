/**
 * Helpers shared by the renderers (JSON, HTML, Markdown, JUnit). Pure functions, no I/O.
 *
 * Archive text is hostile until proven otherwise: every renderer passes it through
 * {@link sanitizeText} (visible stand-ins for control characters, which are illegal in XML 1.0
 * and parse errors in HTML) and then through its own format's escaping.
 */
import { describeObject } from '../engine/diagnosis.js';
import { SEVERITIES, severityRank } from '../engine/findings.js';
import type { Evidence, Finding, NotApplicable, NotChecked, Passed, Severity } from '../engine/findings.js';
import type { Problem } from '../core/problems.js';
import type { Limits } from '../core/limits.js';
import type { InputTruncation, Report, TimelineItem, Tool } from './model.js';
import { classifyPath } from '../layout/classify.js';
import { binaryUnits } from '../core/bytes.js';

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
 * Causes first (problems nothing explains), then the explained ones, then context (info
 * findings nothing explains); each group most severe first, then by ruleId; equal keys keep
 * their input order. Being explained never lowers a finding's severity, only its place.
 */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  const explained = (f: Finding): number => (f.explainedBy.length > 0 ? 1 : f.severity === 'info' ? 2 : 0);
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
export function sortByRuleId<T extends NotChecked | NotApplicable | Passed>(items: readonly T[]): T[] {
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
/** Rows as lines for a terminal, columns padded to their widest cell (the last one is not padded). */
export function alignedLines(rows: readonly (readonly string[])[], gap = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((cells) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join(gap).trimEnd());
}

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
  const [value, unit] = binaryUnits(bytes);
  const text = unit === 'B' ? String(value) : value.toFixed(value >= 100 ? 0 : 1).replace(/\.0$/, '');
  return `${text} ${unit}`;
}

/** The whole of it in one line, as the banner says it (without its closing clause). */
export function truncationText(t: InputTruncation): string {
  const opening = t.by === 'damage' ? 'The input is truncated or corrupt' : 'Reading stopped at a limit';
  const stream = t.streamBytesRead !== undefined ? ` and ${formatByteCount(t.streamBytesRead)} of its uncompressed stream` : '';
  return `${opening} (${t.reason}): ${entriesText(t.entriesRead)}${stream} ${t.entriesRead === 1 && stream === '' ? 'was' : 'were'} read, up to ${t.lastEntry}`;
}

/** The same, short, for the verdict: `input truncated or corrupt: xz: …, after 27 entries and 103 KiB of its uncompressed stream`. */
export function truncationSummary(t: InputTruncation): string {
  const stream = t.streamBytesRead !== undefined ? ` and ${formatBytes(t.streamBytesRead)} of its uncompressed stream` : '';
  return `${t.by === 'damage' ? 'input truncated or corrupt' : 'reading stopped at a limit'}: ${t.reason}, after ${entriesText(t.entriesRead)}${stream}`;
}

function entriesText(n: number): string {
  return `${n} entr${n === 1 ? 'y' : 'ies'}`;
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

/** The timeline's lanes, in display order. */
export const TIMELINE_LANES = ['history', 'cvo', 'operator', 'node', 'event', 'alert', 'finding'] as const;

/** Lane order on the timeline: the known lanes first, then the others by name. */
export function laneOrder(lanes: Iterable<string>): string[] {
  const known: readonly string[] = TIMELINE_LANES;
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
 * Remediation text cut into prose and commands, so that only commands are fenced (and a paste
 * runs no prose). The convention rules follow (rules/README.md, "Remediation"):
 * - a line indented at least two spaces deeper than the prose it belongs to is a command (at the
 *   top level: two spaces; in a numbered or bulleted item: two spaces deeper than the item's
 *   text, whose continuation lines align with that text and stay prose);
 * - a line starting with `$ ` is a command (the prompt is dropped);
 * - text between ``` fences is code as it stands (a whole script);
 * - everything else is prose. Consecutive commands make one block, their common indentation removed.
 */
export function remediationBlocks(text: string): { kind: 'code' | 'text'; text: string }[] {
  const blocks: { kind: 'code' | 'text'; lines: string[] }[] = [];
  const push = (kind: 'code' | 'text', line: string): void => {
    const last = blocks[blocks.length - 1];
    if (last !== undefined && last.kind === kind) last.lines.push(line);
    else blocks.push({ kind, lines: [line] });
  };
  let fenced = false;
  let itemColumn = 0;
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.replace(/\s+$/, '');
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      // A fence always ends the block before it, even one of the same kind.
      blocks.push({ kind: fenced ? 'code' : 'text', lines: [] });
      continue;
    }
    if (fenced) {
      push('code', line);
      continue;
    }
    if (line === '') {
      push('text', '');
      continue;
    }
    const indent = line.length - line.trimStart().length;
    const prompt = /^\s*\$ (.*)$/.exec(line);
    if (prompt !== null) {
      push('code', `${' '.repeat(indent)}${prompt[1] ?? ''}`);
    } else if (indent >= itemColumn + 2) {
      push('code', line);
    } else {
      const item = /^(\s*(?:\d{1,3}[.)]|[-*])\s+)/.exec(line);
      itemColumn = item !== null ? (item[1] ?? '').length : indent >= itemColumn ? itemColumn : 0;
      push('text', line);
    }
  }
  return blocks
    .map((b) => ({ kind: b.kind, text: b.kind === 'code' ? dedent(b.lines) : b.lines.join('\n').trim() }))
    .filter((b) => b.text !== '');
}

function dedent(lines: string[]): string {
  const body = lines.join('\n').replace(/^\n+/, '').replace(/\s+$/, '').split('\n');
  const indent = Math.min(...body.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
  return body.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n');
}

/** A piece of prose: plain text, or an inline code span (between backticks). */
export interface InlinePart {
  code: boolean;
  text: string;
}

/**
 * Prose cut around its code spans as CommonMark finds them: a run of backticks opens a span that
 * the next run of the same length closes (one space each side is dropped when both are there);
 * a run that is never closed is plain text.
 */
export function inlineParts(text: string): InlinePart[] {
  const out: InlinePart[] = [];
  const add = (code: boolean, t: string): void => {
    const last = out[out.length - 1];
    if (!code && last !== undefined && !last.code) last.text += t;
    else if (t !== '' || code) out.push({ code, text: t });
  };
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('`', i);
    if (open === -1) break;
    let n = open;
    while (text[n] === '`') n++;
    const run = n - open;
    let close = -1;
    for (let j = text.indexOf('`', n); j !== -1; ) {
      let k = j;
      while (text[k] === '`') k++;
      if (k - j === run) {
        close = j;
        break;
      }
      j = text.indexOf('`', k);
    }
    if (close === -1) {
      add(false, text.slice(i, n));
      i = n;
      continue;
    }
    add(false, text.slice(i, open));
    let body = text.slice(n, close).replace(/\r\n?|\n/g, ' ');
    if (body.length > 2 && body.startsWith(' ') && body.endsWith(' ') && body.trim() !== '') body = body.slice(1, -1);
    add(true, body);
    i = close + run;
  }
  add(false, text.slice(i));
  return out.filter((p) => p.code || p.text !== '');
}

/**
 * A finding's title as headings, tables and the terminal show it: with its key (a rule with
 * `per`), and marked as history when what it matched was over by the collection time.
 */
export function findingTitle(f: Finding): string {
  const title = f.key !== undefined ? `${f.title} — ${f.key}` : f.title;
  return f.resolved ? `${RESOLVED_MARK}: ${title}` : title;
}

/** How a history finding's title begins (see {@link findingTitle}). */
export const RESOLVED_MARK = 'Resolved before the collection';

/**
 * What a findings table says about a finding: the objects it is about (`first` and how many
 * `others`, and both as `object`), and its first time.
 */
/**
 * `2021-08-03 09:14:55Z`, and when that is later than the collection time, says so: an archive
 * put together from parts gathered at other times, or a clock that drifts, never reads as a
 * start in the future.
 */
export function sinceText(ms: number, collectedAt: string | undefined): string {
  const collected = parseTime(collectedAt);
  return `${formatUtc(ms)}${collected !== undefined && ms > collected ? ` (after the collection time, ${formatUtc(collected)})` : ''}`;
}

export function findingGlance(f: Finding, collectedAt: string | undefined): { object: string; since: string; first: string; others: number } {
  const objects: string[] = [];
  for (const e of f.evidence) {
    if (e.object === undefined) continue;
    const name = describeObject(e.object);
    if (!objects.includes(name)) objects.push(name);
  }
  const times = f.evidence.map((e) => e.time).filter((t): t is number => t !== undefined && Number.isFinite(t));
  const [first] = objects;
  const object = first === undefined ? '' : objects.length > 1 ? `${first} and ${objects.length - 1} more` : first;
  return {
    object: sanitizeText(object),
    since: times.length > 0 ? sinceText(Math.min(...times), collectedAt) : '',
    first: sanitizeText(first ?? ''),
    others: Math.max(objects.length - 1, 0),
  };
}

/**
 * A path for people: below the gather's root folder (`namespaces/openshift-sdn/pods/…`), whose
 * long image-digest name says nothing here. The JSON keeps whole paths.
 */
export function shortPath(path: string): string {
  const root = classifyPath(path).root;
  return root !== undefined && root !== '' && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/** Captures longer than this that the evidence line already shows are not repeated under it. */
const REPEATED_CAPTURE = 80;

/**
 * An evidence item's captures without empty ones (a cluster-scoped object's `namespace`), the ones
 * its object already names (kind, namespace, name) and long ones its own text already shows (a
 * regex group over most of the line). The JSON keeps all but the empty ones.
 */
export function extraCaptures(e: Evidence): [string, string][] {
  const o = e.object;
  const named: Record<string, string | undefined> = { kind: o?.kind, namespace: o?.namespace, name: o?.name };
  return Object.keys(e.captures ?? {})
    .sort()
    .map((k): [string, string] => [k, e.captures?.[k] ?? ''])
    .filter(([k, v]) => v !== '' && (named[k] === undefined || named[k] !== v))
    .filter(([, v]) => v.length <= REPEATED_CAPTURE || !e.text.includes(v));
}

/** `mgsift 0.1.0 (17 built-in rules, build 1a2b3c4 2026-11-24)`: what made a report, in its footer and `--version`. */
export function toolLine(tool: Tool): string {
  return `${tool.name} ${tool.version} (${tool.builtinRules} built-in rules, build ${tool.build})`;
}

/** Archive text on one line, for a terminal. */
export function flat(text: string): string {
  return sanitizeText(text).replace(/[\r\n\t]+/g, ' ');
}

/** Text cut to `max` characters, an ellipsis marking the cut. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
