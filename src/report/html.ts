/**
 * HTML report: one self-contained file (inline CSS and SVG, no script, no external request,
 * a Content-Security-Policy that forbids them anyway), readable with JavaScript off and
 * printable. Rendered with an isolated Handlebars instance from `templates/report.html.hbs`
 * and `templates/partials/*.hbs`.
 *
 * Safety: this module builds a view model of plain strings (archive text passed through
 * {@link sanitizeText}); the templates print it with `{{ }}` only, so Handlebars escapes every
 * character that could open markup. No helper returns a SafeString. Links are made only from
 * `http:`/`https:` URLs ({@link httpUrl}), with `rel="noreferrer"`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packageFiles, packageText } from '../core/assets.js';
import { handlebarsCompiler, type HandlebarsEnvironment } from '../core/handlebars.js';
import { findingId, type Evidence, type Finding, type NotChecked, type Severity } from '../engine/findings.js';
import { channelText, fromClusterVersion } from '../facts/cluster.js';
import type { Report } from './model.js';
import {
  COMPRESSED_LINES_NOTE,
  countsDesc,
  displayTime,
  EVIDENCE_SHOWN,
  evidenceNotShown,
  extraCaptures,
  findingGlance,
  findingTitle,
  formatByteCount,
  formatBytes,
  inlineParts,
  type InlinePart,
  formatUtc,
  httpUrl,
  namesCompressedFile,
  limitRows,
  remediationBlocks,
  sanitizeText,
  shortPath,
  sortByRuleId,
  sortFindings,
  sortProblems,
  splitMatch,
  toolLine,
} from './common.js';
import { timelineView, type TimelineView } from './timeline-view.js';
import { digestNote, digestView, type DigestView } from './digest.js';
import { auditView, auditWindowText, type AuditView } from './audit.js';
import { reportUpdateRisks, updateRisksView, type UpdateRisksView } from './update-risks.js';
import { verdictsView, type VerdictsView } from './verdicts.js';
import { diagnosisView, findingAnchor, type DiagnosisView } from './diagnosis.js';
import { summaryView, type SummaryView } from './summary.js';

export interface HtmlOptions {
  /** Folder holding `report.html.hbs` and `partials/`; defaults to the package's `templates/`. */
  templatesDir?: URL | string | undefined;
  /** Evidence items shown per finding (default 10); the rest are counted. */
  evidencePerFinding?: number | undefined;
  /** Timeline items drawn at most in the figure (default 400). */
  maxTimelineItems?: number | undefined;
  /** Rows of the timeline table at most (default 400); the JSON report holds them all. */
  maxTimelineRows?: number | undefined;
}

/** The report as one self-contained HTML document. */
export function renderHtml(report: Report, options: HtmlOptions = {}): string {
  const template = loadTemplate(options.templatesDir, 'report.html.hbs');
  return template(htmlView(report, options));
}

/** The Content-Security-Policy the document declares (also asserted by the tests). */
export const HTML_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

// ---------------------------------------------------------------------------------------------
// View model: everything the templates print, as sanitized plain strings.

interface Pair {
  label: string;
  value: string;
}

interface EvidenceView {
  /** Below the gather root; `fullPath` is the whole path in the archive (null when the same). */
  file: string;
  fullPath: string | null;
  line: string | null;
  time: string | null;
  signal: string;
  object: string | null;
  before: string;
  match: string;
  after: string;
  hasMatch: boolean;
  captures: Pair[];
}

interface FindingView {
  anchor: string;
  severity: Severity;
  /** Shown unfolded when the page opens (info findings are folded). */
  open: boolean;
  ruleId: string;
  title: string;
  /** What happened here, in one line (the finding's headline). */
  headline: string;
  component: string;
  tags: string[];
  /** Text and inline code. */
  message: InlinePart[];
  /** The first few evidence items, shown; the others fold under `evidenceRestSummary`. */
  evidence: EvidenceView[];
  evidenceRest: EvidenceView[];
  evidenceRestStart: number;
  evidenceRestSummary: string;
  hasEvidence: boolean;
  more: string | null;
  remediation: { code: boolean; text: string; parts: InlinePart[] }[];
  hasRemediation: boolean;
  references: { text: string; href: string | null }[];
  hasReferences: boolean;
  /** Links to the findings this one explains and to those that explain it. */
  explainedBy: { href: string; ruleId: string }[];
  explains: { href: string; ruleId: string }[];
  hasLinks: boolean;
}

