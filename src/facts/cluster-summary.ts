/**
 * The cluster at a glance, judged at the collection time: ClusterOperators available,
 * degraded and progressing; nodes ready, by role, and their kubelets; each MachineConfigPool's
 * machine counts; pods that are not running and containers that restart; the etcd members and
 * their health; and the update in progress as `oc adm upgrade status` reads it
 * (`update-status.ts`). Positive evidence too: a healthy archive says 31 of 31 operators
 * Available, not only "no problem found".
 *
 * Without a `timestamp` file the time it is judged at is the latest condition change of the
 * ClusterVersion and ClusterOperators (what `oc adm upgrade status` takes for "now" on saved
 * objects), and `atSource` says so.
 */
import type { ClusterIdentity, ConditionMap } from './cluster.js';
import type { UpdateHistory } from './history.js';
import type { Alert } from './alerts.js';
import type { ClusterState, OperatorState, PodState } from './cluster-state.js';
import { etcdInfo, type EtcdInfo } from './etcd-info.js';
import { assessUpdate, nodesByPool, type UpdateStatus } from './update-status.js';

export interface OperatorsSummary {
  total: number;
  available: number;
  /** Names, by condition. */
  degraded: string[];
  progressing: string[];
  /** Available False, Unknown or missing. */
  unavailable: string[];
  /** Each operator's conditions the update and its health turn on (absent: the operator does not write it). */
  conditions: OperatorConditions[];
}

/** The four ClusterOperator conditions `mgsift diff` compares, each with its reason. */
export const OPERATOR_CONDITIONS = ['Available', 'Degraded', 'Progressing', 'Upgradeable'] as const;

export interface OperatorConditions {
  name: string;
  conditions: Partial<Record<(typeof OPERATOR_CONDITIONS)[number], { status: string; reason?: string | undefined }>>;
}

export interface NodesSummary {
  total: number;
  ready: number;
  /** `node-role.kubernetes.io/<role>` labels: a compact cluster's node counts under master and worker. */
  roles: Record<string, number>;
  notReady: string[];
  unschedulable: string[];
  /** Kubelet versions, the most common first. */
  kubelet: { version: string; count: number }[];
  /** Every node by name: its roles and the MachineConfigPool that selects it (none: no pool does). */
  members: { name: string; roles: string[]; pool?: string | undefined }[];
}

export interface PoolSummary {
  name: string;
  machines?: number | undefined;
  updated?: number | undefined;
  ready?: number | undefined;
  degraded?: number | undefined;
  unavailable?: number | undefined;
  paused: boolean;
  /** `status.configuration.name`: the rendered config all its nodes last reached. */
  config?: string | undefined;
  /** `spec.configuration.name` when it differs, or the pool says Updating: the config it is moving to. */
  movingTo?: string | undefined;
  /** Degraded, NodeDegraded or RenderDegraded True. */
  degradedConditions: string[];
}

export interface NotRunningPod {
  namespace: string;
  name: string;
  workload?: string | undefined;
  node?: string | undefined;
}

export interface RestartingContainer {
  namespace: string;
  pod: string;
  container: string;
  workload?: string | undefined;
  restarts: number;
  /** Why it last stopped (`Error`, `OOMKilled`, `Completed`), with its exit code and time. */
  lastReason?: string | undefined;
  lastExitCode?: number | undefined;
  lastFinishedAt?: number | undefined;
  /** Waiting now (`CrashLoopBackOff`). */
  waiting?: string | undefined;
}

export interface PodsSummary {
  total: number;
  /** Phase Running with no container waiting. */
  running: number;
  /** Ran to completion (installer and pruner pods, jobs). */
  succeeded: number;
  /** By reason, the most pods first; each reason lists at most {@link PODS_PER_REASON} pods. */
  notRunning: { reason: string; count: number; pods: NotRunningPod[] }[];
  /** Containers that restarted, the most restarts first, at most {@link RESTARTING_KEPT}. */
  restarting: RestartingContainer[];
  /** Containers that restarted beyond those listed. */
  restartingMore: number;
}

export interface EtcdSummary {
  /** The archive holds `etcd_info/` (must-gather's gather_etcd). */
  gathered: boolean;
  info?: EtcdInfo | undefined;
  /** Endpoints other than local sockets, and how many of them answered healthy. */
  endpoints: number;
  healthy: number;
  leader?: string | undefined;
  /** The largest member database and its part in use (bytes). */
  dbSize?: number | undefined;
  dbSizeInUse?: number | undefined;
}

