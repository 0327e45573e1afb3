/**
 * The update in progress as `oc adm upgrade status` judges it (openshift/oc
 * `pkg/cli/admin/upgrade/status/`: controlplane.go, workerpool.go, health.go, alerts.go and
 * mco/layered_node_state.go), worked out again from the archive's objects:
 *
 * - not updating: ClusterVersion `Progressing` is not True and every worker pool with nodes has
 *   all of them on the target version;
 * - the control plane: the payload's ClusterOperators (annotated `include`/`exclude.release…`)
 *   counted updated (their `operator` version is the desired one), updating (Progressing=True)
 *   and waiting (Progressing=False); the assessment from oc's time estimate (the last update's
 *   duration, else an hour, and how far operators got): `Progressing`, `Progressing - Slow`
 *   (past the estimate), `Stalled` (more than 10 minutes past it), `Completed`;
 * - each MachineConfigPool's nodes (a node belongs to `master`, then to the first custom pool
 *   whose selector matches, then to `worker`): a node is updated when the rendered config it
 *   runs carries the target version (the `release-image-version` annotation of its
 *   MachineConfig), updating when the config it is moving to does, with its phase from the
 *   machine-config daemon's state and drain annotations; the pool `Completed`, `Pending`,
 *   `Degraded`, `Excluded` (paused), `Progressing`, or `Empty`;
 * - the update's health insights, oc's wording and thresholds (an operator unavailable for 5
 *   minutes is a warning, for 20 an error; degraded 5 and 40), plus one of mgsift's own: the
 *   update past oc's estimate.
 *
 * "Now" is the collection time, never the reader's clock. MachineConfigs older than 4.11 carry
 * no version: then a node counts as updated when it runs its pool's target config and the
 * machine-config operator already reports the target version (it renders the new configs
 * before it does), which `notes` says.
 */
import type { ConditionInfo, ConditionMap } from './cluster.js';
import type { UpdateHistoryEntry } from './history.js';
import type { Alert } from './alerts.js';
import { isDowngrade } from './version.js';
import { type LabelSelector, type NodeState, type OperatorState, type PoolState } from './cluster-state.js';

export type ControlPlaneAssessment = 'Progressing' | 'Progressing - Slow' | 'Stalled' | 'Completed';
export type PoolAssessment = 'Pending' | 'Progressing' | 'Degraded' | 'Excluded' | 'Completed' | 'Empty';
export type NodeAssessment = 'Degraded' | 'Unavailable' | 'Progressing' | 'Excluded' | 'Outdated' | 'Completed';
/** In oc's sort order. */
export const NODE_PHASES = ['Draining', 'Updating', 'Rebooting', 'Paused', 'Pending', 'Updated'] as const;
export type NodePhase = (typeof NODE_PHASES)[number];
const NODE_ASSESSMENTS: readonly NodeAssessment[] = ['Degraded', 'Unavailable', 'Progressing', 'Excluded', 'Outdated', 'Completed'];

export type InsightLevel = 'Info' | 'Warning' | 'Error' | 'Critical';
const LEVELS: readonly InsightLevel[] = ['Info', 'Warning', 'Error', 'Critical'];

export type InsightType =
  | 'clusterversion-no-failing'
  | 'clusterversion-failing'
  | 'operator-unavailable'
  | 'operator-degraded'
  | 'previous-update-incomplete'
  | 'node-unavailable'
  | 'node-degraded'
  | 'pool-paused'
  | 'alert'
  | 'update-slow'
  | 'proceeding-well';

export interface InsightObject {
  kind: string;
  namespace?: string | undefined;
  name: string;
}

export interface UpdateInsight {
  /** Which check raised it (oc's, except `update-slow`). */
  type: InsightType;
  level: InsightLevel;
  /** oc's impact: `API Availability`, `Update Stalled`, `Update Speed`, `None`, `Unknown`. */
  impact: string;
  /** oc's one-line summary. */
  message: string;
  description: string;
  /** Epoch ms; undefined where oc shows `-` (a state with no time of its own). */
  since?: number | undefined;
  /** `since` is later than the collection time: the archive was put together over some time. */
  afterCollection?: boolean | undefined;
  /** oc's documentation or runbook link. */
  reference: string;
  /** What it is about (links findings in the diagnosis). */
  object: InsightObject;
  /** Objects its message names: the pools an operator waits on, the operators ClusterVersion names. */
  mentions: { operators: string[]; pools: string[] };
  /** The update it is about goes to a lower version than the one before it (a rollback). */
  rollback?: boolean | undefined;
}

export interface UpdateNode {
  name: string;
  assessment: NodeAssessment;
  phase: NodePhase;
  /** The OpenShift version of the config it runs; undefined when unknown. */
  version?: string | undefined;
  /** Why it is unavailable or degraded (oc's MESSAGE column). */
  message?: string | undefined;
  /** oc's EST column: time left for this node (`+10m` draining, `+5m` updating or rebooting), `?` unknown, `-` nothing left. */
  estimate: NodeEstimate;
}

export type NodeEstimate = '+10m' | '+5m' | '?' | '-';

