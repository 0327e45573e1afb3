/**
 * Cluster metrics derived from the archive's objects, for the PromQL of update risks
 * (cincinnati-graph-data `blocked-edges/`). An archive is no Prometheus: each metric below says
 * which objects it comes from, which labels it has and what stays unknown. A metric the archive
 * cannot supply is never zero: its series carry a gap (a reason), so a query that depends on it
 * is "could not evaluate", with that reason.
 *
 * | metric | from | labels | unknown when |
 * | --- | --- | --- | --- |
 * | `cluster_version` | ClusterVersion `status.history` / `status.desired` | `type` (`initial` = oldest history entry, `completed` = newest Completed, `desired`), `version`, `image` | no ClusterVersion |
 * | `cluster_version_capability` | ClusterVersion `status.capabilities` | `name`; 1 enabled, 0 known but not enabled | no ClusterVersion (none before 4.11: no series, as the CVO) |
 * | `cluster_infrastructure_provider` | Infrastructure `cluster` `status.platformStatus.type` | `type`, `region` | no Infrastructure |
 * | `cluster_feature_set` | FeatureGate `cluster` `spec.featureSet` | `name` (`""` = Default) | no FeatureGate |
 * | `cluster_proxy_enabled` | Proxy `cluster` spec | `type` `http`, `https`, `trusted_ca`: 1 set, 0 not | no Proxy |
 * | `cluster_installer` | ConfigMap `openshift-config/openshift-install` (else `openshift-install-manifests`) | `type`, `version`, `invoker` | openshift-config ConfigMaps not gathered, or neither map |
 * | `cluster_operator_conditions` | ClusterOperators `status.conditions` | `name`, `condition`, `reason`; 1 True, 0 False, -1 Unknown | no ClusterOperator read |
 * | `cco_credentials_mode` | CloudCredential `cluster` `spec.credentialsMode`, else the root secret's `cloudcredential.openshift.io/mode` annotation | `mode` (lower case) | neither |
 * | `mcd_update_state` | Node annotations `machineconfiguration.openshift.io/currentConfig`, `state` | `node`, `config`, `state` | no Node read |
 * | `kube_node_labels` | Node labels (all of them; kube-state-metrics exposes an allow-list) | `node`, `label_<name>` (non-alphanumerics as `_`) | no Node read |
 * | `kube_node_role` | Node labels `node-role.kubernetes.io/<role>` | `node`, `role` | no Node read |
 * | `kube_secret_info`, `kube_configmap_info`, `kube_deployment_spec_replicas`, `kube_pod_container_info` | Secrets, ConfigMaps, Deployments (`spec.replicas`), Pods (`spec.containers[].image`) | `namespace`, `secret` / `configmap` / `deployment` / `pod`,`container`,`image` | namespaces whose objects of that kind were not gathered |
 * | `csv_succeeded`, `csv_count` | ClusterServiceVersions (1 when `status.phase` is Succeeded) | `name`, `namespace`, `version` | CSVs not gathered in every namespace |
 * | `apiserver_storage_objects` | objects of each resource the archive holds in full; CRDs for which resources exist | `resource` (`<plural>.<group>`, `nodes` for the core group) | a resource gathered in part or not at all (its count is unknown) |
 * | `ovnkube_controller_ipsec_enabled` (4.14+), `ovnkube_master_ipsec_enabled` (before 4.14) | Network.operator `cluster` `spec.defaultNetwork.ovnKubernetesConfig.ipsecConfig` | none; 1 enabled, 0 not; no series unless OVN-Kubernetes | no Network.operator object |
 * | `ovnkube_clustermanager_num_egress_ips` | EgressIPs (k8s.ovn.org), OVN-Kubernetes 4.14+ | none; the count | EgressIPs not gathered |
 * | `ceph_health_status` | CephClusters (ceph.rook.io) | `namespace`, `name` | the CephCluster CRD exists but its objects were not gathered |
 * | `network_attachment_definition_instances` | NetworkAttachmentDefinitions (k8s.cni.cncf.io) | `networks="any"`; their number | not every namespace's NADs gathered (no series when the CRD is known absent) |
 * | `node_cpu_info`, `kubernetes_nmstate_features_applied`, `imageregistry_*_count` | not in an archive (node-exporter, operator and registry runtime metrics) | | always, unless the owning CRD is known absent (then no series) |
 *
 * "Gathered in full": a whole-cluster List (gather-extra), a `cluster-scoped-resources/<group>/<resource>`
 * folder, a namespace's `<group>/<resource>.yaml` List, or — for zero objects — a resource that a
 * ClusterOperator's `status.relatedObjects` names without a name (must-gather inspects those whole).
 */
