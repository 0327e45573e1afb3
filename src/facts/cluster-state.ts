/**
 * What the cluster summary is made of, read in the same pass as the rules: the ClusterOperators,
 * Nodes, MachineConfigPools, Pods, the OpenShift version each rendered MachineConfig carries,
 * the machine-config operator's own image, and the `etcd_info/` files of a must-gather.
 *
 * Each object is cut down to the few fields the summary reads as soon as it is parsed (a record
 * of plain data: a worker thread hands it over as it is, and nothing of the parsed file is kept
 * alive). A must-gather writes most objects twice (a List and one file per object) and an archive
 * may hold several copies of one image folder: objects are kept by kind, namespace and name, the
 * last one read winning, and the etcd files by file name.
 */
import { detachData } from '../core/detach.js';
import { RecordingConsumer, type Need } from '../ingest/consumer.js';
import type { ClassifiedEntry } from '../layout/types.js';
import type { K8sObject } from '../parsers/k8s.js';
import type { Pick } from '../parsers/yaml-block.js';
import { conditionMap, type ConditionMap } from './cluster.js';
import { arrayAt, isRecord, recordAt, stringAt, timeAt, type PlainObject } from './internal.js';

/** The annotations the machine-config daemon and controller keep on a node. */
export const MCO_ANNOTATIONS = {
  currentConfig: 'machineconfiguration.openshift.io/currentConfig',
  desiredConfig: 'machineconfiguration.openshift.io/desiredConfig',
  state: 'machineconfiguration.openshift.io/state',
  reason: 'machineconfiguration.openshift.io/reason',
  desiredDrain: 'machineconfiguration.openshift.io/desiredDrain',
  lastAppliedDrain: 'machineconfiguration.openshift.io/lastAppliedDrain',
  desiredImage: 'machineconfiguration.openshift.io/desiredImage',
  currentImage: 'machineconfiguration.openshift.io/currentImage',
} as const;

/** The OpenShift version a rendered MachineConfig was made for (MCO 4.11 and later write it). */
const RELEASE_VERSION_ANNOTATION = 'machineconfiguration.openshift.io/release-image-version';

export interface OperatorState {
  name: string;
  /** Part of the release payload: annotated `include.release.openshift.io/…` or `exclude.release.openshift.io/…`. */
  platform: boolean;
  /** `status.versions[name=operator]`. */
  version?: string | undefined;
  /** `status.versions[name=operator-image]` (the machine-config operator's own image, 4.18 and later). */
  operatorImage?: string | undefined;
  conditions: ConditionMap;
}

export interface NodeState {
  name: string;
  labels: Record<string, string>;
  /** The machine-config annotations ({@link MCO_ANNOTATIONS}) that are set. */
  mco: Partial<Record<keyof typeof MCO_ANNOTATIONS, string>>;
  unschedulable: boolean;
  /** Ready, DiskPressure, NetworkUnavailable, MemoryPressure, PIDPressure. */
  conditions: ConditionMap;
  kubeletVersion?: string | undefined;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values: string[];
}

export interface LabelSelector {
  matchLabels: Record<string, string>;
  matchExpressions: LabelSelectorRequirement[];
}

export interface PoolState {
  name: string;
  nodeSelector?: LabelSelector | undefined;
  paused: boolean;
  /** `spec.configuration.name`: the rendered config the pool is moving to. */
  targetConfig?: string | undefined;
  /** `status.configuration.name`: the rendered config all its nodes last reached. */
  currentConfig?: string | undefined;
  machineCount?: number | undefined;
  updatedMachineCount?: number | undefined;
  readyMachineCount?: number | undefined;
  degradedMachineCount?: number | undefined;
  unavailableMachineCount?: number | undefined;
  conditions: ConditionMap;
}

export interface ContainerState {
  name: string;
  ready: boolean;
  restartCount: number;
  /** `state.waiting.reason` (CrashLoopBackOff, ImagePullBackOff, …). */
  waiting?: string | undefined;
  /** `lastState.terminated`. */
  lastTerminated?: { reason?: string | undefined; exitCode?: number | undefined; finishedAt?: number | undefined } | undefined;
}

export interface PodState {
  namespace: string;
  name: string;
  /** `Deployment/x`, `DaemonSet/y`, `Job/z`, `Node/n` (a static pod): what made the pod. */
  workload?: string | undefined;
  phase: string;
  /** `status.reason` (Evicted, NodeLost, …). */
  reason?: string | undefined;
  /** `PodScheduled=False` reason (Unschedulable). */
  unscheduled?: string | undefined;
  node?: string | undefined;
  containers: ContainerState[];
}

