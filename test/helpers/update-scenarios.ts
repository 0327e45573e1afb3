/**
 * Clusters caught mid-update, as a must-gather would hold them: a ClusterVersion, ClusterOperators,
 * MachineConfigPools, Nodes and rendered MachineConfigs, in the shapes the cluster writes them (the
 * shapes of `oc adm upgrade status`'s own examples, with other names, versions and times). The
 * summary tests analyse them, and the `update-health` fixtures were written from them
 * (`writeMustGather`).
 */
import type { MustGatherContent } from './must-gather-tree.js';

type Obj = Record<string, unknown>;

/** The payload's ClusterOperators of a 4.15 cluster on AWS (33, as `oc get co` lists them). */
export const PAYLOAD_OPERATORS = [
  'authentication', 'baremetal', 'cloud-controller-manager', 'cloud-credential', 'cluster-autoscaler', 'config-operator', 'console',
  'control-plane-machine-set', 'csi-snapshot-controller', 'dns', 'etcd', 'image-registry', 'ingress', 'insights', 'kube-apiserver',
  'kube-controller-manager', 'kube-scheduler', 'kube-storage-version-migrator', 'machine-api', 'machine-approver', 'machine-config',
  'marketplace', 'monitoring', 'network', 'node-tuning', 'openshift-apiserver', 'openshift-controller-manager', 'openshift-samples',
  'operator-lifecycle-manager', 'operator-lifecycle-manager-catalog', 'operator-lifecycle-manager-packageserver', 'service-ca', 'storage',
];

const MINUTE = 60_000;

export function at(base: string, minutes: number): string {
  return new Date(Date.parse(base) + minutes * MINUTE).toISOString().replace('.000Z', 'Z');
}

function condition(type: string, status: string, time: string, reason = '', message = ''): Obj {
  return { lastTransitionTime: time, message, reason, status, type };
}

export interface HistoryEntry {
  version: string;
  state: 'Completed' | 'Partial';
  started: string;
  completed?: string | undefined;
}

export function clusterVersion(options: {
  history: HistoryEntry[];
  progressing: { status: string; since: string; message: string };
  failing?: { status: string; since: string; reason?: string; message?: string } | undefined;
  clusterID?: string;
}): Obj {
  const image = (v: string): string => `quay.io/openshift-release-dev/ocp-release@sha256:${Buffer.from(v).toString('hex').padEnd(64, '7').slice(0, 64)}`;
  const desired = options.history[0]!;
  const failing = options.failing ?? { status: 'False', since: options.progressing.since };
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version', uid: '0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b' },
    spec: { channel: 'stable-4.15', clusterID: options.clusterID ?? '7c3d2a10-55e1-4c8e-9f4e-2b8a61c0d9e4', desiredUpdate: { version: desired.version, image: image(desired.version) } },
    status: {
      desired: { version: desired.version, image: image(desired.version) },
      history: options.history.map((h) => ({ completionTime: h.completed ?? null, image: image(h.version), startedTime: h.started, state: h.state, verified: true, version: h.version })),
      conditions: [
        condition('Available', 'True', options.history[options.history.length - 1]!.completed ?? options.progressing.since, '', `Done applying ${options.history.find((h) => h.state === 'Completed')?.version ?? desired.version}`),
        condition('Failing', failing.status, failing.since, failing.reason ?? '', failing.message ?? ''),
        condition('Progressing', options.progressing.status, options.progressing.since, '', options.progressing.message),
        condition('RetrievedUpdates', 'True', options.history[options.history.length - 1]!.started),
      ],
      observedGeneration: 2,
      versions: [],
    },
  };
}

export interface OperatorOptions {
  version: string;
  available?: { status: string; since: string; reason?: string; message?: string } | undefined;
  degraded?: { status: string; since: string; reason?: string; message?: string } | undefined;
  progressing?: { status: string; since: string; message?: string } | undefined;
  /** Not part of the payload (no include.release.openshift.io annotation). */
  addOn?: boolean;
}

