/**
 * `mgsift diff` in each format: the terminal text, Markdown for a case, a self-contained HTML page
 * (`templates/diff.html.hbs`, printed with `{{ }}` only) and JSON. All draw from one
 * {@link ReportDiff}; none knows how it was computed.
 */
import type { FindingChange, ReportDiff, StateChange } from '../diff/compare.js';
import { HTML_CSP, loadTemplate } from './html.js';
import { mdText, table as mdTable } from './md.js';
import { changeObject as auditObject, changesTable, changeSentence, type AuditTable } from './audit.js';
import { sanitizeText } from './common.js';
import type { Tool } from './model.js';

/** Version of the diff JSON's shape. */
export const DIFF_SCHEMA_VERSION = '1.0';

export type DiffFormat = 'text' | 'md' | 'html' | 'json';
export const DIFF_FORMATS: readonly DiffFormat[] = ['text', 'md', 'html', 'json'];

export function renderDiff(diff: ReportDiff, format: DiffFormat, tool: Tool): string {
  switch (format) {
    case 'text':
      return diffText(diff);
    case 'md':
      return diffMarkdown(diff);
    case 'html':
      return diffHtml(diff, tool);
    case 'json':
      return `${JSON.stringify({ schemaVersion: DIFF_SCHEMA_VERSION, tool, ...diff }, null, 2)}\n`;
  }
}

/** `3d4h` from ms; negative spans keep their sign. */
export function spanText(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  let minutes = Math.floor(Math.abs(ms) / 60_000);
  const days = Math.floor(minutes / 1440);
  minutes -= days * 1440;
  const hours = Math.floor(minutes / 60);
  minutes -= hours * 60;
  return sign + ([days ? `${days}d` : '', hours ? `${hours}h` : '', `${minutes}m`].filter(Boolean).join('') || '0m');
}

function headline(diff: ReportDiff): string {
  const f = diff.findings;
  return `${f.new.length} new, ${f.resolved.length} resolved, ${f.persisting.length} persisting finding(s); ${diff.changes.length} change(s) in state; ${diff.unknown.length} new error template(s)`;
}

function sideLine(label: string, side: ReportDiff['old']): string {
  const version = side.version ? `${side.version}${side.desiredVersion && side.desiredVersion !== side.version ? ` → ${side.desiredVersion}` : ''}` : 'version unknown';
  return `${label}: ${side.input} (collected ${side.collectedAt ?? 'at an unknown time'}; ${version})`;
}

function intervalLine(diff: ReportDiff): string {
  const same = diff.sameCluster === true ? `same cluster ${diff.new.clusterId}` : diff.sameCluster === false ? 'different clusters' : 'cluster identity unknown on one side';
  return `${diff.intervalMs !== undefined ? `${spanText(diff.intervalMs)} apart` : 'interval unknown'}; ${same}`;
}

/** `error`, or `warning → error` for a persisting finding whose severity moved. */
function severityWords(f: FindingChange): string {
  return f.severityBefore ? `${f.severityBefore} → ${f.severity}` : f.severity;
}

function findingLine(f: FindingChange): string {
  return `${severityWords(f).toUpperCase()} ${f.id}: ${f.title}${f.changed ? ` (${f.changed})` : ''}`;
}

function changeObject(c: StateChange): string {
  return `${c.kind} ${c.namespace ? `${c.namespace}/` : ''}${c.name}`;
}

/** An object added or removed (a pool, a node, an alert started): its one side is what it says. */
function isPresence(c: StateChange): boolean {
  return / (added|removed)$|^alert (started|cleared)$/.test(c.what);
}

/** A change's two sides; a side without a value is `absent` (not `false` or `0`). */
function sides(c: StateChange): { before: string; after: string } {
  if (isPresence(c)) return { before: c.before ?? '', after: c.after ?? '' };
  return { before: c.before ?? 'absent', after: c.after ?? 'absent' };
}

function changeLine(c: StateChange): string {
  const { before, after } = sides(c);
  const value = isPresence(c) ? before || after : `${before} → ${after}`;
  return `${changeObject(c)}: ${c.what}${value ? ` ${value}` : ''}`;
}

/** Each side's update in a few words: `4.14.0 → 4.14.1, Progressing, 45%` or `not updating`. */
function updateLine(diff: ReportDiff): string {
  const one = (u: ReportDiff['update']['before']): string => (u ? `${u.from ? `${u.from} → ` : ''}${u.target}, ${u.assessment}, ${u.completionPercent}%` : 'not updating');
  return `before ${one(diff.update.before)}; after ${one(diff.update.after)}`;
}

/** The audited changes between the collections as a table, undefined when neither input has audit logs. */
function auditTable(diff: ReportDiff): AuditTable | undefined {
  return diff.audit && changesTable(`Audited changes between the collections (${diff.audit.changes.length})`, diff.audit.changes);
}