import { detachData, detachString } from '../core/detach.js';
import { RecordingConsumer, type Need, type ObjectPlace, type WalkSummary } from '../ingest/consumer.js';
import type { ClassifiedEntry } from '../layout/types.js';
import { identityKey, pluralOf, type K8sObject } from '../parsers/k8s.js';
import type { Pick } from '../parsers/yaml-block.js';
import type { Labels, MetricSource, Sample, Series } from '../promql/index.js';
import { arrayAt, isRecord, recordAt, stringAt, timeMs } from './internal.js';
import { historyEntries, newestCompleted } from './history.js';
import { conditionMap } from './cluster.js';
import { compareVersions } from './version.js';

/** `resource.group` as apiserver_storage_objects names it (`nodes` for the core group). */
function resourceKey(group: string | undefined, resource: string): string {
  return group && group !== 'core' ? `${resource}.${group}` : resource;
}

/**
 * What the metrics keep of each object they read, by kind (group/resource as the layout names
 * them), and the metrics that read it. Only these fields are copied out of a parsed object — the
 * rest, and the file's text, are left to the garbage collector — so a large archive's Secrets and
 * ConfigMaps cost a name each. `true` keeps a value whole; a map keeps only the keys it names;
 * `[shape]` keeps each item of a list in that shape.
 */
type Shape = true | { readonly [key: string]: Shape } | readonly [Shape];

const IDENTITY = { name: true, namespace: true } as const;
const CONFIG: Shape = true;

interface KindRead {
  shape: Shape;
  metrics: readonly string[];
  /** The namespace where the shape's fields beyond `metadata` are read; elsewhere only metadata is (cheaper to parse). */
  beyondMetadataIn?: string;
}

const KINDS: Readonly<Record<string, KindRead>> = {
  'config.openshift.io/clusterversions': { shape: CONFIG, metrics: ['cluster_version', 'cluster_version_capability', 'ovnkube_controller_ipsec_enabled', 'ovnkube_master_ipsec_enabled'] },
  'config.openshift.io/infrastructures': { shape: CONFIG, metrics: ['cluster_infrastructure_provider'] },
  'config.openshift.io/clusteroperators': { shape: { metadata: IDENTITY, status: { conditions: true, relatedObjects: true } }, metrics: ['cluster_operator_conditions'] },
  'config.openshift.io/featuregates': { shape: CONFIG, metrics: ['cluster_feature_set'] },
  'config.openshift.io/proxies': { shape: CONFIG, metrics: ['cluster_proxy_enabled'] },
  'core/nodes': {
    shape: { metadata: { ...IDENTITY, labels: true, annotations: { 'machineconfiguration.openshift.io/currentConfig': true, 'machineconfiguration.openshift.io/state': true } } },
    metrics: ['mcd_update_state', 'kube_node_labels', 'kube_node_role'],
  },
  // Data only of openshift-config's openshift-install maps (`installer`).
  'core/configmaps': { shape: { metadata: IDENTITY, data: { version: true, invoker: true } }, metrics: ['kube_configmap_info', 'cluster_installer'], beyondMetadataIn: 'openshift-config' },
  'core/secrets': { shape: { metadata: { ...IDENTITY, annotations: { 'cloudcredential.openshift.io/mode': true } } }, metrics: ['kube_secret_info', 'cco_credentials_mode'] },
  'core/pods': { shape: { metadata: IDENTITY, spec: { containers: [{ name: true, image: true }] } }, metrics: ['kube_pod_container_info'] },
  'apps/deployments': { shape: { metadata: IDENTITY, spec: { replicas: true } }, metrics: ['kube_deployment_spec_replicas'] },
  'operators.coreos.com/clusterserviceversions': { shape: { metadata: IDENTITY, spec: { version: true }, status: { phase: true } }, metrics: ['csv_succeeded', 'csv_count'] },
  'apiextensions.k8s.io/customresourcedefinitions': {
    shape: { metadata: IDENTITY },
    metrics: ['csv_count', 'ceph_health_status', 'network_attachment_definition_instances', 'kubernetes_nmstate_features_applied'],
  },
  'operator.openshift.io/networks': { shape: CONFIG, metrics: ['ovnkube_controller_ipsec_enabled', 'ovnkube_master_ipsec_enabled', 'ovnkube_clustermanager_num_egress_ips'] },
  'operator.openshift.io/cloudcredentials': { shape: CONFIG, metrics: ['cco_credentials_mode'] },
  'k8s.ovn.org/egressips': { shape: { metadata: IDENTITY }, metrics: ['ovnkube_clustermanager_num_egress_ips'] },
  'ceph.rook.io/cephclusters': { shape: { metadata: IDENTITY }, metrics: ['ceph_health_status'] },
  'k8s.cni.cncf.io/network-attachment-definitions': { shape: { metadata: IDENTITY }, metrics: ['network_attachment_definition_instances'] },
};

/**
 * The kinds to read for these metrics. ClusterVersions and ClusterOperators always (the
 * cluster's own verdicts; relatedObjects tell which resources were gathered whole);
 * `apiserver_storage_objects` counts every kind read, so it reads them all.
 */
