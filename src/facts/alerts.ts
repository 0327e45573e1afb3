/**
 * Alerts the cluster's own monitoring raised, as the archive holds them:
 *
 * - the Prometheus rules API answer (`GET /api/v1/rules`; must-gather's gather_monitoring writes
 *   it as `monitoring/alerts.json` in 4.8-era images and `monitoring/prometheus/rules.json` since):
 *   `{status, data: {groups: [{name, file, rules: [{type: alerting, name, query, duration, labels,
 *   annotations, alerts: [{labels, annotations, state, activeAt, value}]}]}]}}`;
 * - the Prometheus alerts API answer (`GET /api/v1/alerts`): `{data: {alerts: [...]}}`, same alerts
 *   without their rule;
 * - the Alertmanager v2 list the Insights operator writes as `config/alerts.json`: an array of
 *   `{labels, annotations, startsAt, endsAt, status: {state: active|suppressed|unprocessed}}`
 *   (Alertmanager only holds firing alerts).
 *
 * Inactive rules and alerts are dropped: only `firing` and `pending` alerts are facts.
 */
import { arrayAt, isRecord, recordAt, stringAt, timeMs, type PlainObject } from './internal.js';

export type AlertState = 'firing' | 'pending';

/** A Kubernetes object an alert names through its labels. */
export interface AlertObject {
  kind: string;
  namespace?: string | undefined;
  name: string;
}

export interface Alert {
  /** `alertname`, else the rule's name. */
  name: string;
  /** `severity` label as written (`critical`, `warning`, `info`, `none`); `none` when absent. */
  severity: string;
  state: AlertState;
  /** Epoch ms: `activeAt` (Prometheus) or `startsAt` (Alertmanager). */
  since?: number | undefined;
  labels: Record<string, string>;
  /** `key=value` of the labels that tell its instances apart (not alertname, severity or routing labels), sorted. */
  labelText: string;
  annotations: Record<string, string>;
  /** The annotation a reader wants first: `summary`, else `message`, else `description`. */
  summary?: string | undefined;
  /** The longer text: `description`, else `message` (when it is not the summary). */
  description?: string | undefined;
  runbookUrl?: string | undefined;
  /** The alerting rule's PromQL, when the source carries it. */
  query?: string | undefined;
  /** The rule's `for` duration in seconds. */
  forSeconds?: number | undefined;
  /** Rule group (`kubernetes-apps`, `cluster-version`, ...). */
  group?: string | undefined;
  /** Suppressed (silenced or inhibited) in Alertmanager. */
  silenced?: boolean | undefined;
  /** Where it was read. */
  file: string;
  /** The most specific object its labels name (pod, workload, volume claim, operator, node, namespace). */
  object?: AlertObject | undefined;
  /** Every object its labels name, most specific first. */
  objects: AlertObject[];
}

/** Labels Alertmanager (and Prometheus' external labels) add on the way: not part of an alert's identity. */
const ROUTING_LABELS = new Set(['prometheus', 'openshift_io_alert_source', 'receive', 'tenant_id']);

/**
 * Alerts in one parsed document of a monitoring file. `document` is one object as the JSON
 * reader hands it out: the whole API answer, or one element of a top-level array.
 */
export function alertsOf(document: unknown, file: string): Alert[] {
  if (!isRecord(document)) return [];
  const data = recordAt(document, 'data');
  if (data && Array.isArray(data['groups'])) return fromRuleGroups(data['groups'], file);
  if (data && Array.isArray(data['alerts'])) return data['alerts'].flatMap((a) => fromPrometheusAlert(a, undefined, file));
  if (isRecord(document['labels']) && (document['startsAt'] !== undefined || isRecord(document['status']))) {
    return fromAlertmanagerAlert(document, file);
  }
  return [];
}

/** Identity of an alert across sources: name, state and labels other than routing ones. */
function alertKey(alert: Alert): string {
  const labels = Object.keys(alert.labels)
    .filter((k) => !ROUTING_LABELS.has(k))
    .sort()
    .map((k) => [k, alert.labels[k]]);
  return JSON.stringify([alert.state, labels]);
}

/** Alerts without repeats (must-gather can hold the same answer twice); the first seen wins, a copy with a query replaces one without. */
export function uniqueAlerts(alerts: readonly Alert[]): Alert[] {
  const byKey = new Map<string, Alert>();
  for (const alert of alerts) {
    const key = alertKey(alert);
    const held = byKey.get(key);
    if (!held || (held.query === undefined && alert.query !== undefined)) byKey.set(key, alert);
  }
  return [...byKey.values()];
}

/** Most urgent first: firing before pending, critical before warning before the rest, then oldest first. */
export function sortAlerts(alerts: Alert[]): Alert[] {
  return alerts.sort(
    (a, b) =>
      Number(a.state !== 'firing') - Number(b.state !== 'firing') ||
      severityOrder(a.severity) - severityOrder(b.severity) ||
      (a.since ?? Infinity) - (b.since ?? Infinity) ||
      a.name.localeCompare(b.name),
  );
}

function severityOrder(severity: string): number {
  const i = ['critical', 'error', 'warning', 'info'].indexOf(severity);
  return i < 0 ? 4 : i;
}