function diffText(diff: ReportDiff): string {
  const lines = [`Diff: ${headline(diff)}`, sideLine('OLD', diff.old), sideLine('NEW', diff.new), `      ${intervalLine(diff)}`];
  for (const w of diff.warnings) lines.push(`Warning: ${w}`);
  const list = (title: string, items: string[]): void => {
    if (items.length === 0) return;
    lines.push(`${title} (${items.length}):`, ...items.map((i) => `  ${i}`));
  };
  list('New findings', diff.findings.new.map(findingLine));
  list('Resolved findings', diff.findings.resolved.map(findingLine));
  list('Persisting findings that changed', diff.findings.persisting.filter((f) => f.changed).map(findingLine));
  lines.push(`Diagnosis roots: before ${diff.roots.before.join(', ') || 'none'}; after ${diff.roots.after.join(', ') || 'none'}`);
  lines.push(`Update: ${updateLine(diff)}`);
  list('Update moved', diff.update.moved);
  list('Changes in state', diff.changes.map(changeLine));
  list('New error templates in NEW', diff.unknown.map((t) => `${t.template} (${t.count}x, e.g. ${t.example.file}:${t.example.line})`));
  if (diff.audit) {
    list('Audited changes between the collections', diff.audit.changes.map((c) => `${auditObject(c)}: ${changeSentence(c)} [${c.server}]`));
    lines.push(...diff.audit.notes.map((n) => `Audit: ${n}`));
  }
  return `${lines.join('\n')}\n`;
}

function diffMarkdown(diff: ReportDiff): string {
  const out = [`# mgsift diff`, '', `**${mdText(headline(diff))}**`, '', `- ${mdText(sideLine('OLD', diff.old))}`, `- ${mdText(sideLine('NEW', diff.new))}`, `- ${mdText(intervalLine(diff))}`, ''];
  for (const w of diff.warnings) out.push(`> **Warning:** ${mdText(w)}`, '');
  const table = (title: string, rows: FindingChange[]): void => {
    if (rows.length === 0) return;
    out.push(`## ${title} (${rows.length})`, '', '| Severity | Finding | Title | What changed |', '| --- | --- | --- | --- |');
    for (const f of rows) out.push(`| ${severityWords(f).toUpperCase()} | \`${mdText(f.id)}\` | ${mdText(f.title)} | ${mdText(f.changed ?? 'unchanged')} |`);
    out.push('');
  };
  table('New findings', diff.findings.new);
  table('Resolved findings', diff.findings.resolved);
  table('Persisting findings', diff.findings.persisting);
  out.push('## Diagnosis roots', '', `- Before: ${diff.roots.before.map((r) => `\`${mdText(r)}\``).join(', ') || 'none'}`, `- After: ${diff.roots.after.map((r) => `\`${mdText(r)}\``).join(', ') || 'none'}`, '');
  out.push('## Update', '', `- ${mdText(updateLine(diff))}`, ...diff.update.moved.map((m) => `- ${mdText(m)}`), '');
  if (diff.changes.length > 0) {
    out.push(`## Changes in state (${diff.changes.length})`, '', '| Object | What | Before | After |', '| --- | --- | --- | --- |');
    for (const c of diff.changes) {
      const { before, after } = sides(c);
      out.push(`| ${mdText(changeObject(c))} | ${mdText(c.what)} | ${mdText(before)} | ${mdText(after)} |`);
    }
    out.push('');
  }
  if (diff.unknown.length > 0) {
    out.push(`## New error templates in NEW (${diff.unknown.length})`, '');
    for (const t of diff.unknown) out.push(`- ${mdText(t.template)} (${t.count}x, e.g. \`${mdText(`${t.example.file}:${t.example.line}`)}\`)`);
    out.push('');
  }
  const audit = auditTable(diff);
  if (audit) {
    out.push(`## ${audit.title}`, '');
    if (audit.rows.length > 0) out.push(mdTable(audit.head, audit.rows));
    out.push(...diff.audit!.notes.map((n) => `- ${mdText(n)}`), '');
  }
  return `${out.join('\n')}\n`;
}

/** The audited changes for templates/diff.html.hbs: escaped text only. */
function auditView(diff: ReportDiff): (AuditTable & { notes: string[] }) | undefined {
  const audit = auditTable(diff);
  return audit && { title: sanitizeText(audit.title), head: audit.head, rows: audit.rows.map((row) => row.map(sanitizeText)), empty: audit.empty, notes: diff.audit!.notes.map(sanitizeText) };
}

function diffHtml(diff: ReportDiff, tool: Tool): string {
  const s = sanitizeText;
  const findings = (rows: FindingChange[]): { severity: string; severityBefore: string | undefined; id: string; title: string; changed: string }[] =>
    rows.map((f) => ({ severity: f.severity, severityBefore: f.severityBefore, id: s(f.id), title: s(f.title), changed: s(f.changed ?? 'unchanged') }));
  return loadTemplate(undefined, 'diff.html.hbs')({
    csp: HTML_CSP,
    tool: { name: tool.name, version: s(tool.version) },
    headline: s(headline(diff)),
    old: s(sideLine('OLD', diff.old)),
    new: s(sideLine('NEW', diff.new)),
    interval: s(intervalLine(diff)),
    warnings: diff.warnings.map(s),
    sections: [
      { title: 'New findings', rows: findings(diff.findings.new) },
      { title: 'Resolved findings', rows: findings(diff.findings.resolved) },
      { title: 'Persisting findings', rows: findings(diff.findings.persisting) },
    ].filter((section) => section.rows.length > 0),
    update: s(updateLine(diff)),
    moved: diff.update.moved.map(s),
    rootsBefore: s(diff.roots.before.join(', ') || 'none'),
    rootsAfter: s(diff.roots.after.join(', ') || 'none'),
    changes: diff.changes.map((c) => {
      const { before, after } = sides(c);
      return { object: s(changeObject(c)), what: s(c.what), before: s(before), after: s(after) };
    }),
    unknown: diff.unknown.map((t) => ({ template: s(t.template), count: t.count, example: s(`${t.example.file}:${t.example.line}`) })),
    audit: auditView(diff),
  });
}
