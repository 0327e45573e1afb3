/**
 * The cross-source timeline of one analysis: ClusterVersion history, CVO pods and their
 * lifecycle lines, ClusterOperator condition transitions, node readiness, event groups and
 * every finding's timed evidence, as {@link TimelineItem}s on one axis anchored at the
 * collection time. Pure functions; the reader's clock is never used.
 *
 * The report keeps Warning event groups only, the most frequent first, up to a cap
 * ({@link REPORT_SCOPE}); `mgsift timeline` keeps them all ({@link FULL_SCOPE}). What is left
 * out is counted in {@link TimelineOmission}s.
 */
import type { Analysis } from '../analysis/analyze.js';
import { iso } from '../analysis/inspect.js';
import type { ConditionTransition, EventGroup } from '../facts/timeline-sources.js';
import { conditionGoneBad } from '../facts/cluster.js';
import { duringInstall, STILL_GOING_AFTER_INSTALL_MS } from '../facts/history.js';
import type { Alert } from '../facts/alerts.js';
import type { Rule } from '../engine/rule.js';
import { problemItems } from '../engine/fact-verdict.js';
import { formatUtc, parseTime, sortTimeline, verifiedLabel } from './common.js';
import type { HistoryRow, TimelineItem, TimelineOmission } from './model.js';


export interface TimelineScope {
  /** Event groups kept: every type, or `Warning` only. */
  events: 'all' | 'warning';
  /** Event groups kept at most, the most frequent first; undefined: no cap. */
  maxEventGroups?: number | undefined;
  /**
   * Problems only (`mgsift timeline --problems`): Warning events, conditions going bad (an
   * operator Degraded or unavailable, a node not Ready), updates that did not complete and
   * rollbacks, the CVO losing its lease or its final sync, firing warning and critical alerts,
   * findings at warning and above; not the healthy transitions that fill most lanes.
   */
  problems?: boolean | undefined;
  /**
   * With `problems`: the rule pack, whose verdict decides which alerts are problems (its own
   * exclusions apply: a heartbeat or informational alert is none); without it, every firing
   * warning or critical alert is one.
   */
  rules?: readonly Rule[] | undefined;
  /** With `problems`: keep what began during the install and settled soon after (left out and counted otherwise). */
  includeInstall?: boolean | undefined;
}

/** The report's timeline: Warning event groups only, at most 200 of them. */
export const REPORT_SCOPE: TimelineScope = { events: 'warning', maxEventGroups: 200 };
export const FULL_SCOPE: TimelineScope = { events: 'all' };
/** `mgsift timeline --problems`. */
export const PROBLEMS_SCOPE: TimelineScope = { events: 'warning', problems: true };

/** CVO log moments that are problems: it lost its lease or failed its final status sync (preconditions are skipped at every install). */
const CVO_PROBLEMS = new Set(['lease-lost', 'final-sync-failed']);

export interface Timeline {
  items: TimelineItem[];
  omitted: TimelineOmission[];
}

/** ClusterVersion history rows, oldest first. */
export function historyRows(analysis: Analysis): HistoryRow[] {
  const transitions = analysis.facts.history?.transitions ?? [];
  return transitions.map((t) => ({
    version: t.to.version,
    state: t.to.state,
    verified: t.to.verified,
    started: iso(t.to.startedTime),
    completed: iso(t.to.completionTime),
    image: t.to.image || undefined,
    rollback: t.rollback,
    install: t.isInstall,
    forced: t.forced,
  }));
}

/** Every source on one axis, by start time (see the module comment). */
export function collectTimeline(analysis: Analysis, scope: TimelineScope): Timeline {
  const items: TimelineItem[] = [];
  const omitted: TimelineOmission[] = [];
  const problems = scope.problems === true;
  const rows = historyRows(analysis);
  // Problems keep the install, which marks its window, beside updates not completed and rollbacks.
  items.push(...(problems ? rows.filter((r) => r.install || r.state !== 'Completed' || r.rollback !== undefined) : rows).flatMap(historyItem));
  items.push(...cvoItems(analysis, problems));
  const bad = (kind: 'ClusterOperator' | 'Node') => (t: ConditionTransition) => !problems || conditionGoneBad(kind, t.type, t.status);
  items.push(...analysis.timeline.operators.filter(bad('ClusterOperator')).map((t) => conditionItem('operator', t)));
  items.push(...analysis.timeline.nodes.filter(bad('Node')).map((t) => conditionItem('node', t)));
  items.push(...eventItems(analysis.timeline.events, scope, omitted));
  items.push(...alertItems(analysis, problems, scope.rules));
  items.push(...findingItems(analysis, problems));
  const shown = problems && scope.includeInstall !== true ? withoutInstallNoise(items, analysis, omitted) : items;

  const { dropped } = analysis.timeline;
  if (dropped.operators > 0) omitted.push({ lane: 'operator', count: dropped.operators, reason: 'ClusterOperators past the reader’s memory cap' });
  if (dropped.nodes > 0) omitted.push({ lane: 'node', count: dropped.nodes, reason: 'Nodes past the reader’s memory cap' });
  if (dropped.events > 0) omitted.push({ lane: 'event', count: dropped.events, reason: 'events not read: past the reader’s memory cap' });

  const anchor = analysis.facts.collectedAt;
  if (anchor !== undefined) {
    for (const item of shown) {
      const start = parseTime(item.start);
      if (start === undefined) continue;
      item.relative = relativeTime(start, anchor);
      // Gathered after the timestamp was written (or a clock drifts): marked, never drawn as a future.
      if (start > anchor) item.afterCollection = true;
    }
  }
  return { items: sortTimeline(shown), omitted };
}

