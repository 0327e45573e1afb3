import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PATH_LENGTH, TOO_LONG_RULE, UNMATCHED_RULE, classifyPath } from '../../src/layout/classify.js';
import type { ClassifiedEntry } from '../../src/layout/types.js';
import { AWS_IMG, AWS_TOP, METAL_IMG } from './helpers.js';

type Expected = Omit<ClassifiedEntry, 'path'>;

/** Real paths (from the aws/metal archives unless noted) and what they must classify as. */
const MUST_GATHER_CASES: [string, Expected][] = [
  // Pod logs: namespaces/<ns>/pods/<pod>/<container>/<container>/logs/*.log
  [
    `${AWS_IMG}/namespaces/openshift-etcd/pods/etcd-ip-10-0-187-218.ec2.internal/etcd/etcd/logs/current.log`,
    {
      kind: 'pod-log',
      format: 'text',
      rule: 'mg-pod-log',
      root: AWS_IMG,
      namespace: 'openshift-etcd',
      pod: 'etcd-ip-10-0-187-218.ec2.internal',
      container: 'etcd',
      logStream: 'current',
    },
  ],
  [
    `${AWS_IMG}/namespaces/openshift-etcd/pods/etcd-ip-10-0-187-218.ec2.internal/etcd/etcd/logs/previous.log`,
    {
      kind: 'pod-log',
      format: 'text',
      rule: 'mg-pod-log',
      root: AWS_IMG,
      namespace: 'openshift-etcd',
      pod: 'etcd-ip-10-0-187-218.ec2.internal',
      container: 'etcd',
      logStream: 'previous',
    },
  ],
  [
    `${AWS_IMG}/namespaces/openshift-dns/pods/dns-default-2pf64/dns/dns/logs/previous.insecure.log`,
    {
      kind: 'pod-log',
      format: 'text',
      rule: 'mg-pod-log-insecure',
      root: AWS_IMG,
      namespace: 'openshift-dns',
      pod: 'dns-default-2pf64',
      container: 'dns',
      logStream: 'previous',
    },
  ],
  [
    `${AWS_IMG}/namespaces/openshift-cluster-version/pods/cluster-version-operator-849b4dcf9c-dl6zb/cluster-version-operator/cluster-version-operator/logs/current.log`,
    {
      kind: 'pod-log',
      format: 'text',
      rule: 'mg-pod-log',
      root: AWS_IMG,
      namespace: 'openshift-cluster-version',
      pod: 'cluster-version-operator-849b4dcf9c-dl6zb',
      container: 'cluster-version-operator',
      logStream: 'current',
    },
  ],
  [
    `${METAL_IMG}/namespaces/openshift-cluster-samples-operator/pods/cluster-samples-operator-5b845575df-rgr6p/cluster-samples-operator-watch/cluster-samples-operator-watch/logs/current.log`,
    {
      kind: 'pod-log',
      format: 'text',
      rule: 'mg-pod-log',
      root: METAL_IMG,
      namespace: 'openshift-cluster-samples-operator',
      pod: 'cluster-samples-operator-5b845575df-rgr6p',
      container: 'cluster-samples-operator-watch',
      logStream: 'current',
    },
  ],
  // omc fixture rotated-logs/: the input's top is the must-gather tree itself (root '').
  [
    'namespaces/test-namespace/pods/test-pod/test-container/test-container/logs/rotated/1.log.20231102-061208',
    {
      kind: 'pod-log',
      format: 'text',
      rule: 'mg-pod-log-rotated',
      root: '',
      namespace: 'test-namespace',
      pod: 'test-pod',
      container: 'test-container',
      logStream: 'rotated',
      name: '1.log.20231102-061208',
    },
  ],
  [
    'namespaces/test-namespace/pods/test-pod/test-container/test-container/logs/rotated/1.log.20231102-061208.gz',
    {
      kind: 'pod-log',
      format: 'text',
      rule: 'mg-pod-log-rotated',
      root: '',
      namespace: 'test-namespace',
      pod: 'test-pod',
      container: 'test-container',
      logStream: 'rotated',
      name: '1.log.20231102-061208',
    },
  ],
  [
    'namespaces/test-namespace/pods/test-pod/test-container/test-container/logs/current.log',
    {
      kind: 'pod-log',
      format: 'text',
      rule: 'mg-pod-log',
      root: '',
      namespace: 'test-namespace',
      pod: 'test-pod',
      container: 'test-container',
      logStream: 'current',
    },
  ],
  // The Pod object and other files of a pod folder.
  [
    `${AWS_IMG}/namespaces/openshift-etcd-operator/pods/etcd-operator-7d9687c77d-h6x78/etcd-operator-7d9687c77d-h6x78.yaml`,
    {
      kind: 'namespaced-object',
      format: 'yaml',
      rule: 'mg-pod',
      root: AWS_IMG,
      namespace: 'openshift-etcd-operator',
      group: 'core',
      resource: 'pods',
      name: 'etcd-operator-7d9687c77d-h6x78',
      pod: 'etcd-operator-7d9687c77d-h6x78',
    },
  ],
  [
    `${AWS_IMG}/namespaces/openshift-kube-apiserver/pods/kube-apiserver-ip-10-0-187-218.ec2.internal/kube-apiserver/kube-apiserver/api_priority_and_fairness/priority_levels`,
    {
      kind: 'other',
      format: 'text',
      rule: 'mg-pod-file',
      root: AWS_IMG,
      namespace: 'openshift-kube-apiserver',
      pod: 'kube-apiserver-ip-10-0-187-218.ec2.internal',
    },
  ],
  // Namespaces
  [
    `${AWS_IMG}/namespaces/openshift-etcd/openshift-etcd.yaml`,
    {
      kind: 'cluster-object',
      format: 'yaml',
      rule: 'mg-namespace',
      root: AWS_IMG,
      group: 'core',
      resource: 'namespaces',
      name: 'openshift-etcd',
    },
  ],
  [
    `${AWS_IMG}/namespaces/openshift-etcd/core/pods.yaml`,
    {
      kind: 'list',
      format: 'yaml',
      rule: 'mg-namespaced-list',
      root: AWS_IMG,
      namespace: 'openshift-etcd',
      group: 'core',
      resource: 'pods',
    },
  ],
  [
    `${AWS_IMG}/namespaces/openshift-cluster-node-tuning-operator/apps/daemonsets.yaml`,
    {
      kind: 'list',
      format: 'yaml',
      rule: 'mg-namespaced-list',
      root: AWS_IMG,
      namespace: 'openshift-cluster-node-tuning-operator',
      group: 'apps',
      resource: 'daemonsets',
    },
  ],
  [
    `${AWS_IMG}/namespaces/openshift-cluster-node-tuning-operator/apps/daemonsets/tuned.yaml`,
    {
      kind: 'namespaced-object',
      format: 'yaml',
      rule: 'mg-namespaced-object',
      root: AWS_IMG,
      namespace: 'openshift-cluster-node-tuning-operator',
      group: 'apps',
      resource: 'daemonsets',
      name: 'tuned',
    },
  ],
  [
    `${AWS_IMG}/namespaces/openshift-cloud-credential-operator/monitoring.coreos.com/prometheusrules/cloud-credential-operator-alerts.yaml`,
    {
      kind: 'namespaced-object',
      format: 'yaml',
      rule: 'mg-namespaced-object',
      root: AWS_IMG,
      namespace: 'openshift-cloud-credential-operator',
      group: 'monitoring.coreos.com',
      resource: 'prometheusrules',
      name: 'cloud-credential-operator-alerts',
    },
  ],
  // Cluster-scoped
  [
    `${AWS_IMG}/cluster-scoped-resources/config.openshift.io/clusteroperators.yaml`,
    {
      kind: 'list',
      format: 'yaml',
      rule: 'mg-cluster-list',
      root: AWS_IMG,
      group: 'config.openshift.io',
      resource: 'clusteroperators',
    },
  ],
  [
    `${AWS_IMG}/cluster-scoped-resources/config.openshift.io/clusteroperators/etcd.yaml`,
    {
      kind: 'cluster-object',
      format: 'yaml',
      rule: 'mg-cluster-object',
      root: AWS_IMG,
      group: 'config.openshift.io',
      resource: 'clusteroperators',
      name: 'etcd',
    },
  ],
  [
    `${AWS_IMG}/cluster-scoped-resources/rbac.authorization.k8s.io/clusterroles/system:registry.yaml`,
    {
      kind: 'cluster-object',
      format: 'yaml',
      rule: 'mg-cluster-object',
      root: AWS_IMG,
      group: 'rbac.authorization.k8s.io',
      resource: 'clusterroles',
      name: 'system:registry',
    },
  ],
  // must-gather-only folders
  [
    `${METAL_IMG}/host_service_logs/masters/kubelet_service.log`,
    {
      kind: 'host-log',
      format: 'text',
      rule: 'mg-host-service-log',
      root: METAL_IMG,
      node: 'masters',
      service: 'kubelet',
    },
  ],
  [
    `${METAL_IMG}/host_service_logs/masters/machine-config-daemon-firstboot_service.log`,
    {
      kind: 'host-log',
      format: 'text',
      rule: 'mg-host-service-log',
      root: METAL_IMG,
      node: 'masters',
      service: 'machine-config-daemon-firstboot',
    },
  ],
  [
    `${AWS_IMG}/etcd_info/member_list.json`,
    { kind: 'other', format: 'json', rule: 'mg-etcd-info', root: AWS_IMG, name: 'member_list.json' },
  ],
  [
    `${METAL_IMG}/monitoring/alertmanager/status.json`,
    { kind: 'other', format: 'json', rule: 'mg-monitoring', root: METAL_IMG, name: 'alertmanager/status.json' },
  ],
  [
    `${METAL_IMG}/monitoring/prometheus/status/config.stderr`,
    { kind: 'other', format: 'text', rule: 'mg-monitoring', root: METAL_IMG, name: 'prometheus/status/config.stderr' },
  ],
  [
    `${AWS_IMG}/web_hooks/validatingwebhookconfigurations.yaml`,
    {
      kind: 'list',
      format: 'yaml',
      rule: 'mg-web-hooks',
      root: AWS_IMG,
      group: 'admissionregistration.k8s.io',
      resource: 'validatingwebhookconfigurations',
    },
  ],
  [
    `${AWS_IMG}/ingress_controllers/default/router-default-6dd4c95495-7dqkw/haproxy.config`,
    {
      kind: 'other',
      format: 'text',
      rule: 'mg-ingress-controller',
      root: AWS_IMG,
      name: 'default',
      pod: 'router-default-6dd4c95495-7dqkw',
    },
  ],
  // Metadata, at the image folder and at the top folder
  [`${AWS_IMG}/timestamp`, { kind: 'metadata', format: 'text', rule: 'timestamp', root: AWS_IMG, metadata: 'timestamp' }],
  [`${AWS_TOP}/timestamp`, { kind: 'metadata', format: 'text', rule: 'timestamp', root: AWS_TOP, metadata: 'timestamp' }],
  [`${AWS_IMG}/version`, { kind: 'metadata', format: 'text', rule: 'version', root: AWS_IMG, metadata: 'version' }],
  [`${AWS_IMG}/event-filter.html`, { kind: 'other', format: 'text', rule: 'event-filter', root: AWS_IMG }],
  [`${AWS_TOP}/event-filter.html`, { kind: 'other', format: 'text', rule: 'event-filter', root: AWS_TOP }],
];