function kindsFor(metrics: readonly string[] | undefined): Set<string> {
  const all = Object.keys(KINDS);
  if (metrics === undefined || metrics.includes('apiserver_storage_objects')) return new Set(all);
  const wanted = new Set(metrics);
  return new Set(all.filter((type) => type === 'config.openshift.io/clusterversions' || type === 'config.openshift.io/clusteroperators' || KINDS[type]!.metrics.some((m) => wanted.has(m))));
}

/** The keys of a shape, as the parser picks them (`[shape]`: each item of a list). */
function pickOfShape(shape: Shape): Pick | true {
  if (shape === true) return true;
  const out: Record<string, Pick | true> = {};
  for (const [key, inner] of Object.entries(shape as Record<string, Shape>)) out[key] = pickOfShape(Array.isArray(inner) ? (inner[0] as Shape) : (inner as Shape));
  return out;
}

/** The metadata every object keeps: what its identity and the object check read (`parsers/k8s.ts`). */
const IDENTITY_PICK: Pick = { name: true, generateName: true, namespace: true, uid: true, resourceVersion: true, creationTimestamp: true, deletionTimestamp: true };

/**
 * What the walk parses of a kind's files when no other consumer reads them whole: the shape's
 * keys, so a CSV's install strategy, icon and descriptions, a Deployment's pod template, or a
 * Secret's other annotations and owners are stepped over (`project` keeps the same fields either
 * way); in `metadata`, also the fields an object's identity is read from. Only the keys of the
 * document and of a List's items are cut from the bytes before decoding (`pickLines`); the
 * parser steps over the rest.
 */
function pickOfKind(kind: KindRead, metadataOnly: boolean): Pick | true {
  if (kind.shape === true) return true;
  const shape = metadataOnly ? { metadata: (kind.shape as Record<string, Shape>)['metadata'] ?? true } : kind.shape;
  const fields = pickOfShape(shape) as Record<string, Pick | true>;
  const metadata = fields['metadata'] === true || fields['metadata'] === undefined ? true : { ...IDENTITY_PICK, ...fields['metadata'] };
  const item: Pick = { ...fields, apiVersion: true, kind: true, metadata };
  return { ...item, items: item };
}

const PICKS = new Map(Object.entries(KINDS).map(([type, kind]) => [type, [pickOfKind(kind, false), pickOfKind(kind, true)] as const]));

interface ResourceNeed {
  /** resourceKey. */
  key: string;
  /** What is read of it where its shape is read, and where only metadata is (undefined: not read). */
  picks: readonly [Need, Need] | undefined;
  /** The one namespace where more than metadata is read (`beyondMetadataIn`). */
  metadataIn: string | undefined;
  counted: Set<string> | undefined;
}

interface Held {
  /** The object as its kind's shape keeps it. */
  object: K8sObject;
  file: string;
}

/** One object read: what a worker thread hands over (plain data). */
interface Kept {
  type: string;
  /** resourceKey, for counting. */
  resource: string;
  key: string;
  id: string;
  held: Held;
}

/**
 * Reads the objects the metrics need and which resources the archive holds in full, in the walk
 * (on this thread or in the entry pool's workers). Given the metric names the loaded risks'
 * queries read, it reads only the kinds those metrics come from.
 */
export class MetricsCollector extends RecordingConsumer<Kept> {
  private readonly objects = new Map<string, Map<string, Held>>();
  /** resourceKey → identities seen (from paths and objects). */
  private readonly counted = new Map<string, Set<string>>();
  /** resourceKey of resources gathered whole-cluster. */
  private readonly whole = new Set<string>();
  /** resourceKey → namespaces whose List of it was read. */
  private readonly namespaces = new Map<string, Set<string>>();
  /** resourceKey of resources held in List files this collector does not parse (their number is unknown). */
  private readonly uncounted = new Set<string>();
  private readonly read: Set<string>;
  private layout = 'unknown';

  /** `metrics`: the metric names to derive (all of them when absent). */
  constructor(metrics?: readonly string[]) {
    super();
    this.read = kindsFor(metrics);
  }

  need(entry: ClassifiedEntry): Need | undefined {
    if (!entry.resource) return undefined;
    const resource = this.resourceOf(entry.group, entry.resource);
    const key = resource.key;
    const rule = entry.rule;
    if (rule === 'ge-list' || rule === 'ge-list-other' || rule === 'mg-cluster-list' || rule === 'mg-cluster-object') this.whole.add(key);
    if (rule === 'mg-namespaced-list' && entry.namespace) setOf(this.namespaces, key).add(entry.namespace);
    // One object per file: counted from its path, without reading it.
    if (entry.name && entry.kind !== 'list') (resource.counted ??= setOf(this.counted, key)).add(`${entry.namespace ?? ''}/${entry.name}`);
    if (resource.picks) return resource.metadataIn !== undefined && entry.namespace !== undefined && entry.namespace !== resource.metadataIn ? resource.picks[1] : resource.picks[0];
    if (entry.kind === 'list') this.uncounted.add(key);
    return undefined;
  }

