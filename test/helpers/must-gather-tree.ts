/**
 * Writes a must-gather tree, in the layout of the real archives (`must-gather.local.<n>/<image
 * folder>/cluster-scoped-resources/…`, `namespaces/<ns>/…`, `etcd_info/`, `monitoring/`,
 * `timestamp`), from plain objects: a ClusterVersion, ClusterOperators, MachineConfigPools,
 * Nodes, MachineConfigs, pods and the time it was collected. Tests of the cluster summary and of
 * the update status build their archives with it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';

/** The image folder of the real aws archive (only its name: the content is written here). */
export const IMAGE_DIR = 'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cbd33388f7e18954e5ce8ad9616e91df05ace604966c0a44111d85c897';

type Obj = Record<string, unknown>;

export interface MustGatherContent {
  clusterVersion?: Obj | undefined;
  clusterOperators?: Obj[] | undefined;
  machineConfigPools?: Obj[] | undefined;
  nodes?: Obj[] | undefined;
  machineConfigs?: Obj[] | undefined;
  /** Written as `namespaces/<ns>/core/pods.yaml`, one List per namespace. */
  pods?: Obj[] | undefined;
  /** Deployments of openshift-machine-config-operator (the operator's own image). */
  mcoDeployments?: Obj[] | undefined;
  /** The Prometheus alerts API answer, written as `monitoring/alerts.json`. */
  alerts?: unknown;
  /** `etcd_info/<name>` files, as their text. */
  etcd?: Record<string, string> | undefined;
  /** When it was collected (ISO 8601, nanoseconds allowed); no `timestamp` file when absent. */
  collectedAt?: string | undefined;
}

/** Go's `time.Time.String()` of an ISO time, as must-gather writes its `timestamp` lines. */
export function goTime(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z$/.exec(iso);
  if (!m) throw new Error(`not a UTC ISO time: ${iso}`);
  return `${m[1]} ${m[2]}${m[3] ?? ''} +0000 UTC m=+0.412345678`;
}

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

function dump(object: unknown): string {
  return `---\n${yaml.dump(object, { lineWidth: -1, noRefs: true })}`;
}

function nameOf(object: Obj): string {
  const name = (object['metadata'] as Obj | undefined)?.['name'];
  if (typeof name !== 'string') throw new Error('an object without metadata.name');
  return name;
}

/** Writes the tree under `dir` and returns the folder to analyse (`dir` itself). */
export function writeMustGather(dir: string, content: MustGatherContent, gatherId = '4711'): string {
  const image = join(dir, `must-gather.local.${gatherId}`, IMAGE_DIR);
  const cluster = join(image, 'cluster-scoped-resources');
  mkdirSync(image, { recursive: true });
  if (content.collectedAt !== undefined) {
    const end = content.collectedAt;
    const start = new Date(Date.parse(end) - 95_000).toISOString();
    write(join(image, 'timestamp'), `${goTime(start)}\n${goTime(end)}\n`);
    write(join(dir, `must-gather.local.${gatherId}`, 'timestamp'), `${goTime(start)}\n${goTime(end)}\n`);
  }
  if (content.clusterVersion) write(join(cluster, 'config.openshift.io', 'clusterversions', 'version.yaml'), dump(content.clusterVersion));
  // As the real archives hold them too: one List (`clusteroperators.yaml`), the pools, configs and nodes one file each.
  if (content.clusterOperators) write(join(cluster, 'config.openshift.io', 'clusteroperators.yaml'), dump({ apiVersion: 'config.openshift.io/v1', kind: 'ClusterOperatorList', items: content.clusterOperators }));
  for (const pool of content.machineConfigPools ?? []) write(join(cluster, 'machineconfiguration.openshift.io', 'machineconfigpools', `${nameOf(pool)}.yaml`), dump(pool));
  for (const mc of content.machineConfigs ?? []) write(join(cluster, 'machineconfiguration.openshift.io', 'machineconfigs', `${nameOf(mc)}.yaml`), dump(mc));
  for (const node of content.nodes ?? []) write(join(cluster, 'core', 'nodes', `${nameOf(node)}.yaml`), dump(node));
  const byNamespace = new Map<string, Obj[]>();
  for (const pod of content.pods ?? []) {
    const ns = (pod['metadata'] as Obj)['namespace'] as string;
    byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), pod]);
  }
  for (const [ns, pods] of byNamespace) write(join(image, 'namespaces', ns, 'core', 'pods.yaml'), dump({ apiVersion: 'v1', kind: 'PodList', items: pods }));
  if (content.mcoDeployments) {
    write(join(image, 'namespaces', 'openshift-machine-config-operator', 'apps', 'deployments.yaml'), dump({ apiVersion: 'apps/v1', kind: 'DeploymentList', items: content.mcoDeployments }));
  }
  if (content.alerts !== undefined) write(join(image, 'monitoring', 'alerts.json'), JSON.stringify(content.alerts));
  for (const [name, text] of Object.entries(content.etcd ?? {})) write(join(image, 'etcd_info', name), text);
  return dir;
}

/** The items of a List (or the object itself in a list of one), as `oc get -o yaml` writes them. */
export function itemsOf(document: unknown): Obj[] {
  if (document && typeof document === 'object' && Array.isArray((document as Obj)['items'])) return (document as { items: Obj[] }).items;
  return document && typeof document === 'object' ? [document as Obj] : [];
}
