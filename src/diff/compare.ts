/**
 * What changed between two reports of the same cluster (`mgsift diff OLD NEW`): findings new,
 * resolved and persisting (matched by rule id and key), the diagnosis roots before and after, the
 * state that moved (ClusterVersion, alerts, update-risk verdicts, and whatever else both reports
 * hold as state), and the unrecognised-error templates that are new. Pure: it reads two reports.
 */
import { findingId, severityRank, type Finding, type Severity } from '../engine/findings.js';
import { describeObject, objectKey, type DiagnosisNode } from '../engine/diagnosis.js';
import type { DigestRow, Report, ReportSummary, UpdateSummary } from '../report/model.js';
import { OPERATOR_CONDITIONS, type OperatorConditions } from '../facts/cluster-summary.js';
import type { AuditChange, AuditSummary } from '../facts/audit.js';
import { parseTime } from '../report/common.js';

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
  /** Said in a few words: `severity warning → error; now also about …`, `new about …`, `no longer found, was about …`; absent: unchanged. */
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
  /** The update in progress on each side (`summary.update`, null when not updating) and what moved. */
  update: { before: UpdateSummary | null; after: UpdateSummary | null; moved: string[] };
  /** What the audit logs say was changed between the collections; absent when neither input has audit logs. */
  audit?: DiffAudit | undefined;
}

/** The audited changes between OLD's collection and NEW's. */
export interface DiffAudit {
  /**
   * Changes by people and non-platform accounts in (OLD collected, NEW collected], from the audit
   * logs of both inputs (OLD's run a little past its collection), newest first; empty unless both
   * inputs have audit logs.
   */
  changes: AuditChange[];
  /** What the list cannot show: a side without audit logs, time no audit log covers, changes past those the analyses kept. */
  notes: string[];
}

export function compareReports(before: Report, after: Report): ReportDiff {
  const old = sideOf(before);
  const now = sideOf(after);
  const intervalMs = old.collectedAt && now.collectedAt ? Date.parse(now.collectedAt) - Date.parse(old.collectedAt) : undefined;
  const sameCluster = old.clusterId && now.clusterId ? old.clusterId === now.clusterId : undefined;
  const warnings: string[] = [];
  if (sameCluster === false) warnings.push(`The two inputs are from different clusters (${old.clusterId} and ${now.clusterId}): the comparison still runs, but its changes are not one cluster's history.`);
  if (intervalMs !== undefined && intervalMs < 0) warnings.push(`NEW (${now.collectedAt}) was collected before OLD (${old.collectedAt}): the changes read backwards in time.`);
  for (const [side, report] of [['OLD', before], ['NEW', after]] as const) {
    const t = report.input.truncated;
    if (t) warnings.push(`${side} stopped before its end (${t.reason}; ${t.entriesRead} entries read, up to ${t.lastEntry}): what it lacks may only be unread, not resolved or new.`);
  }
  return {
    old,
    new: now,
    intervalMs,
    sameCluster,
    warnings,
    findings: compareFindings(before.findings, after.findings),
    roots: { before: before.diagnosis.roots.map(rootId), after: after.diagnosis.roots.map(rootId) },
    changes: [
      ...clusterVersionChanges(before, after),
      ...operatorChanges(before.summary, after.summary),
      ...poolChanges(before.summary, after.summary),
      ...nodeChanges(before.summary, after.summary),
      ...podChanges(before.summary, after.summary),
      ...alertChanges(before, after),
      ...riskChanges(before, after),
    ],
    unknown: newTemplates(before, after),
    update: { before: before.summary.update, after: after.summary.update, moved: updateMoved(before.summary, after.summary) },
    audit: auditBetween(before, after),
  };
}

/**
 * The changes both inputs' audit logs show between the two collection times. Without OLD's
 * collection time, the end of its audit logs stands for it; without NEW's, everything after.
 */
