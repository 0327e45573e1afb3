/**
 * `mgsift diff OLD NEW`, through the shipped CLI: an archive against itself, a folder against the
 * same tree packed, an operator going Degraded and back, two different clusters, each format.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { mgsift } from '../helpers/cli.js';
import { packTree, tempDir } from '../helpers/archives.js';
import { writeMustGather } from '../helpers/must-gather-tree.js';
import { pausedWorkerPool } from '../helpers/update-scenarios.js';
import { OC_EXAMPLES, OC_EXAMPLES_ABSENT, ocExampleTree } from '../helpers/oc-examples.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MG_MINI = join(ROOT, 'test/fixtures/mg-mini');
const SAMPLE = join(ROOT, 'samples/mco-ignition-rollback.tar.gz');
const DEGRADED = join(ROOT, 'rules/health/clusteroperator-degraded.fixtures');

interface DiffJson {
  sameCluster?: boolean;
  warnings: string[];
  findings: { new: { id: string; severity: string }[]; resolved: { id: string }[]; persisting: { id: string; changed?: string }[] };
  roots: { before: string[]; after: string[] };
  changes: { kind: string; name: string; what: string; before?: string; after?: string }[];
  unknown: unknown[];
  update: { moved: string[] };
  audit?: { changes: { time: string; user: string; verb: string; resource: string; name: string }[]; notes: string[] };
}

function diffJson(old: string, now: string, extra: string[] = []): { code: number | null; diff: DiffJson; stderr: string } {
  const run = mgsift(['diff', old, now, '--format', 'json', ...extra]);
  return { code: run.code, diff: JSON.parse(run.stdout) as DiffJson, stderr: run.stderr };
}

describe('mgsift diff', () => {
  it('an archive against itself: no new or resolved finding, no change, exit 0', () => {
    const { code, diff, stderr } = diffJson(SAMPLE, SAMPLE);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(diff.sameCluster).toBe(true);
    expect(diff.findings.new).toEqual([]);
    expect(diff.findings.resolved).toEqual([]);
    expect(diff.findings.persisting.length).toBeGreaterThan(5);
    expect(diff.findings.persisting.filter((f) => f.changed)).toEqual([]);
    expect(diff.changes).toEqual([]);
    expect(diff.unknown).toEqual([]);
    expect(diff.roots.before).toEqual(diff.roots.after);
  });

  it('a folder against the same tree as a .tar.xz: nothing changed', () => {
    const dir = tempDir();
    cpSync(MG_MINI, dir, { recursive: true });
    const archive = packTree(dir, 'must-gather-aws', dir)['tar.xz'];
    const { code, diff } = diffJson(join(dir, 'must-gather-aws'), archive);
    expect(code).toBe(0);
    expect([diff.findings.new, diff.findings.resolved, diff.changes]).toEqual([[], [], []]);
  });

  it('an operator going Degraded is a new finding (exit 1 at error), and back a resolved one', () => {
    const quiet = join(DEGRADED, 'quiet-progressing-not-degraded/input');
    const degraded = join(DEGRADED, 'fires-two-degraded/input');
    const worse = diffJson(quiet, degraded);
    expect(worse.code).toBe(1);
    expect(worse.diff.findings.new).toContainEqual(expect.objectContaining({ id: 'clusteroperator-degraded', severity: 'error' }));
    // The operators' own messages name the causes (the master pool, the router pods): those are the roots.
    expect(worse.diff.roots.after).toEqual(expect.arrayContaining(['mcp-degraded', 'ingress-router-pods-unavailable']));
    const better = diffJson(degraded, quiet);
    expect(better.code).toBe(0);
    expect(better.diff.findings.resolved.map((f) => f.id)).toContain('clusteroperator-degraded');
    // --fail-on critical: the new error finding does not fail the run.
    expect(diffJson(quiet, degraded, ['--fail-on', 'critical']).code).toBe(0);
  });

  it('two different clusters: a warning on stderr and in the report, and the diff still runs', () => {
    const dir = tempDir();
    cpSync(MG_MINI, dir, { recursive: true });
    const cv = join(dir, 'must-gather-aws/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cbd33388f7e18954e5ce8ad9616e91df05ace604966c0a44111d85c897/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml');
    writeFileSync(cv, readFileSync(cv, 'utf8').replace('96eb6c40-16e8-4718-ade6-5d7c6f05e120', '0d1f2e3c-4b5a-4697-8877-a1b2c3d4e5f6'));
    const { code, diff, stderr } = diffJson(MG_MINI, join(dir, 'must-gather-aws'));
    expect(code).toBe(0);
    expect(diff.sameCluster).toBe(false);
    expect(diff.warnings[0]).toMatch(/^The two inputs are from different clusters \(96eb6c40-.* and 0d1f2e3c-/);
    expect(stderr).toMatch(/^mgsift: warning: The two inputs are from different clusters/);
  });

  it('says the ClusterVersion changes: version, desired version, history entries added', () => {
    const { diff } = diffJson(join(ROOT, 'samples/healthy.tar.gz'), SAMPLE);
    const cv = diff.changes.filter((c) => c.kind === 'ClusterVersion').map((c) => `${c.what}: ${c.before ?? ''} → ${c.after ?? ''}`);
    expect(cv).toContain('version: 4.8.0-0.nightly-2021-07-31-065602 → 4.6.27');
    expect(cv).toContain('history entry added:  → 4.7.0-0.ci-2021-04-29-142719 (Partial, started 2021-04-29T22:32:41.000Z)');
  });

  it('text by default, Markdown and HTML on request; a file from -o with its format from the suffix; unreadable input is exit 2', () => {
    const text = mgsift(['diff', SAMPLE, SAMPLE]);
    expect(text.stdout).toMatch(/^Diff: 0 new, 0 resolved, \d+ persisting finding\(s\); 0 change\(s\) in state; 0 new error template\(s\)\n/);
    expect(mgsift(['diff', SAMPLE, SAMPLE, '--format', 'md']).stdout).toMatch(/^# mgsift diff\n/);
    const out = join(tempDir(), 'changes.html');
    expect(mgsift(['diff', SAMPLE, SAMPLE, '-o', out]).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('<h1>What changed</h1>');
    const missing = mgsift(['diff', SAMPLE, join(tempDir(), 'nothing.tar.gz')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^mgsift: error: /);
  });
});

describe('mgsift diff on the state the summary reads', () => {
  it('a pool un-paused and a new pool, a node added, the update progressing', () => {
    const dir = tempDir();
    const before = pausedWorkerPool();
    const after = pausedWorkerPool();
    const pools = after.machineConfigPools!;
    pools[1] = { ...pools[1]!, spec: { ...(pools[1]!['spec'] as object), paused: false } };
    pools.push({ ...pools[1]!, metadata: { ...(pools[1]!['metadata'] as object), name: 'infra' }, spec: { ...(pools[1]!['spec'] as object), paused: false, nodeSelector: { matchLabels: { 'node-role.kubernetes.io/infra': '' } } } });
    // Twelve more operators at the target: the update moved on.
    for (const co of after.clusterOperators!.slice(0, 12)) (co['status'] as { versions: { name: string; version: string }[] }).versions = [{ name: 'operator', version: '4.15.8' }];
    after.nodes = [...after.nodes!, { ...after.nodes!.at(-1)!, metadata: { ...(after.nodes!.at(-1)!['metadata'] as object), name: 'ip-10-0-77-7.eu-west-1.compute.internal' } }];
    const cv = after.clusterVersion!;
    const status = cv['status'] as { conditions: { type: string; message?: string }[] };
    for (const c of status.conditions) if (c.type === 'Progressing') c.message = c.message!.replace('215 of 863 done (24% complete)', '690 of 863 done (80% complete)');
    const old = writeMustGather(join(dir, 'old'), before, '1001');
    const now = writeMustGather(join(dir, 'new'), after, '1002');
    const { diff } = diffJson(old, now);
    const said = diff.changes.map((c) => `${c.kind} ${c.name}: ${c.what} ${c.before ?? ''} → ${c.after ?? ''}`);
    expect(said).toContain('MachineConfigPool worker: paused true → false');
    expect(said.some((s) => s.startsWith('MachineConfigPool infra: pool added'))).toBe(true);
    expect(said).toContain('Nodes all: count 6 → 7');
    expect(diff.update.moved.find((m) => m.startsWith('completion '))).toMatch(/^completion (\d+)% → (\d+)%$/);
    expect(diff.update.moved.find((m) => m.startsWith('operators updated '))).toMatch(/^operators updated \d+ → \d+ of \d+$/);
    expect(diff.update.moved.find((m) => m.startsWith('pool worker: '))).toBe('pool worker: Excluded 0/3 nodes updated → Pending 0/4 nodes updated');
    expect(said).toContain('Node ip-10-0-77-7.eu-west-1.compute.internal: node added  → roles worker; pool worker');
    expect(diff.findings.resolved.map((f) => f.id)).toContain('mco-pool-paused-update-pending');
  });
});

describe('mgsift diff on two uploads of one cluster (oc\'s examples: the worker pool paused, then workers updating in two pools)', () => {
  if (OC_EXAMPLES === undefined) {
    it.skip(`skipped: ${OC_EXAMPLES_ABSENT}`, () => {});
    return;
  }
  const dir = tempDir();
  const old = ocExampleTree('4.14.1-paused-worker-pool', join(dir, 'old'), '1001');
  const now = ocExampleTree('4.14.1-workers-started-updating-multiple-pools', join(dir, 'new'), '1002');

  it('names the node added, the role and pool a node gained, every operator condition that moved with its reason, and no non-change', () => {
    const { diff } = diffJson(old, now);
    const said = diff.changes.map((c) => `${c.kind} ${c.name}: ${c.what} ${c.before ?? ''} → ${c.after ?? ''}`);
    expect(said).toContain('Node ip-10-0-4-159-infra.us-east-2.compute.internal: node added  → roles infra; pool infra; unschedulable');
    expect(said).toContain('Node ip-10-0-20-162.us-east-2.compute.internal: roles worker → infra, worker');
    expect(said).toContain('Node ip-10-0-20-162.us-east-2.compute.internal: pool worker → infra');
    expect(said).toContain('ClusterOperator machine-config: Upgradeable True (AsExpected) → False (PoolUpdating)');
    expect(said).toContain('ClusterOperator kube-storage-version-migrator: Available True (AsExpected) → False (KubeStorageVersionMigrator_Deploying)');
    // The added node is not said to have become unschedulable; the kubelets say no version on either side.
    expect(said.filter((s) => s.includes('ip-10-0-4-159-infra') && s.includes('unschedulable false'))).toEqual([]);
    expect(said.filter((s) => s.includes('kubelet'))).toEqual([]);
    // Each change says something moved: no line whose sides are the same.
    for (const c of diff.changes) expect(c.before, `${c.kind} ${c.name} ${c.what}`).not.toBe(c.after);
    // One status per pool: the state section and the update section in the same words.
    expect(said).toContain('MachineConfigPool infra: pool added  → Progressing 0/2 nodes updated');
    expect(diff.update.moved).toContain('pool infra: absent → Progressing 0/2 nodes updated');
    expect(diff.update.moved).toContain('pool worker: Excluded 0/3 nodes updated → Progressing 0/2 nodes updated');
  });

  it('text shows an absent side as absent; HTML fills What changed and shows severities as badges', () => {
    const text = mgsift(['diff', old, now]).stdout;
    expect(text).toContain('  Node ip-10-0-4-159-infra.us-east-2.compute.internal: node added roles infra; pool infra; unschedulable\n');
    expect(text).toContain('  ClusterOperator machine-config: Upgradeable True (AsExpected) → False (PoolUpdating)\n');
    expect(text).not.toMatch(/ip-10-0-4-159-infra[^\n]*unschedulable false/);
    const html = mgsift(['diff', old, now, '--format', 'html']).stdout;
    const rows = [...html.matchAll(/<tr><td>(.*?)<\/td><td><code>(.*?)<\/code><\/td><td>.*?<\/td><td>(.*?)<\/td><\/tr>/g)];
    expect(rows.length).toBe(4);
    for (const [, severity, , changed] of rows) {
      expect(severity).toMatch(/^<span class="badge sev-(info|warning|error|critical)">/);
      expect(changed).not.toBe('');
    }
    expect(rows.find((r) => r[2] === 'mco-pool-paused-update-pending')?.[3]).toBe('no longer found, was about MachineConfigPool worker');
  });
});

describe('mgsift diff: restarts and pods across two inputs', () => {
  it('a container restarting only in NEW reads not restarting → its count', () => {
    const dir = tempDir();
    const pod = (restarts: number): Record<string, unknown> => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'etcd-guard-master-0', namespace: 'openshift-etcd', uid: 'u1' },
      spec: { nodeName: 'master-0', containers: [{ name: 'guard' }] },
      status: { phase: 'Running', containerStatuses: [{ name: 'guard', ready: true, restartCount: restarts, state: { running: {} }, lastState: { terminated: { reason: 'Error', exitCode: 1, finishedAt: '2024-02-07T16:00:00Z' } } }] },
    });
    const old = writeMustGather(join(dir, 'old'), { ...pausedWorkerPool(), pods: [pod(0)] }, '1001');
    const now = writeMustGather(join(dir, 'new'), { ...pausedWorkerPool(), pods: [pod(7)] }, '1002');
    const { diff } = diffJson(old, now);
    const restart = diff.changes.find((c) => c.kind === 'Pod' && c.what.startsWith('container guard restarts'));
    expect(restart).toMatchObject({ namespace: 'openshift-etcd', name: 'etcd-guard-master-0', before: 'not restarting', after: '7' });
    expect(mgsift(['diff', old, now]).stdout).toMatch(/Pod openshift-etcd\/etcd-guard-master-0: container guard restarts \(last: Error\) not restarting → 7\n/);
  });
});

describe('mgsift diff with audit logs', () => {
  const AUDIT = join(ROOT, 'test/fixtures/audit/must-gather.local.5512');
  const IMAGE = 'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-3c0a1c4cbcb5c5a2d9ef1a0b0aa0a61e2c3e7dfb8e1d0f5e7cfd5dba0f0f4a11';
  const dir = tempDir();
  // OLD: the same cluster collected at 08:00, its kube-apiserver log then only the rotated file (to 07:55).
  const old = join(dir, 'old');
  cpSync(AUDIT, old, { recursive: true });
  for (const stamp of [join(old, 'timestamp'), join(old, IMAGE, 'timestamp')]) writeFileSync(stamp, '2026-03-14 07:58:10.000000000 +0000 UTC m=+0.061093215\n2026-03-14 08:00:00.000000000 +0000 UTC m=+110.000000000\n');
  for (const server of ['kube-apiserver', 'openshift-apiserver', 'oauth-apiserver']) rmSync(join(old, IMAGE, 'audit_logs', server), { recursive: true, force: true });
  mkdirSync(join(old, IMAGE, 'audit_logs/kube-apiserver'));
  cpSync(join(AUDIT, IMAGE, 'audit_logs/kube-apiserver/master-0.lab.example.net-audit-2026-03-14T07-58-02.771.log'), join(old, IMAGE, 'audit_logs/kube-apiserver/master-0.lab.example.net-audit.log'));
  /** A must-gather without audit logs (a paused worker pool). */
  const noAudit = join(ROOT, 'rules/mco/mco-pool-paused-update-pending.fixtures/fires-paused-with-pending-config/input');

  it('lists the changes of people and non-platform accounts between the two collections, in every format', () => {
    const { diff } = diffJson(old, AUDIT);
    expect(diff.audit?.changes.map((c) => `${c.time} ${c.user} ${c.verb} ${c.resource}/${c.name}`)).toEqual([
      '2026-03-14T09:12:47.402Z dave@example.com patch nodes/worker-2.lab.example.net',
      '2026-03-14T09:05:30.210Z system:serviceaccount:argocd:argocd-application-controller update deployments/cart',
      '2026-03-14T09:01:10.700Z alice create routes/cart',
      '2026-03-14T08:52:19.003Z alice patch clusterversions/version',
      '2026-03-14T08:40:03.512Z alice patch machineconfigpools/worker',
    ]);
    expect(diff.audit?.notes).toEqual([]);
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(readFileSync(join(ROOT, 'schema/diff.schema.json'), 'utf8')) as object);
    expect(validate(diff), JSON.stringify(validate.errors)).toBe(true);
    const text = mgsift(['diff', old, AUDIT]).stdout;
    expect(text).toContain('Audited changes between the collections (5):\n  nodes/worker-2.lab.example.net: dave@example.com patch (200) at 2026-03-14 09:12:47.402Z from 10.0.4.41');
    const md = mgsift(['diff', old, AUDIT, '--format', 'md']).stdout;
    expect(md).toMatch(/^## Audited changes between the collections \(5\)$/m);
    expect(md).toMatch(/^\| 2026-03-14 08:40:03\.512Z \| alice \| patch \| machineconfigpools\/worker \| 200 \|/m);
    const html = mgsift(['diff', old, AUDIT, '--format', 'html']).stdout;
    expect(html).toContain('<h2>Audited changes between the collections (5)</h2>');
    expect(html).toMatch(/<tr><td>2026-03-14 09:05:30\.210Z<\/td><td>system:serviceaccount:argocd:argocd-application-controller<\/td><td>update<\/td><td>namespaces\/shop\/deployments\/cart<\/td>/);
  });

  it('says in one line when one side has no audit logs, and nothing when neither has', () => {
    const { diff } = diffJson(noAudit, AUDIT);
    expect(diff.audit).toEqual({ changes: [], notes: ['OLD has no audit logs (only NEW was gathered with gather_audit_logs): the changes between the collections are not known.'] });
    expect(mgsift(['diff', noAudit, AUDIT]).stdout).toContain('\nAudit: OLD has no audit logs');
    const neither = diffJson(noAudit, noAudit).diff;
    expect(neither.audit).toBeUndefined();
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(readFileSync(join(ROOT, 'schema/diff.schema.json'), 'utf8')) as object);
    expect(validate(neither), JSON.stringify(validate.errors)).toBe(true);
  });
});