function fromRuleGroups(groups: readonly unknown[], file: string): Alert[] {
  const out: Alert[] = [];
  for (const group of groups) {
    const groupName = stringAt(group, 'name');
    for (const rule of arrayAt(group, 'rules')) {
      if (!isRecord(rule) || (rule['type'] !== undefined && rule['type'] !== 'alerting')) continue;
      const context: RuleContext = {
        name: stringAt(rule, 'name'),
        query: stringAt(rule, 'query'),
        forSeconds: typeof rule['duration'] === 'number' ? rule['duration'] : undefined,
        group: groupName,
      };
      for (const alert of arrayAt(rule, 'alerts')) out.push(...fromPrometheusAlert(alert, context, file));
    }
  }
  return out;
}

interface RuleContext {
  name?: string | undefined;
  query?: string | undefined;
  forSeconds?: number | undefined;
  group?: string | undefined;
}

function fromPrometheusAlert(alert: unknown, rule: RuleContext | undefined, file: string): Alert[] {
  const state = stringAt(alert, 'state')?.toLowerCase();
  if (state !== 'firing' && state !== 'pending') return [];
  return [makeAlert({ alert, state, since: isRecord(alert) ? timeMs(alert['activeAt']) : undefined, rule, file })];
}

function fromAlertmanagerAlert(alert: PlainObject, file: string): Alert[] {
  const amState = stringAt(recordAt(alert, 'status'), 'state');
  return [makeAlert({ alert, state: 'firing', since: timeMs(alert['startsAt']), rule: undefined, file, silenced: amState === 'suppressed' })];
}

function makeAlert(input: { alert: unknown; state: AlertState; since: number | undefined; rule: RuleContext | undefined; file: string; silenced?: boolean }): Alert {
  const labels = stringMap(recordAt(input.alert, 'labels'));
  const annotations = stringMap(recordAt(input.alert, 'annotations'));
  const name = labels['alertname'] ?? input.rule?.name ?? '(unnamed alert)';
  const summary = annotations['summary'] ?? annotations['message'] ?? annotations['description'];
  const longer = annotations['description'] ?? annotations['message'];
  const objects = alertObjects(name, labels, input.rule?.query);
  return {
    name,
    severity: labels['severity'] ?? 'none',
    state: input.state,
    since: input.since,
    labels,
    labelText: Object.keys(labels)
      .filter((k) => k !== 'alertname' && k !== 'severity' && !ROUTING_LABELS.has(k))
      .sort()
      .map((k) => `${k}=${labels[k]}`)
      .join(' '),
    annotations,
    summary,
    description: longer !== summary ? longer : undefined,
    runbookUrl: annotations['runbook_url'],
    query: input.rule?.query,
    forSeconds: input.rule?.forSeconds,
    group: input.rule?.group,
    silenced: input.silenced || undefined,
    file: input.file,
    object: objects[0],
    objects,
  };
}

/** Workload labels kube-state-metrics alerts carry, with the kind each names. */
const WORKLOAD_LABELS: readonly [label: string, kind: string][] = [
  ['pod', 'Pod'],
  ['deployment', 'Deployment'],
  ['statefulset', 'StatefulSet'],
  ['daemonset', 'DaemonSet'],
  ['replicaset', 'ReplicaSet'],
  ['job_name', 'Job'],
  ['persistentvolumeclaim', 'PersistentVolumeClaim'],
];

/**
 * What the `name` label means, by the metric an alert's expression reads (elsewhere it is anything):
 * the cluster-version operator's `cluster_operator_*` name ClusterOperators, the machine-api
 * operator's `mapi_machine_*` Machines (MachineWithoutValidNode, MachineNotYetDeleted, …), OLM's
 * `csv_abnormal` / `csv_succeeded` ClusterServiceVersions (CsvAbnormalFailedOver2Min, …).
 */
const NAME_LABEL_KINDS: readonly { metric: string; kind: string; namespaced: boolean }[] = [
  { metric: 'cluster_operator_', kind: 'ClusterOperator', namespaced: false },
  { metric: 'mapi_machine_', kind: 'Machine', namespaced: true },
  { metric: 'csv_abnormal', kind: 'ClusterServiceVersion', namespaced: true },
  { metric: 'csv_succeeded', kind: 'ClusterServiceVersion', namespaced: true },
];

/** Objects an alert's labels name, most specific first. */
export function alertObjects(alertname: string, labels: Record<string, string>, query?: string): AlertObject[] {
  const out: AlertObject[] = [];
  const namespace = labels['namespace'];
  for (const [label, kind] of WORKLOAD_LABELS) {
    const name = labels[label];
    if (name !== undefined && namespace !== undefined) out.push({ kind, namespace, name });
  }
  const named = labels['name'];
  if (named !== undefined) {
    // Without the query (an Alertmanager copy), only the operator alerts are known by their name.
    const meaning =
      query !== undefined
        ? NAME_LABEL_KINDS.find((k) => query.includes(k.metric))
        : alertname.startsWith('ClusterOperator')
          ? NAME_LABEL_KINDS[0]
          : undefined;
    if (meaning && !meaning.namespaced) out.push({ kind: meaning.kind, name: named });
    if (meaning?.namespaced && namespace !== undefined) out.push({ kind: meaning.kind, namespace, name: named });
  }
  // kube-state-metrics' persistent-volume alerts (KubePersistentVolumeErrors) name a cluster-scoped volume.
  if (labels['persistentvolume'] !== undefined) out.push({ kind: 'PersistentVolume', name: labels['persistentvolume'] });
  if (labels['node'] !== undefined) out.push({ kind: 'Node', name: labels['node'] });
  if (namespace !== undefined) out.push({ kind: 'Namespace', name: namespace });
  return out;
}

function stringMap(record: PlainObject | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!record) return out;
  for (const [key, value] of Object.entries(record)) if (typeof value === 'string' && value !== '') out[key] = value;
  return out;
}
