/**
 * The index of a batch (`mgsift analyze` on several archives): one row per archive (identity,
 * collection time, counts by severity, status, its report) and one column per rule that fired
 * in any of them, so a support queue or a CI fleet sees which archives share a failure.
 * Written as `index.json`, `index.md`, `index.html`, and as one JSON line per archive
 * (`--format jsonl`). Shape: `schema/index.schema.json`.
 *
 * Safety: the same as the reports. Archive and path text goes through {@link sanitizeText} and
 * the format's escaping (Handlebars `{{ }}`, {@link mdCell}); links point only at the report
 * files this run wrote, whose names are made of `[A-Za-z0-9._-]`.
 */
import { severityRank, type Severity } from '../engine/findings.js';
import type { InputTruncation, Report } from './model.js';
import { toolInfo } from './build.js';
import type { Tool } from './model.js';
import { compareStrings, displayTime, sanitizeText, SEVERITIES_DESC, sortFindings, toolLine, truncationText } from './common.js';
import { HTML_CSP, loadTemplate } from './html.js';
import { put, truncationJson, type JsonObject } from './json.js';
import { known, mdCell, mdText, table } from './md.js';
import { nothingChecked, symptomsOf } from './diagnosis.js';

/** Version of the index's shape (`schema/index.schema.json`). */
export const INDEX_SCHEMA_VERSION = '1.3';

/**
 * `ok`: read whole; `partial`: a report, but part of the input could not be read; `nothing-checked`:
 * a report, but no rule could be checked on the input; `failed`: no report.
 */
export type ArchiveStatus = 'ok' | 'partial' | 'nothing-checked' | 'failed';

export interface IndexFinding {
  ruleId: string;
  /** For a rule with `per`: which of its findings. */
  key?: string | undefined;
  severity: Severity;
  title: string;
}

/** One archive of the batch; also the shape of one `--format jsonl` line. */
export interface IndexRow {
  /** The path as given (or as found in an expanded folder). */
  input: string;
  status: ArchiveStatus;
  /** One line: why there is no report (`failed`), where the input stopped or else the first part that could not be read (`partial`). */
  error?: string | undefined;
  /** Set when the input stopped before its end (the report's `input.truncated`). */
  truncated?: InputTruncation | undefined;
  /** Report files written for this archive, relative to the output folder. */
  reports: string[];
  container?: string | undefined;
  layout?: string | undefined;
  cluster: { id?: string | undefined; version?: string | undefined };
  /** ISO 8601. */
  collectedAt?: string | undefined;
  /** Absent for a failed archive. */
  counts?: Record<Severity, number> | undefined;
  /** Rules that could not be checked on the archive; absent for a failed archive. */
  notChecked?: number | undefined;
  /** Rules that found nothing in the part of their scope the archive holds (never passes); absent for a failed archive. */
  checkedInPart?: number | undefined;
  /** Most severe first. */
  findings: IndexFinding[];
  /** The roots of the archive's diagnosis, most severe first, each with how many findings it explains. */
  rootCauses: (IndexFinding & { explains: number })[];
}

/** A rule that fired in at least one archive: one column of the index. */
export interface RuleColumn {
  ruleId: string;
  title: string;
  /** The most severe of its findings across the batch. */
  severity: Severity;
  /** Archives it fired in. */
  archives: number;
}

export interface BatchIndex {
  schemaVersion: string;
  tool: Tool;
  generatedAt: string;
  failOn: Severity;
  summary: { archives: number; ok: number; partial: number; nothingChecked: number; failed: number; failing: number };
  /** What the run exits with, and why. */
  exit: BatchExit;
  /** Most severe first, then the most widespread, then by id. */
  rules: RuleColumn[];
  /** In the order the inputs were given. */
  archives: IndexRow[];
}

/** The row of an archive that was analysed. */
export function archiveRow(input: string, report: Report, reports: readonly string[]): IndexRow {
  const broken = report.problems.find((p) => p.severity === 'error');
  // No finding and no rule checked: a green row would claim what was never looked at.
  const nothing = nothingChecked(report);
  const truncated = report.input.truncated;
  return {
    input,
    status: nothing !== undefined ? 'nothing-checked' : broken === undefined ? 'ok' : 'partial',
    error: nothing ?? (truncated ? truncationText(truncated) : broken === undefined ? undefined : broken.path === '' ? broken.reason : `${broken.path}: ${broken.reason}`),
    truncated,
    reports: [...reports],
    container: report.input.container,
    layout: report.input.layout,
    cluster: { id: report.cluster.id, version: report.cluster.version },
    collectedAt: report.collectedAt,
    counts: { ...report.counts },
    notChecked: report.notChecked.length,
    checkedInPart: report.checkedInPart.length,
    findings: sortFindings(report.findings).map((f) => ({ ruleId: f.ruleId, ...(f.key !== undefined ? { key: f.key } : {}), severity: f.severity, title: f.title })),
    rootCauses: report.diagnosis.roots.map((r) => ({ ruleId: r.ruleId, severity: r.severity, title: r.title, explains: symptomsOf(r).length })),
  };
}