export interface UpdatePool {
  name: string;
  /** The `master` pool: the control plane's nodes. */
  controlPlane: boolean;
  assessment: PoolAssessment;
  /** Updated nodes of all, rounded as oc prints it; undefined for an empty pool. */
  completionPercent?: number | undefined;
  nodesUpdated: number;
  nodesTotal: number;
  paused: boolean;
  available: number;
  progressing: number;
  draining: number;
  excluded: number;
  degraded: number;
  /** oc's order: the worst assessment first. */
  nodes: UpdateNode[];
}

export interface UpdateStatus {
  assessment: ControlPlaneAssessment;
  /** The newest history entry's version. */
  target: string;
  /** The entry before it; undefined for an install. */
  from?: string | undefined;
  /** The entry before the target never completed (state Partial). */
  fromIncomplete: boolean;
  /** The target is the install itself (a single history entry). */
  install: boolean;
  /** Same version, another image: a migration to the multi-architecture payload. */
  multiArch: boolean;
  /** Epoch ms: the target's history entry started. */
  startedAt?: number | undefined;
  /** Epoch ms: the control plane completed (the entry's completionTime). */
  completedAt?: number | undefined;
  /** From start to completion, or to the collection time; oc's rounding. */
  durationMs: number;
  /** oc's estimate of what remains (negative: past it); undefined once the control plane completed. */
  estimatedRemainingMs?: number | undefined;
  /** oc's estimate of the whole update, to the minute. */
  estimatedTotalMs?: number | undefined;
  /** Payload operators on the target version, of all, rounded as oc prints it. */
  completionPercent: number;
  operatorsTotal: number;
  operatorsUpdated: number;
  /** Not yet on the target, Progressing=True: what the update waits on. */
  operatorsUpdating: string[];
  /** Not yet on the target, Progressing=False. */
  operatorsWaiting: number;
  operatorsUnavailable: number;
  /** Available but degraded. */
  operatorsDegraded: number;
  pools: UpdatePool[];
  /** Most severe first, then the newest. */
  health: UpdateInsight[];
  /** Where this status departs from what oc would read (node versions from configs). */
  notes: string[];
}

export interface UpdateInputs {
  /** API order: newest first. */
  history: readonly UpdateHistoryEntry[];
  /** `status.desired.version`: the version operators move to. */
  desiredVersion?: string | undefined;
  conditions: ConditionMap;
  operators: readonly OperatorState[];
  pools: readonly PoolState[];
  nodes: readonly NodeState[];
  machineConfigVersions: Readonly<Record<string, string>>;
  mcoImage?: string | undefined;
  alerts?: readonly Alert[] | undefined;
  /** Epoch ms: "now" (the collection time). */
  at: number;
}

/** Not updating, or why the archive cannot say. */
export type UpdateVerdict = { updating: true; status: UpdateStatus } | { updating: false } | { updating: undefined; reason: string };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const CLUSTER_OPERATOR_DOWN = 'https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/ClusterOperatorDown.md';
const CLUSTER_OPERATOR_DEGRADED = 'https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/ClusterOperatorDegraded.md';
const HISTORY_DOC = 'https://docs.openshift.com/container-platform/latest/updating/troubleshooting_updates/gathering-data-cluster-update.html#gathering-clusterversion-history-cli_troubleshooting_updates';
const MCO_DOC = 'https://docs.openshift.com/container-platform/latest/post_installation_configuration/machine-configuration-tasks.html#understanding-the-machine-config-operator';
const PAUSED_DOC = 'https://docs.openshift.com/container-platform/latest/support/troubleshooting/troubleshooting-operator-issues.html#troubleshooting-disabling-autoreboot-mco_troubleshooting-operator-issues';
const UPDATE_DOC = 'https://docs.openshift.com/container-platform/latest/updating/troubleshooting_updates/gathering-data-cluster-update.html';
/** Alerts shown even when they fired before the update began (oc's allow list). */
const UPDATE_ALERTS = new Set(['PodDisruptionBudgetLimit', 'PodDisruptionBudgetAtLimit']);
const NO_MENTIONS = (): UpdateInsight['mentions'] => ({ operators: [], pools: [] });