/**
 * The items but those that began during the install and settled soon after (see
 * {@link duringInstall}); the history lane, which marks the install, is kept. What is left out is
 * counted per lane.
 */
function withoutInstallNoise(items: readonly TimelineItem[], analysis: Analysis, omitted: TimelineOmission[]): TimelineItem[] {
  const installed = analysis.facts.history?.install?.completionTime;
  if (installed === undefined) return [...items];
  const folded = new Map<string, number>();
  const kept = items.filter((item) => {
    if (!isInstallNoise(item, installed)) return true;
    folded.set(item.lane, (folded.get(item.lane) ?? 0) + 1);
    return false;
  });
  for (const [lane, count] of folded) {
    omitted.push({ lane, count, reason: `begun during the install (completed ${formatUtc(installed)}) and settled within ${STILL_GOING_AFTER_INSTALL_MS / 60_000} minutes after it; --include-install shows them` });
  }
  return kept;
}

function historyItem(row: HistoryRow): TimelineItem[] {
  if (row.started === undefined) return [];
  const notes = [verifiedLabel(row), row.forced ? 'forced' : '', row.rollback !== undefined ? `rollback (${row.rollback})` : '', row.image ?? '']
    .filter((n) => n !== '')
    .join(' · ');
  return [
    {
      lane: 'history',
      start: row.started,
      end: row.completed,
      open: row.completed === undefined ? true : undefined,
      label: `${row.version || '(no version)'} ${row.install ? 'install' : 'update'} ${row.state}`,
      detail: notes,
    },
  ];
}

function cvoItems(analysis: Analysis, problems: boolean): TimelineItem[] {
  const items: TimelineItem[] = [];
  for (const pod of analysis.facts.cvo.pods) {
    const start = iso(pod.firstTime);
    const stream = pod.stream === 'current' ? '' : ` (${pod.stream} log)`;
    if (start && !problems) {
      items.push({
        lane: 'cvo',
        start,
        end: iso(pod.lastTime),
        label: `CVO ${pod.pod}${stream}`,
        detail: `first to last log line${pod.build ? `; build ${pod.build.raw}` : ''}`,
        namespace: pod.namespace,
      });
    }
    for (const moment of pod.moments) {
      if (problems && !CVO_PROBLEMS.has(moment.kind)) continue;
      const at = iso(moment.time);
      if (at) items.push({ lane: 'cvo', start: at, label: moment.kind, detail: moment.text, namespace: pod.namespace });
    }
  }
  return items;
}

function conditionItem(lane: 'operator' | 'node', t: ConditionTransition): TimelineItem {
  const why = [t.reason, t.message].filter((x) => x !== undefined && x !== '').join(': ');
  return { lane, start: new Date(t.time).toISOString(), label: `${t.object} ${t.type}=${t.status}`, detail: why || undefined };
}

function eventItems(groups: readonly EventGroup[], scope: TimelineScope, omitted: TimelineOmission[]): TimelineItem[] {
  const timed = groups.filter((g) => g.firstTime !== undefined || g.lastTime !== undefined);
  if (timed.length < groups.length) omitted.push({ lane: 'event', count: groups.length - timed.length, reason: 'event groups with no time' });
  let kept = timed;
  if (scope.events === 'warning') {
    kept = timed.filter((g) => g.type === 'Warning');
    const other = timed.length - kept.length;
    if (other > 0) omitted.push({ lane: 'event', count: other, reason: 'groups of Normal (not Warning) events' });
  }
  const cap = scope.maxEventGroups;
  if (cap !== undefined && kept.length > cap) {
    const ranked = [...kept].sort((a, b) => b.count - a.count || (b.lastTime ?? 0) - (a.lastTime ?? 0));
    omitted.push({ lane: 'event', count: kept.length - cap, reason: `event groups past the report’s cap of ${cap} (the least frequent)` });
    kept = ranked.slice(0, cap);
  }
  return kept.map(eventItem);
}

