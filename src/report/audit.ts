/**
 * What the audit logs say, as `mgsift audit` prints it (text, Markdown, JSON) and as the
 * report's Audit section shows it: the cells of each table are made here once. Archive text
 * (users, agents, names) goes through the formats' escaping.
 */
import type { AuditChange, AuditSummary } from '../facts/audit.js';
import type { Problem } from '../core/problems.js';
import { findingId, type Finding } from '../engine/findings.js';
import type { ObjectRef } from '../engine/diagnosis.js';
import type { DesiredTarget } from '../facts/history.js';
import { pluralOf } from '../parsers/k8s.js';
import type { JsonObject } from './json.js';
import { cut, displayTime, flat, sanitizeText } from './common.js';
import { mdText, table } from './md.js';

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

/** The audit logs in a report: what they say, and who changed the objects the findings are about. */
export interface ReportAudit {
  summary: AuditSummary;
  about: AuditAbout[];
}

/** The changes by people and non-platform accounts to an object a finding is about, in time order. */
export interface AuditAbout {
  finding: string;
  object: string;
  changes: AuditChange[];
  /** What the audit log cannot say about these changes, and what the object shows instead. */
  note?: string | undefined;
}

/** What the analysis knows beside the audit logs: when it was collected, what the ClusterVersion asks for. */
export interface AuditAboutContext {
  collectedAt?: number | undefined;
  desired?: DesiredTarget | undefined;
}

/** Changes listed per object a finding is about. */
const CHANGES_PER_OBJECT = 3;
/** Changes the report's Audit section lists (the JSON report holds those the analysis kept). */
export const REPORT_CHANGES_SHOWN = 20;
/**
 * How long before a finding's first evidence a change is still named as a cause: a pause, a
 * cordon, a deletion or an SCC edit shows within seconds to an operator's resync (minutes); an
 * hour leaves room for resyncs and clock skew between nodes, and keeps out the day's unrelated
 * edits of the same object (`mgsift audit` lists those).
 */
export const CHANGE_LEAD_MS = 60 * 60_000;
/** A change this close to a finding's first evidence is said to be so. */
const NEAR_START_MS = 5 * 60_000;

/**
 * Who changed each object a finding is about, within the time that matters: before the
 * collection, and from {@link CHANGE_LEAD_MS} before the finding's first timed evidence (the
 * whole of the logs when it has none). An object in a namespace also counts the deletion of its
 * namespace.
 */
export function reportAudit(summary: AuditSummary | undefined, findings: readonly Finding[], context: AuditAboutContext = {}): ReportAudit | undefined {
  if (summary === undefined) return undefined;
  const timed = summary.changes.map((change) => ({ change, at: Date.parse(change.time) }));
  const until = context.collectedAt ?? Infinity;
  const about: AuditAbout[] = [];
  for (const finding of findings) {
    const since = findingSince(finding);
    const from = since === undefined ? -Infinity : since - CHANGE_LEAD_MS;
    for (const object of finding.about) {
      const changes = timed
        .filter(({ change, at }) => at >= from && at <= until && changed(change, object))
        .sort((a, b) => a.at - b.at)
        .slice(-CHANGES_PER_OBJECT)
        .map((t) => t.change);
      if (changes.length === 0) continue;
      const name = changeObject({ resource: pluralOf(object.kind), namespace: object.namespace ?? '', name: object.name, subresource: '' });
      about.push({ finding: findingId(finding), object: name, changes, note: aboutNote(object, changes, since, context.desired) });
    }
  }
  return { summary, about };
}

/** The earliest time of a finding's evidence: since when what it shows is seen. */
function findingSince(finding: Finding): number | undefined {
  const times = finding.evidence.flatMap((e) => (e.time === undefined ? [] : [e.time]));
  return times.length > 0 ? Math.min(...times) : undefined;
}

/** A change to the object itself, or the deletion of the namespace it lives in. */
function changed(change: AuditChange, object: ObjectRef): boolean {
  if (object.namespace !== undefined && change.resource === 'namespaces' && change.name === object.namespace) return change.verb === 'delete';
  return change.resource === pluralOf(object.kind) && change.name === object.name && change.namespace === (object.namespace ?? '');
}