/** The update in progress, as oc judges it; see the module comment. */
export function assessUpdate(inputs: UpdateInputs): UpdateVerdict {
  const progressing = inputs.conditions['Progressing'];
  if (progressing === undefined) return { updating: undefined, reason: 'the ClusterVersion has no Progressing condition' };
  if (inputs.operators.length === 0) return { updating: undefined, reason: 'the archive holds no ClusterOperators' };
  const history = inputs.history;
  const multiArch = isMultiArch(history);
  const versionsKnown = Object.keys(inputs.machineConfigVersions).length > 0;
  const mcoAtTarget = inputs.operators.find((o) => o.name === 'machine-config')?.version === history[0]?.version;
  const context: NodeContext = { history, multiArchInProgress: multiArch && progressing.status === 'True', versionsKnown, mcoAtTarget, versions: inputs.machineConfigVersions, at: inputs.at };

  const insights: UpdateInsight[] = [];
  const byPool = nodesByPool(inputs.pools, inputs.nodes);
  const pools = inputs.pools.map((pool) => {
    const nodes = (byPool.get(pool.name) ?? []).map((node) => assessNode(node, pool, context, insights));
    return assessPool(pool, nodes, insights);
  });
  const workerOutdated = pools.some((p) => !p.controlPlane && p.nodesTotal > 0 && p.nodesUpdated < p.nodesTotal);
  if (progressing.status !== 'True' && !workerOutdated) return { updating: false };

  const startedAt = history[0]?.startedTime ?? progressing.lastTransitionMs;
  if (startedAt !== undefined) insights.push(...alertInsights(inputs.alerts ?? [], startedAt));
  const controlPlane = assessControlPlane(inputs, insights);
  const health = sortInsights(insights, inputs.at);
  if (health.length === 0) {
    const updatingFor = startedAt === undefined ? 0 : roundTo(inputs.at - startedAt, 1000);
    health.push({
      type: 'proceeding-well',
      level: 'Info',
      impact: 'None',
      message: 'Update is proceeding well',
      description: '',
      since: inputs.at - updatingFor,
      reference: UPDATE_DOC,
      object: { kind: 'ClusterVersion', name: 'version' },
      mentions: NO_MENTIONS(),
    });
  }
  const notes: string[] = [];
  if (!versionsKnown) {
    notes.push(
      'No MachineConfig in the archive carries its OpenShift version (machineconfiguration.openshift.io/release-image-version, written from 4.11 on): a node counts as updated when it runs its pool\'s target config and the machine-config operator reports the target version.',
    );
  }
  return { updating: true, status: { ...controlPlane, pools, health, notes } };
}

// ---------------------------------------------------------------------------------------------
// Control plane (controlplane.go).

type ControlPlane = Omit<UpdateStatus, 'pools' | 'health' | 'notes'>;