function auditBetween(before: Report, after: Report): DiffAudit | undefined {
  const old = before.audit?.summary;
  const now = after.audit?.summary;
  if (old === undefined && now === undefined) return undefined;
  if (old === undefined || now === undefined) {
    const [lacking, having] = old === undefined ? ['OLD', 'NEW'] : ['NEW', 'OLD'];
    return { changes: [], notes: [`${lacking} has no audit logs (only ${having} was gathered with gather_audit_logs): the changes between the collections are not known.`] };
  }
  const from = parseTime(before.collectedAt) ?? parseTime(old.window?.last) ?? -Infinity;
  const to = parseTime(after.collectedAt) ?? Infinity;
  const seen = new Set<string>();
  const changes: AuditChange[] = [];
  for (const change of [...now.changes, ...old.changes]) {
    const at = Date.parse(change.time);
    const key = `${change.time}\0${change.user}\0${change.verb}\0${change.resource}\0${change.namespace}\0${change.name}\0${change.server}`;
    if (at > from && at <= to && !seen.has(key)) {
      seen.add(key);
      changes.push(change);
    }
  }
  changes.sort((a, b) => Date.parse(b.time) - Date.parse(a.time));
  return { changes, notes: auditGaps(old, now, from) };
}

/** Where the listed changes may not be all of the interval's. */
function auditGaps(old: AuditSummary, now: AuditSummary, from: number): string[] {
  const notes: string[] = [];
  const covered = Math.max(from, parseTime(old.window?.last) ?? -Infinity);
  const newFirst = parseTime(now.window?.first);
  // A minute's slack: the first event of NEW's logs a moment after OLD's last is no gap.
  if (Number.isFinite(from) && newFirst !== undefined && newFirst - covered > 60_000) {
    notes.push(`No audit log covers ${new Date(covered).toISOString()} to ${now.window!.first} (NEW's audit logs begin after OLD's collection): changes then are not known.`);
  }
  const oldestKept = now.changes.at(-1);
  if (now.events.changesNotListed > 0 && oldestKept !== undefined && Date.parse(oldestKept.time) > from) {
    notes.push(`NEW's analysis kept its ${now.changes.length} newest changes (${now.events.changesNotListed} older not kept): \`mgsift audit NEW --since ${Number.isFinite(from) ? new Date(from).toISOString() : '<time>'}\` lists every change since OLD's collection.`);
  }
  return notes;
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
  const plain = (f: Finding, what: 'new' | 'resolved'): FindingChange => {
    const about = f.about.map(describeObject);
    const objects = about.length > 0 ? ` about ${about.slice(0, 3).join(', ')}${about.length > 3 ? ` and ${about.length - 3} more` : ''}` : '';
    return { id: findingId(f), ruleId: f.ruleId, title: f.title, severity: f.severity, changed: what === 'new' ? `new${objects}` : `no longer found${objects && `, was${objects}`}` };
  };
  const persisting: FindingChange[] = [];
  for (const [id, f] of is) {
    const prior = was.get(id);
    if (prior) persisting.push(persistingChange(prior, f));
  }
  return {
    new: [...is].filter(([id]) => !was.has(id)).map(([, f]) => plain(f, 'new')).sort(bySeverity),
    resolved: [...was].filter(([id]) => !is.has(id)).map(([, f]) => plain(f, 'resolved')).sort(bySeverity),
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

/** The names on both sides, sorted: a state compares only objects both sides hold (the others are added or removed). */
function common<T>(was: ReadonlyMap<string, T>, is: ReadonlyMap<string, T>): string[] {
  return [...was.keys()].filter((name) => is.has(name)).sort();
}

/** Objects one side holds and the other does not, as `added` / `removed` changes with what that side said of them. */
function presence<T>(kind: string, was: ReadonlyMap<string, T>, is: ReadonlyMap<string, T>, describe: (item: T, side: 'before' | 'after') => string): StateChange[] {
  const names = [...new Set([...was.keys(), ...is.keys()])].sort();
  return names.flatMap((name) => {
    const b = was.get(name);
    const a = is.get(name);
    if (b === undefined) return changed(kind, name, `${kindWord(kind)} added`, undefined, describe(a!, 'after'));
    if (a === undefined) return changed(kind, name, `${kindWord(kind)} removed`, describe(b, 'before'), undefined);
    return [];
  });
}

function kindWord(kind: string): string {
  return kind === 'MachineConfigPool' ? 'pool' : kind === 'ClusterOperator' ? 'operator' : kind.toLowerCase();
}

function conditionWords(c: { status: string; reason?: string | undefined } | undefined): string | undefined {
  return c && `${c.status}${c.reason ? ` (${c.reason})` : ''}`;
}

/** Every operator condition whose status moved, with its reason; operators that came or went. */
function operatorChanges(before: ReportSummary, after: ReportSummary): StateChange[] {
  // A side that could not tell (no ClusterOperators) is not a change.
  if (!before.operators || !after.operators) return [];
  const was = new Map(before.operators.conditions.map((o) => [o.name, o.conditions]));
  const is = new Map(after.operators.conditions.map((o) => [o.name, o.conditions]));
  const describe = (c: OperatorConditions['conditions']): string =>
    OPERATOR_CONDITIONS.flatMap((type) => (c[type] ? [`${type} ${conditionWords(c[type])}`] : [])).join(', ') || 'no condition';
  return [
    ...presence('ClusterOperator', was, is, describe),
    ...common(was, is).flatMap((name) =>
      OPERATOR_CONDITIONS.flatMap((type) => {
        const b = was.get(name)![type];
        const a = is.get(name)![type];
        // The status is the change; a reason alone moving within one status is the operator's detail.
        return b?.status === a?.status ? [] : changed('ClusterOperator', name, type, conditionWords(b), conditionWords(a));
      }),
    ),
  ];
}

/**
 * A pool's status in the same words wherever the diff names it: oc's (`Progressing 0/2 nodes
 * updated`) on a side with an update in progress, else the pool's own machine counts.
 */
function poolWords(s: ReportSummary, name: string): string | undefined {
  const u = s.update?.pools.find((p) => p.name === name);
  if (u) return `${u.assessment} ${u.nodesUpdated}/${u.nodesTotal} nodes updated`;
  const p = s.pools?.find((x) => x.name === name);
  return p && `${p.updated ?? '?'}/${p.machines ?? '?'} updated, ${p.ready ?? '?'} ready, ${p.degraded ?? 0} degraded`;
}

function poolChanges(before: ReportSummary, after: ReportSummary): StateChange[] {
  if (!before.pools || !after.pools) return [];
  const was = new Map(before.pools.map((p) => [p.name, p]));
  const is = new Map(after.pools.map((p) => [p.name, p]));
  return [
    ...presence('MachineConfigPool', was, is, (p, side) => poolWords(side === 'before' ? before : after, p.name) ?? ''),
    ...common(was, is).flatMap((name) => {
      const b = was.get(name)!;
      const a = is.get(name)!;
      // With an update in progress on both sides, the Update section says how each pool moved.
      const updating = before.update !== null && after.update !== null;
      return [
        ...(updating ? [] : changed('MachineConfigPool', name, 'status', poolWords(before, name), poolWords(after, name))),
        ...changed('MachineConfigPool', name, 'paused', String(b.paused), String(a.paused)),
        ...changed('MachineConfigPool', name, 'rendered config', b.config, a.config),
      ];
    }),
  ];
}

type NodeMember = NonNullable<ReportSummary['nodes']>['members'][number];

/** Nodes by name: added and removed ones, their roles and pools; Ready and schedulable moves of nodes both sides hold. */
function nodeChanges(before: ReportSummary, after: ReportSummary): StateChange[] {
  const b = before.nodes;
  const a = after.nodes;
  if (!b || !a) return [];
  const was = new Map(b.members.map((m) => [m.name, m]));
  const is = new Map(a.members.map((m) => [m.name, m]));
  const flags = (n: NonNullable<ReportSummary['nodes']>, name: string): string[] => [n.notReady.includes(name) ? 'not ready' : '', n.unschedulable.includes(name) ? 'unschedulable' : ''].filter(Boolean);
  const describe = (m: NodeMember, side: 'before' | 'after'): string => [`roles ${m.roles.join(', ') || 'none'}`, `pool ${m.pool ?? 'none'}`, ...flags(side === 'before' ? b : a, m.name)].join('; ');
  // Versions the kubelets report, without the nodes that do not say: counts that only follow nodes added or removed say nothing new.
  const kubelets = (n: NonNullable<ReportSummary['nodes']>): string => n.kubelet.filter((k) => k.version !== 'unknown').map((k) => `${k.version} ×${k.count}`).join(', ');
  const versions = (n: NonNullable<ReportSummary['nodes']>): string => n.kubelet.filter((k) => k.version !== 'unknown').map((k) => k.version).sort().join(',');
  return [
    ...changed('Nodes', 'all', 'count', String(b.total), String(a.total)),
    ...presence('Node', was, is, describe),
    ...common(was, is).flatMap((name) => {
      const m = was.get(name)!;
      const n = is.get(name)!;
      return [
        ...changed('Node', name, 'roles', m.roles.join(', ') || 'none', n.roles.join(', ') || 'none'),
        ...changed('Node', name, 'pool', m.pool ?? 'none', n.pool ?? 'none'),
        ...changed('Node', name, 'Ready', b.notReady.includes(name) ? 'False' : 'True', a.notReady.includes(name) ? 'False' : 'True'),
        ...changed('Node', name, 'unschedulable', String(b.unschedulable.includes(name)), String(a.unschedulable.includes(name))),
      ];
    }),
    ...(versions(b) === versions(a) ? [] : changed('Nodes', 'all', 'kubelet versions', kubelets(b) || undefined, kubelets(a) || undefined)),
  ];
}

function podChanges(before: ReportSummary, after: ReportSummary): StateChange[] {
  if (!before.pods || !after.pods) return [];
  const failing = (s: NonNullable<ReportSummary['pods']>): Map<string, string> =>
    new Map(s.notRunning.flatMap((group) => group.pods.map((p) => [`${p.namespace}/${p.name}`, group.reason] as const)));
  const restarts = (s: NonNullable<ReportSummary['pods']>): Map<string, number> => new Map(s.restarting.map((r) => [`${r.namespace}/${r.pod}/${r.container}`, r.restarts]));
  const wasFailing = failing(before.pods);
  const isFailing = failing(after.pods);
  const wasRestarts = restarts(before.pods);
  const out: StateChange[] = [];
  for (const [key, reason] of isFailing) {
    if (wasFailing.get(key) === reason) continue;
    const [namespace, name] = key.split('/') as [string, string];
    out.push({ kind: 'Pod', namespace, name, what: 'not running', ...(wasFailing.has(key) ? { before: wasFailing.get(key) } : {}), after: reason });
  }
  for (const r of after.pods.restarting) {
    const prior = wasRestarts.get(`${r.namespace}/${r.pod}/${r.container}`);
    if (prior !== undefined && prior >= r.restarts) continue;
    // Not among OLD's restarting containers: not restarting there, or not there at all (another cluster's pod).
    out.push({ kind: 'Pod', namespace: r.namespace, name: r.pod, what: `container ${r.container} restarts${r.lastReason ? ` (last: ${r.lastReason})` : ''}`, before: prior !== undefined ? String(prior) : 'not restarting', after: String(r.restarts) });
  }
  return out;
}

/** What moved in the update between the two: its assessment, completion, operators and pools. */
function updateMoved(beforeSummary: ReportSummary, afterSummary: ReportSummary): string[] {
  const before = beforeSummary.update;
  const after = afterSummary.update;
  if (!before && !after) return [];
  if (!before) return [`an update to ${after!.target} started (${after!.assessment}, ${after!.completionPercent}% complete)`];
  if (!after) return [`the update to ${before.target} is no longer in progress`];
  const moved: string[] = [];
  if (before.target !== after.target) moved.push(`target ${before.target} → ${after.target}`);
  if (before.assessment !== after.assessment) moved.push(`assessment ${before.assessment} → ${after.assessment}`);
  if (before.completionPercent !== after.completionPercent) moved.push(`completion ${before.completionPercent}% → ${after.completionPercent}%`);
  if (before.operatorsUpdated !== after.operatorsUpdated) moved.push(`operators updated ${before.operatorsUpdated} → ${after.operatorsUpdated} of ${after.operatorsTotal}`);
  for (const name of new Set([...before.pools, ...after.pools].map((p) => p.name))) {
    const was = poolWords(beforeSummary, name);
    const is = poolWords(afterSummary, name);
    if (was !== is) moved.push(`pool ${name}: ${was ?? 'absent'} → ${is ?? 'absent'}`);
  }
  return moved;
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