/** One row of the findings table under the header. */
export interface FindingRowView {
  anchor: string;
  severity: Severity;
  title: string;
  object: string;
  since: string;
}

export interface HtmlView {
  csp: string;
  pageTitle: string;
  tool: { name: string; version: string; line: string };
  generatedAt: string;
  cluster: Pair[];
  input: Pair[];
  collectedAt: string;
  collectedKnown: boolean;
  counts: { severity: Severity; count: number }[];
  findingCount: number;
  /** Shown under Findings when a path names a compressed file. */
  compressedNote: string | null;
  banners: string[];
  hasBanners: boolean;
  /** At a glance: the first thing under the header. */
  summary: SummaryView;
  diagnosis: DiagnosisView;
  findings: FindingView[];
  findingRows: FindingRowView[];
  hasFindings: boolean;
  timeline: TimelineView;
  digest: DigestView | null;
  /** The Audit section; null without audit logs. */
  audit: AuditView | null;
  /** One line beside a folded section's heading. */
  notes: { digest: string; notChecked: string; checkedInPart: string; notApplicable: string; problems: string; limits: string };
  updateRisks: UpdateRisksView;
  verdicts: VerdictsView | null;
  notChecked: { ruleId: string; title: string; reason: string }[];
  hasNotChecked: boolean;
  checkedInPart: { ruleId: string; title: string; reason: string }[];
  hasCheckedInPart: boolean;
  notApplicable: { ruleId: string; title: string; reason: string }[];
  hasNotApplicable: boolean;
  /** One line per kind of data not given (rules not run). */
  notRun: string[];
  passed: { ruleId: string; title: string }[];
  hasPassed: boolean;
  passedSummary: string;
  problems: { severity: string; path: string; reason: string }[];
  hasProblems: boolean;
  limits: Pair[];
  stats: Pair[];
}

const s = sanitizeText;

/** Beside the heading: the rules the archive could not support, and those not run for want of data given. */
function notCheckedNote(report: Report): string {
  const count = (n: number): string => `${n} rule${n === 1 ? '' : 's'}`;
  const notRun = report.notRun.map((n) => `${count(n.rules.length)} not run (${n.data} not given)`);
  return [report.notChecked.length === 0 && notRun.length === 0 ? 'none' : report.notChecked.length > 0 ? count(report.notChecked.length) : '', ...notRun].filter(Boolean).join('; ');
}

function ruleReasonView(n: NotChecked): { ruleId: string; title: string; reason: string } {
  return { ruleId: s(n.ruleId), title: s(n.title), reason: s(n.reason) };
}