export interface ClusterSummary {
  /** Epoch ms the summary is judged at; undefined when the archive holds no time at all. */
  at?: number | undefined;
  atSource: 'collection' | 'latest-condition' | 'none';
  operators?: OperatorsSummary | undefined;
  nodes?: NodesSummary | undefined;
  pools?: PoolSummary[] | undefined;
  pods?: PodsSummary | undefined;
  etcd: EtcdSummary;
  /** The update in progress; null when the cluster is not updating. */
  update: UpdateStatus | null;
  /** Why the archive cannot tell whether an update is in progress (then `update` is null). */
  updateUnknown?: string | undefined;
}

export const PODS_PER_REASON = 20;
export const RESTARTING_KEPT = 50;

export interface SummaryInputs {
  state: ClusterState;
  cluster?: ClusterIdentity | undefined;
  history?: UpdateHistory | undefined;
  collectedAt?: number | undefined;
  alerts?: readonly Alert[] | undefined;
}

export function clusterSummary(inputs: SummaryInputs): ClusterSummary {
  const { state, cluster } = inputs;
  const latest = latestCondition(cluster?.conditions, state.operators);
  const at = inputs.collectedAt ?? latest;
  const summary: ClusterSummary = {
    at,
    atSource: inputs.collectedAt !== undefined ? 'collection' : latest !== undefined ? 'latest-condition' : 'none',
    operators: state.operators.length > 0 ? operatorsSummary(state.operators) : undefined,
    nodes: state.nodes.length > 0 ? nodesSummary(state) : undefined,
    pools: state.pools.length > 0 ? state.pools.map(poolSummary) : undefined,
    pods: state.pods.length > 0 ? podsSummary(state.pods) : undefined,
    etcd: etcdSummary(etcdInfo(state.etcd)),
    update: null,
  };
  if (cluster === undefined || inputs.history === undefined) {
    summary.updateUnknown = 'the archive holds no ClusterVersion';
    return summary;
  }
  if (at === undefined) {
    summary.updateUnknown = 'the archive holds no time to judge the update against (no timestamp file, no condition time)';
    return summary;
  }
  const verdict = assessUpdate({
    history: [...inputs.history.entries].sort((a, b) => a.index - b.index),
    desiredVersion: cluster.desiredVersion,
    conditions: cluster.conditions,
    operators: state.operators,
    pools: state.pools,
    nodes: state.nodes,
    machineConfigVersions: state.machineConfigVersions,
    mcoImage: state.mcoImage,
    alerts: inputs.alerts,
    at,
  });
  if (verdict.updating === true) summary.update = verdict.status;
  else if (verdict.updating === undefined) summary.updateUnknown = verdict.reason;
  return summary;
}

/** oc's "now" for saved objects: the latest condition change of the ClusterVersion and ClusterOperators. */
function latestCondition(cv: ConditionMap | undefined, operators: readonly OperatorState[]): number | undefined {
  let latest: number | undefined;
  for (const conditions of [cv ?? {}, ...operators.map((o) => o.conditions)]) {
    for (const c of Object.values(conditions)) if (c.lastTransitionMs !== undefined && (latest === undefined || c.lastTransitionMs > latest)) latest = c.lastTransitionMs;
  }
  return latest;
}

function operatorsSummary(operators: readonly OperatorState[]): OperatorsSummary {
  const named = (test: (o: OperatorState) => boolean): string[] => operators.filter(test).map((o) => o.name);
  return {
    total: operators.length,
    available: operators.filter((o) => o.conditions['Available']?.status === 'True').length,
    degraded: named((o) => o.conditions['Degraded']?.status === 'True'),
    progressing: named((o) => o.conditions['Progressing']?.status === 'True'),
    unavailable: named((o) => o.conditions['Available']?.status !== 'True'),
    conditions: operators.map((o) => ({
      name: o.name,
      conditions: Object.fromEntries(
        OPERATOR_CONDITIONS.flatMap((type) => {
          const c = o.conditions[type];
          return c === undefined ? [] : [[type, { status: c.status, ...(c.reason ? { reason: c.reason } : {}) }]];
        }),
      ),
    })),
  };
}

const ROLE_LABEL = 'node-role.kubernetes.io/';

function nodeRoles(node: ClusterState['nodes'][number]): string[] {
  return Object.keys(node.labels)
    .filter((label) => label.startsWith(ROLE_LABEL) && label.length > ROLE_LABEL.length)
    .map((label) => label.slice(ROLE_LABEL.length))
    .sort();
}