function aboutNote(object: ObjectRef, changes: readonly AuditChange[], since: number | undefined, desired: DesiredTarget | undefined): string | undefined {
  const notes: string[] = [];
  const near = since === undefined ? undefined : changes.find((c) => Math.abs(Date.parse(c.time) - since) <= NEAR_START_MS);
  if (near !== undefined && since !== undefined) notes.push(`${near.user}'s ${near.verb} came ${gapText(Date.parse(near.time) - since)} what the finding shows began (${displayTime(new Date(since).toISOString())}).`);
  if (object.kind === 'ClusterVersion' && changes.some((c) => c.verb === 'patch' || c.verb === 'update')) {
    // Metadata, the default audit level, logs no request body: what was asked is read from the object.
    const asks = desired?.version ?? desired?.image;
    const now = asks === undefined ? '' : ` The ClusterVersion now asks for ${asks}${desired?.force === true ? ' with force: true (spec.desiredUpdate.force: the release\'s signature and the update\'s preconditions are not checked)' : ''}.`;
    notes.push(`The audit log says who updated it and when, not what changed (no request body at the Metadata level).${now}`);
  }
  return notes.length > 0 ? notes.join(' ') : undefined;
}

/** `2 s before`, `3 min after`. */
function gapText(ms: number): string {
  const abs = Math.abs(ms);
  const amount = abs < 60_000 ? `${Math.round(abs / 1000)} s` : `${Math.round(abs / 60_000)} min`;
  return `${amount} ${ms <= 0 ? 'before' : 'after'}`;
}

/** A change's sentence under a finding's object: its own object named where it is another (the namespace deleted). */
function aboutSentence(a: AuditAbout): string {
  const sentences = a.changes.map((c) => {
    const object = changeObject({ ...c, subresource: '' });
    return object === a.object ? changeSentence(c) : `${changeSentence(c)} (${object})`;
  });
  return `${sentences.join('; ')}${a.note !== undefined ? `. ${a.note}` : ''}`;
}

/** `alice patch (200) at 2026-03-14 08:40:03Z from 10.0.4.17, oc/4.14.0 …`. */
export function changeSentence(change: AuditChange): string {
  const sub = change.subresource !== '' ? ` ${change.subresource}` : '';
  return `${change.user} ${change.verb}${sub} (${codeText(change.code) || 'no code'}) at ${displayTime(change.time)} from ${change.sourceIP || 'an unknown address'}, ${change.userAgent || 'no user agent'}`;
}

/** The identity line's audit entry: the window the logs cover. */
export function auditWindowText(summary: AuditSummary): string {
  const w = summary.window;
  const span = w ? `${displayTime(w.first)} to ${displayTime(w.last)}` : 'no event time';
  return `${span} (${summary.files.length} file${summary.files.length === 1 ? '' : 's'}, ${summary.events.requests} requests)`;
}

/** The notes under the report's Audit section: what it leaves out to the JSON report and `mgsift audit`. */
function reportAuditNotes(audit: ReportAudit): string[] {
  const more = audit.summary.changes.length - REPORT_CHANGES_SHOWN;
  const shown = more > 0 ? [`${more} more change${more === 1 ? ' is' : 's are'} in the JSON report; \`mgsift audit <input>\` lists every one.`] : [];
  return [...shown, ...auditNotes(audit.summary)];
}

/** The report's Audit section in HTML (templates/partials/audit.hbs): plain text, escaped by the template. */
export interface AuditView {
  headline: string;
  about: { object: string; finding: string; changes: string }[];
  tables: AuditTable[];
  notes: string[];
}

export function auditView(audit: ReportAudit): AuditView {
  return {
    headline: sanitizeText(auditHeadline(audit.summary)),
    about: audit.about.map((a) => ({ object: sanitizeText(a.object), finding: sanitizeText(a.finding), changes: sanitizeText(aboutSentence(a)) })),
    tables: auditTables(audit.summary, { maxChanges: REPORT_CHANGES_SHOWN }).map((t) => ({ ...t, rows: t.rows.map((row) => row.map(sanitizeText)) })),
    notes: reportAuditNotes(audit).map(sanitizeText),
  };
}

