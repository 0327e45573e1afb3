import type { Facts } from '../facts/collector.js';
import type { UpdateRisks } from '../risks/update-risks.js';
import { currentRiskItems, takenRiskItems } from '../risks/applied.js';
import type { DataNotGiven } from './findings.js';
import { LIFECYCLE_SOURCE, lifecycleStatus } from '../facts/lifecycle.js';
import { certificateItems } from '../facts/certificates.js';
import type { RecentTemplate } from '../digest/collector.js';
import { classifyPath } from '../layout/classify.js';
import { isoTime } from '../core/duration.js';
import { auditItems } from '../facts/audit-items.js';

/** What rules see: the archive's facts, and the update risks when risk data was given. */
export interface EngineFacts extends Facts {
  updateRisks?: UpdateRisks | undefined;
}

/**
 * Facts by the names rules use (`fact: { name: history.transitions }`). Undefined means the
 * archive lacks the data, which makes a signal unknown and its rule not checked.
 */
export function factValue(facts: EngineFacts, name: string): unknown {
  // Several rules read one fact, and some are built (every certificate judged): once per analysis.
  let values = factValues.get(facts);
  if (!values) factValues.set(facts, (values = new Map()));
  if (!values.has(name)) values.set(name, computedFact(facts, name));
  return values.get(name);
}

const factValues = new WeakMap<EngineFacts, Map<string, unknown>>();

function computedFact(facts: EngineFacts, name: string): unknown {
  switch (name) {
    case 'cluster':
      return facts.cluster;
    case 'collection':
      return facts.collectedAt === undefined ? undefined : { time: facts.collectedAt };
    case 'history.entries':
      return facts.history?.entries;
    case 'history.transitions':
      return facts.history?.transitions;
    case 'history.rollbacks':
      return facts.history?.rollbacks;
    case 'history.install':
      return facts.history?.install;
    case 'history.desired':
      return facts.history?.desired;
    case 'cvo.pods':
      return facts.cvo.pods.length > 0 ? facts.cvo.pods : undefined;
    case 'cvo.moments':
      return facts.cvo.pods.length > 0 ? facts.cvo.pods.flatMap((pod) => pod.moments.map((m) => ({ ...m, pod: pod.pod, namespace: pod.namespace, stream: pod.stream, file: pod.file, object: cvoPodObject(pod) }))) : undefined;
    case 'risks.current':
      return facts.updateRisks?.current ? currentRiskItems(facts.updateRisks.current.targets, facts.clusterVersionFile) : undefined;
    case 'risks.taken':
      return facts.updateRisks && facts.history ? takenRiskItems(facts.updateRisks.taken, facts.clusterVersionFile) : undefined;
    case 'alerts':
      return facts.alerts;
    case 'updates':
      return facts.updates;
    case 'updates.conditional':
      return facts.updates?.conditional;
    case 'updates.risks':
      return facts.updates?.risks;
    case 'updates.accepted':
      return facts.updates?.accepted;
    case 'insights.recommendations':
      return facts.insights;
    case 'audit.changes':
    case 'audit.throttled':
    case 'audit.denied':
      return facts.audit ? auditItems(facts.audit, name, facts.collectedAt) : undefined;
    case 'lifecycle':
      return facts.cluster?.currentVersion !== undefined && facts.collectedAt !== undefined ? lifecycleStatus(facts.cluster.currentVersion, facts.collectedAt) : undefined;
    case 'update.status':
    case 'update.health':
    case 'update.pools':
      return updateFact(facts, name);
    case 'etcd.members':
      return facts.summary?.etcd.info?.members;
    case 'etcd.health':
      return facts.summary?.etcd.info?.health;
    case 'etcd.alarms':
      return facts.summary?.etcd.info?.alarms;
    case 'certificates':
      // Days left are counted from the collection time, never from now.
      return facts.certificates !== undefined && facts.collectedAt !== undefined ? certificateItems(facts.certificates, facts.collectedAt) : undefined;
    case 'log.templates':
      return facts.collectedAt === undefined ? undefined : facts.logTemplates?.map((template) => logTemplateItem(template, facts.collectedAt!));
    default:
      return undefined;
  }
}

/**
 * A digest template as rules read it: where its lines come from (the pods of the files listed,
 * the first one as its object), how many fell in the window and at what rate, one real line.
 */
function logTemplateItem(template: RecentTemplate, collectedAt: number): Record<string, unknown> {
  const where = classifyPath(template.example.file);
  const pods = [...new Set(template.files.map((f) => classifyPath(f.path).pod).filter((pod): pod is string => pod !== undefined))];
  return {
    id: template.id,
    component: template.component,
    namespace: where.namespace ?? '',
    pod: where.pod ?? '',
    container: where.container ?? '',
    pods,
    level: template.level,
    pattern: template.pattern,
    template: template.template,
    count: template.count,
    recent: template.recent.count,
    activeMinutes: template.recent.minutes,
    perMinute: Math.round((template.recent.count / Math.max(1, (template.recent.to - template.recent.from) / 60_000)) * 10) / 10,
    quietMinutes: Math.max(0, Math.round((collectedAt - template.recent.to) / 60_000)),
    since: isoTime(template.recent.from),
    first: template.first,
    last: template.last,
    time: template.recent.from,
    file: template.example.file,
    line: template.example.line,
    text: template.example.text,
    files: template.files.map((f) => f.path),
    object: where.namespace !== undefined && where.pod !== undefined ? { kind: 'Pod', namespace: where.namespace, name: where.pod } : undefined,
  };
}

