/**
 * What the audit logs say, as `mgsift audit` prints it (text, Markdown, JSON) and as the
 * report's Audit section shows it: the cells of each table are made here once. Archive text
 * (users, agents, names) goes through the formats' escaping.
 */
import type { AuditChange, AuditSummary } from '../facts/audit.js';
import type { Problem } from '../core/problems.js';
import { displayTime } from './common.js';
import { mdText, table } from './md.js';
import { cut, flat } from './timeline-table.js';

/** `mgsift audit`'s document: the summary, the filters it was made with, what could not be read. */
export interface AuditDoc {
  input: string;
  /** Filters as the user gave them (`user alice`, `since 2h`). */
  filters: string[];
  summary: AuditSummary;
  problems: Problem[];
}

export interface AuditTable {
  title: string;
  head: string[];
  rows: string[][];
  /** Said when the table has no row. */
  empty: string;
}

/** The object a change is about: `machineconfigpools/worker`, `namespaces/x/pods/y (exec)`. */
export function changeObject(change: Pick<AuditChange, 'resource' | 'namespace' | 'name' | 'subresource'>): string {
  const where = change.namespace !== '' ? `namespaces/${change.namespace}/` : '';
  const name = change.name !== '' ? `/${change.name}` : '';
  const sub = change.subresource !== '' ? `/${change.subresource}` : '';
  return `${where}${change.resource}${name}${sub}`;
}

/** The four tables, in the order every format prints them. */
export function auditTables(summary: AuditSummary, options: { maxChanges?: number } = {}): AuditTable[] {
  const changes = options.maxChanges !== undefined ? summary.changes.slice(0, options.maxChanges) : summary.changes;
  return [
    {
      title: 'Changes',
      head: ['Time (UTC)', 'User', 'Verb', 'Object', 'Code', 'User agent', 'Source IP', 'Server'],
      rows: changes.map((c) => [displayTime(c.time), c.user, c.verb, changeObject(c), codeText(c.code), c.userAgent, c.sourceIP, c.server]),
      empty: 'No change by a person or a non-platform account.',
    },
    {
      title: 'Throttled clients (429)',
      head: ['User', 'Requests', 'First (UTC)', 'Last (UTC)', 'User agent'],
      rows: summary.throttled.map((t) => [t.user, String(t.count), displayTime(t.first), displayTime(t.last), t.userAgent]),
      empty: 'No request was throttled.',
    },
    {
      title: 'Refused requests (401, 403)',
      head: ['User', 'Source IP', 'Code', 'Requests', 'First (UTC)', 'Last (UTC)'],
      rows: summary.denied.map((d) => [d.user, d.sourceIP, String(d.code), String(d.count), displayTime(d.first), displayTime(d.last)]),
      empty: 'No request was refused.',
    },
    {
      title: 'Busiest clients',
      head: ['User', 'Requests', 'By code'],
      rows: summary.clients.map((c) => [c.user, String(c.count), codesText(c.codes)]),
      empty: 'No request.',
    },
  ];
}

/** One line on what was read: files, events, the window. */
export function auditHeadline(summary: AuditSummary): string {
  const { events, files, window } = summary;
  const covered = window ? `, ${displayTime(window.first)} to ${displayTime(window.last)}` : '';
  const servers = [...new Set(files.map((f) => f.server).filter((s) => s !== ''))].sort();
  const of = servers.length > 0 ? ` of ${servers.join(', ')}` : '';
  return `${events.requests} requests in ${files.length} audit log file${files.length === 1 ? '' : 's'}${of}${covered}`;
}

/** Sentences about what the tables leave out or could not see. */
export function auditNotes(summary: AuditSummary): string[] {
  const notes: string[] = [];
  const { events } = summary;
  if (events.matched !== events.requests) notes.push(`${events.matched} of ${events.requests} requests match the filters.`);
  if (events.changesNotListed > 0) notes.push(`${events.changesNotListed} older change${events.changesNotListed === 1 ? ' is' : 's are'} not listed (the newest are).`);
  if (events.pastKeyLimit > 0) notes.push(`${events.pastKeyLimit} requests of users or clients past the tables' key limit are counted in the totals only.`);
  if (events.notEvents > 0) notes.push(`${events.notEvents} line${events.notEvents === 1 ? ' was' : 's were'} no audit event.`);
  for (const file of summary.files) if (file.notReadWhole !== undefined) notes.push(`${file.path}: not read whole (${file.notReadWhole}); its ${file.events} events read are counted.`);
  return notes;
}

export function renderAuditText(doc: AuditDoc): string {
  const lines = [`Audit of ${flat(doc.input)}: ${flat(auditHeadline(doc.summary))}`];
  if (doc.filters.length > 0) lines.push(`Filters: ${flat(doc.filters.join(', '))}`);
  for (const t of auditTables(doc.summary)) {
    lines.push('', `${t.title.toUpperCase()} (${t.rows.length})`);
    if (t.rows.length === 0) lines.push(t.empty);
    else lines.push(...aligned(t.head, t.rows));
  }
  const notes = [...auditNotes(doc.summary), ...doc.problems.map(problemText)];
  if (notes.length > 0) lines.push('', ...notes.map(flat));
  return `${lines.join('\n')}\n`;
}

export function renderAuditMarkdown(doc: AuditDoc): string {
  const parts = [`# Audit of ${mdText(doc.input)}`, '', mdText(auditHeadline(doc.summary)), ''];
  if (doc.filters.length > 0) parts.push(`Filters: ${mdText(doc.filters.join(', '))}`, '');
  parts.push(...auditMarkdownTables(doc.summary, 2));
  const notes = [...auditNotes(doc.summary), ...doc.problems.map(problemText)];
  if (notes.length > 0) parts.push(...notes.map((n) => `- ${mdText(n)}`), '');
  return `${parts.join('\n')}\n`;
}

/** The tables as Markdown, under headings of `level` (the report's Audit section uses them too). */
export function auditMarkdownTables(summary: AuditSummary, level: number, options: { maxChanges?: number } = {}): string[] {
  const parts: string[] = [];
  for (const t of auditTables(summary, options)) {
    parts.push(`${'#'.repeat(level)} ${t.title}`, '');
    parts.push(t.rows.length === 0 ? `${t.empty}\n` : table(t.head, t.rows));
  }
  return parts;
}

/** The document as JSON: the keys schema/audit.schema.json describes. */
export function renderAuditJson(doc: AuditDoc): string {
  const { summary } = doc;
  const out = {
    input: doc.input,
    filters: doc.filters,
    files: summary.files,
    events: summary.events,
    window: summary.window ?? null,
    changes: summary.changes,
    throttled: summary.throttled,
    denied: summary.denied,
    clients: summary.clients,
    problems: doc.problems,
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}

function problemText(p: Problem): string {
  return `${p.severity}: ${p.path !== '' ? `${p.path}: ` : ''}${p.reason}`;
}

function codeText(code: number): string {
  return code === 0 ? '' : String(code);
}

function codesText(codes: Record<string, number>): string {
  return Object.entries(codes)
    .map(([code, n]) => `${code}: ${n}`)
    .join(', ');
}

const TEXT_CELL_WIDTH = 60;

function aligned(head: string[], rows: string[][]): string[] {
  const cells = rows.map((row) => row.map((cell) => cut(flat(cell), TEXT_CELL_WIDTH)));
  const heads = head.map((h) => h.toUpperCase());
  const widths = heads.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]): string =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(heads), ...cells.map(line)];
}