  /** Per group and resource: what `need` works out once (every entry of the archive asks). */
  private readonly resources = new Map<string, Map<string, ResourceNeed>>();
  private resourceOf(group: string | undefined, resource: string): ResourceNeed {
    let byResource = this.resources.get(group ?? '');
    if (!byResource) this.resources.set(group ?? '', (byResource = new Map()));
    let out = byResource.get(resource);
    if (!out) {
      const type = `${group ?? 'core'}/${resource}`;
      const kind = KINDS[type];
      const read = kind && this.read.has(type);
      const picks = read ? PICKS.get(type)! : undefined;
      const everywhere = kind !== undefined && kind.shape !== true && Object.keys(kind.shape).every((k) => k === 'metadata');
      out = {
        key: resourceKey(group, resource),
        picks: picks && [{ objects: picks[everywhere ? 1 : 0] }, { objects: picks[1] }],
        metadataIn: read && kind.shape !== true && !everywhere ? kind.beyondMetadataIn : undefined,
        counted: undefined,
      };
      byResource.set(resource, out);
    }
    return out;
  }

  object(object: K8sObject, entry: ClassifiedEntry, _place: ObjectPlace): void {
    const type = `${entry.group ?? 'core'}/${entry.resource ?? ''}`;
    const shape = KINDS[type]?.shape;
    const name = object.metadata?.name;
    if (!name || !shape) return;
    const kept: Kept = {
      type,
      resource: resourceKey(entry.group, entry.resource ?? ''),
      key: detachString(identityKey(object)),
      id: detachString(`${object.metadata?.namespace ?? ''}/${name}`),
      held: { object: project(object, shape) as K8sObject, file: entry.path },
    };
    this.record(kept);
  }

  protected add(kept: Kept): void {
    setOf(this.counted, kept.resource).add(kept.id);
    let byKey = this.objects.get(kept.type);
    if (!byKey) this.objects.set(kept.type, (byKey = new Map()));
    if (!byKey.has(kept.key)) byKey.set(kept.key, kept.held);
  }

  end(summary: WalkSummary): void {
    this.layout = summary.layout;
  }

  metrics(): ArchiveMetrics {
    return new ArchiveMetrics(
      (type) => [...(this.objects.get(type)?.values() ?? [])],
      this.counted,
      this.whole,
      this.namespaces,
      this.uncounted,
      this.layout,
    );
  }
}

type Gap = Series['gap'];
const always = (reason: string): Gap => () => reason;

/** The metrics of one archive, built on first use of each. */
export class ArchiveMetrics implements MetricSource {
  private readonly cache = new Map<string, Series>();

  constructor(
    private readonly read: (type: string) => Held[],
    private readonly counted: ReadonlyMap<string, ReadonlySet<string>>,
    private readonly whole: ReadonlySet<string>,
    private readonly namespaces: ReadonlyMap<string, ReadonlySet<string>>,
    private readonly uncounted: ReadonlySet<string>,
    private readonly layout: string,
  ) {}

  /** The ClusterVersion `version` as held (object and file). */
  private clusterVersion(): { object: K8sObject; file: string } | undefined {
    return this.read('config.openshift.io/clusterversions').find((x) => (x.object.metadata?.name ?? 'version') === 'version');
  }

  series(metric: string): Series {
    let s = this.cache.get(metric);
    if (!s) this.cache.set(metric, (s = this.derive(metric)));
    return s;
  }

