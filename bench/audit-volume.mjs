// Audit logs by volume for the bench: a control plane's day in the mix real kube-apiserver logs
// show — mostly the platform's own reads, watches and lease and status writes, a few people
// reading, a rare change by hand, a client throttled, a few refusals — written as gzip files in
// gather_audit_logs' layout (audit_logs/<server>/<node>-audit*.log.gz).
import { mkdirSync } from 'node:fs';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { auditLine } from './audit-lines.mjs';

const OPERATORS = ['kube-apiserver-operator', 'etcd-operator', 'machine-config-operator', 'cluster-monitoring-operator', 'ingress-operator', 'authentication-operator', 'dns-operator', 'network-operator'];
const RESOURCES = [['configmaps', ''], ['secrets', ''], ['pods', ''], ['deployments', 'apps'], ['clusteroperators', 'config.openshift.io'], ['leases', 'coordination.k8s.io'], ['events', ''], ['nodes', '']];

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One event of the mix, at `time` (ISO with microseconds). */
function eventAt(time, r, node) {
  const x = r();
  const [resource, apiGroup] = RESOURCES[Math.floor(r() * RESOURCES.length)];
  const operator = OPERATORS[Math.floor(r() * OPERATORS.length)];
  const sa = `system:serviceaccount:openshift-${operator.replace(/-operator$/, '')}-operator:${operator}`;
  const ua = `${operator}/v0.0.0 (linux/amd64) kubernetes/$Format`;
  const namespace = `openshift-${operator.replace(/-operator$/, '')}`;
  const base = { time, resource, apiGroup, namespace: resource === 'nodes' || resource === 'clusteroperators' ? undefined : namespace, userAgent: ua, sourceIP: '10.0.0.5' };
  if (x < 0.55) return { ...base, verb: r() < 0.5 ? 'get' : r() < 0.7 ? 'list' : 'watch', user: sa, name: r() < 0.5 ? `${operator}-lock` : undefined };
  if (x < 0.78) return { ...base, verb: r() < 0.6 ? 'update' : 'patch', user: sa, name: `${operator}-lock`, subresource: r() < 0.4 ? 'status' : undefined };
  if (x < 0.88) return { ...base, verb: r() < 0.7 ? 'get' : 'patch', user: `system:node:${node}`, resource: 'nodes', namespace: undefined, name: node, userAgent: 'kubelet/v1.27.6+f67aeb3 (linux/amd64) kubernetes/3b2f9ab', sourceIP: '192.168.111.20' };
  if (x < 0.93) return { time, verb: 'create', user: 'system:serviceaccount:openshift-monitoring:prometheus-k8s', resource: 'tokenreviews', apiGroup: 'authentication.k8s.io', code: 201, userAgent: 'kube-rbac-proxy/v0.0.0', sourceIP: '10.128.2.14' };
  if (x < 0.985) return { ...base, verb: r() < 0.5 ? 'get' : 'list', user: 'bob', namespace: 'shop', resource: 'pods', userAgent: 'oc/4.14.0 (linux/amd64) kubernetes/0c63f9d', sourceIP: '10.0.4.22' };
  if (x < 0.99) return { time, verb: 'list', user: 'system:serviceaccount:batch-reports:report-exporter', resource: 'events', code: 429, userAgent: 'report-exporter/1.4.2', sourceIP: '10.131.0.33' };
  if (x < 0.995) return { time, verb: 'get', user: 'system:anonymous', uri: '/apis', code: 401, userAgent: 'curl/8.2.1', sourceIP: '203.0.113.9' };
  if (x < 0.999) return { ...base, verb: 'get', user: 'system:kube-scheduler', resource: 'pods', code: 200, userAgent: 'kube-scheduler/v1.27.6', sourceIP: '::1' };
  return { time, verb: 'patch', user: 'alice', resource: 'machineconfigpools', apiGroup: 'machineconfiguration.openshift.io', name: 'worker', userAgent: 'oc/4.14.0 (linux/amd64) kubernetes/0c63f9d', sourceIP: '10.0.4.17' };
}

/**
 * Writes `events` audit events spread over three servers and two nodes, rotated every
 * `perFile` events, below `dir/audit_logs/`; resolves to the files written.
 */
export async function writeAuditLogs(dir, { events, perFile = 200_000, end = Date.parse('2026-03-14T09:30:00Z'), seed = 36 }) {
  const r = random(seed);
  const servers = ['kube-apiserver', 'kube-apiserver', 'kube-apiserver', 'openshift-apiserver', 'oauth-apiserver'];
  const nodes = ['master-0.bench.example.net', 'master-1.bench.example.net'];
  const files = [];
  const step = 5; // ms between events: 200 per second, a busy control plane
  let written = 0;
  for (let part = 0; written < events; part++) {
    const server = servers[part % servers.length];
    const node = nodes[part % nodes.length];
    const count = Math.min(perFile, events - written);
    const first = end - (events - written) * step;
    const rotated = written + count < events;
    const name = rotated ? `${node}-audit-${new Date(first + count * step).toISOString().replace(/:/g, '-').replace('Z', '')}.log.gz` : `${node}-audit.log.gz`;
    const folder = join(dir, 'audit_logs', server);
    mkdirSync(folder, { recursive: true });
    const path = join(folder, name);
    const gzip = createGzip({ level: 6 });
    const out = gzip.pipe(createWriteStream(path));
    let lines = [];
    for (let i = 0; i < count; i++) {
      const ms = first + i * step;
      lines.push(auditLine({ ...eventAt(`${new Date(ms).toISOString().slice(0, 23)}${String(100 + (i % 900)).padStart(3, '0')}Z`, r, node), seq: written + i }));
      if (lines.length === 2000) {
        if (!gzip.write(`${lines.join('\n')}\n`)) await once(gzip, 'drain');
        lines = [];
      }
    }
    gzip.end(lines.length > 0 ? `${lines.join('\n')}\n` : '');
    await once(out, 'finish');
    files.push(path);
    written += count;
  }
  return files;
}
