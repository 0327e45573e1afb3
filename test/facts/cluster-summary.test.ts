/**
 * The cluster at a glance from a must-gather tree: operators, nodes by role and kubelet, pools,
 * pods not running and containers restarting, etcd from `etcd_info/` (64-bit member ids, the
 * members' local sockets, alarms), and what it says when a part is missing. With the shared real
 * archives, their etcd folders too.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { etcdInfo } from '../../src/facts/etcd-info.js';
import type { ClusterSummary } from '../../src/facts/cluster-summary.js';
import { writeMustGather, type MustGatherContent } from '../helpers/must-gather-tree.js';
import { notUpdating } from '../helpers/update-scenarios.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function summaryOf(content: MustGatherContent): Promise<ClusterSummary> {
  const dir = mkdtempSync(join(tmpdir(), 'mgsift-summary-'));
  dirs.push(dir);
  writeMustGather(dir, content);
  return (await analyzeInput(dir, { limits: DEFAULT_LIMITS })).facts.summary!;
}

type Obj = Record<string, unknown>;

function pod(namespace: string, name: string, status: Obj, owner?: { kind: string; name: string }, hash?: string): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      uid: `p-${name}`,
      labels: hash ? { 'pod-template-hash': hash } : {},
      ownerReferences: owner ? [{ apiVersion: 'apps/v1', kind: owner.kind, name: owner.name, controller: true, uid: 'o' }] : [],
    },
    spec: { nodeName: 'ocp-lab-7hq2x-worker-eu-west-1a-6s9kd' },
    status,
  };
}

const running = (restarts = 0, last?: Obj): Obj => ({
  phase: 'Running',
  containerStatuses: [{ name: 'main', ready: true, restartCount: restarts, state: { running: { startedAt: '2024-05-15T08:00:00Z' } }, ...(last ? { lastState: { terminated: last } } : {}) }],
});

const PODS = [
  pod('openshift-ingress-operator', 'ingress-operator-6b9f7c6d5-x2k8v', running(7, { exitCode: 1, reason: 'Error', finishedAt: '2024-05-15T09:10:00Z' }), { kind: 'ReplicaSet', name: 'ingress-operator-6b9f7c6d5' }, '6b9f7c6d5'),
  pod('openshift-monitoring', 'prometheus-k8s-0', running(2, { exitCode: 137, reason: 'OOMKilled', finishedAt: '2024-05-15T09:00:00Z' }), { kind: 'StatefulSet', name: 'prometheus-k8s' }),
  pod('openshift-monitoring', 'node-exporter-7xq2m', running()),
  pod('openshift-kube-apiserver', 'installer-12-ocp-lab-7hq2x-master-0', { phase: 'Succeeded', containerStatuses: [] }, { kind: 'Node', name: 'ocp-lab-7hq2x-master-0' }),
  pod('openshift-ingress', 'router-default-5d8c9b7f4-q8zpw', {
    phase: 'Running',
    containerStatuses: [{ name: 'router', ready: false, restartCount: 12, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 137, reason: 'Error', finishedAt: '2024-05-15T09:20:00Z' } } }],
  }, { kind: 'ReplicaSet', name: 'router-default-5d8c9b7f4' }, '5d8c9b7f4'),
  pod('openshift-image-registry', 'image-pruner-28601280-abcde', { phase: 'Failed', reason: 'Evicted', containerStatuses: [] }, { kind: 'Job', name: 'image-pruner-28601280' }),
  pod('openshift-etcd', 'etcd-guard-new', { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', lastTransitionTime: '2024-05-15T09:00:00Z' }] }),
];

/** etcd_info as gather_etcd writes it (etcdctl -w json): ids past 2^53, local sockets, a NOSPACE alarm. */
const ETCD = {
  'member_list.json': '{"header":{"cluster_id":9277133014385212123,"member_id":15882936114528671033,"raft_term":4},"members":[{"ID":15882936114528671033,"name":"ocp-lab-7hq2x-master-0","peerURLs":["https://10.0.12.5:2380"],"clientURLs":["https://10.0.12.5:2379","unixs://10.0.12.5:0"]},{"ID":4118283102457391234,"name":"ocp-lab-7hq2x-master-1","peerURLs":["https://10.0.13.6:2380"],"clientURLs":["https://10.0.13.6:2379","unixs://10.0.13.6:0"]},{"ID":18302047531928375551,"name":"ocp-lab-7hq2x-master-2","peerURLs":["https://10.0.14.7:2380"],"clientURLs":["https://10.0.14.7:2379","unixs://10.0.14.7:0"]}]}',
  'endpoint_health.json': '[{"endpoint":"https://10.0.12.5:2379","health":true,"took":"9.4ms"},{"endpoint":"https://10.0.13.6:2379","health":true,"took":"11.2ms"},{"endpoint":"https://10.0.14.7:2379","health":false,"took":"5.0s","error":"context deadline exceeded"},{"endpoint":"unixs://10.0.12.5:0","health":false,"took":"5.0s","error":"context deadline exceeded"}]',
  'endpoint_status.json': '[{"Endpoint":"https://10.0.12.5:2379","Status":{"header":{"cluster_id":9277133014385212123,"member_id":15882936114528671033,"revision":90211,"raft_term":4},"version":"3.5.10","dbSize":2147483648,"leader":18302047531928375551,"raftIndex":1,"raftTerm":4,"raftAppliedIndex":1,"dbSizeInUse":1073741824}},{"Endpoint":"https://10.0.14.7:2379","Status":{"header":{"cluster_id":9277133014385212123,"member_id":18302047531928375551,"revision":90211,"raft_term":4},"version":"3.5.10","dbSize":8589934592,"leader":18302047531928375551,"raftIndex":1,"raftTerm":4,"raftAppliedIndex":1,"dbSizeInUse":8000000000}}]',
  'alarm_list.json': '{"header":{"cluster_id":9277133014385212123,"member_id":15882936114528671033,"revision":90211,"raft_term":4},"alarms":[{"memberID":18302047531928375551,"alarm":"NOSPACE"}]}',
};