/** The view model the templates print (exported for tests). */
export function htmlView(report: Report, options: HtmlOptions = {}): HtmlView {
  const shown = Math.max(0, options.evidencePerFinding ?? EVIDENCE_SHOWN);
  const c = report.cluster;
  const version =
    c.version !== undefined && c.desiredVersion !== undefined && c.desiredVersion !== c.version
      ? `${c.version} (desired ${c.desiredVersion})`
      : (c.version ?? (c.desiredVersion !== undefined ? `desired ${c.desiredVersion}` : undefined));
  const cluster: Pair[] = [
    { label: 'Cluster ID', value: c.id },
    { label: 'Version', value: version },
    { label: 'Platform', value: c.platform },
    { label: 'Channel', value: channelText(c.channel, fromClusterVersion(c)) },
  ].map((p) => ({ label: p.label, value: p.value === undefined || p.value === '' ? 'unknown' : s(p.value) }));

  const sorted = sortFindings(report.findings);
  // Root causes open; what they explain folds (the diagnosis shows it under its cause), as info does.
  const roots = new Set(report.diagnosis.roots.map((r) => r.ruleId));
  const findings = sorted.map((f) => findingView(f, shown, f.severity !== 'info' && roots.has(findingId(f))));
  const findingRows = sorted.map((f): FindingRowView => ({ anchor: findingAnchor(findingId(f)), severity: f.severity, title: s(findingTitle(f)), ...findingGlance(f, report.collectedAt) }));
  const counts = countsDesc(report);
  const collected = report.collectedAt !== undefined && report.collectedAt !== '';
  return {
    csp: HTML_CSP,
    pageTitle: s(`mgsift report — ${c.id ?? report.input.path}`),
    tool: { name: s(report.tool.name), version: s(report.tool.version), line: s(toolLine(report.tool)) },
    generatedAt: displayTime(report.generatedAt),
    cluster,
    input: [
      { label: 'Input', value: s(report.input.path) },
      // One row, as the Markdown report has it: the header stays short enough for the glance and diagnosis below.
      { label: 'Container / layout', value: s(`${report.input.container} / ${report.input.layout}`) },
      ...(report.audit ? [{ label: 'Audit logs', value: s(auditWindowText(report.audit.summary)) }] : []),
    ],
    collectedAt: collected ? displayTime(report.collectedAt) : 'unknown',
    collectedKnown: collected,
    counts,
    findingCount: findings.length,
    compressedNote: namesCompressedFile(report) ? COMPRESSED_LINES_NOTE : null,
    banners: report.banners.map(s),
    hasBanners: report.banners.length > 0,
    summary: summaryView(report.summary),
    diagnosis: diagnosisView(report),
    findings,
    findingRows,
    hasFindings: findings.length > 0,
    timeline: timelineView(report, { maxItems: options.maxTimelineItems, maxRows: options.maxTimelineRows }),
    digest: report.digest ? digestView(report.digest) : null,
    audit: report.audit ? auditView(report.audit) : null,
    notes: {
      digest: report.digest ? digestNote(report.digest) : '',
      checkedInPart: `${report.checkedInPart.length} rule${report.checkedInPart.length === 1 ? '' : 's'}`,
      notApplicable: `${report.notApplicable.length} rule${report.notApplicable.length === 1 ? '' : 's'}`,
      notChecked: notCheckedNote(report),
      problems: report.problems.length === 0 ? 'nothing' : `${report.problems.length} part${report.problems.length === 1 ? '' : 's'} of the input`,
      limits: `${report.stats.entries} entries, ${formatBytes(report.stats.bytesRead)} read in ${Math.round(report.stats.durationMs)} ms`,
    },
    updateRisks: updateRisksView(report.updateRisks ?? reportUpdateRisks(undefined)),
    verdicts: verdictsView(report.facts.verdicts),
    notChecked: sortByRuleId(report.notChecked).map(ruleReasonView),
    hasNotChecked: report.notChecked.length > 0,
    checkedInPart: sortByRuleId(report.checkedInPart).map(ruleReasonView),
    hasCheckedInPart: report.checkedInPart.length > 0,
    notApplicable: sortByRuleId(report.notApplicable).map(ruleReasonView),
    hasNotApplicable: report.notApplicable.length > 0,
    notRun: report.notRun.map((n) => s(n.note.charAt(0).toUpperCase() + n.note.slice(1))),
    passed: sortByRuleId(report.passed).map((p) => ({ ruleId: s(p.ruleId), title: s(p.title) })),
    hasPassed: report.passed.length > 0,
    passedSummary: `${report.passed.length} rule${report.passed.length === 1 ? '' : 's'} evaluated without finding anything`,
    problems: sortProblems(report.problems).map((p) => ({
      severity: p.severity,
      path: p.path === '' ? '(the input as a whole)' : s(p.path),
      reason: s(p.reason),
    })),
    hasProblems: report.problems.length > 0,
    limits: limitRows(report.limits),
    stats: [
      { label: 'Entries read', value: String(report.stats.entries) },
      { label: 'Bytes read', value: formatByteCount(report.stats.bytesRead) },
      { label: 'Duration', value: `${Math.round(report.stats.durationMs)} ms` },
    ],
  };
}


/** Evidence items shown before the rest fold away. */
const EVIDENCE_UNFOLDED = 3;