/** The row of an archive that could not be analysed. */
export function failedRow(input: string, error: string): IndexRow {
  return { input, status: 'failed', error, reports: [], cluster: {}, findings: [], rootCauses: [] };
}

/** Whether a row holds a finding at or above `failOn` (what makes `analyze` exit 1). */
export function isFailing(row: IndexRow, failOn: Severity): boolean {
  return row.findings.some((f) => severityRank(f.severity) >= severityRank(failOn));
}

export interface BatchExit {
  code: 0 | 1 | 2;
  /** One sentence: `1 of 3 inputs could not be read at all (failed); the others' reports are written`. */
  reason: string;
}

/** Whether an archive is cut or corrupt (read only up to where it broke): no green in CI. */
export function isCut(row: IndexRow): row is IndexRow & { truncated: InputTruncation } {
  return row.truncated?.by === 'damage';
}

/**
 * What a batch exits with: 2 when an input could not be read at all (a `failed` row: in CI a
 * missing or broken archive is no green), when an archive is cut or corrupt (its report covers
 * the part read), or when no archive had a rule checked; else 1 when an archive holds a finding
 * at or above `failOn`; else 0. An archive with nothing checked while others were analysed
 * leaves the code to them (its row and stderr line say so).
 */
export function batchExit(rows: readonly IndexRow[], failOn: Severity): BatchExit {
  const failed = rows.filter((row) => row.status === 'failed').length;
  const inputs = (n: number): string => `${n} input${n === 1 ? '' : 's'}`;
  if (failed > 0) {
    const others = failed < rows.length ? "; the others' reports are written" : '';
    return { code: 2, reason: `${failed} of ${inputs(rows.length)} could not be read at all (failed)${others}` };
  }
  const cut = rows.filter(isCut).length;
  if (cut > 0) {
    const which = rows.length === 1 ? 'the input is' : `${cut} of ${inputs(rows.length)} ${cut === 1 ? 'is' : 'are'}`;
    return { code: 2, reason: `${which} cut or corrupt: read only up to where ${cut === 1 ? 'it' : 'each'} broke (the report${rows.length === 1 ? ' covers' : 's cover'} the part read)` };
  }
  if (rows.every((row) => row.status === 'nothing-checked')) return { code: 2, reason: 'no rule could be checked on any archive' };
  const failing = rows.filter((row) => isFailing(row, failOn)).length;
  if (failing > 0) return { code: 1, reason: `${failing} archive${failing === 1 ? ' holds' : 's hold'} a finding at or above ${failOn}` };
  return { code: 0, reason: `no archive holds a finding at or above ${failOn}` };
}

export function buildIndex(rows: readonly IndexRow[], failOn: Severity, now: Date = new Date()): BatchIndex {
  const columns = new Map<string, RuleColumn>();
  for (const row of rows) {
    for (const [ruleId, finding] of highestPerRule(row)) {
      const column = columns.get(ruleId);
      if (column === undefined) columns.set(ruleId, { ruleId, title: finding.title, severity: finding.severity, archives: 1 });
      else {
        column.archives++;
        if (severityRank(finding.severity) > severityRank(column.severity)) column.severity = finding.severity;
      }
    }
  }
  const rules = [...columns.values()].sort(
    (a, b) => severityRank(b.severity) - severityRank(a.severity) || b.archives - a.archives || compareStrings(a.ruleId, b.ruleId),
  );
  const count = (status: ArchiveStatus): number => rows.filter((r) => r.status === status).length;
  return {
    schemaVersion: INDEX_SCHEMA_VERSION,
    tool: toolInfo(),
    generatedAt: now.toISOString(),
    failOn,
    summary: {
      archives: rows.length,
      ok: count('ok'),
      partial: count('partial'),
      nothingChecked: count('nothing-checked'),
      failed: count('failed'),
      failing: rows.filter((r) => isFailing(r, failOn)).length,
    },
    exit: batchExit(rows, failOn),
    rules,
    archives: [...rows],
  };
}

