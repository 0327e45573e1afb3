/**
 * "At a glance", first in every report: the version and the update in progress (as `oc adm
 * upgrade status` reads it), then the ClusterOperators, nodes, pools, pods and etcd, counted at
 * the collection time. The report model ({@link reportSummary}), the JSON in the schema's key
 * order, the text headline (the terminal, JUnit), Markdown and the HTML view model.
 */
import { iso } from '../analysis/inspect.js';
import type { ClusterIdentity } from '../facts/cluster.js';
import type { ClusterSummary } from '../facts/cluster-summary.js';
import { newestCompleted, type UpdateHistory } from '../facts/history.js';
import { remainingText, shortDuration, type UpdateStatus } from '../facts/update-status.js';
import type { ReportSummary, UpdateInsightRow, UpdatePoolRow, UpdateSummary } from './model.js';
import { alignedLines, compareStrings, displayTime, formatBytes, formatUtc, sanitizeText } from './common.js';
import { OPERATOR_CONDITIONS } from '../facts/cluster-summary.js';
import { put, type Json, type JsonObject } from './json.js';
import { mdText, table } from './md.js';

const NO_SUMMARY: ClusterSummary = { atSource: 'none', etcd: { gathered: false, endpoints: 0, healthy: 0 }, update: null, updateUnknown: 'the archive holds no ClusterVersion' };

/** The report's summary from the facts (times as ISO 8601, oc's wording of durations). */
export function reportSummary(summary: ClusterSummary | undefined, cluster: ClusterIdentity | undefined, history?: UpdateHistory | undefined): ReportSummary {
  const s = summary ?? NO_SUMMARY;
  const info = s.etcd.info;
  const out: ReportSummary = {
    at: iso(s.at),
    atSource: s.atSource,
    headline: [],
    operators: s.operators,
    nodes: s.nodes,
    pools: s.pools,
    pods: s.pods && {
      ...s.pods,
      restarting: s.pods.restarting.map(({ lastFinishedAt, ...c }) => ({ ...c, lastFinishedAt: iso(lastFinishedAt) })),
    },
    etcd: {
      gathered: s.etcd.gathered,
      endpoints: s.etcd.endpoints,
      healthy: s.etcd.healthy,
      leader: s.etcd.leader,
      dbSize: s.etcd.dbSize,
      dbSizeInUse: s.etcd.dbSizeInUse,
      members: info?.members ?? [],
      health: info?.health ?? [],
      alarms: info?.alarms ?? [],
      unreadable: info?.unreadable ?? [],
    },
    update: s.update === null ? null : updateSummary(s.update, s.at),
    updateUnknown: s.updateUnknown,
  };
  out.headline = headline(out, cluster?.currentVersion, reached(history));
  return out;
}

/** When the cluster reached its version: the newest completed entry, an install or an update. */
function reached(history: UpdateHistory | undefined): string | undefined {
  const entry = newestCompleted(history?.entries ?? []);
  if (entry?.completionTime === undefined) return undefined;
  return `${entry === history?.install ? 'installed' : 'updated to it'} ${formatUtc(Math.floor(entry.completionTime / 1000) * 1000)}`;
}

function updateSummary(u: UpdateStatus, at: number | undefined): UpdateSummary {
  return {
    assessment: u.assessment,
    target: u.target,
    from: u.from,
    fromIncomplete: u.fromIncomplete,
    install: u.install,
    multiArch: u.multiArch,
    startedAt: iso(u.startedAt),
    completedAt: iso(u.completedAt),
    duration: shortDuration(u.durationMs),
    durationSeconds: Math.round(u.durationMs / 1000),
    estimatedRemaining: remainingText(u),
    completionPercent: u.completionPercent,
    operatorsTotal: u.operatorsTotal,
    operatorsUpdated: u.operatorsUpdated,
    operatorsUpdating: [...u.operatorsUpdating],
    operatorsWaiting: u.operatorsWaiting,
    operatorsUnavailable: u.operatorsUnavailable,
    operatorsDegraded: u.operatorsDegraded,
    pools: u.pools.map((p): UpdatePoolRow => ({ ...p, nodes: p.nodes.map((n) => ({ ...n })) })),
    health: u.health.map(
      (i): UpdateInsightRow => ({
        type: i.type,
        level: i.level,
        impact: i.impact,
        message: i.message,
        description: i.description,
        since: iso(i.since),
        age: i.since === undefined ? '-' : i.afterCollection === true ? 'after the collection time' : at === undefined ? '?' : shortDuration(Math.trunc((at - i.since) / 1000) * 1000),
        afterCollection: i.afterCollection,
        reference: i.reference,
        object: { ...i.object },
      }),
    ),
    notes: [...u.notes],
  };
}