function eventItem(g: EventGroup): TimelineItem {
  const first = g.firstTime ?? g.lastTime ?? 0;
  const last = g.lastTime ?? first;
  const object = `${g.kind ?? '?'}/${g.name ?? '?'}`;
  const times = g.events > 1 || g.count > 1 ? ` ×${g.count}` : '';
  const detail = [g.type, g.namespace, g.events > 1 ? `${g.events} event objects` : '', g.message ?? ''].filter((x) => x !== undefined && x !== '').join(' · ');
  return {
    lane: 'event',
    start: new Date(first).toISOString(),
    end: last > first ? new Date(last).toISOString() : undefined,
    label: `${g.reason || '(no reason)'} ${object}${times}`,
    detail,
    namespace: g.namespace,
    count: g.count,
  };
}

/**
 * Whether an item began during the install completed at `installed` and settled soon after;
 * never a history row (the install's own) nor one still open at the collection time.
 */
export function isInstallNoise(item: TimelineItem, installed: number | undefined): boolean {
  return item.lane !== 'history' && item.open !== true && duringInstall(parseTime(item.start), parseTime(item.end ?? item.start), installed);
}

/** Firing and pending alerts, each from its activeAt to the collection time (still active then). */
function alertItems(analysis: Analysis, problems: boolean, rules: readonly Rule[] | undefined): TimelineItem[] {
  const end = iso(analysis.facts.collectedAt);
  const packVerdict = rules && problemItems(rules, 'alerts');
  const bindings = { facts: analysis.facts, cluster: analysis.facts.cluster ?? {} };
  const isProblem = (alert: Alert): boolean =>
    packVerdict ? packVerdict(alert, bindings) : alert.state === 'firing' && (alert.severity === 'warning' || alert.severity === 'critical');
  return (analysis.facts.alerts ?? []).flatMap((alert) => {
    const start = iso(alert.since);
    if (!start) return [];
    if (problems && !isProblem(alert)) return [];
    const detail = [alert.severity, alert.labelText, alert.summary ?? ''].filter((x) => x !== '').join(' · ');
    return [
      {
        lane: 'alert',
        start,
        end: end !== undefined && end > start ? end : undefined,
        open: end === undefined ? true : undefined,
        label: `${alert.name} ${alert.state}`,
        detail,
        namespace: alert.labels['namespace'],
      },
    ];
  });
}

function findingItems(analysis: Analysis, problems: boolean): TimelineItem[] {
  const items: TimelineItem[] = [];
  for (const finding of analysis.result?.findings ?? []) {
    if (problems && finding.severity === 'info') continue;
    for (const evidence of finding.evidence) {
      const at = iso(evidence.time);
      if (!at) continue;
      items.push({
        lane: 'finding',
        start: at,
        // The object tells one finding's moments apart (`events-failed-scheduling Pod/apiserver-…-2zz4k`).
        label: evidence.object !== undefined ? `${finding.ruleId} ${evidence.object.kind}/${evidence.object.name}` : finding.ruleId,
        detail: evidence.text,
        namespace: evidence.object?.namespace,
        ruleId: finding.ruleId,
        severity: finding.severity,
      });
    }
  }
  return items;
}

/**
 * `ms` relative to `anchor` in at most two units, the smaller dropped when zero: `-2h13m`,
 * `-45s`, `-3d`, `+5m10s` (after the anchor: clocks drift), `0s`.
 */
export function relativeTime(ms: number, anchor: number): string {
  const seconds = Math.round((ms - anchor) / 1000);
  if (seconds === 0) return '0s';
  const rest = Math.abs(seconds);
  const first = UNITS.findIndex(([, size]) => rest >= size);
  const [unit, size] = UNITS[first]!;
  const whole = Math.floor(rest / size);
  const next = UNITS[first + 1];
  const part = next !== undefined ? Math.floor((rest - whole * size) / next[1]) : 0;
  return `${seconds < 0 ? '-' : '+'}${whole}${unit}${part > 0 && next !== undefined ? `${part}${next[0]}` : ''}`;
}

const UNITS: readonly (readonly [string, number])[] = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
  ['s', 1],
];

export interface TimelineFilter {
  /** Epoch ms: keep items that reach this time or later. */
  since?: number | undefined;
  /** Epoch ms: keep items that start at this time or earlier. */
  until?: number | undefined;
  /** Keep only items of this namespace (cluster-scoped items have none and are left out). */
  namespace?: string | undefined;
  /** Keep only these lanes. */
  lanes?: readonly string[] | undefined;
}

/**
 * The items that cross the filter's window and match its namespace and lanes. A span still
 * open counts as reaching `openEnd` (the collection time), or forever when it is unknown.
 */
export function filterTimeline(items: readonly TimelineItem[], filter: TimelineFilter, openEnd?: number): TimelineItem[] {
  return items.filter((item) => {
    if (filter.lanes !== undefined && !filter.lanes.includes(item.lane)) return false;
    if (filter.namespace !== undefined && item.namespace !== filter.namespace) return false;
    const start = parseTime(item.start);
    if (start === undefined) return filter.since === undefined && filter.until === undefined;
    const end = parseTime(item.end) ?? (item.open === true ? (openEnd ?? Infinity) : start);
    if (filter.since !== undefined && end < filter.since) return false;
    if (filter.until !== undefined && start > filter.until) return false;
    return true;
  });
}