  private derive(metric: string): Series {
    switch (metric) {
      case 'cluster_version': return this.clusterVersionSeries();
      case 'cluster_version_capability': return this.capabilities();
      case 'cluster_infrastructure_provider': return this.singleton('config.openshift.io/infrastructures', 'cluster', 'Infrastructure', (o) => {
        const status = recordAt(o, 'status');
        const type = stringAt(recordAt(status, 'platformStatus'), 'type') ?? stringAt(status, 'platform');
        const region = stringAt(recordAt(recordAt(status, 'platformStatus'), (type ?? '').toLowerCase()), 'region');
        return type ? [{ labels: dropEmpty({ type, region }), value: 1 }] : undefined;
      });
      case 'cluster_feature_set': return this.singleton('config.openshift.io/featuregates', 'cluster', 'FeatureGate', (o) => [{ labels: { name: stringAt(recordAt(o, 'spec'), 'featureSet') ?? '' }, value: 1 }]);
      case 'cluster_proxy_enabled': return this.singleton('config.openshift.io/proxies', 'cluster', 'Proxy', (o) => {
        const spec = recordAt(o, 'spec');
        const set = (v: string | undefined): number => (v ? 1 : 0);
        return [
          { labels: { type: 'http' }, value: set(stringAt(spec, 'httpProxy')) },
          { labels: { type: 'https' }, value: set(stringAt(spec, 'httpsProxy')) },
          { labels: { type: 'trusted_ca' }, value: set(stringAt(recordAt(spec, 'trustedCA'), 'name')) },
        ];
      });
      case 'cluster_installer': return this.installer();
      case 'cluster_operator_conditions': return this.operatorConditions();
      case 'cco_credentials_mode': return this.credentialsMode();
      case 'mcd_update_state':
      case 'kube_node_labels':
      case 'kube_node_role': return this.nodes(metric);
      case 'kube_secret_info': return this.namespaced('core/secrets', 'secrets', (h) => [{ labels: { namespace: ns(h), secret: name(h) }, value: 1 }]);
      case 'kube_configmap_info': return this.namespaced('core/configmaps', 'configmaps', (h) => [{ labels: { namespace: ns(h), configmap: name(h) }, value: 1 }]);
      case 'kube_deployment_spec_replicas': return this.namespaced('apps/deployments', 'deployments.apps', (h) => {
        const replicas = recordAt(h.object, 'spec')?.['replicas'];
        return [{ labels: { namespace: ns(h), deployment: name(h) }, value: typeof replicas === 'number' ? replicas : 1 }];
      });
      case 'kube_pod_container_info': return this.namespaced('core/pods', 'pods', (h) =>
        arrayAt(recordAt(h.object, 'spec'), 'containers').flatMap((c) =>
          isRecord(c) ? [{ labels: dropEmpty({ namespace: ns(h), pod: name(h), container: stringAt(c, 'name'), image: stringAt(c, 'image') }), value: 1 }] : [],
        ));
      case 'csv_succeeded':
      case 'csv_count': return this.csvs(metric);
      case 'apiserver_storage_objects': return this.storageObjects();
      case 'ovnkube_controller_ipsec_enabled':
      case 'ovnkube_master_ipsec_enabled': return this.ipsec(metric);
      case 'ovnkube_clustermanager_num_egress_ips': return this.egressIPs();
      case 'ceph_health_status': return this.ceph();
      case 'node_cpu_info': return { samples: [], gap: always('node_cpu_info (node-exporter: CPU vendor and family) is not in an archive') };
      case 'kubernetes_nmstate_features_applied': return this.runtimeOnly(metric, 'nodenetworkconfigurationpolicies.nmstate.io', 'the NMState operator');
      case 'network_attachment_definition_instances': return this.attachmentDefinitions();
      default: return { samples: [], gap: always(`${metric} is not derived from archive objects (see the metrics mgsift derives in facts/metrics.ts)`) };
    }
  }

  private singleton(type: string, objectName: string, kind: string, make: (o: K8sObject) => Omit<Sample, 'sources'>[] | undefined): Series {
    const h = this.read(type).find((x) => x.object.metadata?.name === objectName);
    if (!h) return { samples: [], gap: always(`the archive holds no ${kind} '${objectName}'`) };
    const samples = make(h.object);
    if (!samples) return { samples: [], gap: always(`${kind} '${objectName}' does not say`) };
    return { samples: samples.map((s) => ({ ...s, sources: [h.file] })) };
  }

  private clusterVersionSeries(): Series {
    const h = this.clusterVersion();
    if (!h) return { samples: [], gap: always('the archive holds no ClusterVersion') };
    const entries = historyEntries(h.object);
    const samples: Sample[] = [];
    const add = (type: string, version: string | undefined, image: string | undefined, time: number | undefined): void => {
      if (!version && !image) return;
      samples.push({ labels: dropEmpty({ type, version, image }), value: time === undefined ? undefined : time / 1000, unknown: time === undefined ? 'the entry has no time' : undefined, sources: [h.file] });
    };
    const initial = entries[0];
    if (initial) add('initial', initial.version, initial.image, initial.completionTime ?? initial.startedTime);
    const completed = newestCompleted(entries);
    if (completed) add('completed', completed.version, completed.image, completed.completionTime);
    const desired = recordAt(recordAt(h.object, 'status'), 'desired');
    if (desired) add('desired', stringAt(desired, 'version'), stringAt(desired, 'image'), timeMs(entries.at(-1)?.startedTime));
    return { samples };
  }

  private capabilities(): Series {
    const h = this.clusterVersion();
    if (!h) return { samples: [], gap: always('the archive holds no ClusterVersion') };
    const caps = recordAt(recordAt(h.object, 'status'), 'capabilities');
    const enabled = new Set(arrayAt(caps, 'enabledCapabilities').filter((c): c is string => typeof c === 'string'));
    const known = arrayAt(caps, 'knownCapabilities').filter((c): c is string => typeof c === 'string');
    const names = new Set([...known, ...enabled]);
    return { samples: [...names].map((n) => ({ labels: { name: n }, value: enabled.has(n) ? 1 : 0, sources: [h.file] })) };
  }

