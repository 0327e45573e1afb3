import type { EntryConsumer, Need } from '../ingest/consumer.js';
import type { ClassifiedEntry } from '../layout/types.js';
import { identityKey, type K8sObject } from '../parsers/k8s.js';

/** What an archive holds: namespaces and objects by kind (each object once, however often it is written). */
export interface Inventory {
  namespaces: number;
  objectsByKind: Record<string, number>;
}

/** Parses every object file; used by `inspect`, not by `analyze` (which parses only what rules ask for). */
export class InventoryCollector implements EntryConsumer {
  private readonly namespaces = new Set<string>();
  private readonly seen = new Set<string>();
  private readonly byKind = new Map<string, number>();

  need(entry: ClassifiedEntry): Need | undefined {
    if (entry.namespace) this.namespaces.add(entry.namespace);
    return entry.kind === 'list' || entry.kind === 'namespaced-object' || entry.kind === 'cluster-object' ? { objects: true } : undefined;
  }

  object(object: K8sObject): void {
    const kind = object.kind ?? '(no kind)';
    const meta = object.metadata ?? {};
    const key = identityKey(object);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.byKind.set(kind, (this.byKind.get(kind) ?? 0) + 1);
    if (kind === 'Namespace' && meta.name) this.namespaces.add(meta.name);
  }

  inventory(): Inventory {
    const objectsByKind: Record<string, number> = {};
    for (const kind of [...this.byKind.keys()].sort()) objectsByKind[kind] = this.byKind.get(kind)!;
    return { namespaces: this.namespaces.size, objectsByKind };
  }
}