/** Newer must-gather node folders (names as collection scripts write them). */
const NODE_CASES: [string, Expected][] = [
  [
    'must-gather.local.5/quay-io-okd-scos-content-sha256-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef/nodes/ip-10-0-122-129.us-east-2.compute.internal/ip-10-0-122-129.us-east-2.compute.internal_logs_kubelet',
    {
      kind: 'host-log',
      format: 'text',
      rule: 'mg-node-kubelet-log',
      root: 'must-gather.local.5/quay-io-okd-scos-content-sha256-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      node: 'ip-10-0-122-129.us-east-2.compute.internal',
      service: 'kubelet',
    },
  ],
  [
    'mg/nodes/worker-0/worker-0_logs_kubelet.gz',
    { kind: 'host-log', format: 'text', rule: 'mg-node-kubelet-log', root: 'mg', node: 'worker-0', service: 'kubelet' },
  ],
  [
    'mg/host_service_logs/kubelet/kubelet.log',
    {
      kind: 'host-log',
      format: 'text',
      rule: 'mg-host-windows-log',
      root: 'mg',
      node: 'windows',
      service: 'kubelet',
      name: 'kubelet.log',
    },
  ],
  [
    'mg/nodes/worker-0/dmesg',
    { kind: 'host-log', format: 'text', rule: 'mg-node-dmesg', root: 'mg', node: 'worker-0', service: 'kernel' },
  ],
  [
    'mg/nodes/worker-0/sysinfo.log',
    { kind: 'other', format: 'text', rule: 'node-file', root: 'mg', node: 'worker-0', name: 'sysinfo.log' },
  ],
  [
    'mg/nodes/worker-0/cpu_affinities.json',
    { kind: 'other', format: 'json', rule: 'node-file', root: 'mg', node: 'worker-0', name: 'cpu_affinities.json' },
  ],
];

