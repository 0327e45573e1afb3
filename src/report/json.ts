/**
 * JSON report: the {@link Report} written with a fixed key order (the order of
 * `schema/report.schema.json`), 2-space indent and a trailing newline.
 *
 * Stability: every object is rebuilt key by key, so the input's key order never shows; lists
 * whose order carries no meaning are sorted (findings most severe first then by ruleId, rules
 * not checked / passed by ruleId, problems by path, timeline by time then lane then label,
 * capture names by name). History and evidence keep their order (oldest first; the rule's
 * order). Two runs on one input differ only in `generatedAt` and `stats.durationMs`.
 *
 * Strings are written as they are (JSON escapes every control character), so the JSON keeps
 * the archive's exact text; the other renderers replace control characters for display.
 */
import type { Evidence, Finding, NotChecked, Passed } from '../engine/findings.js';
import type { Diagnosis, DiagnosisNode, ObjectRef } from '../engine/diagnosis.js';
import type { Limits } from '../core/limits.js';
import type { Problem } from '../core/problems.js';
import type { ClusterIdentity, HistoryRow, InputTruncation, Report, TimelineItem } from './model.js';
import { compareStrings, SEVERITIES_DESC, sortByRuleId, sortFindings, sortProblems, sortTimeline } from './common.js';
import { digestJson } from './digest.js';
import { auditJson } from './audit.js';
import { reportUpdateRisks, updateRisksJson } from './update-risks.js';
import { verdictsJson } from './verdicts.js';
import { summaryJson } from './summary.js';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The report as JSON text. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(toJsonReport(report), null, 2)}\n`;
}

/** The report as a plain JSON value in canonical key order (what {@link renderJson} writes). */
export function toJsonReport(report: Report): JsonObject {
  const out: JsonObject = {};
  out.schemaVersion = report.schemaVersion;
  out.tool = { name: report.tool.name, version: report.tool.version, build: report.tool.build, builtinRules: report.tool.builtinRules };
  out.generatedAt = report.generatedAt;
  out.input = { path: report.input.path, container: report.input.container, layout: report.input.layout };
  if (report.input.truncated) out.input.truncated = truncationJson(report.input.truncated);
  out.cluster = cluster(report.cluster);
  put(out, 'collectedAt', report.collectedAt);
  const counts: JsonObject = {};
  for (const severity of SEVERITIES_DESC) counts[severity] = num(report.counts[severity] ?? 0);
  out.counts = counts;
  out.banners = [...report.banners];
  out.summary = summaryJson(report.summary);
  out.diagnosis = diagnosisJson(report.diagnosis);
  out.findings = sortFindings(report.findings).map(finding);
  out.notChecked = sortByRuleId(report.notChecked).map(notChecked);
  out.notApplicable = sortByRuleId(report.notApplicable).map(notChecked);
  out.checkedInPart = sortByRuleId(report.checkedInPart).map(notChecked);
  out.notRun = report.notRun.map((n) => ({ data: n.data, how: n.how, rules: sortByRuleId(n.rules).map((r) => ({ ruleId: r.ruleId, title: r.title, component: r.component })), note: n.note }));
  out.passed = sortByRuleId(report.passed).map(passed);
  if (report.selection) out.selection = { only: [...report.selection.only], exclude: [...report.selection.exclude], leftOut: [...report.selection.leftOut] };
  out.facts = {
    history: report.facts.history.map(historyRow),
    timeline: sortTimeline(report.facts.timeline).map(timelineItemJson),
    timelineOmitted: report.facts.timelineOmitted.map((o) => ({ lane: o.lane, count: num(o.count), reason: o.reason })),
    verdicts: verdictsJson(report.facts.verdicts),
  };
  if (report.digest !== undefined) out.digest = digestJson(report.digest);
  if (report.audit !== undefined) out.audit = auditJson(report.audit);
  out.problems = sortProblems(report.problems).map(problem);
  out.limits = limits(report.limits);
  out.stats = {
    entries: num(report.stats.entries),
    bytesRead: num(report.stats.bytesRead),
    durationMs: num(report.stats.durationMs),
  };
  if (report.stats.ruleCosts) out.stats.ruleCosts = report.stats.ruleCosts.map((c) => ({ rule: c.rule, ms: c.ms }));
  out.updateRisks = updateRisksJson(report.updateRisks ?? reportUpdateRisks(undefined));
  return out;
}

/** How far an input that stopped early was read (the report's `input.truncated`, an index row's `truncated`). */
export function truncationJson(t: InputTruncation): JsonObject {
  const out: JsonObject = { by: t.by, reason: t.reason, lastEntry: t.lastEntry, entriesRead: num(t.entriesRead) };
  put(out, 'streamBytesRead', t.streamBytesRead);
  return out;
}

/** Sets `key` only when there is a value: absent stays absent in the JSON. */
export function put(obj: JsonObject, key: string, value: Json | undefined): void {
  if (value !== undefined) obj[key] = value;
}

/** Non-finite numbers have no JSON form; write 0 rather than `null` the schema would reject. */
function num(value: number): number {
  return Number.isFinite(value) ? value : 0;
}

function cluster(c: ClusterIdentity): JsonObject {
  const out: JsonObject = {};
  put(out, 'id', c.id);
  put(out, 'version', c.version);
  put(out, 'desiredVersion', c.desiredVersion);
  put(out, 'platform', c.platform);
  put(out, 'channel', c.channel);
  return out;
}

function finding(f: Finding): JsonObject {
  const out: JsonObject = {
    ruleId: f.ruleId,
    severity: f.severity,
    title: f.title,
    headline: f.headline,
    component: f.component,
    tags: [...f.tags],
    message: f.message,
    remediation: f.remediation,
    references: [...f.references],
    evidence: f.evidence.map(evidence),
    evidenceDropped: num(f.evidenceDropped),
  };
  put(out, 'key', f.key);
  put(out, 'banner', f.banner);
  put(out, 'caveat', f.caveat);
  if (f.resolved !== undefined) {
    const resolved: JsonObject = {};
    put(resolved, 'lastSeen', f.resolved.lastSeen);
    put(resolved, 'at', f.resolved.at);
    out.resolved = resolved;
  }
  out.about = f.about.map(objectRef);
  out.explains = [...f.explains];
  out.explainedBy = [...f.explainedBy];
  return out;
}

/** The diagnosis in the schema's key order (also the test's expected shape). */
export function diagnosisJson(d: Diagnosis): JsonObject {
  return { roots: d.roots.map(diagnosisNode), cyclesBroken: [...d.cyclesBroken] };
}

function diagnosisNode(n: DiagnosisNode): JsonObject {
  const out: JsonObject = { ruleId: n.ruleId, severity: n.severity, title: n.title, headline: n.headline, about: n.about.map(objectRef) };
  if (n.since !== undefined) out.since = new Date(n.since).toISOString();
  put(out, 'reason', n.reason);
  out.explains = n.explains.map(diagnosisNode);
  return out;
}

function objectRef(o: ObjectRef): JsonObject {
  const out: JsonObject = { kind: o.kind };
  put(out, 'namespace', o.namespace);
  out.name = o.name;
  return out;
}

function evidence(e: Evidence): JsonObject {
  const out: JsonObject = { signal: e.signal, file: e.file };
  put(out, 'line', e.line);
  put(out, 'time', e.time);
  out.text = e.text;
  if (e.match !== undefined) out.match = [e.match[0], e.match[1]];
  if (e.captures !== undefined) {
    const captures: JsonObject = {};
    for (const name of Object.keys(e.captures).sort(compareStrings)) {
      const value = e.captures[name];
      // An empty capture (a cluster-scoped object's namespace) says nothing.
      if (value !== undefined && value !== '') captures[name] = value;
    }
    out.captures = captures;
  }
  if (e.object !== undefined) {
    const object: JsonObject = { kind: e.object.kind };
    put(object, 'namespace', e.object.namespace);
    object.name = e.object.name;
    out.object = object;
  }
  put(out, 'namespace', e.namespace);
  put(out, 'pod', e.pod);
  put(out, 'container', e.container);
  if (e.resolved !== undefined) {
    const resolved: JsonObject = { by: e.resolved.by };
    put(resolved, 'at', e.resolved.at);
    out.resolved = resolved;
  }
  return out;
}

function notChecked(n: NotChecked): JsonObject {
  return { ruleId: n.ruleId, title: n.title, component: n.component, reason: n.reason };
}

function passed(p: Passed): JsonObject {
  return { ruleId: p.ruleId, title: p.title, component: p.component };
}

function historyRow(h: HistoryRow): JsonObject {
  const out: JsonObject = { version: h.version, state: h.state, verified: h.verified };
  put(out, 'started', h.started);
  put(out, 'completed', h.completed);
  put(out, 'image', h.image);
  put(out, 'rollback', h.rollback);
  out.install = h.install;
  out.forced = h.forced;
  return out;
}

/** One timeline item in the schema's key order (also `mgsift timeline --format json`). */
export function timelineItemJson(t: TimelineItem): JsonObject {
  const out: JsonObject = { lane: t.lane, start: t.start };
  put(out, 'end', t.end);
  put(out, 'open', t.open);
  put(out, 'relative', t.relative);
  put(out, 'afterCollection', t.afterCollection);
  out.label = t.label;
  put(out, 'detail', t.detail);
  put(out, 'namespace', t.namespace);
  if (t.count !== undefined) out.count = num(t.count);
  put(out, 'ruleId', t.ruleId);
  put(out, 'severity', t.severity);
  return out;
}

function problem(p: Problem): JsonObject {
  return { severity: p.severity, path: p.path, reason: p.reason };
}

function limits(l: Limits): JsonObject {
  return {
    maxEntryBytes: num(l.maxEntryBytes),
    maxTotalBytes: num(l.maxTotalBytes),
    maxEntries: num(l.maxEntries),
    maxLineBytes: num(l.maxLineBytes),
    maxParseBytes: num(l.maxParseBytes),
    maxInflationRatio: num(l.maxInflationRatio),
  };
}