function nodesSummary(state: ClusterState): NodesSummary {
  const roles: Record<string, number> = {};
  const kubelets = new Map<string, number>();
  const poolOf = new Map([...nodesByPool(state.pools, state.nodes)].flatMap(([pool, nodes]) => nodes.map((n) => [n.name, pool] as const)));
  for (const node of state.nodes) {
    for (const role of nodeRoles(node)) roles[role] = (roles[role] ?? 0) + 1;
    const kubelet = node.kubeletVersion ?? 'unknown';
    kubelets.set(kubelet, (kubelets.get(kubelet) ?? 0) + 1);
  }
  const ready = state.nodes.filter((n) => n.conditions['Ready']?.status === 'True');
  return {
    total: state.nodes.length,
    ready: ready.length,
    roles: Object.fromEntries(Object.entries(roles).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    notReady: state.nodes.filter((n) => n.conditions['Ready']?.status !== 'True').map((n) => n.name),
    unschedulable: state.nodes.filter((n) => n.unschedulable).map((n) => n.name),
    kubelet: [...kubelets.entries()].map(([version, count]) => ({ version, count })).sort((a, b) => b.count - a.count || (a.version < b.version ? -1 : 1)),
    members: state.nodes.map((n) => ({ name: n.name, roles: nodeRoles(n), pool: poolOf.get(n.name) })),
  };
}

function poolSummary(pool: ClusterState['pools'][number]): PoolSummary {
  const updating = pool.conditions['Updating']?.status === 'True';
  const moving = pool.targetConfig !== undefined && (pool.targetConfig !== pool.currentConfig || updating);
  return {
    name: pool.name,
    machines: pool.machineCount,
    updated: pool.updatedMachineCount,
    ready: pool.readyMachineCount,
    degraded: pool.degradedMachineCount,
    unavailable: pool.unavailableMachineCount,
    paused: pool.paused,
    config: pool.currentConfig,
    movingTo: moving ? pool.targetConfig : undefined,
    degradedConditions: ['Degraded', 'NodeDegraded', 'RenderDegraded'].filter((type) => pool.conditions[type]?.status === 'True'),
  };
}

/** Why a pod is not running, or undefined when it runs (or ran to completion). */
export function notRunningReason(pod: PodState): string | undefined {
  const waiting = pod.containers.find((c) => c.waiting !== undefined)?.waiting;
  switch (pod.phase) {
    case 'Succeeded':
      return undefined;
    case 'Running':
      return waiting;
    case 'Pending':
      return pod.unscheduled ?? waiting ?? 'Pending';
    case 'Failed':
      return pod.reason ?? 'Failed';
    default:
      return pod.reason ?? pod.phase;
  }
}

function podsSummary(pods: readonly PodState[]): PodsSummary {
  const byReason = new Map<string, NotRunningPod[]>();
  let running = 0;
  let succeeded = 0;
  const restarting: RestartingContainer[] = [];
  for (const pod of pods) {
    const reason = notRunningReason(pod);
    if (pod.phase === 'Succeeded') succeeded++;
    else if (reason === undefined) running++;
    else {
      const list = byReason.get(reason);
      const entry: NotRunningPod = { namespace: pod.namespace, name: pod.name, workload: pod.workload, node: pod.node };
      if (list) list.push(entry);
      else byReason.set(reason, [entry]);
    }
    for (const c of pod.containers) {
      if (c.restartCount <= 0) continue;
      restarting.push({
        namespace: pod.namespace,
        pod: pod.name,
        container: c.name,
        workload: pod.workload,
        restarts: c.restartCount,
        lastReason: c.lastTerminated?.reason,
        lastExitCode: c.lastTerminated?.exitCode,
        lastFinishedAt: c.lastTerminated?.finishedAt,
        waiting: c.waiting,
      });
    }
  }
  const byName = (a: { namespace: string; name: string }, b: { namespace: string; name: string }): number => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`);
  restarting.sort((a, b) => b.restarts - a.restarts || `${a.namespace}/${a.pod}/${a.container}`.localeCompare(`${b.namespace}/${b.pod}/${b.container}`));
  return {
    total: pods.length,
    running,
    succeeded,
    notRunning: [...byReason.entries()]
      .map(([reason, list]) => ({ reason, count: list.length, pods: list.sort(byName).slice(0, PODS_PER_REASON) }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    restarting: restarting.slice(0, RESTARTING_KEPT),
    restartingMore: Math.max(0, restarting.length - RESTARTING_KEPT),
  };
}

function etcdSummary(info: EtcdInfo | undefined): EtcdSummary {
  if (info === undefined) return { gathered: false, endpoints: 0, healthy: 0 };
  const remote = info.health.filter((h) => !h.local);
  const sizes = info.members.flatMap((m) => (m.dbSize === undefined ? [] : [m.dbSize]));
  const inUse = info.members.flatMap((m) => (m.dbSizeInUse === undefined ? [] : [m.dbSizeInUse]));
  return {
    gathered: true,
    info,
    endpoints: remote.length,
    healthy: remote.filter((h) => h.healthy).length,
    leader: info.members.find((m) => m.leader === true)?.name,
    dbSize: sizes.length > 0 ? Math.max(...sizes) : undefined,
    dbSizeInUse: inUse.length > 0 ? Math.max(...inUse) : undefined,
  };
}