export function clusterOperator(name: string, o: OperatorOptions, defaultSince: string): Obj {
  const available = o.available ?? { status: 'True', since: defaultSince };
  const degraded = o.degraded ?? { status: 'False', since: defaultSince };
  const progressing = o.progressing ?? { status: 'False', since: defaultSince };
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: {
      name,
      uid: `c0${Buffer.from(name).toString('hex').padEnd(30, '0').slice(0, 30)}`,
      annotations: o.addOn ? {} : { 'include.release.openshift.io/self-managed-high-availability': 'true', 'include.release.openshift.io/single-node-developer': 'true' },
    },
    status: {
      conditions: [
        condition('Available', available.status, available.since, available.reason ?? 'AsExpected', available.message ?? 'All is well'),
        condition('Degraded', degraded.status, degraded.since, degraded.reason ?? 'AsExpected', degraded.message ?? ''),
        condition('Progressing', progressing.status, progressing.since, 'AsExpected', progressing.message ?? ''),
        condition('Upgradeable', 'True', defaultSince, 'AsExpected'),
      ],
      versions: [{ name: 'operator', version: o.version }],
    },
  };
}

/** Every payload operator on `version` unless `overrides` says otherwise. */
export function operators(version: string, since: string, overrides: Record<string, Partial<OperatorOptions>> = {}): Obj[] {
  return PAYLOAD_OPERATORS.map((name) => clusterOperator(name, { version, ...overrides[name] }, since));
}

export function pool(name: string, options: { role?: string; paused?: boolean; target: string; current?: string; machines: number; updated: number; degraded?: number; since: string; conditions?: Obj[] }): Obj {
  const role = options.role ?? name;
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: { name, uid: `9b${Buffer.from(name).toString('hex').padEnd(30, '1').slice(0, 30)}`, labels: { [`pools.operator.machineconfiguration.openshift.io/${name}`]: '' } },
    spec: {
      configuration: { name: options.target },
      machineConfigSelector: { matchLabels: { 'machineconfiguration.openshift.io/role': role } },
      nodeSelector: { matchLabels: { [`node-role.kubernetes.io/${role}`]: '' } },
      paused: options.paused ?? false,
    },
    status: {
      conditions: options.conditions ?? [
        condition('Updated', options.updated === options.machines ? 'True' : 'False', options.since, '', options.updated === options.machines ? `All nodes are updated with ${options.target}` : ''),
        condition('Updating', options.updated === options.machines ? 'False' : 'True', options.since, '', options.updated === options.machines ? '' : `All nodes are updating to ${options.target}`),
        condition('Degraded', (options.degraded ?? 0) > 0 ? 'True' : 'False', options.since),
        condition('NodeDegraded', (options.degraded ?? 0) > 0 ? 'True' : 'False', options.since),
        condition('RenderDegraded', 'False', options.since),
      ],
      configuration: { name: options.current ?? options.target },
      degradedMachineCount: options.degraded ?? 0,
      machineCount: options.machines,
      readyMachineCount: options.updated,
      unavailableMachineCount: options.machines - options.updated,
      updatedMachineCount: options.updated,
    },
  };
}

export interface NodeOptions {
  roles: string[];
  current: string;
  desired?: string;
  /** The machine-config daemon's state annotation (Done by default). */
  state?: string;
  reason?: string;
  ready?: { status: string; since: string; reason?: string; message?: string };
  unschedulable?: boolean;
  /** `desiredDrain` and `lastAppliedDrain` (`drain-<config>`, `uncordon-<config>`). */
  drain?: { desired: string; applied: string };
  kubelet?: string;
}