function assessControlPlane(inputs: UpdateInputs, insights: UpdateInsight[]): ControlPlane {
  const { history, at } = inputs;
  const target = inputs.desiredVersion;
  const failing = inputs.conditions['Failing'];
  const cv: InsightObject = { kind: 'ClusterVersion', name: 'version' };
  const knownOperators = inputs.operators.map((o) => o.name);
  if (failing === undefined) {
    insights.push({
      type: 'clusterversion-no-failing',
      level: 'Warning',
      impact: 'Update Stalled',
      message: 'Cluster Version version has no Failing condition',
      description: "Current status of Cluster Version reconciliation is unclear.  See 'oc -n openshift-cluster-version logs -l k8s-app=cluster-version-operator --tail -1' to debug.",
      since: at,
      reference: CLUSTER_OPERATOR_DEGRADED,
      object: cv,
      mentions: NO_MENTIONS(),
    });
  } else if (failing.status !== 'False') {
    insights.push({
      type: 'clusterversion-failing',
      level: 'Warning',
      impact: 'Update Stalled',
      message: `Cluster Version version ${failing.status === 'Unknown' ? 'may be' : 'is'} failing to proceed with the update (${failing.reason ?? ''})`,
      description: failing.message ?? '',
      since: failing.lastTransitionMs,
      reference: CLUSTER_OPERATOR_DEGRADED,
      object: cv,
      mentions: { ...NO_MENTIONS(), operators: operatorsNamed(failing.message, knownOperators) },
    });
  }

  let total = 0;
  let updated = 0;
  let waiting = 0;
  let unavailable = 0;
  let degraded = 0;
  const updating: string[] = [];
  let lastObservedProgress: number | undefined;
  let mcoStartedUpdating: number | undefined;
  const poolNames = inputs.pools.map((p) => p.name);
  for (const operator of inputs.operators) {
    if (!operator.platform) continue;
    // A machine-config operator whose own image is not yet the new one is not updated, whatever its version says.
    const mcoImageMoving = operator.name === 'machine-config' && inputs.mcoImage !== undefined && operator.operatorImage !== undefined && operator.operatorImage !== inputs.mcoImage;
    const isUpdated = !mcoImageMoving && operator.version !== undefined && operator.version === target;
    total++;
    if (isUpdated) updated++;
    const { Available: available, Degraded: degradedCondition, Progressing: progressing } = operator.conditions;
    if (progressing !== undefined) {
      const t = progressing.lastTransitionMs;
      if (t !== undefined && (lastObservedProgress === undefined || t > lastObservedProgress)) lastObservedProgress = t;
      if (!isUpdated && progressing.status === 'True') updating.push(operator.name);
      if (!isUpdated && progressing.status === 'False') waiting++;
      if (!isUpdated && progressing.status === 'True' && operator.name === 'machine-config') mcoStartedUpdating = t;
    }
    if (available?.status !== 'True') unavailable++;
    else if (degradedCondition?.status === 'True') degraded++;
    insights.push(...operatorInsights(operator.name, available, degradedCondition, at, poolNames));
  }

  const completed = updated === total;
  // The machine-config operator updating last: its start is the last progress seen (daemon set
  // operators flip Progressing while nodes reboot, which says nothing of the update's progress).
  if (mcoStartedUpdating !== undefined && total - updated === 1) lastObservedProgress = mcoStartedUpdating;
  const current = history[0];
  const started = current?.startedTime;
  let updatingFor = 0;
  let toLastObservedProgress = 0;
  let completedAt: number | undefined;
  let durationMs = 0;
  if (current !== undefined && started !== undefined) {
    if (lastObservedProgress === undefined || lastObservedProgress <= started) lastObservedProgress = at;
    toLastObservedProgress = lastObservedProgress - started;
    completedAt = current.state === 'Completed' ? current.completionTime : undefined;
    updatingFor = (completedAt ?? at) - started;
    durationMs = updatingFor > 10 * MINUTE ? roundTo(updatingFor, MINUTE) : roundTo(updatingFor, 1000);
  }

  const from = history[1];
  const install = history.length === 1;
  const fromIncomplete = from?.state === 'Partial';
  if (!completed && fromIncomplete && current !== undefined) {
    const lastComplete = history.slice(2).find((e) => e.state === 'Completed')?.version ?? 'unknown';
    insights.push({
      type: 'previous-update-incomplete',
      level: 'Warning',
      impact: 'None',
      message: `Previous update to ${from.version} never completed, last complete update was ${lastComplete}`,
      description: `Current update to ${current.version} was initiated while the previous update to version ${from.version} was still in progress`,
      since: current.startedTime,
      reference: HISTORY_DOC,
      object: cv,
      mentions: NO_MENTIONS(),
      rollback: isDowngrade(from.version, current.version),
    });
  }

  const fraction = total === 0 ? 0 : updated / total;
  let assessment: ControlPlaneAssessment = completed ? 'Completed' : 'Progressing';
  let estimatedRemainingMs: number | undefined;
  let estimatedTotalMs: number | undefined;
  if (!completed) {
    estimatedRemainingMs = estimateRemaining(baselineDuration(history), toLastObservedProgress, updatingFor, fraction);
    estimatedTotalMs = Math.trunc((updatingFor + estimatedRemainingMs) / MINUTE) * MINUTE;
    if (estimatedRemainingMs < -10 * MINUTE) assessment = 'Stalled';
    else if (estimatedRemainingMs < 0) assessment = 'Progressing - Slow';
    if (assessment !== 'Progressing' && started !== undefined) {
      insights.push({
        type: 'update-slow',
        level: 'Warning',
        impact: assessment === 'Stalled' ? 'Update Stalled' : 'Update Speed',
        message: `Update to ${current?.version ?? target ?? 'the target'} is ${assessment === 'Stalled' ? 'stalled' : 'slow'}: ${shortDuration(durationMs)} so far, past the ${shortDuration(estimatedTotalMs)} estimated${updating.length > 0 ? `; waiting on ${updating.join(', ')}` : ''}`,
        description: `oc adm upgrade status estimates an update from the duration of the last completed one (an hour without one) and how far the payload's operators got (${updated} of ${total}); ${assessment === 'Stalled' ? 'more than 10 minutes past that estimate it calls the control plane Stalled' : 'past it, Progressing - Slow'}.`,
        since: started + estimatedTotalMs,
        reference: UPDATE_DOC,
        object: cv,
        mentions: { ...NO_MENTIONS(), operators: [...updating] },
      });
    }
  }
  return {
    assessment,
    target: current?.version || 'unknown',
    from: install ? undefined : (from?.version ?? 'unknown'),
    fromIncomplete,
    install,
    multiArch: isMultiArch(history),
    startedAt: started,
    completedAt,
    durationMs,
    estimatedRemainingMs,
    estimatedTotalMs,
    completionPercent: roundHalfEven(fraction * 100),
    operatorsTotal: total,
    operatorsUpdated: updated,
    operatorsUpdating: updating,
    operatorsWaiting: waiting,
    operatorsUnavailable: unavailable,
    operatorsDegraded: degraded,
  };
}

function operatorInsights(name: string, available: ConditionInfo | undefined, degraded: ConditionInfo | undefined, at: number, pools: readonly string[]): UpdateInsight[] {
  // oc's thresholds: a Warning after 5 minutes, an Error after 20 (unavailable) or 40 (degraded).
  const bad = [
    { condition: available?.status === 'False' ? available : undefined, type: 'operator-unavailable' as const, word: 'unavailable', errorAfter: 20 * MINUTE, reference: CLUSTER_OPERATOR_DOWN },
    { condition: degraded?.status === 'True' ? degraded : undefined, type: 'operator-degraded' as const, word: 'degraded', errorAfter: 40 * MINUTE, reference: CLUSTER_OPERATOR_DEGRADED },
  ];
  const longer = (c: ConditionInfo, span: number): boolean => c.lastTransitionMs !== undefined && at > c.lastTransitionMs + span;
  return bad.flatMap(({ condition: c, type, word, errorAfter, reference }): UpdateInsight[] =>
    c === undefined || !longer(c, 5 * MINUTE)
      ? []
      : [
          {
            type,
            level: longer(c, errorAfter) ? 'Error' : 'Warning',
            impact: 'API Availability',
            // oc prints `()` for a condition with no reason; said without it.
            message: `Cluster Operator ${name} is ${word}${c.reason ? ` (${c.reason})` : ''}`,
            description: c.message ?? '<no message>',
            since: c.lastTransitionMs,
            reference,
            object: { kind: 'ClusterOperator', name },
            mentions: { ...NO_MENTIONS(), pools: poolsNamed(c.message, pools) },
          },
        ],
  );
}