/** gather-extra artifacts (names per gather-extra-commands.sh; pods from the real archives). */
const GE = 'artifacts/e2e-aws/gather-extra/artifacts';
const GATHER_EXTRA_CASES: [string, Expected][] = [
  [
    `${GE}/pods/openshift-etcd_etcd-ip-10-0-187-218.ec2.internal_etcd.log`,
    {
      kind: 'pod-log',
      format: 'text',
      rule: 'ge-pod-log',
      root: GE,
      namespace: 'openshift-etcd',
      pod: 'etcd-ip-10-0-187-218.ec2.internal',
      container: 'etcd',
      logStream: 'current',
    },
  ],
  [
    `${GE}/pods/openshift-etcd_etcd-ip-10-0-187-218.ec2.internal_etcd_previous.log`,
    {
      kind: 'pod-log',
      format: 'text',
      rule: 'ge-pod-log-previous',
      root: GE,
      namespace: 'openshift-etcd',
      pod: 'etcd-ip-10-0-187-218.ec2.internal',
      container: 'etcd',
      logStream: 'previous',
    },
  ],
  [
    `${GE}/pods/openshift-cluster-version_cluster-version-operator-849b4dcf9c-dl6zb_cluster-version-operator.log.gz`,
    {
      kind: 'pod-log',
      format: 'text',
      rule: 'ge-pod-log',
      root: GE,
      namespace: 'openshift-cluster-version',
      pod: 'cluster-version-operator-849b4dcf9c-dl6zb',
      container: 'cluster-version-operator',
      logStream: 'current',
    },
  ],
  // A container literally named `previous` is a current log (three parts).
  [
    `${GE}/pods/ns-a_pod-b_previous.log`,
    {
      kind: 'pod-log',
      format: 'text',
      rule: 'ge-pod-log',
      root: GE,
      namespace: 'ns-a',
      pod: 'pod-b',
      container: 'previous',
      logStream: 'current',
    },
  ],
  [
    `${GE}/clusterversion.json`,
    {
      kind: 'list',
      format: 'json',
      rule: 'ge-list',
      root: GE,
      group: 'config.openshift.io',
      resource: 'clusterversions',
    },
  ],
  [
    `${GE}/clusteroperators.json`,
    { kind: 'list', format: 'json', rule: 'ge-list', root: GE, group: 'config.openshift.io', resource: 'clusteroperators' },
  ],
  [`${GE}/events.json`, { kind: 'list', format: 'json', rule: 'ge-list', root: GE, group: 'core', resource: 'events' }],
  [`${GE}/pods.json`, { kind: 'list', format: 'json', rule: 'ge-list', root: GE, group: 'core', resource: 'pods' }],
  [`${GE}/nodes.json`, { kind: 'list', format: 'json', rule: 'ge-list', root: GE, group: 'core', resource: 'nodes' }],
  [
    `${GE}/machineconfigpools.json`,
    {
      kind: 'list',
      format: 'json',
      rule: 'ge-list',
      root: GE,
      group: 'machineconfiguration.openshift.io',
      resource: 'machineconfigpools',
    },
  ],
  [
    `${GE}/machinesets.json`,
    { kind: 'list', format: 'json', rule: 'ge-list', root: GE, group: 'machine.openshift.io', resource: 'machinesets' },
  ],
  [
    `${GE}/machinesets.cluster.x-k8s.io.json`,
    { kind: 'list', format: 'json', rule: 'ge-list', root: GE, group: 'cluster.x-k8s.io', resource: 'machinesets' },
  ],
  [
    `${GE}/csr.json`,
    {
      kind: 'list',
      format: 'json',
      rule: 'ge-list',
      root: GE,
      group: 'certificates.k8s.io',
      resource: 'certificatesigningrequests',
    },
  ],
  // deployments.json.gz on disk, `.gz` stripped by the source
  [`${GE}/deployments.json`, { kind: 'list', format: 'json', rule: 'ge-list', root: GE, group: 'apps', resource: 'deployments' }],
  [
    `${GE}/config-resources.json`,
    { kind: 'list', format: 'json', rule: 'ge-config-resources', root: GE, group: 'config.openshift.io' },
  ],
  [`${GE}/releaseinfo.json`, { kind: 'other', format: 'json', rule: 'ge-not-a-list', root: GE, name: 'releaseinfo' }],
  [`${GE}/openapi.json`, { kind: 'other', format: 'json', rule: 'ge-not-a-list', root: GE, name: 'openapi' }],
  // Not in today's script but directly in a gather-extra artifacts folder: still a List.
  [`${GE}/installplans.json`, { kind: 'list', format: 'json', rule: 'ge-list-other', root: GE, resource: 'installplans' }],
  [
    `${GE}/nodes/ip-10-0-187-218.ec2.internal/journal`,
    {
      kind: 'host-log',
      format: 'text',
      rule: 'ge-node-journal',
      root: GE,
      node: 'ip-10-0-187-218.ec2.internal',
      service: 'journal',
    },
  ],
  [
    `${GE}/nodes/ip-10-0-187-218.ec2.internal/journal-previous.gz`,
    {
      kind: 'host-log',
      format: 'text',
      rule: 'ge-node-journal',
      root: GE,
      node: 'ip-10-0-187-218.ec2.internal',
      service: 'journal-previous',
    },
  ],
  [
    `${GE}/nodes/ip-10-0-187-218.ec2.internal/heap`,
    { kind: 'other', format: 'text', rule: 'node-file', root: GE, node: 'ip-10-0-187-218.ec2.internal', name: 'heap' },
  ],
  [
    `${GE}/audit_logs/kube-apiserver/ip-10-0-187-218.ec2.internal-audit.log`,
    {
      kind: 'audit-log',
      format: 'text',
      rule: 'ge-audit-log',
      root: GE,
      service: 'kube-apiserver',
      node: 'ip-10-0-187-218.ec2.internal',
      name: 'audit.log',
    },
  ],
  [`${GE}/oc_cmds/clusteroperators`, { kind: 'other', format: 'text', rule: 'ge-oc-cmds', root: GE, resource: 'clusteroperators' }],
];