function findingView(f: Finding, shown: number, open: boolean): FindingView {
  const evidence = f.evidence.slice(0, shown).map(evidenceView);
  const notShown = evidenceNotShown(f, evidence.length);
  const dropped = Math.max(f.evidenceDropped, 0);
  let more: string | null = null;
  if (notShown > 0) {
    more = `${notShown} more evidence item${notShown === 1 ? '' : 's'}`;
    if (dropped > 0) more += ` (${dropped} not kept by the per-signal cap; see the JSON report for the ${f.evidence.length} kept)`;
    else more += ' (see the JSON report)';
  }
  const rest = evidence.slice(EVIDENCE_UNFOLDED);
  const remediation = remediationBlocks(f.remediation).map((b) => ({ code: b.kind === 'code', text: s(b.text), parts: inlineParts(s(b.text)) }));
  const references = f.references.map((ref) => ({ text: s(ref), href: httpUrl(ref) ?? null }));
  return {
    anchor: findingAnchor(findingId(f)),
    explainedBy: f.explainedBy.map((id) => ({ href: `#${findingAnchor(id)}`, ruleId: s(id) })),
    explains: f.explains.map((id) => ({ href: `#${findingAnchor(id)}`, ruleId: s(id) })),
    hasLinks: f.explainedBy.length + f.explains.length > 0,
    severity: f.severity,
    open,
    ruleId: s(f.ruleId),
    title: s(findingTitle(f)),
    headline: s(f.headline),
    component: s(f.component),
    tags: f.tags.map(s),
    message: inlineParts(s(f.message)),
    evidence: evidence.slice(0, EVIDENCE_UNFOLDED),
    evidenceRest: rest,
    evidenceRestStart: EVIDENCE_UNFOLDED + 1,
    evidenceRestSummary: `${rest.length} more evidence item${rest.length === 1 ? '' : 's'}`,
    hasEvidence: evidence.length > 0,
    more,
    remediation,
    hasRemediation: remediation.length > 0,
    references,
    hasReferences: references.length > 0,
  };
}

function evidenceView(e: Evidence): EvidenceView {
  const text = s(e.text);
  const parts = splitMatch(text, e.match);
  const object =
    e.object !== undefined
      ? s(`${e.object.kind} ${e.object.namespace !== undefined && e.object.namespace !== '' ? `${e.object.namespace}/` : ''}${e.object.name}`)
      : null;
  const captures = extraCaptures(e).map(([name, value]) => ({ label: s(name), value: s(value) }));
  const short = e.file === '' ? '(derived fact)' : s(shortPath(e.file));
  return {
    file: short,
    fullPath: e.file !== '' && shortPath(e.file) !== e.file ? s(e.file) : null,
    line: e.line !== undefined ? String(e.line) : null,
    time: e.time !== undefined && Number.isFinite(e.time) ? formatUtc(e.time) : null,
    signal: s(e.signal),
    object,
    before: parts.before,
    match: parts.match,
    after: parts.after,
    hasMatch: parts.match !== '',
    captures,
  };
}

// ---------------------------------------------------------------------------------------------
// Templates: one isolated Handlebars instance per templates folder, each page compiled once.

/** A compiled page: prints a view model of plain strings, never prototype members. */
export type Template = (view: object) => string;

const templates = new Map<string, Template>();
const instances = new Map<string, HandlebarsEnvironment>();

/** A templates folder: the one shipped with mgsift (undefined), or another on disk. */
function templateFiles(dir: URL | string | undefined): { base: string; text(name: string): string; partials(): string[] } {
  if (dir === undefined) {
    return {
      base: '(shipped templates)',
      text: (name) => packageText(`templates/${name}`),
      partials: () => packageFiles('templates/partials').map((path) => path.slice('templates/partials/'.length)),
    };
  }
  const base = (typeof dir === 'string' ? dir : fileURLToPath(dir)).replace(/\/+$/, '');
  return { base, text: (name) => readFileSync(`${base}/${name}`, 'utf8'), partials: () => readdirSync(`${base}/partials`) };
}

/** `file` in `dir` (with the partials of `dir/partials/`), compiled once per process. */
export function loadTemplate(dir: URL | string | undefined, file: string): Template {
  const files = templateFiles(dir);
  const key = `${files.base}/${file}`;
  const cached = templates.get(key);
  if (cached !== undefined) return cached;
  const compileOptions: CompileOptions = { strict: true, preventIndent: true, knownHelpersOnly: true };
  let hb = instances.get(files.base);
  if (hb === undefined) {
    hb = handlebarsCompiler().create();
    for (const name of files.partials().sort()) {
      if (!name.endsWith('.hbs')) continue;
      hb.registerPartial(name.slice(0, -'.hbs'.length), hb.compile(files.text(`partials/${name}`), compileOptions));
    }
    instances.set(files.base, hb);
  }
  const page = hb.compile<object>(files.text(file), compileOptions);
  const template: Template = (view) => page(view, { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false });
  templates.set(key, template);
  return template;
}