  private installer(): Series {
    const maps = this.read('core/configmaps').filter((h) => h.object.metadata?.namespace === 'openshift-config');
    if (!this.namespaces.get('configmaps')?.has('openshift-config') && maps.length === 0 && !this.whole.has('configmaps')) {
      return { samples: [], gap: always('the ConfigMaps of openshift-config (openshift-install) were not gathered') };
    }
    for (const [cmName, type] of [['openshift-install', 'openshift-install'], ['openshift-install-manifests', 'other']] as const) {
      const h = maps.find((m) => m.object.metadata?.name === cmName);
      if (!h) continue;
      const data = recordAt(h.object, 'data');
      return { samples: [{ labels: dropEmpty({ type, version: stringAt(data, 'version'), invoker: stringAt(data, 'invoker') }), value: 1, sources: [h.file] }] };
    }
    return { samples: [], gap: always('openshift-config holds neither the openshift-install nor the openshift-install-manifests ConfigMap') };
  }

  private operatorConditions(): Series {
    const operators = this.read('config.openshift.io/clusteroperators');
    if (operators.length === 0) return { samples: [], gap: always('the archive holds no ClusterOperator') };
    const samples: Sample[] = [];
    for (const h of operators) {
      for (const [condition, c] of Object.entries(conditionMap(h.object))) {
        const value = c.status === 'True' ? 1 : c.status === 'False' ? 0 : -1;
        samples.push({ labels: dropEmpty({ name: name(h), condition, reason: c.reason }), value, sources: [h.file] });
      }
    }
    return { samples };
  }

  private credentialsMode(): Series {
    const cco = this.read('operator.openshift.io/cloudcredentials').find((h) => h.object.metadata?.name === 'cluster');
    const specMode = stringAt(recordAt(cco?.object, 'spec'), 'credentialsMode');
    if (cco && specMode) return { samples: [{ labels: { mode: specMode.toLowerCase() }, value: 1, sources: [cco.file] }] };
    const root = this.read('core/secrets').find(
      (h) => h.object.metadata?.namespace === 'kube-system' && h.object.metadata?.annotations?.['cloudcredential.openshift.io/mode'] !== undefined,
    );
    const mode = root?.object.metadata?.annotations?.['cloudcredential.openshift.io/mode'];
    if (root && mode) return { samples: [{ labels: { mode: mode.toLowerCase() }, value: 1, sources: [root.file] }] };
    return { samples: [], gap: always('the credentials mode is not set in CloudCredential cluster and no kube-system root credential secret says it') };
  }

  private nodes(metric: string): Series {
    const nodes = this.read('core/nodes');
    if (nodes.length === 0) return { samples: [], gap: always('the archive holds no Node') };
    const samples: Sample[] = [];
    for (const h of nodes) {
      const node = name(h);
      const labels = h.object.metadata?.labels ?? {};
      const annotations = h.object.metadata?.annotations ?? {};
      if (metric === 'mcd_update_state') {
        const config = annotations['machineconfiguration.openshift.io/currentConfig'];
        if (config !== undefined) samples.push({ labels: dropEmpty({ node, config, state: annotations['machineconfiguration.openshift.io/state'] }), value: 1, sources: [h.file] });
      } else if (metric === 'kube_node_role') {
        for (const key of Object.keys(labels)) {
          if (key.startsWith('node-role.kubernetes.io/')) samples.push({ labels: { node, role: key.slice('node-role.kubernetes.io/'.length) }, value: 1, sources: [h.file] });
        }
      } else {
        const out: Record<string, string> = { node };
        for (const [key, value] of Object.entries(labels)) out[`label_${key.replace(/[^a-zA-Z0-9_]/g, '_')}`] = value;
        samples.push({ labels: out, value: 1, sources: [h.file] });
      }
    }
    return { samples };
  }

  /** A namespaced kind: complete for namespaces whose objects of that kind were gathered. */
  private namespaced(type: string, key: string, make: (h: Held) => Omit<Sample, 'sources'>[]): Series {
    const held = this.read(type);
    const samples = held.flatMap((h) => make(h).map((s) => ({ ...s, sources: [h.file] })));
    if (this.complete(key)) return { samples };
    const covered = new Set([...(this.namespaces.get(key) ?? []), ...this.gatheredNamespaces(key)]);
    const kind = key.split('.')[0];
    return {
      samples,
      gap: (matchers) => {
        const nsMatch = matchers.find((m) => m.label === 'namespace' && m.op === '=');
        if (nsMatch && covered.has(nsMatch.value)) return undefined;
        return nsMatch
          ? `the archive does not hold the ${kind} of namespace ${nsMatch.value}`
          : `the archive holds ${kind} of ${covered.size} namespace(s), not of every namespace`;
      },
    };
  }

  /** Namespaces a ClusterOperator's relatedObjects names for a kind (inspected whole there). */
  private gatheredNamespaces(key: string): string[] {
    return this.related().filter((r) => r.key === key && r.namespace).map((r) => r.namespace as string);
  }

