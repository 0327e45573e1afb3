/**
 * The layout table: one row per path shape, walked in order by `classifyPath`. The first row
 * whose `needle` occurs in the path and whose `pattern` matches wins; no row → kind `other`.
 *
 * Shapes come from real archives (must-gather 4.8/4.9 from openshift/must-gather-clean test
 * files), from `oc adm inspect` (openshift/oc pkg/cli/admin/inspect: resource.go, pod.go) and
 * from CI gather-extra (openshift/release ci-operator/step-registry/gather/extra/
 * gather-extra-commands.sh).
 *
 * Pattern conventions:
 * - Every pattern that belongs to a gather tree starts with `(?:^|/)` followed by a well-known
 *   folder or file name, so it matches at any depth below an outer prefix (case folders,
 *   `must-gather.local.N/quay-io-…/`). The prefix before the match is the entry's `root`.
 * - Segments are `[^/]+` and patterns end with `$`: no nested quantifiers, nothing that can
 *   backtrack more than linearly.
 * - Named groups are copied into the result under the same name (see `CaptureField`). The one
 *   exception is `base`: a group right after the leading `(?:^|/)` whose text belongs to the
 *   root (`gather-extra/artifacts` is part of the root, not of the entry).
 * - `.yaml`/`.yml` → yaml, `.json` → json, logs and anything else → text. A trailing `.gz`
 *   is normally stripped by the source; rows for files that are gzipped on disk accept it too.
 */
import type { ClassifiedEntry, EntryFormat, EntryKind } from './types.js';

/** Named regex groups a row may capture; each lands in the result field of the same name. */
export type CaptureField =
  | 'namespace'
  | 'group'
  | 'resource'
  | 'name'
  | 'pod'
  | 'container'
  | 'logStream'
  | 'node'
  | 'service';

export const CAPTURE_FIELDS: readonly CaptureField[] = [
  'namespace',
  'group',
  'resource',
  'name',
  'pod',
  'container',
  'logStream',
  'node',
  'service',
];

/**
 * What a match tells the layout detector.
 * - `tree`: `namespaces/` or `cluster-scoped-resources/` content, written by `oc adm inspect`
 *   and therefore present in both must-gather and inspect output; marks its root.
 * - `must-gather`: written only by must-gather collection scripts; marks its root.
 * - `gather-extra`: written only by CI gather-extra; marks its root.
 * - `root-marker`: `timestamp`, `version`, `event-filter.html`, gather logs: says something
 *   about the folder holding it but is not data by itself.
 * - `log`: a log file recognised only by its extension (bare-log input).
 * - `none`: nothing.
 */
export type Evidence = 'tree' | 'must-gather' | 'gather-extra' | 'root-marker' | 'log' | 'none';

/** Fixed values a row stamps on its result. */
export type RowConstants = Readonly<
  Partial<Pick<ClassifiedEntry, 'group' | 'resource' | 'logStream' | 'metadata' | 'service' | 'node'>>
>;

export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

export interface LayoutRule {
  /** Stable row name, reported as `rule`. */
  readonly name: string;
  readonly kind: EntryKind;
  /** `by-extension`: `.yaml`/`.yml` → yaml, `.json` → json, else text. */
  readonly format: EntryFormat | 'by-extension';
  /** Literal the path must contain for the row to be tried (cheap prefilter). */
  readonly needle: string;
  readonly pattern: RegExp;
  readonly evidence: Evidence;
  /** Whether the text before the match is the entry's root (must-gather image folder, inspect dir, artifacts dir). */
  readonly rooted: boolean;
  readonly set?: RowConstants;
  /** Result fields filled from another capture (`{ pod: 'name' }`: the pod is the captured name). */
  readonly copy?: Readonly<Partial<Record<CaptureField, CaptureField>>>;
  /** Captured `resource` → canonical group and plural resource (gather-extra file stems). */
  readonly aliases?: Readonly<Record<string, GroupResource>>;
  /** What the row is for; documentation only. */
  readonly note: string;
}