const BARE_LOG_CASES: [string, Expected][] = [
  ['cluster-version-operator.log', { kind: 'pod-log', format: 'text', rule: 'bare-log', name: 'cluster-version-operator.log' }],
  ['cvo.log', { kind: 'pod-log', format: 'text', rule: 'bare-log', name: 'cvo.log' }],
  ['case-01234567/cvo.log.gz', { kind: 'pod-log', format: 'text', rule: 'bare-log', name: 'cvo.log' }],
  // The gather's own log is not a cluster log.
  ['must-gather.local.5/gather-debug.log', { kind: 'other', format: 'text', rule: 'gather-log', root: 'must-gather.local.5' }],
  ['must-gather.local.5/must-gather.logs', { kind: 'other', format: 'text', rule: 'gather-log', root: 'must-gather.local.5' }],
];

function check(cases: [string, Expected][]): void {
  it.each(cases)('%s', (path, expected) => {
    expect(classifyPath(path)).toStrictEqual({ path, ...expected });
  });
}

describe('classifyPath: must-gather (real paths)', () => check(MUST_GATHER_CASES));
describe('classifyPath: node folders', () => check(NODE_CASES));
describe('classifyPath: gather-extra', () => check(GATHER_EXTRA_CASES));
describe('classifyPath: bare logs', () => check(BARE_LOG_CASES));

