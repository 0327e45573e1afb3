/**
 * `summary.update` on clusters caught mid-update (test/helpers/update-scenarios.ts, written as
 * must-gather trees and analysed as an archive would be): a paused pool, an incomplete previous
 * update, a node that cannot drain, a cluster not updating, a single-node and a compact cluster,
 * an infra pool and an empty pool. The expected figures follow `oc adm upgrade status`'s rules
 * (worked out by hand in the comments).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import type { ClusterSummary } from '../../src/facts/cluster-summary.js';
import { operatorsNamed, poolsNamed, remainingText, selects, shortDuration, type UpdateStatus } from '../../src/facts/update-status.js';
import { writeMustGather, type MustGatherContent } from '../helpers/must-gather-tree.js';
import * as scenarios from '../helpers/update-scenarios.js';
import { loadRules } from '../../src/engine/load.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function analyse(content: MustGatherContent, withRules = false) {
  const dir = mkdtempSync(join(tmpdir(), 'mgsift-update-'));
  dirs.push(dir);
  writeMustGather(dir, content);
  const rules = withRules ? (await loadRules([])).rules : undefined;
  return analyzeInput(dir, { limits: DEFAULT_LIMITS, rules });
}

async function summaryOf(content: MustGatherContent): Promise<ClusterSummary> {
  return (await analyse(content)).facts.summary!;
}

function updateOf(summary: ClusterSummary): UpdateStatus {
  expect(summary.update, summary.updateUnknown).not.toBeNull();
  return summary.update!;
}

const pool = (u: UpdateStatus, name: string) => u.pools.find((p) => p.name === name)!;

describe('summary.update on clusters mid-update', () => {
  it('a paused worker pool: Excluded, its nodes Paused, a Warning that they will not be updated', async () => {
    const u = updateOf(await summaryOf(scenarios.pausedWorkerPool()));
    expect(u).toMatchObject({ assessment: 'Progressing', target: '4.15.8', from: '4.15.3', fromIncomplete: false, operatorsTotal: 33, operatorsUpdated: 5, operatorsWaiting: 28 });
    expect(u.operatorsUpdating).toEqual([]);
    // 5 of 33 operators: 15 %. 20 minutes in; the last progress 15 minutes in, at 0.28 of the
    // time curve: about 54 minutes in all, 34 left, × 1.2 = 40 minutes.
    expect(u.completionPercent).toBe(15);
    expect(shortDuration(u.durationMs)).toBe('20m');
    expect(remainingText(u)).toBe('40m');
    expect(u.startedAt).toBe(Date.parse('2024-05-14T10:00:00Z'));
    expect(pool(u, 'worker')).toMatchObject({ assessment: 'Excluded', completionPercent: 0, nodesUpdated: 0, nodesTotal: 3, paused: true, excluded: 3, available: 3 });
    expect(pool(u, 'worker').nodes.map((n) => [n.assessment, n.phase, n.version])).toEqual(Array(3).fill(['Excluded', 'Paused', '4.15.3']));
    expect(pool(u, 'master')).toMatchObject({ controlPlane: true, assessment: 'Pending', nodesUpdated: 0, nodesTotal: 3 });
    expect(u.health.map((i) => [i.level, i.impact, i.message, i.since])).toEqual([['Warning', 'Update Stalled', "Outdated nodes in a paused pool 'worker' will not be updated", undefined]]);
    expect(u.health[0]!.object).toEqual({ kind: 'MachineConfigPool', name: 'worker' });
  });

  it('an update started before the previous one completed: from incomplete, and a Warning naming the last complete update', async () => {
    const u = updateOf(await summaryOf(scenarios.incompletePreviousUpdate()));
    expect(u).toMatchObject({ assessment: 'Progressing', target: '4.16.1', from: '4.16.0', fromIncomplete: true, completionPercent: 3, operatorsUpdated: 1, operatorsWaiting: 30 });
    expect(u.operatorsUpdating).toEqual(['etcd', 'kube-apiserver']);
    expect(shortDuration(u.durationMs)).toBe('2m10s');
    const insight = u.health.find((i) => i.type === 'previous-update-incomplete')!;
    expect(insight).toMatchObject({
      level: 'Warning',
      impact: 'None',
      message: 'Previous update to 4.16.0 never completed, last complete update was 4.15.19',
      description: 'Current update to 4.16.1 was initiated while the previous update to version 4.16.0 was still in progress',
      since: Date.parse('2024-07-02T13:40:00Z'),
      object: { kind: 'ClusterVersion', name: 'version' },
    });
  });

  it('a node that cannot drain: control plane Completed, its pool Degraded at 50 %, an Error naming the node', async () => {
    const summary = await summaryOf(scenarios.drainBlocked());
    const u = updateOf(summary);
    expect(u).toMatchObject({ assessment: 'Completed', target: '4.15.8', completionPercent: 100, operatorsUpdated: 33, operatorsDegraded: 1 });
    expect(u.completedAt).toBe(Date.parse('2024-05-14T10:25:00Z'));
    expect(shortDuration(u.durationMs)).toBe('1h25m');
    expect(u.estimatedRemainingMs).toBeUndefined();
    const worker = pool(u, 'worker');
    expect(worker).toMatchObject({ assessment: 'Degraded', completionPercent: 50, nodesUpdated: 2, nodesTotal: 4, degraded: 1, draining: 1, progressing: 0, available: 3 });
    expect(worker.nodes[0]).toEqual({
      name: 'ocp-lab-7hq2x-worker-eu-west-1b-q2m7w',
      assessment: 'Degraded',
      phase: 'Draining',
      version: '4.15.3',
      message: 'failed to drain node: <node> after 1 hour. Please see machine-config-controller logs for more information',
      // Degraded, not yet updated: oc cannot tell how long it will take.
      estimate: '?',
    });
    expect(u.health.map((i) => [i.type, i.level, i.message])).toEqual([
      ['node-degraded', 'Error', 'Node ocp-lab-7hq2x-worker-eu-west-1b-q2m7w is degraded'],
      ['clusterversion-failing', 'Warning', 'Cluster Version version is failing to proceed with the update (ClusterOperatorDegraded)'],
      ['operator-degraded', 'Warning', 'Cluster Operator machine-config is degraded (RequiredPoolsFailed)'],
    ]);
    // The links the diagnosis follows: ClusterVersion names the operator, the operator the pool.
    expect(u.health[1]!.mentions.operators).toEqual(['machine-config']);
    expect(u.health[2]!.mentions.pools).toEqual(['worker']);
    // Degraded for 22 minutes: a Warning (an Error after 40).
    expect(u.health[2]!.since).toBe(Date.parse('2024-05-14T11:28:00Z'));
  });

  it('a cluster not updating: null', async () => {
    const summary = await summaryOf(scenarios.notUpdating());
    expect(summary.update).toBeNull();
    expect(summary.updateUnknown).toBeUndefined();
  });

  it('a single-node cluster: its node in the master pool, the worker pool Empty, the update proceeding well', async () => {
    const u = updateOf(await summaryOf(scenarios.singleNode()));
    expect(u).toMatchObject({ assessment: 'Progressing', completionPercent: 6, operatorsUpdated: 2, operatorsWaiting: 30 });
    expect(u.operatorsUpdating).toEqual(['kube-apiserver']);
    expect(pool(u, 'master')).toMatchObject({ assessment: 'Pending', nodesTotal: 1, nodes: [{ name: 'sno-edge-17.lab.example.org', assessment: 'Outdated', phase: 'Pending', version: '4.15.3' }] });
    expect(pool(u, 'worker')).toMatchObject({ assessment: 'Empty', nodesTotal: 0, completionPercent: undefined });
    expect(u.health.map((i) => [i.level, i.impact, i.message, i.since])).toEqual([['Info', 'None', 'Update is proceeding well', Date.parse('2024-05-14T09:00:00Z')]]);
  });

  it('a compact cluster: the three nodes in the master pool, the worker pool Empty', async () => {
    const u = updateOf(await summaryOf(scenarios.compact()));
    expect(u).toMatchObject({ assessment: 'Progressing', completionPercent: 91, operatorsUpdated: 30, operatorsWaiting: 3 });
    expect(pool(u, 'master').nodesTotal).toBe(3);
    expect(pool(u, 'worker').assessment).toBe('Empty');
  });

  it('an infra pool takes the nodes labelled for it; a pool selecting no node is Empty', async () => {
    const summary = await summaryOf(scenarios.infraAndEmptyPools());
    const u = updateOf(summary);
    expect(u.pools.map((p) => p.name)).toEqual(['master', 'worker', 'gpu', 'infra']);
    expect(u.operatorsUpdating).toEqual(['machine-config']);
    // 32 of 33: 97 %, 55 minutes in: less than ten minutes left by oc's curve.
    expect(u).toMatchObject({ assessment: 'Progressing', completionPercent: 97 });
    expect(remainingText(u)).toBe('<10m');
    expect(pool(u, 'infra')).toMatchObject({ assessment: 'Progressing', completionPercent: 0, nodesTotal: 2, draining: 1, progressing: 1, available: 1 });
    expect(pool(u, 'infra').nodes.map((n) => [n.name, n.assessment, n.phase])).toEqual([
      ['ocp-lab-7hq2x-infra-eu-west-1a-r4k8s', 'Progressing', 'Draining'],
      ['ocp-lab-7hq2x-infra-eu-west-1b-w7n2c', 'Outdated', 'Pending'],
    ]);
    expect(pool(u, 'worker').nodes.map((n) => n.name)).toEqual(['ocp-lab-7hq2x-worker-eu-west-1a-6s9kd', 'ocp-lab-7hq2x-worker-eu-west-1b-q2m7w']);
    expect(pool(u, 'gpu')).toMatchObject({ assessment: 'Empty', nodesTotal: 0 });
    expect(pool(u, 'master')).toMatchObject({ assessment: 'Completed', completionPercent: 100 });
  });

  it('is judged at the collection time, never the reader\'s clock', async () => {
    const content = scenarios.pausedWorkerPool();
    const first = updateOf(await summaryOf(content));
    const later = updateOf(await summaryOf({ ...content, collectedAt: scenarios.at('2024-05-14T09:00:00Z', 200) }));
    expect(shortDuration(first.durationMs)).toBe('20m');
    expect(shortDuration(later.durationMs)).toBe('2h20m');
    // Two hours and a half past an estimate of about an hour: Stalled, and mgsift's own insight.
    expect(later.assessment).toBe('Stalled');
    expect(later.health.find((i) => i.type === 'update-slow')).toMatchObject({ level: 'Warning', impact: 'Update Stalled' });
  });

  it('without a timestamp file: judged at the latest condition change, as oc does with saved objects', async () => {
    const summary = await summaryOf({ ...scenarios.pausedWorkerPool(), collectedAt: undefined });
    expect(summary.atSource).toBe('latest-condition');
    expect(summary.at).toBe(Date.parse('2024-05-14T10:15:00Z'));
  });

  it('marks an insight dated after the collection time instead of placing it in the future', async () => {
    const content = scenarios.drainBlocked();
    // Collected before the operator's Degraded condition (the archive put together over some minutes).
    const summary = await summaryOf({ ...content, collectedAt: scenarios.at('2024-05-14T09:00:00Z', 149) });
    const failing = updateOf(summary).health.find((i) => i.type === 'clusterversion-failing')!;
    expect(failing.afterCollection).toBe(true);
    expect(updateOf(summary).health.filter((i) => i.afterCollection === true).map((i) => i.type)).toEqual(['clusterversion-failing']);
  });

  it('unknown, not "not updating", when the archive lacks what it needs', async () => {
    const summary = await summaryOf({ ...scenarios.pausedWorkerPool(), clusterOperators: undefined });
    expect(summary.update).toBeNull();
    expect(summary.updateUnknown).toBe('the archive holds no ClusterOperators');
    const noCv = await summaryOf({ ...scenarios.pausedWorkerPool(), clusterVersion: undefined });
    expect(noCv.updateUnknown).toBe('the archive holds no ClusterVersion');
  });

  it('reads a cluster older than 4.11 (rendered configs carry no version) by the pools\' configs, and says so', async () => {
    const content = scenarios.drainBlocked();
    const stripped = content.machineConfigs!.map((mc) => ({ ...mc, metadata: { name: (mc['metadata'] as { name: string }).name } }));
    const u = updateOf(await summaryOf({ ...content, machineConfigs: stripped }));
    expect(pool(u, 'worker')).toMatchObject({ assessment: 'Degraded', nodesUpdated: 2, nodesTotal: 4 });
    expect(pool(u, 'master')).toMatchObject({ assessment: 'Completed', nodesUpdated: 3 });
    expect(u.notes[0]).toContain('release-image-version');
    const healthy = await summaryOf({ ...scenarios.notUpdating(), machineConfigs: [] });
    expect(healthy.update).toBeNull();
  });

  it('turns the Warning and Error insights into update-health findings, linked in the diagnosis', async () => {
    const analysis = await analyse(scenarios.drainBlocked(), true);
    const findings = analysis.result!.findings;
    const health = findings.filter((f) => f.ruleId === 'update-health');
    expect(health.map((f) => [f.key, f.severity])).toEqual([['node-degraded', 'error']]);
    // The node that cannot drain explains its pool, the pool the operator, the operator ClusterVersion.
    const root = analysis.result!.diagnosis.roots.find((r) => r.ruleId === 'node-drain-blocked')!;
    const chain = (node: typeof root, depth = 0): string[] => [`${'  '.repeat(depth)}${node.ruleId}`, ...node.explains.flatMap((c) => chain(c, depth + 1))];
    expect(chain(root)).toEqual([
      'node-drain-blocked',
      '  update-health [node-degraded]',
      '    mcp-degraded',
      '      clusteroperator-degraded',
      '        clusterversion-failing',
    ]);
  });
});

describe('the update and etcd facts rules read', () => {
  it('update.pools, update.status and etcd.health reach a user rule', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgsift-rules-'));
    dirs.push(dir);
    writeFileSync(
      join(dir, 'paused-pool-during-update.yaml'),
      [
        'id: paused-pool-during-update',
        'title: A pool is paused during an update',
        'severity: warning',
        'status: experimental',
        'component: test',
        'references: [https://github.com/openshift/oc/blob/master/pkg/cli/admin/upgrade/status/workerpool.go]',
        'signals:',
        '  paused:',
        '    fact: { name: update.pools, where: "item.paused && item.assessment == \'Excluded\'", summary: "{{item.name}} {{item.nodesUpdated}}/{{item.nodesTotal}}" }',
        '  status:',
        '    fact: { name: update.status, summary: "{{item.assessment}} {{item.target}}" }',
        '  etcd:',
        '    fact: { name: etcd.health, where: "!item.local && item.healthy" }',
        'condition: paused and status and not etcd',
        'message: "{{#each evidence}}{{this.text}}; {{/each}}"',
        'remediation: "oc adm upgrade status"',
        '',
      ].join('\n'),
    );
    const rules = (await loadRules([dir])).rules.filter((r) => r.id === 'paused-pool-during-update');
    const tree = mkdtempSync(join(tmpdir(), 'mgsift-update-'));
    dirs.push(tree);
    writeMustGather(tree, scenarios.pausedWorkerPool());
    const analysis = await analyzeInput(tree, { limits: DEFAULT_LIMITS, rules });
    // No etcd_info/ in this tree: the rule reading etcd.health is not checked, not passed.
    expect(analysis.result!.notChecked.map((n) => n.ruleId)).toEqual(['paused-pool-during-update']);
    expect(analysis.result!.notChecked[0]!.reason).toContain('etcd_info/');
    const withEtcd = mkdtempSync(join(tmpdir(), 'mgsift-update-'));
    dirs.push(withEtcd);
    writeMustGather(withEtcd, { ...scenarios.pausedWorkerPool(), etcd: { 'endpoint_health.json': '[{"endpoint":"https://10.0.12.5:2379","health":false,"error":"context deadline exceeded"}]' } });
    const fired = (await analyzeInput(withEtcd, { limits: DEFAULT_LIMITS, rules })).result!.findings;
    expect(fired.map((f) => f.message)).toEqual(['worker 0/3; Progressing 4.15.8;']);
    expect(fired[0]!.evidence.find((e) => e.signal === 'paused')?.object).toEqual({ kind: 'MachineConfigPool', name: 'worker' });
  });
});

describe('update-status helpers', () => {
  it('prints durations as oc does', () => {
    expect(shortDuration(0)).toBe('now');
    expect(shortDuration(6_000)).toBe('6s');
    expect(shortDuration(89_000)).toBe('1m29s');
    expect(shortDuration(14 * 60_000)).toBe('14m');
    expect(shortDuration((60 + 59) * 60_000)).toBe('1h59m');
    expect(shortDuration(24 * 3_600_000 + 8 * 60_000 + 54_000)).toBe('24h8m54s');
    expect(shortDuration(3 * 3_600_000)).toBe('3h');
  });

  it('matches label selectors', () => {
    const labels = { 'node-role.kubernetes.io/worker': '', 'node-role.kubernetes.io/infra': '', zone: 'a' };
    expect(selects({ matchLabels: { 'node-role.kubernetes.io/infra': '' }, matchExpressions: [] }, labels)).toBe(true);
    expect(selects({ matchLabels: { 'node-role.kubernetes.io/master': '' }, matchExpressions: [] }, labels)).toBe(false);
    expect(selects({ matchLabels: {}, matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }, labels)).toBe(true);
    expect(selects({ matchLabels: {}, matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, labels)).toBe(false);
    expect(selects({ matchLabels: {}, matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist', values: [] }] }, labels)).toBe(true);
    expect(selects({ matchLabels: {}, matchExpressions: [{ key: 'gpu', operator: 'Exists', values: [] }] }, labels)).toBe(false);
  });

  it('names the operators and pools a message names, of those known', () => {
    const known = ['machine-config', 'etcd', 'kube-apiserver', 'network'];
    expect(operatorsNamed('Cluster operator machine-config is degraded', known)).toEqual(['machine-config']);
    expect(operatorsNamed('Multiple errors are preventing progress:\n* Cluster operators etcd, kube-apiserver are degraded\n* network is fine', known)).toEqual(['etcd', 'kube-apiserver']);
    expect(poolsNamed('error during syncRequiredMachineConfigPools: [pool worker is degraded: 1 nodes…, MachineConfigPool master is not ready]', ['master', 'worker', 'infra'])).toEqual(['master', 'worker']);
    expect(poolsNamed(undefined, ['worker'])).toEqual([]);
  });
});