// ---------------------------------------------------------------------------------------------
// Words shared by the formats.

/** `4.14.0 → 4.14.1`, `incomplete 4.14.1 → 4.15.0-ec.2`, `4.18.0-ec.3 to multi-architecture`. */
export function updateEdge(u: UpdateSummary): string {
  if (u.install) return `${u.target} (install)`;
  if (u.multiArch) return `${u.target} to multi-architecture`;
  return `${u.fromIncomplete ? 'incomplete ' : ''}${u.from ?? 'unknown'} → ${u.target}`;
}

/** One sentence of the control plane's progress: `Progressing, 12% (4 of 33 operators), 6s; waiting on etcd`. */
export function progressText(u: UpdateSummary): string {
  if (u.assessment === 'Completed') {
    return `control plane completed${u.completedAt !== undefined ? ` at ${displayTime(u.completedAt)}` : ''} in ${u.duration}`;
  }
  const remaining = u.estimatedRemaining !== undefined ? `, est. remaining ${u.estimatedRemaining}` : '';
  const waiting = u.operatorsUpdating.length > 0 ? `; waiting on ${u.operatorsUpdating.join(', ')}` : `; ${u.operatorsWaiting} operator${u.operatorsWaiting === 1 ? '' : 's'} not started`;
  return `${u.assessment}, ${u.completionPercent}% (${u.operatorsUpdated} of ${u.operatorsTotal} operators), ${u.duration}${remaining}${waiting}`;
}

/** A pool's progress: `worker Pending 0% (0/3, paused)`. */
export function poolText(p: UpdatePoolRow): string {
  if (p.assessment === 'Empty') return `${p.name} empty`;
  return `${p.name} ${p.assessment} ${p.completionPercent ?? 0}% (${p.nodesUpdated}/${p.nodesTotal}${p.paused ? ', paused' : ''})`;
}

/** The decisive names of a glance cell, or undefined when nothing is wrong. */
function glanceNames(parts: readonly string[]): string | undefined {
  const text = parts.filter((x) => x !== '').join(' · ');
  return text === '' ? undefined : s_(text);
}

