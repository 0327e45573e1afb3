import type { Need, ParallelConsumer } from '../ingest/consumer.js';
import type { ClassifiedEntry } from '../layout/types.js';
import type { K8sObject } from '../parsers/k8s.js';

/**
 * The cluster each gather root belongs to, by the `spec.clusterID` of its ClusterVersion. One
 * input whose roots name two cluster IDs (a case folder holding one cluster's must-gather.tar.gz
 * and another's unpacked must-gather.local.5/) is two clusters, never one report. Roots without
 * a ClusterVersion cannot be told apart and are taken to belong with the others.
 */
export class ClusterRoots implements ParallelConsumer<[string, string][]> {
  /** Cluster ID → the first root (or file) it was read from. */
  private readonly ids = new Map<string, string>();

  takeEntry(): [string, string][] {
    const taken = [...this.ids];
    this.ids.clear();
    return taken;
  }

  mergeEntry(taken: [string, string][]): void {
    for (const [id, root] of taken) if (!this.ids.has(id)) this.ids.set(id, root);
  }

  need(entry: ClassifiedEntry): Need | undefined {
    return entry.group === 'config.openshift.io' && entry.resource === 'clusterversions' ? { objects: true } : undefined;
  }

  object(object: K8sObject, entry: ClassifiedEntry): void {
    if (object.kind !== 'ClusterVersion') return;
    const id = (object as { spec?: { clusterID?: unknown } }).spec?.clusterID;
    if (typeof id === 'string' && id !== '' && !this.ids.has(id)) this.ids.set(id, entry.root ?? entry.path);
  }

  /** Each cluster ID seen, with where it was read; more than one means more than one cluster. */
  clusters(): { id: string; root: string }[] {
    return [...this.ids].map(([id, root]) => ({ id, root }));
  }
}

/**
 * The line refusing an input of several clusters, naming each and the paths to analyse
 * apart (for a folder, its top-level entries holding each root).
 */
export function severalClusters(input: string, clusters: readonly { id: string; root: string }[], isFolder: boolean): string {
  const named = clusters.map((c) => `${c.id} in ${c.root || '.'}`).join(', ');
  const tops = [...new Set(clusters.map((c) => c.root.split('/')[0] ?? ''))].filter(Boolean);
  const apart = isFolder && tops.length === clusters.length ? `; analyse each on its own: mgsift analyze ${tops.map((top) => `${input.replace(/\/+$/, '')}/${top}`).join(' ')}` : '; analyse each on its own';
  return `${input} holds ${clusters.length} clusters (${named})${apart}`;
}