/** The report's Audit section in Markdown. */
export function auditMarkdownSection(audit: ReportAudit): string[] {
  const parts = ['## Audit', '', mdText(auditHeadline(audit.summary)), ''];
  if (audit.about.length > 0) {
    parts.push('### Who changed what the findings are about', '');
    for (const a of audit.about) parts.push(`- ${mdText(`${a.object} (${a.finding}): ${aboutSentence(a)}`)}`);
    parts.push('');
  }
  parts.push(...auditMarkdownTables(audit.summary, 3, { maxChanges: REPORT_CHANGES_SHOWN }));
  const notes = reportAuditNotes(audit);
  if (notes.length > 0) parts.push(...notes.map((n) => `- ${mdText(n)}`), '');
  return parts;
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
    changesTable('Changes', changes),
    {
      title: 'Throttled clients (429)',
      head: ['User', 'Requests', 'Last hour', 'First (UTC)', 'Last (UTC)', 'User agent'],
      rows: summary.throttled.map((t) => [t.user, String(t.count), String(t.lastHour), displayTime(t.first), displayTime(t.last), t.userAgent]),
      empty: 'No request was throttled.',
    },
    {
      title: 'Refused requests (401, 403)',
      head: ['User', 'Source IP', 'Code', 'Requests', 'Last hour', 'First (UTC)', 'Last (UTC)', 'User agent'],
      rows: summary.denied.map((d) => [userText(d.user), d.sourceIP, String(d.code), String(d.count), String(d.lastHour), displayTime(d.first), displayTime(d.last), d.userAgent]),
      empty: 'No request was refused.',
    },
    {
      title: 'Busiest clients',
      head: ['User', 'Requests', 'By code'],
      rows: summary.clients.map((c) => [userText(c.user), String(c.count), codesText(c.codes)]),
      empty: 'No request.',
    },
  ];
}

/** Changes by people and non-platform accounts, one a row (the Audit section, `mgsift audit`, `mgsift diff`). */
export function changesTable(title: string, changes: readonly AuditChange[]): AuditTable {
  return {
    title,
    head: ['Time (UTC)', 'User', 'Verb', 'Object', 'Code', 'User agent', 'Source IP', 'Server'],
    rows: changes.map((c) => [displayTime(c.time), c.user, c.verb, changeObject(c), codeText(c.code), c.userAgent, c.sourceIP, c.server]),
    empty: 'No change by a person or a non-platform account.',
  };
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
  const out = { input: doc.input, filters: doc.filters, ...summaryJson(doc.summary), problems: doc.problems };
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** The report's `audit` (schema/report.schema.json): the summary's keys, and `about`. */
export function auditJson(audit: ReportAudit): JsonObject {
  return { ...summaryJson(audit.summary), about: audit.about.map((a) => ({ finding: a.finding, object: a.object, changes: a.changes.map(changeJson), ...(a.note !== undefined ? { note: a.note } : {}) })) };
}

function summaryJson(summary: AuditSummary): JsonObject {
  return {
    files: summary.files.map((f) => ({ path: f.path, server: f.server, node: f.node, events: f.events, ...(f.notReadWhole !== undefined ? { notReadWhole: f.notReadWhole } : {}) })),
    events: { ...summary.events },
    window: summary.window ? { ...summary.window } : null,
    changes: summary.changes.map(changeJson),
    throttled: summary.throttled.map((t) => ({ ...t })),
    denied: summary.denied.map((d) => ({ ...d })),
    clients: summary.clients.map((c) => ({ user: c.user, count: c.count, codes: { ...c.codes } })),
  };
}

function changeJson(change: AuditChange): JsonObject {
  return { ...change };
}

function problemText(p: Problem): string {
  return `${p.severity}: ${p.path !== '' ? `${p.path}: ` : ''}${p.reason}`;
}

/** A user as the tables show it: a failed authentication has none. */
function userText(user: string): string {
  return user === '' ? '(none: authentication failed)' : user;
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