export function node(name: string, o: NodeOptions, since: string): Obj {
  const labels: Record<string, string> = { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' };
  for (const role of o.roles) labels[`node-role.kubernetes.io/${role}`] = '';
  const annotations: Record<string, string> = {
    'machineconfiguration.openshift.io/currentConfig': o.current,
    'machineconfiguration.openshift.io/desiredConfig': o.desired ?? o.current,
    'machineconfiguration.openshift.io/state': o.state ?? 'Done',
    'machineconfiguration.openshift.io/reason': o.reason ?? '',
    'machineconfiguration.openshift.io/desiredDrain': o.drain?.desired ?? `uncordon-${o.current}`,
    'machineconfiguration.openshift.io/lastAppliedDrain': o.drain?.applied ?? `uncordon-${o.current}`,
  };
  const ready = o.ready ?? { status: 'True', since };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: `a1${Buffer.from(name).toString('hex').padEnd(30, '2').slice(-30)}`, labels, annotations },
    spec: o.unschedulable ? { unschedulable: true, taints: [{ effect: 'NoSchedule', key: 'node.kubernetes.io/unschedulable', timeAdded: since }] } : {},
    status: {
      conditions: [
        condition('MemoryPressure', 'False', since, 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        condition('DiskPressure', 'False', since, 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        condition('PIDPressure', 'False', since, 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        condition('Ready', ready.status, ready.since, ready.reason ?? 'KubeletReady', ready.message ?? 'kubelet is posting ready status'),
      ],
      nodeInfo: { kubeletVersion: o.kubelet ?? 'v1.28.11+add48d0' },
    },
  };
}

export function renderedConfig(name: string, version: string): Obj {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: {
      name,
      annotations: { 'machineconfiguration.openshift.io/generated-by-controller-version': 'a4f0c1d2e3b4a5968778695a4b3c2d1e0f9a8b7c', 'machineconfiguration.openshift.io/release-image-version': version },
    },
    spec: { config: { ignition: { version: '3.4.0' }, storage: { files: [] } }, osImageURL: `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${'4'.repeat(64)}` },
  };
}

// ---------------------------------------------------------------------------------------------
// Scenarios.

const OLD = '4.15.3';
const NEW = '4.15.8';
const T0 = '2024-05-14T09:00:00Z';
const MASTER_OLD = 'rendered-master-3f1c0a9e2d7b6c5a4e3f2d1c0b9a8e7d';
const MASTER_NEW = 'rendered-master-8e7d6c5b4a3f2e1d0c9b8a7e6d5c4b3a';
const WORKER_OLD = 'rendered-worker-5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d';
const WORKER_NEW = 'rendered-worker-0d1c2b3a4f5e6d7c8b9a0e1d2c3b4a5f';
const INFRA_OLD = 'rendered-infra-6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b';
const INFRA_NEW = 'rendered-infra-1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e';
const CONFIGS = [
  renderedConfig(MASTER_OLD, OLD), renderedConfig(MASTER_NEW, NEW), renderedConfig(WORKER_OLD, OLD), renderedConfig(WORKER_NEW, NEW),
  renderedConfig(INFRA_OLD, OLD), renderedConfig(INFRA_NEW, NEW),
];
const MASTERS = ['ocp-lab-7hq2x-master-0', 'ocp-lab-7hq2x-master-1', 'ocp-lab-7hq2x-master-2'];
const WORKERS = ['ocp-lab-7hq2x-worker-eu-west-1a-6s9kd', 'ocp-lab-7hq2x-worker-eu-west-1b-q2m7w', 'ocp-lab-7hq2x-worker-eu-west-1c-z8r4p'];

/** History: 4.14.27 installed, 4.15.3 took 1h10m, 4.15.8 started at `started`. */
function history(started: string, newest: Partial<HistoryEntry> = {}): HistoryEntry[] {
  return [
    { version: NEW, state: 'Partial', started, ...newest },
    { version: OLD, state: 'Completed', started: at(T0, -1440), completed: at(T0, -1370) },
    { version: '4.14.27', state: 'Completed', started: at(T0, -40000), completed: at(T0, -39960) },
  ];
}

/**
 * An update to 4.15.8 twenty minutes in, its worker pool paused: the control plane is moving, the
 * workers stay on 4.15.3. oc: Progressing, worker Excluded 0% (0/3), a Warning "Outdated nodes in
 * a paused pool 'worker' will not be updated".
 */
export function pausedWorkerPool(): MustGatherContent {
  const started = at(T0, 60);
  const updated = ['authentication', 'etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'];
  return {
    clusterVersion: clusterVersion({ history: history(started), progressing: { status: 'True', since: started, message: `Working towards ${NEW}: 215 of 863 done (24% complete), waiting on kube-scheduler` } }),
    clusterOperators: operators(OLD, at(T0, -1370), Object.fromEntries(updated.map((name) => [name, { version: NEW, progressing: { status: 'False', since: at(T0, 75) } }]))),
    machineConfigPools: [
      pool('master', { target: MASTER_OLD, machines: 3, updated: 3, since: at(T0, -1370) }),
      pool('worker', { paused: true, target: WORKER_OLD, machines: 3, updated: 3, since: at(T0, -1370) }),
    ],
    nodes: [...MASTERS.map((n) => node(n, { roles: ['master'], current: MASTER_OLD }, at(T0, -1380))), ...WORKERS.map((n) => node(n, { roles: ['worker'], current: WORKER_OLD }, at(T0, -1375)))],
    machineConfigs: CONFIGS,
    collectedAt: at(T0, 80),
  };
}

/**
 * An update to 4.16.1 asked for while the update to 4.16.0 was still going: oc says "from
 * incomplete 4.16.0" and warns "Previous update to 4.16.0 never completed, last complete update
 * was 4.15.19".
 */
export function incompletePreviousUpdate(): MustGatherContent {
  const started = '2024-07-02T13:40:00Z';
  const cv = clusterVersion({
    history: [
      { version: '4.16.1', state: 'Partial', started },
      { version: '4.16.0', state: 'Partial', started: '2024-07-01T08:10:00Z', completed: '2024-07-02T13:40:00Z' },
      { version: '4.15.19', state: 'Completed', started: '2024-06-20T10:00:00Z', completed: '2024-06-20T11:05:00Z' },
      { version: '4.15.12', state: 'Completed', started: '2024-05-02T07:00:00Z', completed: '2024-05-02T07:38:00Z' },
    ],
    progressing: { status: 'True', since: started, message: 'Working towards 4.16.1: 97 of 901 done (10% complete), waiting on etcd, kube-apiserver' },
  });
  const m = (i: number, v: string): string => `rendered-master-${v.replace(/\./g, '')}${'c'.repeat(26)}${i}`;
  const w = (i: number, v: string): string => `rendered-worker-${v.replace(/\./g, '')}${'d'.repeat(26)}${i}`;
  return {
    clusterVersion: cv,
    clusterOperators: operators('4.16.0', '2024-07-02T12:00:00Z', {
      'config-operator': { version: '4.16.1', progressing: { status: 'False', since: '2024-07-02T13:41:10Z' } },
      etcd: { version: '4.16.0', progressing: { status: 'True', since: '2024-07-02T13:41:30Z', message: 'NodeInstallerProgressing: 1 node is at revision 9; 2 nodes are at revision 8' } },
      'kube-apiserver': { version: '4.16.0', progressing: { status: 'True', since: '2024-07-02T13:41:35Z', message: 'NodeInstallerProgressing: 3 nodes are at revision 14; 0 nodes have achieved new revision 15' } },
      'machine-config': { version: '4.15.19' },
    }),
    machineConfigPools: [pool('master', { target: m(0, '4.15.19'), machines: 3, updated: 3, since: '2024-06-20T11:00:00Z' }), pool('worker', { target: w(0, '4.15.19'), machines: 2, updated: 2, since: '2024-06-20T11:04:00Z' })],
    nodes: [
      ...['lab-cp-0', 'lab-cp-1', 'lab-cp-2'].map((n) => node(`${n}.ocp.example.net`, { roles: ['master'], current: m(0, '4.15.19') }, '2024-06-20T10:50:00Z')),
      ...['lab-w-0', 'lab-w-1'].map((n) => node(`${n}.ocp.example.net`, { roles: ['worker'], current: w(0, '4.15.19') }, '2024-06-20T11:02:00Z')),
    ],
    machineConfigs: [renderedConfig(m(0, '4.15.19'), '4.15.19'), renderedConfig(w(0, '4.15.19'), '4.15.19')],
    collectedAt: '2024-07-02T13:42:10Z',
  };
}

/**
 * The control plane updated to 4.15.8, the worker pool stuck: one worker cannot drain (its
 * daemon Degraded with the controller's "failed to drain node" after an hour), one waits, two
 * are done. The machine-config operator is Degraded naming the pool, ClusterVersion Failing
 * names the operator. oc: control plane completed, worker Degraded 50% (2/4), an Error "Node … is
 * degraded".
 */
export function drainBlocked(): MustGatherContent {
  const started = at(T0, 0);
  const completed = at(T0, 85);
  const workers = [...WORKERS, 'ocp-lab-7hq2x-worker-eu-west-1a-p5t3v'];
  const stuck = workers[1]!;
  const reason = `failed to drain node: ${stuck} after 1 hour. Please see machine-config-controller logs for more information`;
  const failingSince = at(T0, 150);
  return {
    clusterVersion: clusterVersion({
      history: history(started, { state: 'Completed', completed }),
      progressing: { status: 'False', since: completed, message: `Error while reconciling ${NEW}: the cluster operator machine-config is degraded` },
      failing: { status: 'True', since: failingSince, reason: 'ClusterOperatorDegraded', message: 'Cluster operator machine-config is degraded' },
    }),
    clusterOperators: operators(NEW, at(T0, 70), {
      'machine-config': {
        version: NEW,
        degraded: {
          status: 'True',
          since: at(T0, 148),
          reason: 'RequiredPoolsFailed',
          message: `Failed to resync ${NEW} because: error during syncRequiredMachineConfigPools: [context deadline exceeded, pool worker is degraded: 1 nodes are reporting degraded status on sync]`,
        },
      },
    }),
    machineConfigPools: [
      pool('master', { target: MASTER_NEW, machines: 3, updated: 3, since: at(T0, 80) }),
      pool('worker', {
        target: WORKER_NEW,
        current: WORKER_OLD,
        machines: 4,
        updated: 2,
        degraded: 1,
        since: at(T0, 147),
        conditions: [
          condition('Updated', 'False', at(T0, 86)),
          condition('Updating', 'True', at(T0, 86), '', `All nodes are updating to ${WORKER_NEW}`),
          condition('NodeDegraded', 'True', at(T0, 147), '1 nodes are reporting degraded status on sync', `Node ${stuck} is reporting: "${reason}"`),
          condition('Degraded', 'True', at(T0, 147), '1 nodes are reporting degraded status on sync', `Node ${stuck} is reporting: "${reason}"`),
          condition('RenderDegraded', 'False', at(T0, 2)),
        ],
      }),
    ],
    nodes: [
      ...MASTERS.map((n) => node(n, { roles: ['master'], current: MASTER_NEW }, at(T0, 78))),
      node(workers[0]!, { roles: ['worker'], current: WORKER_NEW }, at(T0, 95)),
      node(stuck, { roles: ['worker'], current: WORKER_OLD, desired: WORKER_NEW, state: 'Degraded', reason, unschedulable: true, drain: { desired: `drain-${WORKER_NEW}`, applied: `uncordon-${WORKER_OLD}` } }, at(T0, -1375)),
      node(workers[2]!, { roles: ['worker'], current: WORKER_OLD }, at(T0, -1375)),
      node(workers[3]!, { roles: ['worker'], current: WORKER_NEW }, at(T0, 118)),
    ],
    machineConfigs: CONFIGS,
    collectedAt: at(T0, 170),
  };
}

/** The same cluster a day after its update to 4.15.8 completed everywhere: not updating. */
export function notUpdating(): MustGatherContent {
  return {
    clusterVersion: clusterVersion({ history: history(at(T0, 0), { state: 'Completed', completed: at(T0, 85) }), progressing: { status: 'False', since: at(T0, 85), message: `Cluster version is ${NEW}` } }),
    clusterOperators: operators(NEW, at(T0, 90)),
    machineConfigPools: [pool('master', { target: MASTER_NEW, machines: 3, updated: 3, since: at(T0, 80) }), pool('worker', { target: WORKER_NEW, machines: 3, updated: 3, since: at(T0, 120) })],
    nodes: [...MASTERS.map((n) => node(n, { roles: ['master'], current: MASTER_NEW }, at(T0, 78))), ...WORKERS.map((n) => node(n, { roles: ['worker'], current: WORKER_NEW }, at(T0, 118)))],
    machineConfigs: CONFIGS,
    collectedAt: at(T0, 1500),
  };
}

/**
 * A single-node cluster three minutes into its update: the one node (master and worker) belongs
 * to the master pool, the worker pool is empty; kube-apiserver is updating.
 */
export function singleNode(): MustGatherContent {
  const started = at(T0, 0);
  const sno = 'sno-edge-17.lab.example.org';
  return {
    clusterVersion: clusterVersion({ history: history(started), progressing: { status: 'True', since: started, message: `Working towards ${NEW}: 120 of 863 done (13% complete), waiting on kube-apiserver` } }),
    clusterOperators: operators(OLD, at(T0, -1370), {
      etcd: { version: NEW, progressing: { status: 'False', since: at(T0, 2) } },
      'config-operator': { version: NEW },
      'kube-apiserver': { version: OLD, progressing: { status: 'True', since: at(T0, 2), message: 'NodeInstallerProgressing: 1 node is at revision 11; 0 nodes have achieved new revision 12' } },
    }),
    machineConfigPools: [pool('master', { target: MASTER_OLD, machines: 1, updated: 1, since: at(T0, -1370) }), pool('worker', { target: WORKER_OLD, machines: 0, updated: 0, since: at(T0, -1370) })],
    nodes: [node(sno, { roles: ['master', 'worker'], current: MASTER_OLD }, at(T0, -1380))],
    machineConfigs: CONFIGS,
    collectedAt: at(T0, 3),
  };
}

/** A compact cluster (three nodes, each master and worker) with its worker pool empty, 40 minutes in. */
export function compact(): MustGatherContent {
  const started = at(T0, 0);
  return {
    clusterVersion: clusterVersion({ history: history(started), progressing: { status: 'True', since: started, message: `Working towards ${NEW}: 790 of 863 done (91% complete)` } }),
    clusterOperators: operators(NEW, at(T0, 35), Object.fromEntries(['machine-config', 'network', 'dns'].map((name) => [name, { version: OLD }]))),
    machineConfigPools: [pool('master', { target: MASTER_OLD, machines: 3, updated: 3, since: at(T0, -1370) }), pool('worker', { target: WORKER_OLD, machines: 0, updated: 0, since: at(T0, -1370) })],
    nodes: ['a', 'b', 'c'].map((n) => node(`edge-compact-${n}.lab.example.org`, { roles: ['master', 'worker'], current: MASTER_OLD }, at(T0, -1380))),
    machineConfigs: CONFIGS,
    collectedAt: at(T0, 40),
  };
}

/**
 * Worker pools updating after the control plane: `worker` and a custom `infra` pool (its nodes
 * carry both roles and belong to infra), one node of each draining, and a `gpu` pool no node
 * matches (empty).
 */
export function infraAndEmptyPools(): MustGatherContent {
  const started = at(T0, 0);
  const infra = ['ocp-lab-7hq2x-infra-eu-west-1a-r4k8s', 'ocp-lab-7hq2x-infra-eu-west-1b-w7n2c'];
  return {
    clusterVersion: clusterVersion({ history: history(started), progressing: { status: 'True', since: started, message: `Working towards ${NEW}: 845 of 863 done (97% complete), waiting on machine-config` } }),
    clusterOperators: operators(NEW, at(T0, 40), { 'machine-config': { version: OLD, progressing: { status: 'True', since: at(T0, 41), message: `Working towards ${NEW}` } } }),
    machineConfigPools: [
      pool('master', { target: MASTER_NEW, machines: 3, updated: 3, since: at(T0, 52) }),
      pool('worker', { target: WORKER_NEW, current: WORKER_OLD, machines: 2, updated: 0, since: at(T0, 53) }),
      pool('infra', { target: INFRA_NEW, current: INFRA_OLD, machines: 2, updated: 0, since: at(T0, 53) }),
      pool('gpu', { target: 'rendered-gpu-2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d', machines: 0, updated: 0, since: at(T0, -1370) }),
    ],
    nodes: [
      ...MASTERS.map((n) => node(n, { roles: ['master'], current: MASTER_NEW }, at(T0, 50))),
      node(WORKERS[0]!, { roles: ['worker'], current: WORKER_OLD, desired: WORKER_NEW, state: 'Working', unschedulable: true, drain: { desired: `drain-${WORKER_NEW}`, applied: `uncordon-${WORKER_OLD}` } }, at(T0, -1375)),
      node(WORKERS[1]!, { roles: ['worker'], current: WORKER_OLD }, at(T0, -1375)),
      node(infra[0]!, { roles: ['worker', 'infra'], current: INFRA_OLD, desired: INFRA_NEW, state: 'Working', unschedulable: true, drain: { desired: `drain-${INFRA_NEW}`, applied: `uncordon-${INFRA_OLD}` } }, at(T0, -1375)),
      node(infra[1]!, { roles: ['worker', 'infra'], current: INFRA_OLD }, at(T0, -1375)),
    ],
    machineConfigs: CONFIGS,
    collectedAt: at(T0, 55),
  };
}

/**
 * The compact cluster's update with the dns operator Degraded for twelve minutes: oc's only
 * problems are that operator (a Warning) and nothing else, which clusteroperator-degraded reports.
 */
export function operatorDegradedMidUpdate(): MustGatherContent {
  const content = compact();
  const since = at(T0, 28);
  content.clusterOperators = operators(NEW, at(T0, 35), {
    'machine-config': { version: OLD },
    network: { version: OLD },
    dns: { version: OLD, degraded: { status: 'True', since, reason: 'DNSDegraded', message: 'DNS default is degraded: 1 of 3 DNS pods is not ready' } },
  });
  return content;
}