/** The last update's duration (history between the current entry and the install), else an hour. */
function baselineDuration(history: readonly UpdateHistoryEntry[]): number {
  if (history.length < 3) return HOUR;
  const previous = history.slice(1, -1).find((e) => e.state === 'Completed');
  if (previous?.startedTime === undefined || previous.completionTime === undefined) return HOUR;
  return previous.completionTime - previous.startedTime;
}

/** oc's estimate of the time left (ms; negative when past it), from the operators' completion. */
function estimateRemaining(baseline: number, toLastObservedProgress: number, updatingFor: number, fraction: number): number {
  if (fraction >= 1) return 0;
  const timewise = timewiseComplete(fraction);
  const totalSeconds = fraction > 0 && timewise > 0 && toLastObservedProgress > 5 * MINUTE ? toLastObservedProgress / 1000 / timewise : baseline / 1000;
  const remaining = totalSeconds - updatingFor / 1000;
  const seconds = Math.trunc(remaining * (remaining < 0 ? 1 / 1.2 : 1.2));
  return seconds * 1000 > 10 * MINUTE ? roundTo(seconds * 1000, MINUTE) : seconds * 1000;
}

/**
 * How much of an update's time has passed when this share of the operators is updated: oc's
 * curve fitted on real updates (97 % of operators at two thirds of the time).
 */
function timewiseComplete(x: number): number {
  if (x < 0.25) return -0.03078788 + 2.62886 * x - 3.823954 * x ** 2;
  if (x < 0.9) return 0.1851215 + 1.64994 * x - 4.676898 * x ** 2 + 5.451824 * x ** 3 - 2.125286 * x ** 4;
  return 25053.32 - 107394.3 * x + 172527.2 * x ** 2 - 123107 * x ** 3 + 32921.81 * x ** 4;
}

function isMultiArch(history: readonly UpdateHistoryEntry[]): boolean {
  const [current, previous] = history;
  return current !== undefined && previous !== undefined && current.version === previous.version && current.image !== previous.image;
}

// ---------------------------------------------------------------------------------------------
// Nodes and pools (workerpool.go, mco/layered_node_state.go).

interface NodeContext {
  history: readonly UpdateHistoryEntry[];
  multiArchInProgress: boolean;
  /** Rendered MachineConfigs carry their version (4.11 and later). */
  versionsKnown: boolean;
  /** The machine-config operator reports the target version (it rendered the target configs). */
  mcoAtTarget: boolean;
  versions: Readonly<Record<string, string>>;
  at: number;
}

interface AssessedNode extends UpdateNode {
  unavailable: boolean;
  degraded: boolean;
  updating: boolean;
  updated: boolean;
}

/** Why the machine-config operator would not count a node available (`isNodeUnavailable`), with since when. */
interface BadCondition {
  reason: string;
  message?: string | undefined;
  since?: number | undefined;
}

const NOT_READY = 'Not ready';
const DISK_PRESSURE = 'Disk pressure';
const NETWORK_UNAVAILABLE = 'Network unavailable';
const UNSCHEDULABLE = 'Node is marked unschedulable';
const MCD_WORKING = 'Machine Config Daemon is processing the node';

function unavailability(node: NodeState): BadCondition[] {
  const bad: BadCondition[] = [];
  const add = (reason: string, c: ConditionInfo): void => {
    bad.push({ reason, message: c.message, since: c.lastTransitionMs });
  };
  // In the order the kubelet and the cloud route controller list them: oc joins them in that order.
  const { Ready: ready, DiskPressure: disk, NetworkUnavailable: network } = node.conditions;
  if (network !== undefined && network.status !== 'False') add(NETWORK_UNAVAILABLE, network);
  if (disk !== undefined && disk.status !== 'False') add(DISK_PRESSURE, disk);
  if (ready !== undefined && ready.status !== 'True') add(NOT_READY, ready);
  if (node.unschedulable) bad.push({ reason: UNSCHEDULABLE });
  if (bad.length > 0) return bad;
  const { currentConfig, desiredConfig, state } = node.mco;
  const { desiredImage, currentImage } = node.mco;
  const imageDone = (desiredImage === undefined && currentImage === undefined) || (desiredImage !== undefined && desiredImage !== '' && desiredImage === currentImage);
  const done = currentConfig !== undefined && currentConfig !== '' && currentConfig === desiredConfig && imageDone && state === 'Done';
  if (done || state === 'Degraded' || state === 'Unreconcilable') return [];
  return [{ reason: MCD_WORKING }];
}