  private relatedCache: { key: string; namespace?: string | undefined }[] | undefined;
  /** `resource.group` of every relatedObjects entry without a name (must-gather inspects the whole resource). */
  private related(): { key: string; namespace?: string | undefined }[] {
    if (this.relatedCache) return this.relatedCache;
    const out: { key: string; namespace?: string | undefined }[] = [];
    if (this.layout === 'must-gather' || this.layout === 'inspect') {
      for (const h of this.read('config.openshift.io/clusteroperators')) {
        for (const r of arrayAt(recordAt(h.object, 'status'), 'relatedObjects')) {
          if (!isRecord(r) || stringAt(r, 'name')) continue;
          const named = stringAt(r, 'resource') ?? '';
          // relatedObjects name a resource by plural or by kind (`EgressIP`, `NetworkPolicy`).
          const resource = named === named.toLowerCase() ? named : pluralOf(named);
          if (resource) out.push({ key: resourceKey(stringAt(r, 'group') ?? '', resource), namespace: stringAt(r, 'namespace') });
        }
      }
    }
    return (this.relatedCache = out);
  }

  /**
   * Resources gathered whole-cluster (their count is known, also when zero): a whole-cluster
   * List or folder, a ClusterOperator's relatedObjects naming it without a namespace, or — for
   * a namespaced kind — its List in every namespace of a Namespace list held in full.
   */
  private complete(key: string): boolean {
    if (this.whole.has(key) || this.related().some((r) => r.key === key && !r.namespace)) return true;
    const all = this.whole.has('namespaces') ? this.counted.get('namespaces') : undefined;
    const lists = this.namespaces.get(key);
    return all !== undefined && lists !== undefined && [...all].every((id) => lists.has(id.slice(id.indexOf('/') + 1)));
  }

  private crds(): Set<string> | undefined {
    if (!this.complete('customresourcedefinitions.apiextensions.k8s.io')) return undefined;
    return new Set(this.read('apiextensions.k8s.io/customresourcedefinitions').map((h) => name(h)));
  }

  private csvs(metric: string): Series {
    const held = this.read('operators.coreos.com/clusterserviceversions');
    const key = 'clusterserviceversions.operators.coreos.com';
    const complete = this.complete(key);
    const reason = `the archive holds ClusterServiceVersions of ${new Set(held.map(ns)).size} namespace(s), not of every namespace`;
    if (metric === 'csv_count') {
      const sources = held.slice(0, 5).map((h) => h.file);
      const olm = this.crds()?.has(key);
      if (olm === false) return { samples: [] };
      return { samples: [{ labels: {}, value: complete ? held.length : undefined, unknown: complete ? undefined : reason, sources }] };
    }
    const samples = held.map((h) => ({
      labels: dropEmpty({ name: name(h), namespace: ns(h), version: stringAt(recordAt(h.object, 'spec'), 'version') }),
      value: stringAt(recordAt(h.object, 'status'), 'phase') === 'Succeeded' ? 1 : 0,
      sources: [h.file],
    }));
    return complete ? { samples } : { samples, gap: always(reason) };
  }

  private storageObjects(): Series {
    const crds = this.crds();
    const samples: Sample[] = [];
    const seen = new Set<string>();
    for (const [key, ids] of this.counted) {
      if (key === '' || key.startsWith('.')) continue;
      seen.add(key);
      const complete = this.complete(key) && !this.uncounted.has(key);
      samples.push({ labels: { resource: key }, value: complete ? ids.size : undefined, unknown: complete ? undefined : `the archive holds ${key} in part (or in Lists mgsift does not count), so their number is unknown`, sources: [] });
    }
    for (const key of this.related().filter((r) => !r.namespace).map((r) => r.key)) {
      if (seen.has(key)) continue;
      seen.add(key);
      const counted = !this.uncounted.has(key);
      samples.push({ labels: { resource: key }, value: counted ? 0 : undefined, unknown: counted ? undefined : `${key} is held in Lists mgsift does not count`, sources: ['ClusterOperator relatedObjects (gathered whole, none found)'] });
    }
    for (const key of crds ?? []) {
      if (seen.has(key)) continue;
      seen.add(key);
      const counted = this.complete(key) && !this.uncounted.has(key);
      samples.push({ labels: { resource: key }, value: counted ? 0 : undefined, unknown: counted ? undefined : `${key} exists (CRD) but the archive does not hold its objects`, sources: [] });
    }
    return {
      samples,
      gap: (matchers) => {
        const names = namedResources(matchers);
        if (!names) return 'apiserver_storage_objects: the archive cannot show every resource';
        // Known: seen, or a custom resource whose CRD is absent (no series at all).
        const unknown = names.filter((n) => !seen.has(n) && !(crds && n.includes('.') && !crds.has(n)));
        if (unknown.length === 0) return undefined;
        return `apiserver_storage_objects: the archive cannot tell the number of ${unknown.join(', ')} objects (not gathered${crds ? '' : ', and no CRD list'})`;
      },
    };
  }

