import { describe, it, expect } from 'vitest';
import { textNames } from '../../src/engine/names-in-text.js';
import { joinFindings, type DiagnosisNode, type LinkSubject } from '../../src/engine/diagnosis.js';

const worker = { kind: 'MachineConfigPool', name: 'worker' };
const master = { kind: 'MachineConfigPool', name: 'master' };

describe('textNames: an object named in a message, however phrased', () => {
  // The machine-config operator's formats across versions (openshift/machine-config-operator
  // pkg/operator/sync.go and status.go), with other pool names and counts than upstream's examples.
  it.each([
    'error pool worker is not ready, retrying. Status: (pool degraded: true total: 3, ready 2, updated: 2, unavailable: 1)',
    'Unable to apply 4.15.3: error during syncRequiredMachineConfigPools: [context deadline exceeded, MachineConfigPool worker is not ready, retrying. Status: (pool degraded: true total: 5, ready 4, updated: 4, unavailable: 1, reason: Node w-2 is reporting: "failed to drain node")]',
    'required MachineConfigPool worker is not ready, retrying. Status: (total: 3, ready 1, updated: 1, unavailable: 2, degraded: 1)',
    'MachineConfigPool worker has not progressed to latest configuration: controller version mismatch for rendered-worker-5c1e expected 0a1b have 9f8e, retrying',
    'the required MachineConfigPool worker was paused with no pending updates; no further syncing will occur until it is unpaused',
    'Failed to resync 4.14.6 because: pool worker has not progressed to latest configuration',
    'configuration spec for pool "worker" is empty',
  ])('names pool worker: %s', (text) => {
    expect(textNames(text, worker)).toBe(true);
    expect(textNames(text, master)).toBe(false);
  });

  it('needs the kind\'s own word, a whole token, and a name that says something', () => {
    expect(textNames('0/3 worker nodes are available', worker)).toBe(false); // no "pool"
    expect(textNames('pool worker-infra is degraded', worker)).toBe(false); // another pool
    expect(textNames('the pool rendered-worker-5c1e is degraded', worker)).toBe(false);
    expect(textNames('Cluster version is 4.14.6', { kind: 'ClusterVersion', name: 'version' })).toBe(false);
    expect(textNames('the cluster network operator', { kind: 'Network', name: 'cluster' })).toBe(false);
  });

  it('names nodes as operators write them: quoted, after a slash, before a full stop', () => {
    const node = { kind: 'Node', name: 'ip-10-0-61-7.us-west-1.compute.internal' };
    expect(textNames('NodeControllerDegraded: The master nodes not ready: node "ip-10-0-61-7.us-west-1.compute.internal" not ready since 2024-03-01 08:12:40 +0000 UTC because NodeStatusUnknown (Kubelet stopped posting node status.)', node)).toBe(true);
    expect(textNames('EtcdMembersDegraded: 2 of 3 members are available, ip-10-0-61-7.us-west-1.compute.internal is unhealthy', node)).toBe(false); // no "node" word
    expect(textNames('StaticPodsDegraded: pod/etcd-ip-10-0-61-7.us-west-1.compute.internal container "etcd" is waiting on node ip-10-0-61-7.us-west-1.compute.internal.', node)).toBe(true);
    expect(textNames('node ip-10-0-61-70.us-west-1.compute.internal is fine', node)).toBe(false);
  });
});

function subject(id: string, parts: Partial<LinkSubject> = {}): LinkSubject {
  return { id, rule: id, title: id, headline: id, severity: 'error', about: [], mentions: [], times: [], windows: [], explains: [], ...parts };
}

function shape(nodes: DiagnosisNode[], depth = 0): string[] {
  return nodes.flatMap((n) => [`${'  '.repeat(depth)}${n.ruleId}`, ...shape(n.explains, depth + 1)]);
}

describe('links by name in text', () => {
  it('a NotReady node named by several operators explains each of them', () => {
    const node = { kind: 'Node', name: 'ip-10-0-61-7.us-west-1.compute.internal' };
    const operators = ['kube-apiserver', 'kube-scheduler'].map((name) => ({ kind: 'ClusterOperator', name }));
    const joined = joinFindings([
      subject('node-not-ready', { about: [node], explains: [{ rules: [], kinds: ['ClusterOperator'], by: 'object' }] }),
      subject('clusteroperator-degraded', {
        about: operators,
        parts: operators.map((o) => ({ about: [o], mentions: [], times: [], texts: [`clusteroperator/${o.name} Degraded=True: NodeControllerDegraded: The master nodes not ready: node "${node.name}" not ready since 2024-03-01 08:12:40 +0000 UTC`] })),
      }),
    ]);
    expect(shape(joined.diagnosis.roots)).toEqual(['node-not-ready', '  clusteroperator-degraded']);
    expect(joined.links[0]?.reason).toBe(`names Node ${node.name}`);
  });

  it('a mention named * (a message that names the kind, not which one) is explained by any object of that kind', () => {
    const operator = { kind: 'ClusterOperator', name: 'machine-config' };
    const joined = joinFindings([
      subject('mcp-degraded', { about: [worker], explains: [{ rules: [], kinds: ['ClusterOperator'], by: 'object' }] }),
      subject('clusteroperator-upgradeable-false', { severity: 'warning', about: [operator], mentions: [{ kind: 'MachineConfigPool', name: '*' }] }),
    ]);
    expect(shape(joined.diagnosis.roots)).toEqual(['mcp-degraded', '  clusteroperator-upgradeable-false']);
  });

  it('a message that names no pool is not explained by a degraded pool', () => {
    const joined = joinFindings([
      subject('mcp-degraded', { about: [worker], explains: [{ rules: [], kinds: ['ClusterOperator'], by: 'object' }] }),
      subject('clusteroperator-degraded', {
        about: [{ kind: 'ClusterOperator', name: 'dns' }],
        parts: [{ about: [{ kind: 'ClusterOperator', name: 'dns' }], mentions: [], times: [], texts: ['DNS default is degraded'] }],
      }),
    ]);
    expect(shape(joined.diagnosis.roots)).toEqual(['clusteroperator-degraded', 'mcp-degraded']);
  });
});