/** Unavailable for a reason an administrator must look at (not a reboot or drain in progress, nor a blip). */
function seriouslyUnavailable(bad: readonly BadCondition[], at: number): boolean {
  const recent = (c: BadCondition, span: number): boolean => c.since !== undefined && at - c.since < span;
  return bad.some((c) => {
    if (c.reason === UNSCHEDULABLE || c.reason === MCD_WORKING) return false;
    if (c.reason === NOT_READY && recent(c, 5 * MINUTE)) return false;
    if ((c.reason === DISK_PRESSURE || c.reason === NETWORK_UNAVAILABLE) && recent(c, MINUTE)) return false;
    return true;
  });
}

function unavailableMessage(node: string, bad: readonly BadCondition[]): string {
  const words: Record<string, string> = { [NOT_READY]: `Node ${node} is not ready`, [DISK_PRESSURE]: `Node ${node} has disk pressure`, [NETWORK_UNAVAILABLE]: `Node ${node} has unavailable network` };
  return bad.map((c) => words[c.reason] ?? c.reason).join(' | ');
}

function unavailableDescription(bad: readonly BadCondition[]): string {
  const conditions: Record<string, string> = { [NOT_READY]: 'Ready!=True', [DISK_PRESSURE]: 'DiskPressure!=False', [NETWORK_UNAVAILABLE]: 'NetworkUnavailable!=False' };
  return bad
    .map((c) => {
      const condition = conditions[c.reason];
      return condition === undefined ? c.reason : `Node has a ${condition} condition with Reason ${JSON.stringify(c.reason)} and message ${JSON.stringify(c.message ?? '')}`;
    })
    .join(' | ');
}

function isDraining(node: NodeState, updating: boolean): boolean {
  const { desiredDrain, lastAppliedDrain, state } = node.mco;
  if (desiredDrain === undefined || desiredDrain === '' || lastAppliedDrain === undefined || lastAppliedDrain === '') return false;
  if (desiredDrain !== lastAppliedDrain && desiredDrain.split('-')[0] === 'drain') return true;
  // About to update, the daemon not yet Working: counted as draining rather than done.
  return updating && state === 'Done';
}

function updatingPhase(state: string | undefined): NodePhase {
  if (state === 'Rebooting') return 'Rebooting';
  if (state === 'Done') return 'Updated';
  return 'Updating';
}

function assessNode(node: NodeState, pool: PoolState, context: NodeContext, insights: UpdateInsight[]): AssessedNode {
  const { currentConfig, desiredConfig, state, reason } = node.mco;
  const target = context.history[0]?.version;
  const currentVersion = currentConfig === undefined ? undefined : context.versions[currentConfig];
  const desiredVersion = desiredConfig === undefined ? undefined : context.versions[desiredConfig];
  const annotationMatched = (currentConfig ?? '') === (desiredConfig ?? '');
  const desiredIsPoolTarget = (desiredConfig ?? '') === (pool.targetConfig ?? '');
  let updated: boolean;
  let updating: boolean;
  if (context.versionsKnown) {
    updated =
      currentVersion !== undefined && currentVersion === target && (!context.multiArchInProgress || desiredConfig === undefined || (annotationMatched && desiredIsPoolTarget));
    updating = !updated && currentVersion !== undefined && desiredVersion !== undefined && desiredVersion === target && !annotationMatched && desiredIsPoolTarget;
  } else {
    const onTarget = currentConfig !== undefined && currentConfig === pool.targetConfig;
    updated = context.mcoAtTarget && onTarget && annotationMatched;
    updating = !updated && context.mcoAtTarget && !annotationMatched && desiredIsPoolTarget && desiredConfig !== undefined;
  }
  const bad = unavailability(node);
  // A pool built with on-cluster layering is read as any other: a node asked for an image is not counted unavailable.
  const unavailable = bad.length > 0 && (node.mco.desiredImage ?? '') === '';
  const degraded = desiredConfig !== undefined && desiredConfig !== '' && (state === 'Degraded' || state === 'Unreconcilable');

  let phase: NodePhase;
  if (updating && isDraining(node, updating)) phase = 'Draining';
  else if (updating) phase = updatingPhase(state);
  else if (updated) phase = 'Updated';
  else if (pool.paused) phase = 'Paused';
  else phase = 'Pending';
  const byPhase: Record<NodePhase, NodeAssessment> = { Paused: 'Excluded', Pending: 'Outdated', Draining: 'Progressing', Updating: 'Progressing', Rebooting: 'Progressing', Updated: 'Completed' };
  const estimateByPhase: Record<NodePhase, NodeEstimate> = { Paused: '-', Pending: '?', Draining: '+10m', Updating: '+5m', Rebooting: '+5m', Updated: '-' };
  let assessment = byPhase[phase];
  let estimate = estimateByPhase[phase];
  let message: string | undefined;
  let summary = '';
  let description = '';
  if (unavailable && !updating) {
    assessment = 'Unavailable';
    message = bad.map((c) => c.reason).join(' | ');
    summary = unavailableMessage(node.name, bad);
    description = unavailableDescription(bad);
    estimate = updated ? '-' : '?';
  }
  if (degraded) {
    assessment = 'Degraded';
    message = reason ?? '';
    description = message;
    estimate = updated ? '-' : '?';
  }
  const nodeObject: InsightObject = { kind: 'Node', name: node.name };
  const since = earliest(bad.map((c) => c.since));
  if (unavailable && seriouslyUnavailable(bad, context.at) && !updating && summary !== '' && description !== '') {
    insights.push({ type: 'node-unavailable', level: 'Warning', impact: 'Update Speed', message: summary, description, since, reference: MCO_DOC, object: nodeObject, mentions: NO_MENTIONS() });
  }
  if (degraded && description !== '') {
    insights.push({ type: 'node-degraded', level: 'Error', impact: 'Update Stalled', message: `Node ${node.name} is degraded`, description, reference: MCO_DOC, object: nodeObject, mentions: NO_MENTIONS() });
  }
  return {
    name: node.name,
    assessment,
    phase,
    version: context.versionsKnown ? currentVersion : updated ? target : undefined,
    message: message === undefined ? undefined : node.name.length < 8 ? message : message.split(node.name).join('<node>'),
    estimate,
    unavailable,
    degraded,
    updating,
    updated,
  };
}

