import safeRegex from 'safe-regex2';
import { describe, expect, it } from 'vitest';
import { classifyPath } from '../../src/layout/classify.js';
import { CAPTURE_FIELDS, GATHER_EXTRA_LISTS, LAYOUT_TABLE } from '../../src/layout/table.js';

/** One real-shaped example per row (the detailed expectations live in classify.test.ts). */
const EXAMPLES: Record<string, string> = {
  'tree-dir': 'must-gather-aws/quay-io-x/cluster-scoped-resources/',
  directory: 'must-gather-aws/quay-io-x/cluster-scoped-resources/core/nodes/',
  'mg-pod-log': 'namespaces/openshift-etcd/pods/etcd-0/etcd/etcd/logs/current.log',
  'mg-pod-log-insecure': 'namespaces/openshift-etcd/pods/etcd-0/etcd/etcd/logs/previous.insecure.log',
  'mg-pod-log-rotated': 'namespaces/test-namespace/pods/test-pod/test-container/test-container/logs/rotated/1.log.20231102-061208',
  'mg-pod': 'namespaces/openshift-dns/pods/dns-default-2pf64/dns-default-2pf64.yaml',
  'mg-pod-file': 'namespaces/openshift-kube-apiserver/pods/kas-0/kube-apiserver/kube-apiserver/api_priority_and_fairness/queues',
  'mg-namespace': 'namespaces/openshift-etcd/openshift-etcd.yaml',
  'mg-namespaced-list': 'namespaces/openshift-etcd/core/events.yaml',
  'mg-namespaced-object': 'namespaces/openshift-monitoring/monitoring.coreos.com/servicemonitors/etcd.yaml',
  'mg-namespace-file': 'namespaces/openshift-etcd/core/events.json',
  'mg-cluster-list': 'cluster-scoped-resources/config.openshift.io/clusterversions.yaml',
  'mg-cluster-object': 'cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml',
  'mg-cluster-file': 'cluster-scoped-resources/core/nodes/master-0.json',
  'mg-host-service-log': 'host_service_logs/masters/crio_service.log',
  'mg-host-windows-log': 'host_service_logs/kube-proxy/kube-proxy.exe.INFO',
  'mg-host-file': 'host_service_logs/masters/extra/notes.txt',
  'mg-node-kubelet-log': 'nodes/master-0/master-0_logs_kubelet',
  'mg-node-dmesg': 'nodes/master-0/dmesg',
  'ge-node-journal': 'nodes/master-0/journal',
  'node-file': 'nodes/master-0/lscpu',
  'mg-etcd-info': 'etcd_info/endpoint_health.json',
  'mg-monitoring': 'monitoring/prometheus/rules.json',
  'insights-alerts': 'insights-data/insights-2024-05-02-081140/config/alerts.json',
  'mg-web-hooks': 'web_hooks/mutatingwebhookconfigurations.yaml',
  'mg-web-hooks-file': 'web_hooks/README',
  'mg-ingress-controller': 'ingress_controllers/default/router-default-7b4b9bd57c-l9c2r/haproxy.config',
  'mg-ingress-file': 'ingress_controllers/default.yaml',
  'ge-pod-log-previous': 'pods/openshift-dns_dns-default-2pf64_dns_previous.log',
  'ge-pod-log': 'pods/openshift-dns_dns-default-2pf64_dns.log',
  'ge-list': 'artifacts/clusteroperators.json',
  'ge-config-resources': 'artifacts/config-resources.json',
  'ge-not-a-list': 'artifacts/releaseinfo.json',
  'ge-list-other': 'gather-extra/artifacts/installplans.json',
  'ge-audit-log': 'audit_logs/oauth-apiserver/master-0-audit.log',
  'audit-log-listing': 'must-gather.local.1/quay-io-x/audit_logs/kube-apiserver.audit_logs_listing',
  'audit-log-other': 'audit_logs/kube-apiserver/master-0-termination.log',
  'ge-oc-cmds': 'oc_cmds/nodes',
  timestamp: 'must-gather.local.1/timestamp',
  version: 'must-gather.local.1/quay-io-x/version',
  'event-filter': 'inspect.local.1/event-filter.html',
  'gather-log': 'gather-debug.log',
  'bare-log': 'cvo.log',
};

/** Named groups a pattern declares. */
function namedGroups(pattern: RegExp): string[] {
  return [...pattern.source.matchAll(/\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => m[1] as string);
}

describe('LAYOUT_TABLE', () => {
  it('has unique, stable row names', () => {
    const names = LAYOUT_TABLE.map((row) => row.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9-]*$/);
  });

  it('captures only fields the result has', () => {
    for (const row of LAYOUT_TABLE) {
      for (const group of namedGroups(row.pattern)) {
        if (group === 'base') {
          // `base` belongs to the root and must come right after the leading anchor.
          expect(row.pattern.source.replaceAll('\\/', '/').startsWith('(?:^|/)(?<base>'), row.name).toBe(true);
          continue;
        }
        expect(CAPTURE_FIELDS, `${row.name}: ${group}`).toContain(group);
      }
      for (const [to, from] of Object.entries(row.copy ?? {})) {
        expect(CAPTURE_FIELDS).toContain(to);
        expect(namedGroups(row.pattern), `${row.name}: copy from ${from}`).toContain(from);
      }
    }
  });

  it('has only patterns without catastrophic backtracking', () => {
    const unsafe = LAYOUT_TABLE.filter((row) => !safeRegex(row.pattern)).map((row) => row.name);
    expect(unsafe).toStrictEqual([]);
  });

  it('has no global or sticky patterns (exec must not keep state)', () => {
    for (const row of LAYOUT_TABLE) {
      expect(row.pattern.global, row.name).toBe(false);
      expect(row.pattern.sticky, row.name).toBe(false);
    }
  });

  it('has an example for every row, classified by that row', () => {
    expect(Object.keys(EXAMPLES).sort()).toStrictEqual(LAYOUT_TABLE.map((row) => row.name).sort());
    for (const [rule, path] of Object.entries(EXAMPLES)) {
      expect(classifyPath(path).rule, path).toBe(rule);
    }
  });

  it('only matches paths that contain the row needle', () => {
    for (const row of LAYOUT_TABLE) {
      const example = EXAMPLES[row.name] as string;
      expect(example.includes(row.needle), row.name).toBe(true);
      expect(row.pattern.test(example), row.name).toBe(true);
    }
  });

  it('declares a format for every row and sets a kind', () => {
    for (const row of LAYOUT_TABLE) {
      expect(['yaml', 'json', 'text', 'by-extension']).toContain(row.format);
      expect(['cluster-object', 'namespaced-object', 'list', 'pod-log', 'host-log', 'audit-log', 'metadata', 'other']).toContain(row.kind);
    }
  });

  it('maps every gather-extra list stem to a group and a plural resource', () => {
    for (const [stem, target] of Object.entries(GATHER_EXTRA_LISTS)) {
      const entry = classifyPath(`artifacts/${stem}.json`);
      expect(entry, stem).toMatchObject({ kind: 'list', format: 'json', rule: 'ge-list', ...target });
      expect(target.resource.endsWith('s'), stem).toBe(true);
    }
  });
});