/**
 * The update in progress (`oc adm upgrade status`): no item when the cluster is not updating,
 * unknown when the archive cannot tell (no ClusterVersion, ClusterOperators or time).
 */
function updateFact(facts: EngineFacts, name: 'update.status' | 'update.health' | 'update.pools'): unknown {
  const summary = facts.summary;
  if (summary === undefined || summary.updateUnknown !== undefined) return undefined;
  const update = summary.update;
  if (update === null) return [];
  if (name === 'update.health') return update.health;
  if (name === 'update.pools') return update.pools.map((pool) => ({ ...pool, object: { kind: 'MachineConfigPool', name: pool.name } }));
  // The control plane's figures; its pools and insights are facts of their own.
  return { ...update, pools: undefined, health: undefined, object: { kind: 'ClusterVersion', name: 'version' } };
}

/** The CVO pod a moment was logged by, as evidence names objects (none for a log given alone). */
function cvoPodObject(pod: { pod: string; namespace?: string | undefined }): { kind: string; namespace: string; name: string } | undefined {
  return pod.namespace === undefined ? undefined : { kind: 'Pod', namespace: pod.namespace, name: pod.pod };
}

/** The archive file a fact item came from: its own `file`, else the ClusterVersion for facts made of it. */
export function factFile(facts: Facts, name: string, item: unknown): string {
  const own = (item as { file?: unknown } | undefined)?.file;
  if (typeof own === 'string') return own;
  const fromClusterVersion = name.startsWith('history') || name.startsWith('updates') || name === 'cluster' || name === 'lifecycle';
  return fromClusterVersion ? (facts.clusterVersionFile ?? '') : '';
}

/**
 * Facts whose items are log lines: an item's time is when something happened, so it joins by
 * time as log evidence does (other facts' times say when a state began: an update, an alert).
 */
export const MOMENT_FACTS: ReadonlySet<string> = new Set(['cvo.moments']);

export const FACT_NAMES = [
  'cluster',
  'collection',
  'history.entries',
  'history.transitions',
  'history.rollbacks',
  'history.install',
  'history.desired',
  'cvo.pods',
  'cvo.moments',
  'risks.current',
  'risks.taken',
  'alerts',
  'updates',
  'updates.conditional',
  'updates.risks',
  'updates.accepted',
  'insights.recommendations',
  'lifecycle',
  'update.status',
  'update.health',
  'update.pools',
  'etcd.members',
  'etcd.health',
  'etcd.alarms',
  'certificates',
  'log.templates',
  'audit.changes',
  'audit.throttled',
  'audit.denied',
] as const;

export function describeMissingFact(name: string, facts: EngineFacts): string {
  if (name.startsWith('history') || name.startsWith('updates') || name === 'cluster') return `a ClusterVersion object (fact ${name})`;
  if (name === 'alerts') return 'the monitoring stack\'s alerts (monitoring/prometheus/rules.json, monitoring/alerts.json or an Insights config/alerts.json; fact alerts)';
  if (name === 'lifecycle') return `the cluster version (a ClusterVersion), the collection time (a timestamp file) and a minor version the life cycle table of ${LIFECYCLE_SOURCE.taken} lists (fact lifecycle)`;
  if (name === 'insights.recommendations') return 'an Insights report (operator.openshift.io InsightsOperator/cluster with status.insightsReport; a disconnected cluster has none; fact insights.recommendations)';
  if (name.startsWith('cvo')) return `cluster-version-operator logs (fact ${name})`;
  if (name === 'collection') return 'a must-gather timestamp file (fact collection)';
  if (name.startsWith('update.')) return `what the update in progress is judged by, a ClusterVersion, ClusterOperators and a time (${facts.summary?.updateUnknown ?? 'none read'}; fact ${name})`;
  if (name === 'log.templates') return 'pod or host logs and the collection time (a must-gather timestamp file; fact log.templates)';
  if (name === 'certificates') return 'ConfigMaps or Secrets holding PEM certificates, and the collection time (a must-gather timestamp file; fact certificates)';
  if (name.startsWith('audit.')) return `the API servers' audit logs (audit_logs/<server>/ of must-gather's gather_audit_logs; fact ${name})`;
  if (name.startsWith('etcd.')) return `must-gather's etcd_info/ folder (member_list.json, endpoint_health.json, alarm_list.json; fact ${name})`;
  // Read after "the archive lacks": the data comes from the command line, not the archive.
  const notGiven = notGivenFor(name, facts);
  if (notGiven) return `${notGiven.data}, which mgsift was not given (${notGiven.how}; fact ${name})`;
  if (name.startsWith('risks')) return `a ClusterVersion object (fact ${name})`;
  return `fact ${name}`;
}

/** The command-line data a fact comes from, when it was not given (the archive cannot supply it). */
export function notGivenFor(name: string, facts: EngineFacts): DataNotGiven | undefined {
  if (name.startsWith('risks') && facts.updateRisks === undefined) {
    return { data: 'update-risk data', how: '--update-risks DIR, a cincinnati-graph-data checkout (or set MGSIFT_UPDATE_RISKS)' };
  }
  return undefined;
}