function assessPool(pool: PoolState, nodes: AssessedNode[], insights: UpdateInsight[]): UpdatePool {
  let available = 0;
  let progressing = 0;
  let draining = 0;
  let excluded = 0;
  let degraded = 0;
  let updated = 0;
  let pending = 0;
  for (const node of nodes) {
    if (!node.unavailable) available++;
    if (node.degraded) degraded++;
    if (node.phase === 'Paused') excluded++;
    else if (node.phase === 'Pending') pending++;
    else if (node.phase === 'Updated') updated++;
    if (node.phase === 'Draining') draining++;
    if ((node.phase === 'Draining' || node.phase === 'Updating' || node.phase === 'Rebooting') && !node.degraded) progressing++;
  }
  let assessment: PoolAssessment;
  if (nodes.length === 0) assessment = 'Empty';
  else if (updated === nodes.length) assessment = 'Completed';
  else if (pending === nodes.length) assessment = 'Pending';
  else if (degraded > 0) assessment = 'Degraded';
  else if (excluded > 0) assessment = 'Excluded';
  else assessment = 'Progressing';
  if (excluded > 0 && pool.paused) {
    insights.push({
      type: 'pool-paused',
      level: 'Warning',
      impact: 'Update Stalled',
      message: `Outdated nodes in a paused pool '${pool.name}' will not be updated`,
      description: 'Pool is paused, which stops all changes to the nodes in the pool, including updates. The nodes will not be updated until the pool is unpaused by the administrator.',
      reference: PAUSED_DOC,
      object: { kind: 'MachineConfigPool', name: pool.name },
      mentions: NO_MENTIONS(),
    });
  }
  const sorted = [...nodes].sort(
    (a, b) => NODE_ASSESSMENTS.indexOf(a.assessment) - NODE_ASSESSMENTS.indexOf(b.assessment) || NODE_PHASES.indexOf(a.phase) - NODE_PHASES.indexOf(b.phase) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return {
    name: pool.name,
    controlPlane: pool.name === 'master',
    assessment,
    completionPercent: nodes.length === 0 ? undefined : roundHalfEven((updated / nodes.length) * 100),
    nodesUpdated: updated,
    nodesTotal: nodes.length,
    paused: pool.paused,
    available,
    progressing,
    draining,
    excluded,
    degraded,
    nodes: sorted.map(({ name, assessment: a, phase, version, message, estimate }) => ({ name, assessment: a, phase, version, message, estimate })),
  };
}

/** Each node's pool as the machine-config operator picks it: master, then a custom pool, then worker. */
export function nodesByPool(pools: readonly PoolState[], nodes: readonly NodeState[]): Map<string, NodeState[]> {
  const master = pools.find((p) => p.name === 'master');
  const worker = pools.find((p) => p.name === 'worker');
  const custom = pools.filter((p) => p !== master && p !== worker);
  const out = new Map<string, NodeState[]>();
  for (const node of nodes) {
    const pool = [master, ...custom, worker].find((p) => p?.nodeSelector !== undefined && selects(p.nodeSelector, node.labels));
    if (pool === undefined) continue;
    const list = out.get(pool.name);
    if (list) list.push(node);
    else out.set(pool.name, [node]);
  }
  return out;
}

/** A Kubernetes label selector (matchLabels and the In, NotIn, Exists, DoesNotExist expressions). */
export function selects(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  const has = (key: string): boolean => Object.prototype.hasOwnProperty.call(labels, key);
  for (const [key, value] of Object.entries(selector.matchLabels)) if (!has(key) || labels[key] !== value) return false;
  for (const e of selector.matchExpressions) {
    const present = has(e.key);
    const ok =
      e.operator === 'In' ? present && e.values.includes(labels[e.key]!)
      : e.operator === 'NotIn' ? !present || !e.values.includes(labels[e.key]!)
      : e.operator === 'Exists' ? present
      : e.operator === 'DoesNotExist' ? !present
      : false;
    if (!ok) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Alerts (alerts.go) and the order of insights (health.go).

function alertInsights(alerts: readonly Alert[], startedAt: number): UpdateInsight[] {
  const out: UpdateInsight[] = [];
  for (const alert of alerts) {
    const name = alert.labels['alertname'];
    if (name === undefined || name === '' || alert.state !== 'firing') continue;
    const duringUpdate = alert.since !== undefined && alert.since > startedAt;
    const affectsUpdates = UPDATE_ALERTS.has(name);
    if (!affectsUpdates && !duringUpdate) continue;
    const level: InsightLevel | undefined = alert.severity === 'warning' ? 'Warning' : alert.severity === 'critical' ? 'Critical' : undefined;
    if (level === undefined) continue;
    const { description: text, message } = alert.annotations;
    const lead = affectsUpdates
      ? `Alert known to affect updates ${duringUpdate ? 'started firing during the update.' : 'has been firing since before the update started.'}`
      : 'Alert started firing during the update.';
    const said = [text, message].filter((x) => x !== undefined && x !== '').join(' | ');
    out.push({
      type: 'alert',
      level,
      impact: 'Unknown',
      message: `Alert is firing: ${alert.annotations['summary'] || name}`,
      description: `${lead}${said === '' ? ' The alert has no description.' : ` The alert description is: ${said}`}`,
      since: alert.since,
      reference: alert.annotations['runbook_url'] || '<alert does not have a runbook_url annotation>',
      object: { kind: 'Alert', namespace: alert.labels['namespace'], name },
      mentions: NO_MENTIONS(),
    });
  }
  return out;
}

/** Most severe first; within a level the newest first, undated last (oc's order). */
function sortInsights(insights: readonly UpdateInsight[], at: number): UpdateInsight[] {
  const out = insights.filter((i) => i.message !== '' && i.description !== '' && i.reference !== '');
  out.sort((a, b) => (b.since ?? -Infinity) - (a.since ?? -Infinity));
  out.sort((a, b) => LEVELS.indexOf(b.level) - LEVELS.indexOf(a.level));
  for (const i of out) if (i.since !== undefined && i.since > at) i.afterCollection = true;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Helpers.

/** Pools a message names (`pool worker is degraded`, `MachineConfigPool master is not ready`), of those known. */
export function poolsNamed(message: string | undefined, known: readonly string[]): string[] {
  if (message === undefined) return [];
  const named = new Set([...message.matchAll(/\b(?:pool|MachineConfigPool)\s+"?([a-z0-9][a-z0-9.-]*[a-z0-9])\b/g)].map((m) => m[1]!));
  return known.filter((name) => named.has(name));
}

/** Operators the cluster-version operator names (`Cluster operator X is …`, `Cluster operators A, B are …`), of those known. */
export function operatorsNamed(message: string | undefined, known: readonly string[]): string[] {
  if (message === undefined) return [];
  const named = new Set<string>();
  for (const m of message.matchAll(/Cluster operators? ([a-z0-9][a-z0-9, -]*?) (?:is|are|has|have) /g)) {
    for (const name of m[1]!.split(/,\s*|\s+and\s+|\s+/)) if (name !== '') named.add(name);
  }
  return known.filter((name) => named.has(name));
}

function earliest(times: readonly (number | undefined)[]): number | undefined {
  let out: number | undefined;
  for (const t of times) if (t !== undefined && t !== 0 && (out === undefined || t < out)) out = t;
  return out;
}

/** Go's `Duration.Round`: to the nearest multiple, halves away from zero. */
function roundTo(ms: number, unit: number): number {
  return Math.sign(ms) * Math.round(Math.abs(ms) / unit) * unit;
}

/** Go's `%.0f` on a percentage: halves to even. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (Math.abs(diff - 0.5) > 1e-9) return Math.round(x);
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * A duration as oc prints it (Go's `Duration.String` with zero tails cut): `1h59m`, `6s`,
 * `24h8m54s`, `now` for zero; whole seconds, negative with a `-`.
 */
export function shortDuration(ms: number): string {
  const total = Math.trunc(Math.abs(ms) / 1000);
  if (total === 0) return 'now';
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const text = h > 0 ? `${h}h${m}m${s}s` : m > 0 ? `${m}m${s}s` : `${s}s`;
  return `${ms < 0 ? '-' : ''}${text.replace(/(\d+h)0m0s$/, '$1').replace(/(\d+m)0s$/, '$1')}`;
}

/** oc's "Est. Time Remaining": `<10m`, `N/A; estimate duration was 1h24m`, or the duration. */
export function remainingText(status: Pick<UpdateStatus, 'estimatedRemainingMs' | 'estimatedTotalMs' | 'multiArch'>): string | undefined {
  const remaining = status.estimatedRemainingMs;
  if (remaining === undefined || remaining === 0) return undefined;
  if (status.multiArch) return 'N/A for Multi-Architecture Migration';
  if (remaining < -10 * MINUTE) return `N/A; estimate duration was ${shortDuration(status.estimatedTotalMs ?? 0)}`;
  if (remaining < 10 * MINUTE) return '<10m';
  return shortDuration(remaining);
}