describe('classifyPath: prefixes', () => {
  const inner = 'namespaces/openshift-etcd/pods/etcd-ip-10-0-187-218.ec2.internal/etcd/etcd/logs/current.log';
  it.each([
    ['', ''],
    ['must-gather.local.1/', 'must-gather.local.1'],
    [`${AWS_IMG}/`, AWS_IMG],
    ['case-123/must-gather.tar.gz/must-gather.local.1/quay-io-x-sha256-y/', 'case-123/must-gather.tar.gz/must-gather.local.1/quay-io-x-sha256-y'],
    ['inspect.local.8461390243151262741/', 'inspect.local.8461390243151262741'],
    ['./', '.'],
    // A case folder that happens to be called `namespaces` does not confuse the anchor.
    ['namespaces/case-1/must-gather/', 'namespaces/case-1/must-gather'],
  ])('prefix %j → root %j', (prefix, root) => {
    const entry = classifyPath(prefix + inner);
    expect(entry.rule).toBe('mg-pod-log');
    expect(entry.root).toBe(root);
    expect(entry).toMatchObject({
      namespace: 'openshift-etcd',
      pod: 'etcd-ip-10-0-187-218.ec2.internal',
      container: 'etcd',
      logStream: 'current',
    });
  });

  it('accepts .yml as yaml', () => {
    expect(classifyPath('x/cluster-scoped-resources/core/nodes/master-0.yml')).toMatchObject({
      kind: 'cluster-object',
      format: 'yaml',
      resource: 'nodes',
      name: 'master-0',
    });
  });

  it('accepts a single container level under the pod folder', () => {
    expect(classifyPath('namespaces/ns/pods/p-1/c/logs/previous.log')).toMatchObject({
      rule: 'mg-pod-log',
      namespace: 'ns',
      pod: 'p-1',
      container: 'c',
      logStream: 'previous',
    });
  });
});

