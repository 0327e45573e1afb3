/**
 * What changed between two reports of the same cluster (`mgsift diff OLD NEW`): findings new,
 * resolved and persisting (matched by rule id and key), the diagnosis roots before and after, the
 * state that moved (ClusterVersion, alerts, update-risk verdicts, and whatever else both reports
 * hold as state), and the unrecognised-error templates that are new. Pure: it reads two reports.
 */
import { findingId, severityRank, type Finding, type Severity } from '../engine/findings.js';
import { describeObject, objectKey, type DiagnosisNode } from '../engine/diagnosis.js';
import type { DigestRow, Report } from '../report/model.js';

/** One side of the comparison, as the reports name it. */
export interface DiffSide {
  input: string;
  collectedAt?: string | undefined;
  clusterId?: string | undefined;
  version?: string | undefined;
  desiredVersion?: string | undefined;
}

export interface FindingChange {
  /** Rule id, with its key for a rule with `per`. */
  id: string;
  ruleId: string;
  title: string;
  severity: Severity;
  /** For a persisting finding whose severity moved. */
  severityBefore?: Severity | undefined;
  /** For a persisting finding: objects it is about now and was not, and the reverse. */
  objectsAdded?: string[] | undefined;
  objectsRemoved?: string[] | undefined;
  evidenceBefore?: number | undefined;
  evidenceAfter?: number | undefined;
  /** Said in a few words: `severity warning → error; 2 objects added`. */
  changed?: string | undefined;
}

/** One state that differs: `{kind, namespace, name, what, before, after}`; absent side: added or removed. */
export interface StateChange {
  kind: string;
  namespace?: string | undefined;
  name: string;
  what: string;
  before?: string | undefined;
  after?: string | undefined;
}

export interface ReportDiff {
  old: DiffSide;
  new: DiffSide;
  /** NEW's collection time minus OLD's, in ms, when both are known (negative: NEW was taken first). */
  intervalMs?: number | undefined;
  /** From the cluster ids; undefined when either is unknown. */
  sameCluster?: boolean | undefined;
  /** Lines a reader must see first (two different clusters, NEW older than OLD). */
  warnings: string[];
  findings: { new: FindingChange[]; resolved: FindingChange[]; persisting: FindingChange[] };
  /** The diagnosis roots (finding ids) of each side. */
  roots: { before: string[]; after: string[] };
  changes: StateChange[];
  /** Error templates of NEW's digest that OLD's digest lacks (the unknown that appeared). */
  unknown: DigestRow[];
}

export function compareReports(before: Report, after: Report): ReportDiff {
  const old = sideOf(before);
  const now = sideOf(after);
  const intervalMs = old.collectedAt && now.collectedAt ? Date.parse(now.collectedAt) - Date.parse(old.collectedAt) : undefined;
  const sameCluster = old.clusterId && now.clusterId ? old.clusterId === now.clusterId : undefined;
  const warnings: string[] = [];
  if (sameCluster === false) warnings.push(`The two inputs are from different clusters (${old.clusterId} and ${now.clusterId}): the comparison still runs, but its changes are not one cluster's history.`);
  if (intervalMs !== undefined && intervalMs < 0) warnings.push(`NEW (${now.collectedAt}) was collected before OLD (${old.collectedAt}): the changes read backwards in time.`);
  return {
    old,
    new: now,
    intervalMs,
    sameCluster,
    warnings,
    findings: compareFindings(before.findings, after.findings),
    roots: { before: before.diagnosis.roots.map(rootId), after: after.diagnosis.roots.map(rootId) },
    changes: [...clusterVersionChanges(before, after), ...alertChanges(before, after), ...riskChanges(before, after)],
    unknown: newTemplates(before, after),
  };
}

function sideOf(report: Report): DiffSide {
  return {
    input: report.input.path,
    collectedAt: report.collectedAt,
    clusterId: report.cluster.id,
    version: report.cluster.version,
    desiredVersion: report.cluster.desiredVersion,
  };
}

function rootId(node: DiagnosisNode): string {
  return node.ruleId;
}

function compareFindings(before: readonly Finding[], after: readonly Finding[]): ReportDiff['findings'] {
  const byId = (list: readonly Finding[]): Map<string, Finding> => new Map(list.map((f) => [findingId(f), f]));
  const was = byId(before);
  const is = byId(after);
  const bySeverity = (a: FindingChange, b: FindingChange): number => severityRank(b.severity) - severityRank(a.severity) || a.id.localeCompare(b.id);
  const plain = (f: Finding): FindingChange => ({ id: findingId(f), ruleId: f.ruleId, title: f.title, severity: f.severity });
  const persisting: FindingChange[] = [];
  for (const [id, f] of is) {
    const prior = was.get(id);
    if (prior) persisting.push(persistingChange(prior, f));
  }
  return {
    new: [...is].filter(([id]) => !was.has(id)).map(([, f]) => plain(f)).sort(bySeverity),
    resolved: [...was].filter(([id]) => !is.has(id)).map(([, f]) => plain(f)).sort(bySeverity),
    persisting: persisting.sort(bySeverity),
  };
}