describe('the cluster summary', () => {
  it('counts operators, nodes by role, kubelets and pools', async () => {
    const content = notUpdating();
    const s = await summaryOf(content);
    expect(s.atSource).toBe('collection');
    expect(s.operators).toMatchObject({ total: 33, available: 33, degraded: [], progressing: [], unavailable: [] });
    expect(s.nodes).toMatchObject({ total: 6, ready: 6, roles: { master: 3, worker: 3 }, notReady: [], unschedulable: [], kubelet: [{ version: 'v1.28.11+add48d0', count: 6 }] });
    // Each node by name, with its roles and the pool that selects it.
    expect(s.nodes?.members.map((m) => `${m.roles.join('+')}:${m.pool ?? 'none'}`).sort()).toEqual(['master:master', 'master:master', 'master:master', 'worker:worker', 'worker:worker', 'worker:worker']);
    expect(s.operators?.conditions.find((o) => o.name === 'machine-config')?.conditions).toMatchObject({ Available: { status: 'True' }, Degraded: { status: 'False' } });
    expect(s.pools?.map((p) => [p.name, p.machines, p.updated, p.paused, p.movingTo])).toEqual([
      ['master', 3, 3, false, undefined],
      ['worker', 3, 3, false, undefined],
    ]);
    expect(s.update).toBeNull();
  });

  it('lists pods not running by reason, with their workload, and containers restarting, the most first', async () => {
    const s = await summaryOf({ ...notUpdating(), pods: PODS });
    const pods = s.pods!;
    expect(pods).toMatchObject({ total: 7, running: 3, succeeded: 1, restartingMore: 0 });
    expect(pods.notRunning).toEqual([
      { reason: 'CrashLoopBackOff', count: 1, pods: [{ namespace: 'openshift-ingress', name: 'router-default-5d8c9b7f4-q8zpw', workload: 'Deployment/router-default', node: 'ocp-lab-7hq2x-worker-eu-west-1a-6s9kd' }] },
      { reason: 'Evicted', count: 1, pods: [{ namespace: 'openshift-image-registry', name: 'image-pruner-28601280-abcde', workload: 'Job/image-pruner-28601280', node: 'ocp-lab-7hq2x-worker-eu-west-1a-6s9kd' }] },
      { reason: 'Unschedulable', count: 1, pods: [{ namespace: 'openshift-etcd', name: 'etcd-guard-new', workload: undefined, node: 'ocp-lab-7hq2x-worker-eu-west-1a-6s9kd' }] },
    ]);
    expect(pods.restarting.map((c) => [c.pod, c.container, c.restarts, c.lastReason, c.lastExitCode, c.waiting])).toEqual([
      ['router-default-5d8c9b7f4-q8zpw', 'router', 12, 'Error', 137, 'CrashLoopBackOff'],
      ['ingress-operator-6b9f7c6d5-x2k8v', 'main', 7, 'Error', 1, undefined],
      ['prometheus-k8s-0', 'main', 2, 'OOMKilled', 137, undefined],
    ]);
    expect(pods.restarting[1]).toMatchObject({ workload: 'Deployment/ingress-operator', lastFinishedAt: Date.parse('2024-05-15T09:10:00Z') });
  });

  it('reads etcd_info: members with their 64-bit ids, the leader, health without the local sockets, alarms, database size', async () => {
    const s = await summaryOf({ ...notUpdating(), etcd: ETCD });
    const e = s.etcd;
    expect(e).toMatchObject({ gathered: true, endpoints: 3, healthy: 2, leader: 'ocp-lab-7hq2x-master-2', dbSize: 8589934592, dbSizeInUse: 8000000000 });
    expect(e.info!.members.map((m) => [m.id, m.name, m.leader ?? null])).toEqual([
      ['15882936114528671033', 'ocp-lab-7hq2x-master-0', false],
      ['4118283102457391234', 'ocp-lab-7hq2x-master-1', null],
      ['18302047531928375551', 'ocp-lab-7hq2x-master-2', true],
    ]);
    expect(e.info!.health.find((h) => h.local)).toMatchObject({ endpoint: 'unixs://10.0.12.5:0', member: 'ocp-lab-7hq2x-master-0', healthy: false });
    expect(e.info!.health.find((h) => !h.healthy && !h.local)).toMatchObject({ member: 'ocp-lab-7hq2x-master-2', error: 'context deadline exceeded' });
    expect(e.info!.alarms).toEqual([{ alarm: 'NOSPACE', memberId: '18302047531928375551', member: 'ocp-lab-7hq2x-master-2' }]);
  });

  it('says what is missing instead of inventing it', async () => {
    const s = await summaryOf({ collectedAt: '2024-05-15T10:00:00Z', clusterVersion: notUpdating().clusterVersion });
    expect(s.operators).toBeUndefined();
    expect(s.nodes).toBeUndefined();
    expect(s.pods).toBeUndefined();
    expect(s.etcd).toEqual({ gathered: false, endpoints: 0, healthy: 0 });
    expect(s.update).toBeNull();
    expect(s.updateUnknown).toBe('the archive holds no ClusterOperators');
  });

  it('keeps an unreadable etcd file as unreadable, the others read', () => {
    const info = etcdInfo({ 'member_list.json': ETCD['member_list.json'], 'alarm_list.json': '{"alarms": [' });
    expect(info?.members).toHaveLength(3);
    expect(info?.unreadable.map((u) => u.file)).toEqual(['alarm_list.json']);
    expect(etcdInfo(undefined)).toBeUndefined();
  });
});