/** The text of the `etcd_info/` files, by file name (`member_list.json`, `endpoint_health.json`, …). */
export type EtcdFiles = Record<string, string>;

/** Everything the summary reads, as plain data. */
export interface ClusterState {
  operators: OperatorState[];
  nodes: NodeState[];
  pools: PoolState[];
  pods: PodState[];
  /** Rendered MachineConfig name → the OpenShift version it carries (only those that carry one). */
  machineConfigVersions: Record<string, string>;
  /** Whether any MachineConfig was read at all (without them no node's version can be told). */
  machineConfigsRead: boolean;
  /** The image of the machine-config operator's container in its Deployment, when gathered. */
  mcoImage?: string | undefined;
  /** Undefined when the archive holds no `etcd_info/` folder. */
  etcd?: EtcdFiles | undefined;
}

type StateRecord =
  | { key: string; operator: OperatorState }
  | { key: string; node: NodeState }
  | { key: string; pool: PoolState }
  | { key: string; pod: PodState }
  | { machineConfig: string; version: string | undefined }
  | { mcoImage: string }
  | { etcdFile: string; text: string };

/** MachineConfigs are large (a rendered one holds every file of the node): only their name and annotations are parsed. */
const METADATA_ONLY: Pick = (() => {
  const item: Pick = { apiVersion: true, kind: true, metadata: { name: true, uid: true, namespace: true, annotations: true } };
  return { ...item, items: item };
})();

const MCO_NAMESPACE = 'openshift-machine-config-operator';
const ETCD_FILE_MAX = 4 * 1024 * 1024;

/** Which kind of object an entry holds, from its classified path. */
function sourceOf(entry: ClassifiedEntry): 'operators' | 'nodes' | 'pools' | 'machineconfigs' | 'pods' | 'deployments' | undefined {
  if (entry.kind !== 'list' && entry.kind !== 'cluster-object' && entry.kind !== 'namespaced-object') return undefined;
  const group = entry.group ?? 'core';
  switch (entry.resource) {
    case 'clusteroperators':
      return group === 'config.openshift.io' ? 'operators' : undefined;
    case 'nodes':
      return group === 'core' ? 'nodes' : undefined;
    case 'pods':
      return group === 'core' ? 'pods' : undefined;
    case 'machineconfigpools':
      return group === 'machineconfiguration.openshift.io' ? 'pools' : undefined;
    case 'machineconfigs':
      return group === 'machineconfiguration.openshift.io' ? 'machineconfigs' : undefined;
    case 'deployments':
      return group === 'apps' && entry.namespace === MCO_NAMESPACE ? 'deployments' : undefined;
    default:
      return undefined;
  }
}

export class ClusterStateCollector extends RecordingConsumer<StateRecord> {
  private readonly operators = new Map<string, OperatorState>();
  private readonly nodes = new Map<string, NodeState>();
  private readonly pools = new Map<string, PoolState>();
  private readonly pods = new Map<string, PodState>();
  private readonly machineConfigVersions: Record<string, string> = Object.create(null) as Record<string, string>;
  private machineConfigsRead = false;
  private mcoImage: string | undefined;
  private etcd: EtcdFiles | undefined;
  /** The `etcd_info/` file being read: its chunks, up to {@link ETCD_FILE_MAX}. */
  private etcdText = '';

  need(entry: ClassifiedEntry): Need | undefined {
    if (entry.rule === 'mg-etcd-info') return { text: true, wholeText: true };
    const source = sourceOf(entry);
    if (source === undefined) return undefined;
    return source === 'machineconfigs' ? { objects: METADATA_ONLY } : { objects: true };
  }

  object(object: K8sObject, entry: ClassifiedEntry): void {
    const source = sourceOf(entry);
    // By name, not uid: names are unique within a kind (and namespace) at the moment of a gather.
    const key = `${object.kind ?? ''}/${object.metadata?.namespace ?? entry.namespace ?? ''}/${object.metadata?.name ?? ''}`;
    if (source === 'operators' && object.kind === 'ClusterOperator') this.record({ key, operator: operatorState(object) });
    else if (source === 'nodes' && object.kind === 'Node') this.record({ key, node: nodeState(object) });
    else if (source === 'pools' && object.kind === 'MachineConfigPool') this.record({ key, pool: poolState(object) });
    else if (source === 'pods' && object.kind === 'Pod') this.record({ key, pod: podState(object, entry.namespace) });
    else if (source === 'machineconfigs' && object.kind === 'MachineConfig') {
      const name = object.metadata?.name;
      if (name !== undefined) this.record({ machineConfig: name, version: object.metadata?.annotations?.[RELEASE_VERSION_ANNOTATION] });
    } else if (source === 'deployments' && object.kind === 'Deployment' && object.metadata?.name === 'machine-config-operator') {
      const image = mcoContainerImage(object);
      if (image !== undefined) this.record({ mcoImage: image });
    }
  }