function persistingChange(prior: Finding, f: Finding): FindingChange {
  const objects = (x: Finding): Map<string, string> => new Map(x.about.map((o) => [objectKey(o), describeObject(o)]));
  const was = objects(prior);
  const is = objects(f);
  const added = [...is].filter(([k]) => !was.has(k)).map(([, d]) => d);
  const removed = [...was].filter(([k]) => !is.has(k)).map(([, d]) => d);
  const evidenceBefore = prior.evidence.length + prior.evidenceDropped;
  const evidenceAfter = f.evidence.length + f.evidenceDropped;
  const said = [
    prior.severity !== f.severity ? `severity ${prior.severity} → ${f.severity}` : '',
    added.length > 0 ? `now also about ${added.join(', ')}` : '',
    removed.length > 0 ? `no longer about ${removed.join(', ')}` : '',
    evidenceBefore !== evidenceAfter ? `evidence ${evidenceBefore} → ${evidenceAfter}` : '',
  ].filter(Boolean);
  return {
    id: findingId(f),
    ruleId: f.ruleId,
    title: f.title,
    severity: f.severity,
    ...(prior.severity !== f.severity ? { severityBefore: prior.severity } : {}),
    ...(added.length > 0 ? { objectsAdded: added } : {}),
    ...(removed.length > 0 ? { objectsRemoved: removed } : {}),
    evidenceBefore,
    evidenceAfter,
    ...(said.length > 0 ? { changed: said.join('; ') } : {}),
  };
}

/** A change of one value, when it changed. */
function changed(kind: string, name: string, what: string, before: string | undefined, after: string | undefined, namespace?: string): StateChange[] {
  if (before === after) return [];
  return [{ kind, ...(namespace ? { namespace } : {}), name, what, ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) }];
}

function clusterVersionChanges(before: Report, after: Report): StateChange[] {
  const cv = (what: string, a: string | undefined, b: string | undefined): StateChange[] => changed('ClusterVersion', 'version', what, a, b);
  const entry = (h: Report['facts']['history'][number]): string => `${h.version} (${h.state}${h.started ? `, started ${h.started}` : ''})`;
  const seen = new Set(before.facts.history.map((h) => `${h.version}@${h.started ?? ''}`));
  const added = after.facts.history.filter((h) => !seen.has(`${h.version}@${h.started ?? ''}`));
  const states = new Map(before.facts.history.map((h) => [`${h.version}@${h.started ?? ''}`, h.state]));
  const condition = (name: 'retrievedUpdates' | 'upgradeable' | 'releaseAccepted', r: Report): string | undefined => {
    const c = r.facts.verdicts.updates?.[name];
    return c ? `${c.status}${c.reason ? ` (${c.reason})` : ''}` : undefined;
  };
  return [
    ...cv('version', before.cluster.version, after.cluster.version),
    ...cv('desired version', before.cluster.desiredVersion, after.cluster.desiredVersion),
    ...cv('channel', before.cluster.channel, after.cluster.channel),
    ...added.map((h) => ({ kind: 'ClusterVersion', name: 'version', what: 'history entry added', after: entry(h) })),
    ...after.facts.history.flatMap((h) => {
      const prior = states.get(`${h.version}@${h.started ?? ''}`);
      return prior !== undefined ? cv(`history ${h.version}`, prior, h.state) : [];
    }),
    ...cv('RetrievedUpdates', condition('retrievedUpdates', before), condition('retrievedUpdates', after)),
    ...cv('Upgradeable', condition('upgradeable', before), condition('upgradeable', after)),
    ...cv('ReleaseAccepted', condition('releaseAccepted', before), condition('releaseAccepted', after)),
  ];
}

function alertChanges(before: Report, after: Report): StateChange[] {
  const alerts = (r: Report): Map<string, string> | undefined =>
    r.facts.verdicts.alerts && new Map(r.facts.verdicts.alerts.map((a) => [`${a.name}{${a.labels}}`, `${a.state} (${a.severity})`]));
  const was = alerts(before);
  const is = alerts(after);
  // Without an alerts file on one side there is nothing to compare: absent is not cleared.
  if (!was || !is) return [];
  const keys = [...new Set([...was.keys(), ...is.keys()])].sort();
  return keys.flatMap((key) => {
    const a = was.get(key);
    const b = is.get(key);
    const what = a === undefined ? 'alert started' : b === undefined ? 'alert cleared' : 'alert';
    return changed('Alert', key, what, a, b);
  });
}

function riskChanges(before: Report, after: Report): StateChange[] {
  const verdicts = (r: Report): Map<string, string> | undefined =>
    r.updateRisks?.data && new Map(r.updateRisks.current.flatMap((row) => row.targets.map((to) => [`${row.name} → ${to}`, row.verdict] as const)));
  const was = verdicts(before);
  const is = verdicts(after);
  if (!was || !is) return [];
  const keys = [...new Set([...was.keys(), ...is.keys()])].sort();
  return keys.flatMap((key) => changed('UpdateRisk', key, 'verdict', was.get(key), is.get(key)));
}

function newTemplates(before: Report, after: Report): DigestRow[] {
  const known = new Set((before.digest?.components ?? []).flatMap((c) => c.templates.map((t) => t.id)));
  return (after.digest?.components ?? []).flatMap((c) => c.templates.filter((t) => !known.has(t.id)));
}

/** Whether NEW has a new finding at or above the severity (the diff's exit code 1). */
export function newAtOrAbove(diff: ReportDiff, failOn: Severity): boolean {
  return diff.findings.new.some((f) => severityRank(f.severity) >= severityRank(failOn));
}