  private network(): Held | undefined {
    return this.read('operator.openshift.io/networks').find((h) => h.object.metadata?.name === 'cluster');
  }

  private ipsec(metric: string): Series {
    const h = this.network();
    if (!h) return { samples: [], gap: always('the archive holds no Network.operator.openshift.io cluster') };
    const defaultNetwork = recordAt(recordAt(h.object, 'spec'), 'defaultNetwork');
    if (stringAt(defaultNetwork, 'type') !== 'OVNKubernetes') return { samples: [] };
    const version = this.currentVersion();
    if (version === undefined) return { samples: [], gap: always('the cluster version is unknown, so which ovnkube IPsec metric exists is too') };
    const interconnect = compareVersions(version, '4.14.0-0') >= 0;
    if ((metric === 'ovnkube_controller_ipsec_enabled') !== interconnect) return { samples: [] };
    const ipsec = recordAt(recordAt(defaultNetwork, 'ovnKubernetesConfig'), 'ipsecConfig');
    const mode = stringAt(ipsec, 'mode');
    const enabled = ipsec !== undefined && mode !== 'Disabled';
    return { samples: [{ labels: {}, value: enabled ? 1 : 0, sources: [h.file] }] };
  }

  private egressIPs(): Series {
    const h = this.network();
    if (!h) return { samples: [], gap: always('the archive holds no Network.operator.openshift.io cluster') };
    if (stringAt(recordAt(recordAt(h.object, 'spec'), 'defaultNetwork'), 'type') !== 'OVNKubernetes') return { samples: [] };
    const key = 'egressips.k8s.ovn.org';
    if (!this.complete(key)) return { samples: [], gap: always('the archive does not hold every EgressIP') };
    return { samples: [{ labels: {}, value: this.counted.get(key)?.size ?? 0, sources: [h.file] }] };
  }

  private ceph(): Series {
    const held = this.read('ceph.rook.io/cephclusters');
    if (held.length > 0) return { samples: held.map((h) => ({ labels: { namespace: ns(h), name: name(h) }, value: 0, sources: [h.file] })) };
    const crds = this.crds();
    if (crds && !crds.has('cephclusters.ceph.rook.io')) return { samples: [] };
    return { samples: [], gap: always(crds ? 'CephClusters exist as a CRD but the archive holds none of them' : 'the archive holds no CRD list, so whether Ceph runs is unknown') };
  }

  /** Multus counts NetworkAttachmentDefinitions; one series (`networks="any"`) with their number when all were gathered. */
  private attachmentDefinitions(): Series {
    const key = 'network-attachment-definitions.k8s.cni.cncf.io';
    const crds = this.crds();
    if (crds && !crds.has(key)) return { samples: [] };
    const complete = this.complete(key);
    const count = this.counted.get(key)?.size ?? 0;
    return {
      samples: [{ labels: { networks: 'any' }, value: complete ? count : undefined, unknown: complete ? undefined : 'the archive does not hold every NetworkAttachmentDefinition', sources: [] }],
    };
  }

  /** A runtime metric: no series when its owner's CRD is known absent, else unknown. */
  private runtimeOnly(metric: string, crd: string, owner: string): Series {
    const crds = this.crds();
    if (crds && !crds.has(crd)) return { samples: [] };
    return { samples: [], gap: always(`${metric} is a runtime metric of ${owner}, not in an archive`) };
  }

  private currentVersion(): string | undefined {
    const h = this.clusterVersion();
    return h ? newestCompleted(historyEntries(h.object))?.version : undefined;
  }
}

/**
 * The resources a selector can match, when its `resource` matcher names them: `=`, or `=~` of
 * literal alternatives (`a[.]b|c\\.d`). Undefined when it could match resources not named.
 */
function namedResources(matchers: readonly { label: string; op: string; value: string }[]): string[] | undefined {
  const m = matchers.find((x) => x.label === 'resource' && (x.op === '=' || x.op === '=~'));
  if (!m) return undefined;
  if (m.op === '=') return [m.value];
  const names = m.value.split('|').map((alt) => alt.replace(/\[\.\]|\\\./g, '.'));
  return names.every((n) => /^[a-z0-9.-]+$/.test(n)) ? names : undefined;
}

/** The fields of `value` that `shape` names, copied (see {@link KINDS}). */
function project(value: unknown, shape: Shape): unknown {
  if (shape === true) return detachData(value);
  if (Array.isArray(shape)) return Array.isArray(value) ? value.map((item) => project(item, shape[0] as Shape)) : undefined;
  if (!isRecord(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(shape as Record<string, Shape>)) {
    if (value[key] !== undefined) out[key] = project(value[key], inner);
  }
  return out;
}

function setOf<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

function name(h: Held): string {
  return h.object.metadata?.name ?? '';
}

function ns(h: Held): string {
  return h.object.metadata?.namespace ?? '';
}

function dropEmpty(labels: Record<string, string | undefined>): Labels {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels)) if (v) out[k] = v;
  return out;
}