  text(chunk: Buffer): void {
    if (this.etcdText.length < ETCD_FILE_MAX) this.etcdText += chunk.toString('utf8', 0, Math.min(chunk.length, ETCD_FILE_MAX - this.etcdText.length));
  }

  endText(entry: ClassifiedEntry): void {
    this.record({ etcdFile: entry.name ?? entry.path, text: this.etcdText });
    this.etcdText = '';
  }

  // The first copy of an object read wins, as for the rules and the facts (its own file, in a
  // directory read in name order; else whichever of it and its List's copy came first).
  protected add(record: StateRecord): void {
    if ('operator' in record) setFirst(this.operators, record.key, record.operator);
    else if ('node' in record) setFirst(this.nodes, record.key, record.node);
    else if ('pool' in record) setFirst(this.pools, record.key, record.pool);
    else if ('pod' in record) setFirst(this.pods, record.key, record.pod);
    else if ('machineConfig' in record) {
      this.machineConfigsRead = true;
      if (record.version !== undefined) this.machineConfigVersions[record.machineConfig] = detachData(record.version);
    } else if ('mcoImage' in record) this.mcoImage = detachData(record.mcoImage);
    else (this.etcd ??= Object.create(null) as EtcdFiles)[record.etcdFile] = detachData(record.text);
  }