/** Each rule's most severe finding in one archive (a rule may report more than one finding). */
function highestPerRule(row: IndexRow): Map<string, IndexFinding> {
  const out = new Map<string, IndexFinding>();
  for (const finding of row.findings) {
    const seen = out.get(finding.ruleId);
    if (seen === undefined || severityRank(finding.severity) > severityRank(seen.severity)) out.set(finding.ruleId, finding);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// JSON and JSON lines: fixed key order (the schema's), absent values left out.

function rowJson(row: IndexRow): JsonObject {
  const out: JsonObject = { input: row.input, status: row.status };
  put(out, 'error', row.error);
  if (row.truncated) out.truncated = truncationJson(row.truncated);
  out.reports = [...row.reports];
  put(out, 'container', row.container);
  put(out, 'layout', row.layout);
  const cluster: JsonObject = {};
  put(cluster, 'id', row.cluster.id);
  put(cluster, 'version', row.cluster.version);
  out.cluster = cluster;
  put(out, 'collectedAt', row.collectedAt);
  if (row.counts !== undefined) {
    const counts: JsonObject = {};
    for (const severity of SEVERITIES_DESC) counts[severity] = row.counts[severity] ?? 0;
    out.counts = counts;
  }
  put(out, 'notChecked', row.notChecked);
  put(out, 'checkedInPart', row.checkedInPart);
  out.findings = row.findings.map((f) => {
    const finding: JsonObject = { ruleId: f.ruleId };
    put(finding, 'key', f.key);
    finding.severity = f.severity;
    finding.title = f.title;
    return finding;
  });
  out.rootCauses = row.rootCauses.map((r) => ({ ruleId: r.ruleId, severity: r.severity, title: r.title, explains: r.explains }));
  return out;
}

/** One archive as one compact JSON line (with its newline), for `--format jsonl`. */
export function jsonLine(row: IndexRow): string {
  return `${JSON.stringify(rowJson(row))}\n`;
}

export function renderIndexJson(index: BatchIndex): string {
  const out: JsonObject = {
    schemaVersion: index.schemaVersion,
    tool: { name: index.tool.name, version: index.tool.version, build: index.tool.build, builtinRules: index.tool.builtinRules },
    generatedAt: index.generatedAt,
    failOn: index.failOn,
    summary: { ...index.summary },
    exit: { code: index.exit.code, reason: index.exit.reason },
    rules: index.rules.map((r) => ({ ruleId: r.ruleId, title: r.title, severity: r.severity, archives: r.archives })),
    archives: index.archives.map(rowJson),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------------
// What the Markdown and HTML pages print, in words.

function summaryLine(index: BatchIndex): string {
  const s = index.summary;
  return `${s.archives} archives: ${s.ok} read whole, ${s.partial} read in part, ${s.nothingChecked} with nothing checked, ${s.failed} failed; ${s.failing} with a finding at or above ${index.failOn}`;
}

function statusText(row: IndexRow): string {
  return row.error === undefined ? row.status : `${row.status}: ${row.error}`;
}

/** The report a row links to: HTML when written, else the first one written. */
function mainReport(row: IndexRow, preferred: string): string | undefined {
  return row.reports.find((file) => file.endsWith(preferred)) ?? row.reports[0];
}

/** `mco-ignition-spec-unsupported (explains 5)`, one per root; for a row that was analysed, `no problem found`. */
function rootCausesText(row: IndexRow): string {
  if (row.status === 'failed') return '';
  const inPart = row.checkedInPart ? ` (${row.checkedInPart} rule${row.checkedInPart === 1 ? '' : 's'} checked only in part)` : '';
  if (row.rootCauses.length === 0) return `no problem found${inPart}`;
  return row.rootCauses.map((r) => `${r.ruleId}${r.explains > 0 ? ` (explains ${r.explains})` : ''}`).join('; ');
}

function severityCells(index: BatchIndex, row: IndexRow): (Severity | undefined)[] {
  const fired = highestPerRule(row);
  return index.rules.map((rule) => fired.get(rule.ruleId)?.severity);
}

/** The index as GitHub-flavoured Markdown. */
export function renderIndexMarkdown(index: BatchIndex): string {
  const out: string[] = [];
  out.push(`# mgsift index — ${index.summary.archives} archives`, '');
  out.push(`${mdText(summaryLine(index))}. Made ${mdText(displayTime(index.generatedAt))} by ${mdText(toolLine(index.tool))}.`, '');
  out.push(`**Exit ${index.exit.code}:** ${mdText(index.exit.reason)}.`, '');
  const head = ['#', 'Input', 'Status', 'Cluster ID', 'Version', 'Collected (UTC)', 'Root causes', ...SEVERITIES_DESC, ...index.rules.map((r) => mdCell(r.ruleId))];
  const rows = index.archives.map((row, i) => {
    const report = mainReport(row, '.md');
    const counts = SEVERITIES_DESC.map((severity) => (row.counts === undefined ? '' : String(row.counts[severity])));
    return [
      String(i + 1),
      report === undefined ? mdCell(row.input) : `[${mdCell(row.input)}](${report})`,
      mdCell(statusText(row)),
      mdCell(known(row.cluster.id)),
      mdCell(known(row.cluster.version)),
      mdCell(row.collectedAt === undefined ? 'unknown' : displayTime(row.collectedAt)),
      mdCell(rootCausesText(row)),
      ...counts,
      ...severityCells(index, row).map((severity) => severity ?? ''),
    ];
  });
  out.push(table(head, rows, new Set(head.map((_, i) => i))));
  out.push('## Rules that fired', '');
  if (index.rules.length === 0) out.push('No rule fired in any archive.', '');
  else {
    out.push(
      table(
        ['Rule', 'Title', 'Most severe', 'Archives'],
        index.rules.map((r) => [r.ruleId, r.title, r.severity, String(r.archives)]),
      ),
    );
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

interface RowView {
  n: number;
  /** The input's file name, and the folder it is in. */
  name: string;
  where: string | null;
  href: string | null;
  status: ArchiveStatus;
  error: string | null;
  failing: boolean;
  clusterId: string;
  version: string;
  collected: string;
  rootCauses: string;
  counts: { severity: Severity; count: number }[] | null;
  cells: { severity: Severity | null; letter: string; title: string }[];
}

/** A severity in a cell: its initial, coloured (the legend and `title` spell it out). */
function letterOf(severity: Severity): string {
  return severity.charAt(0).toUpperCase();
}

/** The index as one self-contained HTML page (`templates/index.html.hbs`), same CSP as the reports. */
export function renderIndexHtml(index: BatchIndex, templatesDir?: URL | string): string {
  const s = sanitizeText;
  const rows = index.archives.map((row, i): RowView => {
    const report = mainReport(row, '.html');
    const cells = severityCells(index, row);
    const slash = row.input.replace(/[\\/]+$/, '').search(/[^\\/]*$/);
    return {
      n: i + 1,
      name: s(row.input.slice(slash)),
      where: slash > 0 ? s(row.input.slice(0, slash)) : null,
      href: report ?? null,
      status: row.status,
      error: row.error === undefined ? null : s(row.error),
      failing: isFailing(row, index.failOn),
      clusterId: s(known(row.cluster.id)),
      version: s(known(row.cluster.version)),
      collected: row.collectedAt === undefined ? 'unknown' : displayTime(row.collectedAt),
      rootCauses: s(rootCausesText(row)),
      counts: row.counts === undefined ? null : SEVERITIES_DESC.map((severity) => ({ severity, count: row.counts?.[severity] ?? 0 })),
      cells: index.rules.map((rule, c) => {
        const severity = cells[c];
        return { severity: severity ?? null, letter: severity === undefined ? '' : letterOf(severity), title: s(`${rule.ruleId}: ${severity ?? 'did not fire'}`) };
      }),
    };
  });
  return loadTemplate(templatesDir, 'index.html.hbs')({
    csp: HTML_CSP,
    pageTitle: s(`mgsift index — ${index.summary.archives} archives`),
    tool: { name: s(index.tool.name), version: s(index.tool.version), line: s(toolLine(index.tool)) },
    generatedAt: displayTime(index.generatedAt),
    summary: s(summaryLine(index)),
    exit: { code: index.exit.code, reason: s(index.exit.reason) },
    failOn: index.failOn,
    severities: SEVERITIES_DESC.map((severity) => ({ severity, letter: letterOf(severity) })),
    footerSpan: 7 + SEVERITIES_DESC.length,
    detailSpan: 6 + SEVERITIES_DESC.length + index.rules.length,
    rules: index.rules.map((r) => ({ ruleId: s(r.ruleId), title: s(r.title), severity: r.severity, archives: r.archives })),
    hasRules: index.rules.length > 0,
    rows,
  });
}