/** Insights at Warning and above: what the headline and the first screen name. */
export function problemInsights(u: UpdateSummary): UpdateInsightRow[] {
  return u.health.filter((i) => i.level !== 'Info');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function listed(names: readonly string[], max = 3): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/** `Warning: <message> (and 2 more)`, or undefined when the update is proceeding well. */
function worstText(u: UpdateSummary): string | undefined {
  const problems = problemInsights(u);
  const worst = problems[0];
  return worst === undefined ? undefined : `${worst.level}: ${worst.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`;
}

/** The update line of the headline. */
function updateLine(s: ReportSummary, version: string | undefined, since: string | undefined): string {
  const v = version ?? 'unknown';
  const u = s.update;
  if (u === null) return s.updateUnknown !== undefined ? `Version ${v}; whether it is updating is unknown: ${s.updateUnknown}` : `Version ${v}, not updating${since !== undefined ? ` (${since})` : ''}`;
  const workers = u.pools.filter((p) => !p.controlPlane && p.nodesTotal > 0 && p.assessment !== 'Completed');
  const pools = u.assessment === 'Completed' && workers.length > 0 ? `; worker pools ${workers.map(poolText).join(', ')}` : '';
  const problems = problemInsights(u);
  const worst = problems[0];
  const health = worst === undefined ? '' : ` — ${worst.level}: ${worst.message}${problems.length > 1 ? ` (+${problems.length - 1} more)` : ''}`;
  return `Updating ${updateEdge(u)}: ${progressText(u)}${pools}${health}`;
}

/** The health line of the headline: operators, nodes, pools, etcd, pods. */
function healthLine(s: ReportSummary): string {
  const parts: string[] = [];
  const o = s.operators;
  if (o) {
    const bad = [...(o.degraded.length > 0 ? [`degraded ${listed(o.degraded)}`] : []), ...(o.unavailable.length > 0 ? [`unavailable ${listed(o.unavailable)}`] : [])];
    parts.push(`operators ${o.available}/${o.total} available${bad.length > 0 ? ` (${bad.join('; ')})` : ''}`);
  }
  const n = s.nodes;
  if (n) parts.push(`nodes ${n.ready}/${n.total} ready${n.notReady.length > 0 ? ` (not ready: ${listed(n.notReady)})` : ''}${n.unschedulable.length > 0 ? `, ${n.unschedulable.length} cordoned` : ''}`);
  if (s.update !== null) {
    // Mid-update, a pool's own counts are of the config it is on: the nodes on the target version tell more.
    const pools = s.update.pools;
    const empty = pools.filter((p) => p.nodesTotal === 0).map((p) => p.name);
    const shown = pools.filter((p) => p.nodesTotal > 0).map((p) => `${p.name} ${p.nodesUpdated}/${p.nodesTotal}${p.paused ? ' paused' : ''}${p.degraded > 0 ? ` (${p.degraded} degraded)` : ''}`);
    if (shown.length > 0) parts.push(`pools ${shown.join(', ')} on ${s.update.target}${empty.length > 0 ? `; ${empty.join(', ')} empty` : ''}`);
  } else if (s.pools && s.pools.length > 0) {
    parts.push(`pools ${s.pools.map((p) => `${p.name} ${p.updated ?? '?'}/${p.machines ?? '?'}${p.paused ? ' paused' : ''}${p.degradedConditions.length > 0 ? ' degraded' : ''}`).join(', ')} updated`);
  }
  const e = s.etcd;
  if (e.gathered) parts.push(`etcd ${e.healthy}/${e.endpoints} endpoints healthy${e.alarms.length > 0 ? `, alarms ${e.alarms.map((a) => a.alarm).join(', ')}` : ''}`);
  const p = s.pods;
  if (p) {
    const notRunning = p.notRunning.reduce((sum, r) => sum + r.count, 0);
    const top = p.restarting[0];
    parts.push(`pods ${notRunning} not running${top !== undefined ? `, ${plural(p.restarting.length + p.restartingMore, 'container')} restarted (most: ${top.container} ×${top.restarts}${top.lastReason !== undefined ? ` ${top.lastReason}` : ''} in ${top.namespace})` : ''}`);
  }
  const text = parts.join(' · ');
  return text === '' ? 'No ClusterOperator, node, pool, pod or etcd data in the archive' : text.charAt(0).toUpperCase() + text.slice(1);
}

function headline(s: ReportSummary, version: string | undefined, since: string | undefined): string[] {
  return [updateLine(s, version, since), healthLine(s)].map(sanitizeText);
}

// ---------------------------------------------------------------------------------------------
// JSON, in the schema's key order.

export function summaryJson(s: ReportSummary): JsonObject {
  const out: JsonObject = {};
  put(out, 'at', s.at);
  out.atSource = s.atSource;
  out.headline = [...s.headline];
  if (s.operators) {
    const o = s.operators;
    // In a fixed order (operators and nodes by name, conditions as OPERATOR_CONDITIONS lists them): the JSON is byte-stable.
    const conditions = [...o.conditions]
      .sort((a, b) => compareStrings(a.name, b.name))
      .map((op) => ({
        name: op.name,
        conditions: compact(Object.fromEntries(OPERATOR_CONDITIONS.map((type) => [type, op.conditions[type] && compact({ status: op.conditions[type].status, reason: op.conditions[type].reason })]))),
      }));
    out.operators = { total: o.total, available: o.available, degraded: [...o.degraded], progressing: [...o.progressing], unavailable: [...o.unavailable], conditions };
  }
  if (s.nodes) {
    const roles: JsonObject = {};
    for (const role of Object.keys(s.nodes.roles).sort()) roles[role] = s.nodes.roles[role]!;
    out.nodes = { total: s.nodes.total, ready: s.nodes.ready, roles, notReady: [...s.nodes.notReady], unschedulable: [...s.nodes.unschedulable], kubelet: s.nodes.kubelet.map((k) => ({ version: k.version, count: k.count })), members: [...s.nodes.members].sort((a, b) => compareStrings(a.name, b.name)).map((m) => compact({ name: m.name, roles: [...m.roles].sort(compareStrings), pool: m.pool })) };
  }
  if (s.pools) {
    out.pools = s.pools.map((p) => {
      const row: JsonObject = { name: p.name };
      for (const key of ['machines', 'updated', 'ready', 'degraded', 'unavailable'] as const) put(row, key, p[key]);
      row.paused = p.paused;
      put(row, 'config', p.config);
      put(row, 'movingTo', p.movingTo);
      row.degradedConditions = [...p.degradedConditions];
      return row;
    });
  }
  if (s.pods) {
    out.pods = {
      total: s.pods.total,
      running: s.pods.running,
      succeeded: s.pods.succeeded,
      notRunning: s.pods.notRunning.map((r) => ({ reason: r.reason, count: r.count, pods: r.pods.map((p) => compact({ namespace: p.namespace, name: p.name, workload: p.workload, node: p.node })) })),
      restarting: s.pods.restarting.map((c) =>
        compact({ namespace: c.namespace, pod: c.pod, container: c.container, workload: c.workload, restarts: c.restarts, lastReason: c.lastReason, lastExitCode: c.lastExitCode, lastFinishedAt: c.lastFinishedAt, waiting: c.waiting }),
      ),
      restartingMore: s.pods.restartingMore,
    };
  }
  const e = s.etcd;
  out.etcd = compact({
    gathered: e.gathered,
    endpoints: e.endpoints,
    healthy: e.healthy,
    leader: e.leader,
    dbSize: e.dbSize,
    dbSizeInUse: e.dbSizeInUse,
    members: e.members.map((m) => compact({ id: m.id, name: m.name, leader: m.leader, version: m.version, dbSize: m.dbSize, dbSizeInUse: m.dbSizeInUse, peerURLs: [...m.peerURLs], clientURLs: [...m.clientURLs] })),
    health: e.health.map((h) => compact({ endpoint: h.endpoint, healthy: h.healthy, took: h.took, error: h.error, member: h.member, local: h.local })),
    alarms: e.alarms.map((a) => compact({ alarm: a.alarm, memberId: a.memberId, member: a.member })),
    unreadable: e.unreadable.map((u) => ({ file: u.file, reason: u.reason })),
  });
  out.update = s.update === null ? null : updateJson(s.update);
  put(out, 'updateUnknown', s.updateUnknown);
  return out;
}

function updateJson(u: UpdateSummary): JsonObject {
  return compact({
    assessment: u.assessment,
    target: u.target,
    from: u.from,
    fromIncomplete: u.fromIncomplete,
    install: u.install,
    multiArch: u.multiArch,
    startedAt: u.startedAt,
    completedAt: u.completedAt,
    duration: u.duration,
    durationSeconds: u.durationSeconds,
    estimatedRemaining: u.estimatedRemaining,
    completionPercent: u.completionPercent,
    operatorsTotal: u.operatorsTotal,
    operatorsUpdated: u.operatorsUpdated,
    operatorsUpdating: [...u.operatorsUpdating],
    operatorsWaiting: u.operatorsWaiting,
    operatorsUnavailable: u.operatorsUnavailable,
    operatorsDegraded: u.operatorsDegraded,
    pools: u.pools.map((p) =>
      compact({
        name: p.name,
        controlPlane: p.controlPlane,
        assessment: p.assessment,
        completionPercent: p.completionPercent,
        nodesUpdated: p.nodesUpdated,
        nodesTotal: p.nodesTotal,
        paused: p.paused,
        available: p.available,
        progressing: p.progressing,
        draining: p.draining,
        excluded: p.excluded,
        degraded: p.degraded,
        nodes: p.nodes.map((n) => compact({ name: n.name, assessment: n.assessment, phase: n.phase, version: n.version, message: n.message, estimate: n.estimate })),
      }),
    ),
    health: u.health.map((i) =>
      compact({
        type: i.type,
        level: i.level,
        impact: i.impact,
        message: i.message,
        description: i.description,
        since: i.since,
        age: i.age,
        afterCollection: i.afterCollection,
        reference: i.reference,
        object: compact({ kind: i.object.kind, namespace: i.object.namespace, name: i.object.name }),
      }),
    ),
    notes: [...u.notes],
  });
}

/** An object of the given keys in their order, those without a value left out. */
function compact(fields: Record<string, Json | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(fields)) put(out, key, value);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Markdown: a list under the title, the update's pools and insights as small tables.

/** Insight rows the Markdown and HTML show; the JSON report holds them all. */
const INSIGHTS_SHOWN = 8;
/** Pool rows the Markdown shows (a cluster may have dozens of custom pools). */
const POOLS_SHOWN = 10;

export function summaryMarkdown(s: ReportSummary): string[] {
  const out = ['## At a glance', '', `*${mdText(atText(s))}*`, ''];
  for (const line of s.headline) out.push(`- ${mdText(line)}`);
  out.push('');
  const u = s.update;
  if (u === null) return out;
  const pools = u.pools.slice(0, POOLS_SHOWN);
  out.push(
    table(
      ['Pool', 'Assessment', 'Completion', 'Nodes'],
      pools.map((p) => [p.controlPlane ? `${p.name} (control plane)` : p.name, p.assessment, p.assessment === 'Empty' ? '' : `${p.completionPercent ?? 0}% (${p.nodesUpdated}/${p.nodesTotal})`, poolCounts(p)]),
    ),
  );
  if (u.pools.length > pools.length) out.push(`*${u.pools.length - pools.length} more pools in the HTML and JSON reports.*`, '');
  const left = nodesLeft(u);
  if (left.rows.length > 0) {
    out.push(table(['Pool', 'Node', 'Assessment', 'Phase', 'Version', 'Est.', 'Message'], left.rows.map(({ pool, node }) => [pool, node.name, node.assessment, node.phase, node.version ?? '?', node.estimate, node.message ?? ''])));
    if (left.omitted > 0) out.push(`*${left.omitted} more nodes not completed in the HTML and JSON reports.*`, '');
  }
  const insights = u.health.slice(0, INSIGHTS_SHOWN);
  out.push(table(['Since', 'Level', 'Impact', 'Update health'], insights.map((i) => [i.age, i.level, i.impact, i.message])));
  if (u.health.length > insights.length) out.push(`*${u.health.length - insights.length} more health insights in the HTML and JSON reports.*`, '');
  for (const note of u.notes) out.push(`*${mdText(note)}*`, '');
  return out;
}

/** Nodes listed per pool in the text and Markdown (oc lists 10 without `--details=nodes`). */
const NODES_SHOWN = 10;

/**
 * The nodes an update has yet to finish, by pool in oc's order: at most {@link NODES_SHOWN} a
 * pool, and every degraded or unavailable one beyond them (as oc keeps nodes in undesired states).
 */
export function nodesLeft(u: UpdateSummary): { rows: { pool: string; node: UpdatePoolRow['nodes'][number] }[]; omitted: number } {
  const rows: { pool: string; node: UpdatePoolRow['nodes'][number] }[] = [];
  let omitted = 0;
  for (const pool of u.pools) {
    const left = pool.nodes.filter((n) => n.assessment !== 'Completed');
    left.forEach((node, i) => {
      if (i < NODES_SHOWN || node.assessment === 'Degraded' || node.assessment === 'Unavailable') rows.push({ pool: pool.name, node });
      else omitted++;
    });
  }
  return { rows, omitted };
}

/** A node's message in the text format: an MCD error may run to several long lines. */
const TEXT_MESSAGE_WIDTH = 200;

function oneLine(text: string, max: number): string {
  const flat = sanitizeText(text).replace(/\s*[\r\n]+\s*/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The text format's update view: the nodes left to update, as oc's node tables (empty when not updating or all are done). */
export function updateNodesText(s: ReportSummary): string {
  const u = s.update;
  if (u === null) return '';
  const left = nodesLeft(u);
  if (left.rows.length === 0) return '';
  const rows = left.rows.map(({ pool, node }) => [pool, node.name, node.assessment, node.phase, node.version ?? '?', node.estimate, oneLine(node.message ?? '', TEXT_MESSAGE_WIDTH)]);
  const lines = [`Nodes not completed in the update to ${u.target} (${left.rows.length + left.omitted}):`, ...alignedLines([['POOL', 'NAME', 'ASSESSMENT', 'PHASE', 'VERSION', 'EST', 'MESSAGE'], ...rows]).map((l) => `  ${l}`)];
  if (left.omitted > 0) lines.push(`  and ${left.omitted} more (every node in the HTML and JSON reports)`);
  return `${lines.join('\n')}\n`;
}

function poolCounts(p: UpdatePoolRow): string {
  if (p.assessment === 'Empty') return '0 nodes';
  const extra = [p.excluded > 0 ? `${p.excluded} excluded` : '', p.degraded > 0 ? `${p.degraded} degraded` : ''].filter((x) => x !== '');
  return [`${p.available} available`, `${p.progressing} progressing`, `${p.draining} draining`, ...extra].join(', ');
}

function atText(s: ReportSummary): string {
  if (s.at === undefined) return 'The archive holds no time: counts as read.';
  const when = displayTime(s.at);
  return s.atSource === 'collection' ? `At the collection time, ${when}.` : `At ${when}, the latest condition change in the archive (it holds no collection time).`;
}

// ---------------------------------------------------------------------------------------------
// HTML view model: plain sanitized strings.

export interface GlanceItem {
  label: string;
  /** `ok`, `warn`, `bad`, `none` (no data). */
  state: string;
  value: string;
  /** The objects that are wrong (the operator degraded, the node not ready, the pool degraded): shown whole, wrapping. */
  names?: string | undefined;
  detail: string | null;
  /** Where the details are (the update's section). */
  link?: string | undefined;
}

export interface SummaryView {
  at: string;
  items: GlanceItem[];
  update: {
    edge: string;
    assessment: string;
    /** The control plane's assessment's colour; `state` is the whole update's (its worst insight too). */
    assessmentState: string;
    state: string;
    progress: string;
    percent: number;
    pools: { name: string; assessment: string; state: string; percent: number; completion: string; counts: string; nodes: { name: string; assessment: string; phase: string; version: string; estimate: string; message: string }[]; hasNodes: boolean }[];
    hasPools: boolean;
    insights: { age: string; since: string; level: string; impact: string; message: string; description: string; state: string }[];
    insightsRest: { age: string; since: string; level: string; impact: string; message: string; description: string; state: string }[];
    hasInsightsRest: boolean;
    notes: string[];
  } | null;
}

const s_ = sanitizeText;

function levelState(level: string): string {
  return level === 'Info' ? 'ok' : level === 'Warning' ? 'warn' : 'bad';
}

/** The update's colour: its assessment, darkened by its worst health insight. */
function updateState(u: UpdateSummary): string {
  const levels = u.health.map((i) => i.level);
  if (assessmentState(u.assessment) === 'bad' || levels.includes('Error') || levels.includes('Critical')) return 'bad';
  if (assessmentState(u.assessment) === 'warn' || levels.includes('Warning')) return 'warn';
  return 'ok';
}

function assessmentState(assessment: string): string {
  if (assessment === 'Completed' || assessment === 'Progressing' || assessment === 'Empty') return 'ok';
  if (assessment === 'Degraded' || assessment === 'Stalled') return 'bad';
  return 'warn';
}

export function summaryView(s: ReportSummary): SummaryView {
  const items: GlanceItem[] = [];
  const u = s.update;
  items.push(
    u === null
      ? s.updateUnknown !== undefined
        ? { label: 'Update', state: 'none', value: 'unknown', detail: s_(s.updateUnknown) }
        : { label: 'Update', state: 'ok', value: 'Not updating', detail: s_((s.headline[0] ?? '').replace(/^Version /, '').replace(/, not updating/, '')) }
      : {
          label: 'Update',
          state: updateState(u),
          value: s_(`${updateEdge(u)}: ${u.assessment === 'Completed' ? 'worker pools updating' : `${u.assessment}, ${u.completionPercent}%`}`),
          // The worst health insight first: what a reader must see; the progress is in the update's section.
          detail: s_(worstText(u) ?? progressText(u)),
          link: '#update',
        },
  );
  const o = s.operators;
  items.push(
    o === undefined
      ? { label: 'Operators', state: 'none', value: 'not gathered', detail: null }
      : {
          label: 'Operators',
          state: o.unavailable.length > 0 ? 'bad' : o.degraded.length > 0 ? 'warn' : 'ok',
          value: `${o.available}/${o.total} available`,
          names: glanceNames([o.unavailable.length > 0 ? `unavailable: ${listed(o.unavailable, 4)}` : '', o.degraded.length > 0 ? `degraded: ${listed(o.degraded, 4)}` : '']),
          detail: s_(o.progressing.length > 0 ? `progressing: ${listed(o.progressing, 4)}` : o.unavailable.length + o.degraded.length > 0 ? '' : 'none degraded or progressing') || null,
        },
  );
  const n = s.nodes;
  items.push(
    n === undefined
      ? { label: 'Nodes', state: 'none', value: 'not gathered', detail: null }
      : {
          label: 'Nodes',
          state: n.notReady.length > 0 ? 'bad' : n.unschedulable.length > 0 ? 'warn' : 'ok',
          value: `${n.ready}/${n.total} ready`,
          names: glanceNames([n.notReady.length > 0 ? `not ready: ${listed(n.notReady, 2)}` : '']),
          detail: s_(
            [
              Object.entries(n.roles).map(([role, count]) => `${count} ${role}`).join(', '),
              n.unschedulable.length > 0 ? `${n.unschedulable.length} cordoned` : '',
              n.kubelet.filter((k) => k.version !== 'unknown').map((k) => `kubelet ${k.version} ×${k.count}`).join(', '),
            ]
              .filter((x) => x !== '')
              .join(' · '),
          ),
        },
  );
  const pools = s.pools;
  const poolNotes = (pools ?? [])
    .flatMap((p) => [p.paused ? `${p.name} paused` : '', p.movingTo !== undefined ? `${p.name} moving to ${p.movingTo}` : '', p.degradedConditions.length > 0 ? `${p.name} ${p.degradedConditions.join(', ')}` : ''])
    .filter((x) => x !== '')
    .join(' · ');
  if (u !== null) {
    // Mid-update, what counts is how many nodes run the target version (a pool's own counts are of the config it is on).
    const nodesUpdated = u.pools.reduce((n, p) => n + p.nodesUpdated, 0);
    const nodesTotal = u.pools.reduce((n, p) => n + p.nodesTotal, 0);
    items.push(
      u.pools.length === 0
        ? { label: 'Pools', state: 'none', value: 'not gathered', detail: null }
        : {
            label: 'Pools',
            state: u.pools.some((p) => p.degraded > 0) ? 'bad' : u.pools.some((p) => p.paused && p.nodesUpdated < p.nodesTotal) ? 'warn' : 'ok',
            value: `${nodesUpdated}/${nodesTotal} updated`,
            names: glanceNames(u.pools.map((p) => (p.degraded > 0 ? `${p.name} degraded (${plural(p.degraded, 'node')})` : p.paused && p.nodesUpdated < p.nodesTotal ? `${p.name} paused` : ''))),
            detail: s_(
              [`${u.pools.map((p) => (p.nodesTotal === 0 ? `${p.name} empty` : `${p.name} ${p.nodesUpdated}/${p.nodesTotal}`)).join(' · ')} on ${u.target}`, poolNotes].filter((x) => x !== '').join(' · '),
            ),
          },
    );
  } else {
    items.push(
      pools === undefined
        ? { label: 'Pools', state: 'none', value: 'not gathered', detail: null }
        : {
            label: 'Pools',
            state: pools.some((p) => p.degradedConditions.length > 0) ? 'bad' : pools.some((p) => p.paused || p.movingTo !== undefined) ? 'warn' : 'ok',
            value: `${pools.filter((p) => p.machines !== undefined && p.updated === p.machines && p.movingTo === undefined).length}/${pools.length} updated`,
            names: glanceNames(pools.map((p) => (p.degradedConditions.length > 0 ? `${p.name} degraded` : ''))),
            detail: s_([pools.map((p) => `${p.name} ${p.updated ?? '?'}/${p.machines ?? '?'}`).join(' · '), poolNotes].filter((x) => x !== '').join(' · ')),
          },
    );
  }
  const p = s.pods;
  if (p === undefined) items.push({ label: 'Pods', state: 'none', value: 'not gathered', detail: null });
  else {
    const notRunning = p.notRunning.reduce((sum, r) => sum + r.count, 0);
    const restarted = p.restarting.length + p.restartingMore;
    items.push({
      label: 'Pods',
      state: notRunning > 0 ? 'warn' : 'ok',
      value: notRunning > 0 ? `${notRunning} not running` : `${p.running} running`,
      detail: s_(
        [
          notRunning > 0 ? p.notRunning.slice(0, 3).map((r) => `${r.count} ${r.reason}`).join(', ') : '',
          `${notRunning > 0 ? `${p.running} running, ` : ''}${p.succeeded} completed, ${p.total} in all`,
          restarted > 0 ? `${plural(restarted, 'container')} restarted; most: ${p.restarting.slice(0, 3).map((c) => `${c.container} ×${c.restarts}${c.lastReason !== undefined ? ` (${c.lastReason})` : ''}`).join(', ')}` : 'no container restarted',
        ]
          .filter((x) => x !== '')
          .join(' · '),
      ),
    });
  }
  const e = s.etcd;
  items.push(
    !e.gathered
      ? { label: 'etcd', state: 'none', value: 'not gathered', detail: 'no etcd_info/ in the archive' }
      : {
          label: 'etcd',
          state: e.alarms.length > 0 || e.healthy < e.endpoints ? 'bad' : 'ok',
          value: `${e.healthy}/${e.endpoints} healthy`,
          detail: s_(
            [
              plural(e.members.length, 'member'),
              e.alarms.length > 0 ? `alarms: ${e.alarms.map((a) => `${a.alarm} on ${a.member ?? a.memberId}`).join(', ')}` : 'no alarm',
              e.dbSize !== undefined ? `db ${formatBytes(e.dbSize)}${e.dbSizeInUse !== undefined ? ` (${formatBytes(e.dbSizeInUse)} in use)` : ''}` : '',
              e.leader !== undefined ? `leader ${e.leader}` : '',
              e.health.some((h) => h.local) ? `${e.health.filter((h) => h.local).length} local-socket endpoints not reachable from the gather pod (expected)` : '',
            ]
              .filter((x) => x !== '')
              .join(' · '),
          ),
        },
  );
  return { at: s_(atText(s)), items, update: u === null ? null : updateView(u) };
}

function updateView(u: UpdateSummary): NonNullable<SummaryView['update']> {
  const insight = (i: UpdateInsightRow): NonNullable<SummaryView['update']>['insights'][number] => ({
    age: s_(i.age),
    since: i.since !== undefined ? displayTime(i.since) : '',
    level: i.level,
    impact: s_(i.impact),
    message: s_(i.message),
    description: s_(i.description),
    state: levelState(i.level),
  });
  const insights = u.health.map(insight);
  return {
    edge: s_(updateEdge(u)),
    assessment: s_(u.assessment),
    assessmentState: assessmentState(u.assessment),
    state: updateState(u),
    progress: s_(progressText(u)),
    percent: Math.max(0, Math.min(100, u.completionPercent)),
    pools: u.pools.map((p) => ({
      name: s_(p.controlPlane ? `${p.name} (control plane)` : p.name),
      assessment: s_(p.assessment),
      state: assessmentState(p.assessment),
      percent: Math.max(0, Math.min(100, p.completionPercent ?? 0)),
      completion: p.assessment === 'Empty' ? 'no nodes' : `${p.completionPercent ?? 0}% (${p.nodesUpdated}/${p.nodesTotal})`,
      counts: s_(poolCounts(p) + (p.paused ? ', paused' : '')),
      nodes: p.nodes.map((node) => ({ name: s_(node.name), assessment: s_(node.assessment), phase: s_(node.phase), version: s_(node.version ?? '?'), estimate: node.estimate, message: s_(node.message ?? '') })),
      hasNodes: p.nodes.length > 0,
    })),
    hasPools: u.pools.length > 0,
    insights: insights.slice(0, INSIGHTS_SHOWN),
    insightsRest: insights.slice(INSIGHTS_SHOWN),
    hasInsightsRest: insights.length > INSIGHTS_SHOWN,
    notes: u.notes.map(s_),
  };
}