  state(): ClusterState {
    const byName = <T extends { name: string }>(list: Iterable<T>): T[] => [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return {
      operators: byName(this.operators.values()),
      nodes: byName(this.nodes.values()),
      // The control plane's pool first, then the default worker pool, then custom pools.
      pools: byName(this.pools.values()).sort((a, b) => poolRank(a.name) - poolRank(b.name)),
      pods: [...this.pods.values()],
      machineConfigVersions: this.machineConfigVersions,
      machineConfigsRead: this.machineConfigsRead,
      mcoImage: this.mcoImage,
      etcd: this.etcd,
    };
  }
}

function poolRank(name: string): number {
  return name === 'master' ? 0 : name === 'worker' ? 1 : 2;
}

function stringRecord(value: unknown): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  if (!isRecord(value)) return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

function operatorState(object: K8sObject): OperatorState {
  const annotations = Object.keys(object.metadata?.annotations ?? {});
  const versions = arrayAt(recordAt(object, 'status'), 'versions');
  const versionOf = (name: string): string | undefined => stringAt(versions.find((v) => stringAt(v, 'name') === name), 'version');
  return {
    name: object.metadata?.name ?? '(no name)',
    platform: annotations.some((a) => a.startsWith('include.release.openshift.io/') || a.startsWith('exclude.release.openshift.io/')),
    version: versionOf('operator'),
    operatorImage: versionOf('operator-image'),
    conditions: pickConditions(conditionMap(object), ['Available', 'Degraded', 'Progressing', 'Upgradeable']),
  };
}

function nodeState(object: K8sObject): NodeState {
  const annotations = object.metadata?.annotations ?? {};
  const mco: NodeState['mco'] = {};
  for (const [field, annotation] of Object.entries(MCO_ANNOTATIONS) as [keyof typeof MCO_ANNOTATIONS, string][]) {
    const value = annotations[annotation];
    if (typeof value === 'string') mco[field] = value;
  }
  return {
    name: object.metadata?.name ?? '(no name)',
    labels: stringRecord(object.metadata?.labels),
    mco,
    unschedulable: recordAt(object, 'spec')?.['unschedulable'] === true,
    conditions: pickConditions(conditionMap(object), ['Ready', 'DiskPressure', 'NetworkUnavailable', 'MemoryPressure', 'PIDPressure']),
    kubeletVersion: stringAt(recordAt(recordAt(object, 'status'), 'nodeInfo'), 'kubeletVersion'),
  };
}

function labelSelector(value: unknown): LabelSelector | undefined {
  if (!isRecord(value)) return undefined;
  const matchExpressions = arrayAt(value, 'matchExpressions').flatMap((e) => {
    const key = stringAt(e, 'key');
    const operator = stringAt(e, 'operator');
    if (key === undefined || operator === undefined) return [];
    return [{ key, operator, values: arrayAt(e, 'values').filter((v): v is string => typeof v === 'string') }];
  });
  return { matchLabels: stringRecord(value['matchLabels']), matchExpressions };
}

function count(status: PlainObject | undefined, key: string): number | undefined {
  const value = status?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function poolState(object: K8sObject): PoolState {
  const spec = recordAt(object, 'spec');
  const status = recordAt(object, 'status');
  return {
    name: object.metadata?.name ?? '(no name)',
    nodeSelector: labelSelector(spec?.['nodeSelector']),
    paused: spec?.['paused'] === true,
    targetConfig: stringAt(recordAt(spec, 'configuration'), 'name'),
    currentConfig: stringAt(recordAt(status, 'configuration'), 'name'),
    machineCount: count(status, 'machineCount'),
    updatedMachineCount: count(status, 'updatedMachineCount'),
    readyMachineCount: count(status, 'readyMachineCount'),
    degradedMachineCount: count(status, 'degradedMachineCount'),
    unavailableMachineCount: count(status, 'unavailableMachineCount'),
    conditions: pickConditions(conditionMap(object), ['Updated', 'Updating', 'Degraded', 'NodeDegraded', 'RenderDegraded']),
  };
}

function containerState(status: unknown): ContainerState | undefined {
  const name = stringAt(status, 'name');
  if (name === undefined) return undefined;
  const restarts = isRecord(status) ? status['restartCount'] : undefined;
  const terminated = recordAt(recordAt(status, 'lastState'), 'terminated');
  const exitCode = terminated?.['exitCode'];
  return {
    name,
    ready: isRecord(status) && status['ready'] === true,
    restartCount: typeof restarts === 'number' && Number.isFinite(restarts) ? restarts : 0,
    waiting: stringAt(recordAt(recordAt(status, 'state'), 'waiting'), 'reason'),
    lastTerminated: terminated && {
      reason: stringAt(terminated, 'reason'),
      exitCode: typeof exitCode === 'number' ? exitCode : undefined,
      finishedAt: timeAt(terminated, 'finishedAt'),
    },
  };
}

/** What made a pod, from its first controller owner: a ReplicaSet named `<deployment>-<hash>` is its Deployment's. */
function workloadOf(object: K8sObject): string | undefined {
  const owners = arrayAt(object.metadata, 'ownerReferences');
  const owner = owners.find((o) => isRecord(o) && o['controller'] === true) ?? owners[0];
  const kind = stringAt(owner, 'kind');
  const name = stringAt(owner, 'name');
  if (kind === undefined || name === undefined) return undefined;
  const hash = object.metadata?.labels?.['pod-template-hash'];
  if (kind === 'ReplicaSet' && hash !== undefined && name.endsWith(`-${hash}`)) return `Deployment/${name.slice(0, -hash.length - 1)}`;
  return `${kind}/${name}`;
}

function podState(object: K8sObject, namespace: string | undefined): PodState {
  const status = recordAt(object, 'status');
  const podScheduled = conditionMap(object)['PodScheduled'];
  return {
    namespace: object.metadata?.namespace ?? namespace ?? '',
    name: object.metadata?.name ?? '(no name)',
    workload: workloadOf(object),
    phase: stringAt(status, 'phase') ?? 'Unknown',
    reason: stringAt(status, 'reason'),
    unscheduled: podScheduled?.status === 'False' ? (podScheduled.reason ?? 'Unschedulable') : undefined,
    node: stringAt(recordAt(object, 'spec'), 'nodeName'),
    containers: arrayAt(status, 'containerStatuses').flatMap((c) => containerState(c) ?? []),
  };
}

function mcoContainerImage(object: K8sObject): string | undefined {
  const containers = arrayAt(recordAt(recordAt(recordAt(object, 'spec'), 'template'), 'spec'), 'containers');
  return stringAt(
    containers.find((c) => stringAt(c, 'name') === 'machine-config-operator'),
    'image',
  );
}

/** The conditions of these types only (a record crosses threads: no more than the summary reads). */
function pickConditions(all: ConditionMap, types: readonly string[]): ConditionMap {
  const out = Object.create(null) as ConditionMap;
  for (const type of types) {
    const c = all[type];
    if (c !== undefined) out[type] = c;
  }
  return out;
}

function setFirst<T extends object>(map: Map<string, T>, key: string, value: T): void {
  if (!map.has(key)) map.set(key, detachData(value));
}