describe('classifyPath: hostile and odd paths', () => {
  it.each([
    ['', UNMATCHED_RULE, 'other'],
    ['/', 'directory', 'other'],
    ['/etc/passwd', UNMATCHED_RULE, 'other'],
    ['../../../etc/shadow', UNMATCHED_RULE, 'other'],
    ['README.md', UNMATCHED_RULE, 'other'],
    ['must-gather.local.1/quay-io-x/namespaces/', 'tree-dir', 'other'],
    ['must-gather.local.1/quay-io-x/namespaces/openshift-etcd/', 'directory', 'other'],
    ['namespaces/ns/pods/p/c/c/logs/current.log/', 'directory', 'other'],
    ['a\u0000b/namespaces/ns/core/pods.yaml', 'mg-namespaced-list', 'list'],
    ['a\nb/namespaces/ns/core/pods.yaml', 'mg-namespaced-list', 'list'],
    ['namespaces/ns/core/events.yaml\n', 'mg-namespace-file', 'other'],
  ])('%j → %s', (path, rule, kind) => {
    const entry = classifyPath(path);
    expect(entry.rule).toBe(rule);
    expect(entry.kind).toBe(kind);
    expect(entry.path).toBe(path);
  });

  it('classifies `..` and absolute paths by what they look like', () => {
    expect(classifyPath('../namespaces/ns/core/pods.yaml')).toMatchObject({
      kind: 'list',
      root: '..',
      namespace: 'ns',
      resource: 'pods',
    });
    expect(classifyPath('/tmp/mg/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml')).toMatchObject({
      kind: 'cluster-object',
      root: '/tmp/mg',
      name: 'version',
    });
    expect(classifyPath('/namespaces/ns/ns.yaml')).toMatchObject({ kind: 'cluster-object', root: '', name: 'ns' });
    // `..` as a would-be name is reported as the name it is; consumers never resolve it.
    expect(classifyPath('namespaces/../core/pods.yaml')).toMatchObject({ kind: 'list', namespace: '..' });
  });

  it('does not treat the pods folder as an API group', () => {
    expect(classifyPath('namespaces/ns/pods/weird.yaml').rule).toBe('mg-namespace-file');
    expect(classifyPath('namespaces/ns/pods/p/other.yaml').rule).toBe('mg-pod-file');
  });

  it('gives paths longer than MAX_PATH_LENGTH `other` without trying the table', () => {
    const path = `${'a/'.repeat(MAX_PATH_LENGTH)}namespaces/ns/core/pods.yaml`;
    expect(classifyPath(path)).toStrictEqual({ kind: 'other', path, format: 'yaml', rule: TOO_LONG_RULE });
  });

  it('stays fast on adversarial repetition', () => {
    const nasty = [
      'namespaces/'.repeat(350),
      'pods/a_'.repeat(500),
      `${'namespaces/x/pods/'.repeat(200)}y`,
      `${'/'.repeat(4000)}x.log`,
      `${'a'.repeat(4000)}.logx`,
      `host_service_logs/${'x.log'.repeat(700)}y`,
      `nodes/n/${'n_logs_'.repeat(500)}`,
    ];
    const started = performance.now();
    for (let i = 0; i < 20; i++) for (const path of nasty) classifyPath(path);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('never throws, returns the path unchanged, and a root that prefixes it', () => {
    const segment = fc.constantFrom(
      'namespaces',
      'pods',
      'core',
      'cluster-scoped-resources',
      'logs',
      'current.log',
      'previous.insecure.log',
      'rotated',
      'x.yaml',
      'a_b_c.log',
      'timestamp',
      'version',
      '..',
      '.',
      '',
      'nodes',
      'host_service_logs',
      'kubelet_service.log',
      'gather-extra',
      'artifacts',
      'events.json',
    );
    fc.assert(
      fc.property(
        fc.oneof(fc.array(segment, { maxLength: 12 }).map((parts) => parts.join('/')), fc.string({ maxLength: 300 })),
        (path) => {
          const entry = classifyPath(path);
          expect(entry.path).toBe(path);
          if (entry.root !== undefined) expect(path.startsWith(entry.root)).toBe(true);
          expect(['yaml', 'json', 'text']).toContain(entry.format);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