// ---------------------------------------------------------------------------------------------
// Building blocks (plain strings, assembled into RegExps below).

/** One path segment. */
const SEG = '[^/]+';
/** Start of a well-known folder: start of path or after a slash. */
const AT = '(?:^|/)';
const YAML = '\\.ya?ml$';
/** `<container>/<container>/` as inspect writes it; a single level is accepted too. */
const CONTAINER_DIR = `(?<container>${SEG})/(?:\\k<container>/)?`;
const POD_DIR = `namespaces/(?<namespace>${SEG})/pods/(?<pod>${SEG})/`;
/** Group folder of a namespace, never `pods` (pod folders hold pod objects and logs). */
const NS_GROUP = `namespaces/(?<namespace>${SEG})/(?!pods/)(?<group>${SEG})/`;

function rx(source: string): RegExp {
  // `s`: a stray newline in a name must not make `.` fail and backtrack.
  return new RegExp(source, 's');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whole-list JSON files written by gather-extra (`oc get <x> -o json`, kind `List`), by file
 * stem, with the API group and plural resource they hold. Source: gather-extra-commands.sh.
 * Stems that are not lists (`releaseinfo`, `openapi`) and the mixed `config-resources` list
 * have rows of their own.
 */
export const GATHER_EXTRA_LISTS: Readonly<Record<string, GroupResource>> = {
  apiservices: { group: 'apiregistration.k8s.io', resource: 'apiservices' },
  clusteroperators: { group: 'config.openshift.io', resource: 'clusteroperators' },
  clusterrolebindings: { group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings' },
  clusterserviceversions: { group: 'operators.coreos.com', resource: 'clusterserviceversions' },
  clusterversion: { group: 'config.openshift.io', resource: 'clusterversions' },
  configmaps: { group: 'core', resource: 'configmaps' },
  controlplanemachinesets: { group: 'machine.openshift.io', resource: 'controlplanemachinesets' },
  credentialsrequests: { group: 'cloudcredential.openshift.io', resource: 'credentialsrequests' },
  csr: { group: 'certificates.k8s.io', resource: 'certificatesigningrequests' },
  daemonsets: { group: 'apps', resource: 'daemonsets' },
  deployments: { group: 'apps', resource: 'deployments' },
  endpoints: { group: 'core', resource: 'endpoints' },
  events: { group: 'core', resource: 'events' },
  featuregate: { group: 'config.openshift.io', resource: 'featuregates' },
  kubeapiserver: { group: 'operator.openshift.io', resource: 'kubeapiservers' },
  kubecontrollermanager: { group: 'operator.openshift.io', resource: 'kubecontrollermanagers' },
  machineconfigpools: { group: 'machineconfiguration.openshift.io', resource: 'machineconfigpools' },
  machineconfigs: { group: 'machineconfiguration.openshift.io', resource: 'machineconfigs' },
  machines: { group: 'machine.openshift.io', resource: 'machines' },
  'machines.cluster.x-k8s.io': { group: 'cluster.x-k8s.io', resource: 'machines' },
  machinesets: { group: 'machine.openshift.io', resource: 'machinesets' },
  'machinesets.cluster.x-k8s.io': { group: 'cluster.x-k8s.io', resource: 'machinesets' },
  namespaces: { group: 'core', resource: 'namespaces' },
  nodes: { group: 'core', resource: 'nodes' },
  openshiftapiserver: { group: 'operator.openshift.io', resource: 'openshiftapiservers' },
  persistentvolumeclaims: { group: 'core', resource: 'persistentvolumeclaims' },
  persistentvolumes: { group: 'core', resource: 'persistentvolumes' },
  pods: { group: 'core', resource: 'pods' },
  replicasets: { group: 'apps', resource: 'replicasets' },
  rolebindings: { group: 'rbac.authorization.k8s.io', resource: 'rolebindings' },
  roles: { group: 'rbac.authorization.k8s.io', resource: 'roles' },
  routes: { group: 'route.openshift.io', resource: 'routes' },
  services: { group: 'core', resource: 'services' },
  statefulsets: { group: 'apps', resource: 'statefulsets' },
  subscriptions: { group: 'operators.coreos.com', resource: 'subscriptions' },
};

const GATHER_EXTRA_LIST_STEMS = Object.keys(GATHER_EXTRA_LISTS)
  // Longest first so `machines.cluster.x-k8s.io` is not cut at `machines`.
  .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
  .map(escapeRegExp)
  .join('|');

/** Webhook configuration Lists under `web_hooks/` (gather_admission_webhooks). */
const WEBHOOK_GROUP = 'admissionregistration.k8s.io';

// ---------------------------------------------------------------------------------------------
// The table. Order matters: specific shapes first, catch-alls last.

export const LAYOUT_TABLE: readonly LayoutRule[] = [
  // --- directories (entries ending in `/`; sources may list them) -----------------------------
  {
    name: 'tree-dir',
    kind: 'other',
    format: 'text',
    needle: '/',
    pattern: rx(`${AT}(?:namespaces|cluster-scoped-resources)/$`),
    evidence: 'tree',
    rooted: true,
    note: 'The namespaces/ or cluster-scoped-resources/ folder itself: marks a gather root even when empty.',
  },
  {
    name: 'directory',
    kind: 'other',
    format: 'text',
    needle: '/',
    pattern: rx('/$'),
    evidence: 'none',
    rooted: false,
    note: 'Any other directory entry.',
  },

  // --- must-gather / inspect: pods ------------------------------------------------------------
  {
    name: 'mg-pod-log',
    kind: 'pod-log',
    format: 'text',
    needle: 'namespaces/',
    pattern: rx(`${AT}${POD_DIR}${CONTAINER_DIR}logs/(?<logStream>current|previous)\\.log$`),
    evidence: 'tree',
    rooted: true,
    note: 'namespaces/<ns>/pods/<pod>/<container>/<container>/logs/{current,previous}.log',
  },
  {
    name: 'mg-pod-log-insecure',
    kind: 'pod-log',
    format: 'text',
    needle: 'namespaces/',
    pattern: rx(`${AT}${POD_DIR}${CONTAINER_DIR}logs/(?<logStream>current|previous)\\.insecure\\.log$`),
    evidence: 'tree',
    rooted: true,
    note:
      'logs/{current,previous}.insecure.log: inspect retried with InsecureSkipTLSVerifyBackend after the ' +
      'secure fetch failed; same stream as the plain file, often next to an empty or error plain file.',
  },
  {
    name: 'mg-pod-log-rotated',
    kind: 'pod-log',
    format: 'text',
    needle: 'namespaces/',
    pattern: rx(`${AT}${POD_DIR}${CONTAINER_DIR}logs/rotated/(?<name>[0-9]+\\.log\\.[^/]+?)(?:\\.gz)?$`),
    evidence: 'tree',
    rooted: true,
    set: { logStream: 'rotated' },
    note: 'logs/rotated/<n>.log.<YYYYMMDD-HHMMSS>[.gz] (inspect --rotated-pod-logs); name = file name without .gz.',
  },
  {
    name: 'mg-pod',
    kind: 'namespaced-object',
    format: 'yaml',
    needle: 'namespaces/',
    pattern: rx(`${AT}namespaces/(?<namespace>${SEG})/pods/(?<name>${SEG})/\\k<name>${YAML}`),
    evidence: 'tree',
    rooted: true,
    set: { group: 'core', resource: 'pods' },
    copy: { pod: 'name' },
    note: 'namespaces/<ns>/pods/<pod>/<pod>.yaml: the Pod object.',
  },
  {
    name: 'mg-pod-file',
    kind: 'other',
    format: 'by-extension',
    needle: 'namespaces/',
    pattern: rx(`${AT}${POD_DIR}.+$`),
    evidence: 'tree',
    rooted: true,
    note:
      'Anything else in a pod folder: api_priority_and_fairness/*, healthz/*, metrics.json, version.json, ' +
      'pprof dumps.',
  },

  // --- must-gather / inspect: namespaces ------------------------------------------------------
  {
    name: 'mg-namespace',
    kind: 'cluster-object',
    format: 'yaml',
    needle: 'namespaces/',
    pattern: rx(`${AT}namespaces/(?<name>${SEG})/\\k<name>${YAML}`),
    evidence: 'tree',
    rooted: true,
    set: { group: 'core', resource: 'namespaces' },
    note: 'namespaces/<ns>/<ns>.yaml: the Namespace object (cluster-scoped, so no namespace field).',
  },
  {
    name: 'mg-namespaced-list',
    kind: 'list',
    format: 'yaml',
    needle: 'namespaces/',
    pattern: rx(`${AT}${NS_GROUP}(?<resource>${SEG})${YAML}`),
    evidence: 'tree',
    rooted: true,
    note: 'namespaces/<ns>/<group>/<resource>.yaml: a List (group `core` for the legacy group).',
  },
  {
    name: 'mg-namespaced-object',
    kind: 'namespaced-object',
    format: 'yaml',
    needle: 'namespaces/',
    pattern: rx(`${AT}${NS_GROUP}(?<resource>${SEG})/(?<name>${SEG})${YAML}`),
    evidence: 'tree',
    rooted: true,
    note: 'namespaces/<ns>/<group>/<resource>/<name>.yaml: one object.',
  },
  {
    name: 'mg-namespace-file',
    kind: 'other',
    format: 'by-extension',
    needle: 'namespaces/',
    pattern: rx(`${AT}namespaces/(?<namespace>${SEG})/.+$`),
    evidence: 'tree',
    rooted: true,
    note: 'Anything else below namespaces/<ns>/ (operator-specific gathers).',
  },

  // --- must-gather / inspect: cluster-scoped --------------------------------------------------
  {
    name: 'mg-cluster-list',
    kind: 'list',
    format: 'yaml',
    needle: 'cluster-scoped-resources/',
    pattern: rx(`${AT}cluster-scoped-resources/(?<group>${SEG})/(?<resource>${SEG})${YAML}`),
    evidence: 'tree',
    rooted: true,
    note: 'cluster-scoped-resources/<group>/<resource>.yaml: a List (e.g. config.openshift.io/clusteroperators.yaml).',
  },
  {
    name: 'mg-cluster-object',
    kind: 'cluster-object',
    format: 'yaml',
    needle: 'cluster-scoped-resources/',
    pattern: rx(`${AT}cluster-scoped-resources/(?<group>${SEG})/(?<resource>${SEG})/(?<name>${SEG})${YAML}`),
    evidence: 'tree',
    rooted: true,
    note: 'cluster-scoped-resources/<group>/<resource>/<name>.yaml: one object.',
  },
  {
    name: 'mg-cluster-file',
    kind: 'other',
    format: 'by-extension',
    needle: 'cluster-scoped-resources/',
    pattern: rx(`${AT}cluster-scoped-resources/.+$`),
    evidence: 'tree',
    rooted: true,
    note: 'Anything else below cluster-scoped-resources/.',
  },

  // --- must-gather only -----------------------------------------------------------------------
  {
    name: 'mg-host-service-log',
    kind: 'host-log',
    format: 'text',
    needle: 'host_service_logs/',
    pattern: rx(`${AT}host_service_logs/(?<node>${SEG})/(?<service>${SEG})_service\\.log(?:\\.gz)?$`),
    evidence: 'must-gather',
    rooted: true,
    note:
      'host_service_logs/<masters|workers|node>/<service>_service.log[.gz] (gather_service_logs; journal ' +
      'of one systemd unit across the role).',
  },
  {
    name: 'mg-host-windows-log',
    kind: 'host-log',
    format: 'text',
    needle: 'host_service_logs/',
    pattern: rx(`${AT}host_service_logs/(?<service>kube-proxy|hybrid-overlay|kubelet)/(?<name>${SEG})$`),
    evidence: 'must-gather',
    rooted: true,
    set: { node: 'windows' },
    note:
      'host_service_logs/{kube-proxy,hybrid-overlay,kubelet}/<file> (gather_windows_node_logs: all Windows ' +
      'nodes, e.g. kubelet/kubelet.log, kube-proxy/kube-proxy.exe.INFO).',
  },
  {
    name: 'mg-host-file',
    kind: 'host-log',
    format: 'text',
    needle: 'host_service_logs/',
    pattern: rx(`${AT}host_service_logs/(?<name>.+)$`),
    evidence: 'must-gather',
    rooted: true,
    note: 'Any other file below host_service_logs/; name = path below it.',
  },
  {
    name: 'mg-node-kubelet-log',
    kind: 'host-log',
    format: 'text',
    needle: 'nodes/',
    pattern: rx(`${AT}nodes/(?<node>${SEG})/\\k<node>_logs_(?<service>[^/]+?)(?:\\.gz)?$`),
    evidence: 'must-gather',
    rooted: true,
    note: 'nodes/<node>/<node>_logs_kubelet[.gz] (node gather of newer must-gather).',
  },
  {
    name: 'mg-node-dmesg',
    kind: 'host-log',
    format: 'text',
    needle: 'nodes/',
    pattern: rx(`${AT}nodes/(?<node>${SEG})/dmesg$`),
    evidence: 'must-gather',
    rooted: true,
    set: { service: 'kernel' },
    note: 'nodes/<node>/dmesg: kernel ring buffer.',
  },
  {
    name: 'ge-node-journal',
    kind: 'host-log',
    format: 'text',
    needle: 'nodes/',
    pattern: rx(`${AT}nodes/(?<node>${SEG})/(?<service>journal|journal-previous|audit)(?:\\.gz)?$`),
    evidence: 'gather-extra',
    rooted: true,
    note:
      'gather-extra nodes/<node>/{journal,journal-previous,audit}[.gz] (oc adm node-logs; service = file ' +
      'name: whole journal, previous boot, audit log).',
  },
  {
    name: 'node-file',
    kind: 'other',
    format: 'by-extension',
    needle: 'nodes/',
    pattern: rx(`${AT}nodes/(?<node>${SEG})/(?<name>.+)$`),
    evidence: 'none',
    rooted: true,
    note:
      'Other files below nodes/<node>/ (sysinfo.log, lscpu, proc_cmdline, *.json, gather-extra heap); ' +
      'name = path below the node folder. ' +
      'Not evidence: both must-gather and gather-extra write nodes/.',
  },
  {
    name: 'mg-etcd-info',
    kind: 'other',
    format: 'by-extension',
    needle: 'etcd_info/',
    pattern: rx(`${AT}etcd_info/(?<name>${SEG})$`),
    evidence: 'must-gather',
    rooted: true,
    note: 'etcd_info/*.json (member_list, endpoint_health, endpoint_status, alarm_list, object counts).',
  },
  {
    name: 'mg-monitoring',
    kind: 'other',
    format: 'by-extension',
    needle: 'monitoring/',
    pattern: rx(`${AT}monitoring/(?<name>.+)$`),
    evidence: 'must-gather',
    rooted: true,
    note: 'monitoring/**: Prometheus/Alertmanager API answers (*.json) and their *.stderr; name = path below monitoring/.',
  },
  {
    name: 'insights-alerts',
    kind: 'other',
    format: 'json',
    needle: 'config/alerts.json',
    pattern: rx(`${AT}config/alerts\\.json$`),
    evidence: 'none',
    rooted: false,
    note: 'Insights archive config/alerts.json (insights-operator, also in must-gather insights-data/): Alertmanager v2 alerts.',
  },
  {
    name: 'mg-web-hooks',
    kind: 'list',
    format: 'yaml',
    needle: 'web_hooks/',
    pattern: rx(`${AT}web_hooks/(?<resource>${SEG})${YAML}`),
    evidence: 'must-gather',
    rooted: true,
    set: { group: WEBHOOK_GROUP },
    note: 'web_hooks/{validating,mutating}webhookconfigurations.yaml: Lists of webhook configurations.',
  },
  {
    name: 'mg-web-hooks-file',
    kind: 'other',
    format: 'by-extension',
    needle: 'web_hooks/',
    pattern: rx(`${AT}web_hooks/.+$`),
    evidence: 'must-gather',
    rooted: true,
    note: 'Anything else below web_hooks/.',
  },
  {
    name: 'mg-ingress-controller',
    kind: 'other',
    format: 'text',
    needle: 'ingress_controllers/',
    pattern: rx(`${AT}ingress_controllers/(?<name>${SEG})/(?<pod>${SEG})/.+$`),
    evidence: 'must-gather',
    rooted: true,
    note: 'ingress_controllers/<controller>/<router pod>/haproxy.config (gather_haproxy_config).',
  },
  {
    name: 'mg-ingress-file',
    kind: 'other',
    format: 'by-extension',
    needle: 'ingress_controllers/',
    pattern: rx(`${AT}ingress_controllers/.+$`),
    evidence: 'must-gather',
    rooted: true,
    note: 'Anything else below ingress_controllers/.',
  },

  // --- CI gather-extra ------------------------------------------------------------------------
  {
    name: 'ge-pod-log-previous',
    kind: 'pod-log',
    format: 'text',
    needle: 'pods/',
    pattern: rx(
      `${AT}pods/(?<namespace>[^/_]+)_(?<pod>[^/_]+)_(?<container>[^/_]+)_previous\\.log(?:\\.gz)?$`,
    ),
    evidence: 'gather-extra',
    rooted: true,
    set: { logStream: 'previous' },
    note:
      'pods/<ns>_<pod>_<container>_previous.log[.gz] (oc logs -p). Kubernetes names never hold `_`, ' +
      'so four parts always mean a previous log.',
  },
  {
    name: 'ge-pod-log',
    kind: 'pod-log',
    format: 'text',
    needle: 'pods/',
    pattern: rx(`${AT}pods/(?<namespace>[^/_]+)_(?<pod>[^/_]+)_(?<container>[^/_]+)\\.log(?:\\.gz)?$`),
    evidence: 'gather-extra',
    rooted: true,
    set: { logStream: 'current' },
    note: 'pods/<ns>_<pod>_<container>.log[.gz] (oc logs).',
  },
  {
    name: 'ge-list',
    kind: 'list',
    format: 'json',
    needle: '.json',
    pattern: rx(`${AT}(?<resource>${GATHER_EXTRA_LIST_STEMS})\\.json$`),
    evidence: 'gather-extra',
    rooted: true,
    aliases: GATHER_EXTRA_LISTS,
    note: '<artifacts>/<stem>.json: whole-cluster List (oc get -o json); group/resource from GATHER_EXTRA_LISTS.',
  },
  {
    name: 'ge-config-resources',
    kind: 'list',
    format: 'json',
    needle: 'config-resources.json',
    pattern: rx(`${AT}config-resources\\.json$`),
    evidence: 'gather-extra',
    rooted: true,
    set: { group: 'config.openshift.io' },
    note: 'config-resources.json: one List mixing the config.openshift.io singletons (no single resource).',
  },
  {
    name: 'ge-not-a-list',
    kind: 'other',
    format: 'json',
    needle: '.json',
    pattern: rx(`${AT}(?<name>releaseinfo|openapi)\\.json$`),
    evidence: 'gather-extra',
    rooted: true,
    note: 'releaseinfo.json (oc adm release info) and openapi.json (/openapi/v2): JSON, not Lists.',
  },
  {
    name: 'ge-list-other',
    kind: 'list',
    format: 'json',
    needle: 'gather-extra/artifacts/',
    pattern: rx(`${AT}(?<base>gather-extra/artifacts)/(?<resource>${SEG})\\.json$`),
    evidence: 'gather-extra',
    rooted: true,
    note: 'Any other JSON directly in a gather-extra/artifacts/ folder: a List named after the file stem.',
  },
  {
    name: 'ge-audit-log',
    kind: 'audit-log',
    format: 'text',
    needle: 'audit_logs/',
    pattern: rx(`${AT}audit_logs/(?<service>${SEG})/(?<node>[^/]+)-(?<name>audit[^/]*\\.log)(?:\\.gz)?$`),
    evidence: 'gather-extra',
    rooted: true,
    note:
      'audit_logs/<apiserver>/<node>-<file>[.gz]: API server audit logs, one audit.k8s.io Event per line ' +
      '(gather_audit_logs of must-gather, and gather-extra); service = apiserver folder, node = the file ' +
      'name before `-audit`, name = audit.log or a rotated audit-<time>.log.',
  },
  {
    name: 'audit-log-listing',
    kind: 'other',
    format: 'text',
    needle: 'audit_logs/',
    pattern: rx(`${AT}audit_logs/(?<service>${SEG})\\.audit_logs_listing$`),
    evidence: 'none',
    rooted: true,
    note: 'audit_logs/<apiserver>.audit_logs_listing: `oc adm node-logs --role=master --path=<apiserver>` (node and file per line).',
  },
  {
    name: 'audit-log-other',
    kind: 'other',
    format: 'text',
    needle: 'audit_logs/',
    pattern: rx(`${AT}audit_logs/(?<service>${SEG})/(?<name>${SEG})$`),
    evidence: 'none',
    rooted: true,
    note: 'Other files of an apiserver log folder (termination.log, the etcd folder): no audit events.',
  },
  {
    name: 'ge-oc-cmds',
    kind: 'other',
    format: 'text',
    needle: 'oc_cmds/',
    pattern: rx(`${AT}oc_cmds/(?<resource>${SEG})$`),
    evidence: 'gather-extra',
    rooted: true,
    note: 'oc_cmds/<resource>: `oc get` table output.',
  },

  // --- metadata and markers (after the trees: a file called `version` inside a tree is not this)
  {
    name: 'timestamp',
    kind: 'metadata',
    format: 'text',
    needle: 'timestamp',
    pattern: rx(`${AT}timestamp$`),
    evidence: 'root-marker',
    rooted: true,
    set: { metadata: 'timestamp' },
    note: 'timestamp: gather start/end times, at each image folder and at the top folder.',
  },
  {
    name: 'version',
    kind: 'metadata',
    format: 'text',
    needle: 'version',
    pattern: rx(`${AT}version$`),
    evidence: 'root-marker',
    rooted: true,
    set: { metadata: 'version' },
    note: 'version: gather image name and version (`openshift/must-gather` + `4.0-art-dev`).',
  },
  {
    name: 'event-filter',
    kind: 'other',
    format: 'text',
    needle: 'event-filter.html',
    pattern: rx(`${AT}event-filter\\.html$`),
    evidence: 'root-marker',
    rooted: true,
    note: 'event-filter.html: the HTML event browser inspect writes; at each image folder and at the top.',
  },
  {
    name: 'gather-log',
    kind: 'other',
    format: 'text',
    needle: 'gather',
    pattern: rx(`${AT}(?:gather-debug\\.log|gather\\.logs|must-gather\\.logs?)$`),
    evidence: 'root-marker',
    rooted: true,
    note: "The gather's own output (gather-debug.log, must-gather.logs), not a cluster log.",
  },

  // --- bare logs ------------------------------------------------------------------------------
  {
    name: 'bare-log',
    kind: 'pod-log',
    format: 'text',
    needle: '.log',
    pattern: rx('(?:^|/)(?<name>[^/]+\\.log)(?:\\.gz)?$'),
    evidence: 'log',
    rooted: false,
    note:
      'Any other *.log[.gz] (cluster-version-operator.log, cvo.log given alone): a container log whose ' +
      'namespace, pod, container and stream are unknown; name = file name.',
  },
];
