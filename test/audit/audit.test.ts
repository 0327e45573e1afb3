import { describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { tempDir } from '../helpers/archives.js';
import { mgsift } from '../helpers/cli.js';

import type { AuditChange } from '../../src/facts/audit.js';
const FIXTURE = new URL('../fixtures/audit/must-gather.local.5512', import.meta.url).pathname;
const schema = JSON.parse(readFileSync(new URL('../../schema/audit.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

/** A change as the JSON lists it: the report's own type. */
type Change = AuditChange;
interface AuditJson {
  files: { path: string; server: string; node: string; events: number; notReadWhole?: string }[];
  events: { read: number; requests: number; matched: number; notEvents: number; changesNotListed: number; pastKeyLimit: number };
  window: { first: string; last: string } | null;
  changes: Change[];
  throttled: { user: string; userAgent: string; count: number; first: string; last: string }[];
  denied: { user: string; sourceIP: string; code: number; count: number; first: string; last: string }[];
  clients: { user: string; count: number; codes: Record<string, number> }[];
  problems: { severity: string; path: string; reason: string }[];
}

function auditJson(args: string[]): AuditJson {
  const run = mgsift(['audit', ...args, '--format', 'json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const doc = JSON.parse(run.stdout) as AuditJson;
  expect(validate(doc), JSON.stringify((validate as { errors?: unknown }).errors)).toBe(true);
  return doc;
}

const who = (doc: AuditJson): string[] => doc.changes.map((c) => `${c.user} ${c.verb} ${c.resource}/${c.name}`);

/** Every file of a tree, path relative to it. */
function filesOf(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix)).flatMap((name) => {
    const rel = prefix ? `${prefix}/${name}` : name;
    return statSync(join(dir, rel)).isDirectory() ? filesOf(dir, rel) : [rel];
  });
}

/** The fixture as gather_audit_logs writes it: every file below audit_logs/<server>/ gzipped. */
function gzippedCopy(): { parent: string; root: string } {
  const parent = tempDir('mgsift-audit-');
  const root = join(parent, 'must-gather.local.5512');
  cpSync(FIXTURE, root, { recursive: true });
  for (const rel of filesOf(root)) {
    if (!/audit_logs\/[^/]+\/[^/]+$/.test(rel)) continue;
    const path = join(root, rel);
    writeFileSync(`${path}.gz`, gzipSync(readFileSync(path)));
    execFileSync('rm', [path]);
  }
  return { parent, root };
}

describe('mgsift audit on a must-gather with gather_audit_logs', () => {
  const doc = auditJson([FIXTURE]);

  it('reads every audit log of every server and node, and nothing else', () => {
    expect(doc.files.map((f) => `${f.server} ${f.node} ${f.path.split('/').pop()}`).sort()).toEqual([
      'kube-apiserver master-0.lab.example.net master-0.lab.example.net-audit-2026-03-14T07-58-02.771.log',
      'kube-apiserver master-0.lab.example.net master-0.lab.example.net-audit.log',
      'kube-apiserver master-1.lab.example.net master-1.lab.example.net-audit.log',
      'oauth-apiserver master-1.lab.example.net master-1.lab.example.net-audit.log',
      'openshift-apiserver master-0.lab.example.net master-0.lab.example.net-audit.log',
      'openshift-apiserver master-1.lab.example.net master-1.lab.example.net-audit.log',
    ]);
    expect(doc.events).toEqual({ read: 157, requests: 156, matched: 156, notEvents: 0, changesNotListed: 0, pastKeyLimit: 0 });
    expect(doc.window).toEqual({ first: '2026-03-14T01:10:00.120Z', last: '2026-03-14T09:29:58.001Z' });
    expect(doc.problems).toEqual([]);
  });

  it('lists the changes of people and non-platform accounts, newest first, with every field', () => {
    expect(who(doc)).toEqual([
      'dave@example.com patch nodes/worker-2.lab.example.net',
      'system:serviceaccount:argocd:argocd-application-controller update deployments/cart',
      'alice create routes/cart',
      'alice patch clusterversions/version',
      'alice patch machineconfigpools/worker',
      'system:admin delete namespaces/team-a',
    ]);
    expect(doc.changes[4]).toEqual({
      time: '2026-03-14T08:40:03.512Z',
      user: 'alice',
      verb: 'patch',
      resource: 'machineconfigpools',
      apiGroup: 'machineconfiguration.openshift.io',
      namespace: '',
      name: 'worker',
      subresource: '',
      code: 200,
      userAgent: 'oc/4.14.0 (linux/amd64) kubernetes/0c63f9d',
      sourceIP: '10.0.4.17',
      server: 'kube-apiserver',
      person: true,
    });
    expect(doc.changes.find((c) => c.resource === 'routes')).toMatchObject({ server: 'openshift-apiserver', namespace: 'shop', code: 201 });
    expect(doc.changes.find((c) => c.user.includes('argocd'))?.person).toBe(false);
  });

  it('keeps quiet about controllers patching status all day, a person reading, and a question asked with create', () => {
    expect(doc.changes.some((c) => c.user.startsWith('system:node:') || c.user.includes('machine-config-controller'))).toBe(false);
    expect(doc.changes.some((c) => c.user === 'bob')).toBe(false);
    expect(doc.clients.find((c) => c.user === 'bob')).toEqual({ user: 'bob', count: 11, codes: { '200': 10, '201': 1 } });
  });

  it('counts a long-running request once, at its closing stage', () => {
    expect(doc.clients.find((c) => c.user === 'system:kube-controller-manager')?.count).toBe(1);
  });

  it('tells throttled clients with their agent and times, and refused requests by user and source', () => {
    expect(doc.throttled).toEqual([
      { user: 'system:serviceaccount:batch-reports:report-exporter', userAgent: 'report-exporter/1.4.2', count: 100, lastHour: 100, first: '2026-03-14T09:00:00.000Z', last: '2026-03-14T09:24:00.003Z' },
      { user: 'system:serviceaccount:openshift-monitoring:prometheus-operator', userAgent: 'PrometheusOperator/0.67.1', count: 3, lastHour: 0, first: '2026-03-14T01:10:00.120Z', last: '2026-03-14T01:10:02.120Z' },
    ]);
    expect(doc.denied).toEqual([
      { user: 'system:anonymous', sourceIP: '203.0.113.9', userAgent: 'curl/8.2.1', code: 401, count: 8, lastHour: 8, first: '2026-03-14T09:10:00.005Z', last: '2026-03-14T09:17:00.005Z' },
      { user: 'carol', sourceIP: '10.0.4.30', userAgent: 'oc/4.14.0 (linux/amd64) kubernetes/0c63f9d', code: 403, count: 3, lastHour: 3, first: '2026-03-14T09:20:00.061Z', last: '2026-03-14T09:24:00.061Z' },
    ]);
    expect(doc.clients[0]).toEqual({ user: 'system:serviceaccount:batch-reports:report-exporter', count: 100, codes: { '429': 100 } });
  });

  it('counts a failed authentication, logged once at ResponseStarted with no user, and the refusals of the last hour apart', () => {
    const refused = new URL('../../rules/control-plane/audit-requests-refused.fixtures/fires-stale-token-and-ci-bot/input/must-gather.local.5520', import.meta.url).pathname;
    const flood = JSON.parse(mgsift(['audit', refused, '--format', 'json']).stdout) as AuditJson;
    expect(flood.denied.slice(0, 2)).toEqual([
      { user: '', sourceIP: '10.131.4.18', userAgent: 'velero/v1.12.1 (linux/amd64) 5b1b14ce2c9a5c4dd3d7d9a0b1d5b8f6a0a4d3c7', code: 401, count: 110, lastHour: 110, first: '2026-03-14T08:35:00.004Z', last: '2026-03-14T09:29:30.004Z' },
      expect.objectContaining({ user: 'system:serviceaccount:ci:jenkins-deployer', code: 403, count: 90, lastHour: 90 }),
    ]);
    const history = new URL('../../rules/control-plane/audit-requests-refused.fixtures/quiet-flood-long-ago/input/must-gather.local.5522', import.meta.url).pathname;
    const past = JSON.parse(mgsift(['audit', history, '--format', 'json']).stdout) as AuditJson;
    expect(past.denied).toEqual([expect.objectContaining({ user: '', code: 401, count: 120, lastHour: 0 })]);
    expect(mgsift(['audit', refused]).stdout).toMatch(/\(none: authentication failed\)\s+10\.131\.4\.18\s+401\s+110\s+110 /);
  });

  it('--all lists the platform accounts\' changes too', () => {
    const all = auditJson([FIXTURE, '--all']);
    // And the oauth server's own token, the CVO's SCC update, the leases and status patches.
    expect(all.changes.length).toBe(6 + 12 + 8 + 1 + 1);
    expect(who(all)).toContain('system:serviceaccount:openshift-cluster-version:default update securitycontextconstraints/restricted-v2');
    expect(all.changes.find((c) => c.subresource === 'status')).toMatchObject({ user: 'system:serviceaccount:openshift-machine-config-operator:machine-config-controller', resource: 'machineconfigpools', name: 'worker' });
  });
});

describe('mgsift audit filters', () => {
  it('--user', () => {
    const doc = auditJson([FIXTURE, '--user', 'alice']);
    expect(who(doc)).toEqual(['alice create routes/cart', 'alice patch clusterversions/version', 'alice patch machineconfigpools/worker']);
    expect(doc.clients.map((c) => c.user)).toEqual(['alice']);
    expect(doc.throttled).toEqual([]);
    expect(doc.events.matched).toBe(3);
  });

  it('--verb', () => {
    expect(who(auditJson([FIXTURE, '--verb', 'delete']))).toEqual(['system:admin delete namespaces/team-a']);
  });

  it('--resource plural and plural/name, --namespace', () => {
    expect(who(auditJson([FIXTURE, '--resource', 'machineconfigpools/worker']))).toEqual(['alice patch machineconfigpools/worker']);
    const pools = auditJson([FIXTURE, '--resource', 'machineconfigpools', '--all']);
    expect(pools.events.matched).toBe(13);
    expect(who(auditJson([FIXTURE, '--namespace', 'shop']))).toEqual(['system:serviceaccount:argocd:argocd-application-controller update deployments/cart', 'alice create routes/cart']);
  });

  it('--since and --until: ISO times, or durations back from the newest event', () => {
    const recent = auditJson([FIXTURE, '--since', '1h']);
    // 1h before 09:29:58: the burst at 01:10 and the delete at 07:55 are older.
    expect(recent.throttled.map((t) => t.count)).toEqual([100]);
    expect(who(recent)).not.toContain('system:admin delete namespaces/team-a');
    const window = auditJson([FIXTURE, '--since', '2026-03-14T08:00:00Z', '--until', '2026-03-14T09:00:00Z']);
    expect(who(window)).toEqual(['alice patch clusterversions/version', 'alice patch machineconfigpools/worker']);
  });

  it('refuses a --resource it cannot read', () => {
    const run = mgsift(['audit', FIXTURE, '--resource', 'a/b/c']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--resource: 'a\/b\/c'/);
  });
});

describe('mgsift audit inputs', () => {
  it('reads the gzipped files of a must-gather archive as the folder, a truncated one named as not read whole', () => {
    const { parent, root } = gzippedCopy();
    const archive = join(parent, 'mg.tar.gz');
    execFileSync('tar', ['-czf', archive, '-C', parent, 'must-gather.local.5512']);
    const whole = auditJson([archive]);
    const plain = auditJson([FIXTURE]);
    expect(whole.changes).toEqual(plain.changes);
    expect(whole.events).toEqual(plain.events);
    expect(whole.files.every((f) => f.path.endsWith('.gz'))).toBe(true);

    // The current kube-apiserver log of master-0 cut in the middle of its gzip stream.
    const current = join(root, readdirSync(root).find((n) => n.startsWith('quay-io'))!, 'audit_logs/kube-apiserver/master-0.lab.example.net-audit.log.gz');
    const bytes = readFileSync(current);
    writeFileSync(current, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const cutArchive = join(parent, 'cut.tar.gz');
    execFileSync('tar', ['-czf', cutArchive, '-C', parent, 'must-gather.local.5512']);
    const cut = auditJson([cutArchive]);
    const file = cut.files.find((f) => f.path.endsWith('master-0.lab.example.net-audit.log.gz'))!;
    expect(file.notReadWhole).toMatch(/gzip|unexpected end/);
    expect(file.events).toBeGreaterThan(0);
    expect(file.events).toBeLessThan(plain.files.find((f) => f.path.endsWith('master-0.lab.example.net-audit.log'))!.events);
    // The other files are read whole: their changes are there.
    expect(who(cut)).toContain('dave@example.com patch nodes/worker-2.lab.example.net');
    expect(who(cut)).toContain('system:admin delete namespaces/team-a');
    const text = mgsift(['audit', cutArchive]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/master-0\.lab\.example\.net-audit\.log\.gz: not read whole/);
  });

  it('reads an audit log given alone (plain or .gz) and a folder of them', () => {
    const { root } = gzippedCopy();
    const folder = join(root, readdirSync(root).find((n) => n.startsWith('quay-io'))!, 'audit_logs', 'kube-apiserver');
    const single = auditJson([join(folder, 'master-1.lab.example.net-audit.log.gz')]);
    expect(who(single)).toEqual(['dave@example.com patch nodes/worker-2.lab.example.net']);
    const plain = join(tempDir('mgsift-audit-'), 'audit.log');
    writeFileSync(plain, readFileSync(join(FIXTURE, readdirSync(FIXTURE).find((n) => n.startsWith('quay-io'))!, 'audit_logs/kube-apiserver/master-1.lab.example.net-audit.log')));
    expect(auditJson([plain]).files).toEqual([{ path: 'audit.log', server: '', node: '', events: 3 }]);
    const fromFolder = auditJson([folder]);
    // The folder's own name is no part of the paths inside it: the server is not known.
    expect(fromFolder.files.map((f) => `${f.server}:${f.path}`).sort()).toEqual([
      ':master-0.lab.example.net-audit-2026-03-14T07-58-02.771.log.gz',
      ':master-0.lab.example.net-audit.log.gz',
      ':master-1.lab.example.net-audit.log.gz',
    ]);
    expect(fromFolder.changes.length).toBe(5);
  });

  it('keeps the fields of a line longer than --max-line-bytes (a large body): its start and its end are read', () => {
    const dir = tempDir('mgsift-audit-');
    const lines = readFileSync(join(FIXTURE, readdirSync(FIXTURE).find((n) => n.startsWith('quay-io'))!, 'audit_logs/kube-apiserver/master-0.lab.example.net-audit.log'), 'utf8').split('\n');
    const paused = lines.find((l) => l.includes('"paused":true'))!;
    const big = paused.replace('"spec":{"paused":true}', `"spec":{"paused":true,"pad":"${'x'.repeat(300_000)}"}`);
    writeFileSync(join(dir, 'audit.log'), `${big}\n`);
    const doc = auditJson([join(dir, 'audit.log')]);
    expect(doc.changes).toHaveLength(1);
    expect(doc.changes[0]).toMatchObject({ user: 'alice', resource: 'machineconfigpools', name: 'worker', time: '2026-03-14T08:40:03.512Z' });
  });

  it('says so when the input holds no audit log', () => {
    const dir = tempDir('mgsift-audit-');
    mkdirSync(join(dir, 'x'));
    writeFileSync(join(dir, 'x', 'notes.txt'), 'hello\n');
    const run = mgsift(['audit', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no audit log found/);
  });

  it('prints text by default and Markdown with --format md, to stdout or -o', () => {
    const text = mgsift(['audit', FIXTURE]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Audit of .*156 requests in 6 audit log files of kube-apiserver, oauth-apiserver, openshift-apiserver/);
    expect(text.stdout).toMatch(/CHANGES \(6\)\n/);
    const out = join(tempDir('mgsift-audit-'), 'audit.md');
    const md = mgsift(['audit', FIXTURE, '--format', 'md', '-o', out]);
    expect(md.code).toBe(0);
    expect(md.stdout).toBe('');
    const written = readFileSync(out, 'utf8');
    expect(written).toMatch(/^## Changes$/m);
    expect(written).toMatch(/\| 2026-03-14 08:40:03\.512Z \| alice \| patch \| machineconfigpools\/worker \|/);
  });
});
