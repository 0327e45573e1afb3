/**
 * Kubernetes objects as the parsers hand them out, and the few accessors every later stage
 * needs. Parsed input is untrusted: `toK8sObject` checks the fields typed here, so code that
 * reads `metadata.name` as a string can rely on it.
 */
import type { Problems } from '../core/problems.js';

export interface K8sMetadata {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

/** One object (never a List: Lists are expanded into their items). */
export interface K8sObject {
  apiVersion?: string;
  kind?: string;
  metadata?: K8sMetadata;
  [key: string]: unknown;
}

/** An object and where it sat in its file. */
export interface ParsedObject {
  object: K8sObject;
  /** 0-based index of the document in the file (YAML `---` documents, concatenated JSON values). */
  doc: number;
  /** 0-based index in the List's `items` (or a top-level array); undefined for a lone object. */
  item: number | undefined;
}

export type PlainObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const META_STRING_FIELDS = [
  'name',
  'generateName',
  'namespace',
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'deletionTimestamp',
] as const;

/**
 * Checks (and lightly repairs, in place) a parsed value as a Kubernetes object.
 * Returns the object, or the reason it is not one. Repairs: `null` typed fields are removed
 * (`creationTimestamp: null` is common), numbers and booleans in string fields become strings.
 */
export function toK8sObject(value: unknown): K8sObject | string {
  if (!isPlainObject(value)) return `not an object (${describeType(value)})`;
  for (const field of ['apiVersion', 'kind'] as const) {
    const v = value[field];
    if (v === undefined || typeof v === 'string') continue;
    if (v === null) delete value[field];
    else return `${field} is ${describeType(v)}, not a string`;
  }
  const meta = value['metadata'];
  if (meta !== undefined) {
    if (meta === null) {
      delete value['metadata'];
    } else if (!isPlainObject(meta)) {
      return `metadata is ${describeType(meta)}, not an object`;
    } else {
      for (const field of META_STRING_FIELDS) {
        const v = meta[field];
        if (v === undefined || typeof v === 'string') continue;
        const fixed = scalarToString(v);
        if (fixed === null) delete meta[field];
        else if (fixed === undefined) return `metadata.${field} is ${describeType(v)}, not a string`;
        else meta[field] = fixed;
      }
      for (const field of ['labels', 'annotations'] as const) {
        const map = meta[field];
        if (map === undefined) continue;
        if (map === null) {
          delete meta[field];
          continue;
        }
        if (!isPlainObject(map)) return `metadata.${field} is ${describeType(map)}, not a map`;
        for (const key in map) {
          const v = map[key];
          if (typeof v === 'string') continue;
          const fixed = scalarToString(v);
          if (fixed === undefined) return `metadata.${field}[${JSON.stringify(key)}] is ${describeType(v)}, not a string`;
          map[key] = fixed ?? '';
        }
      }
    }
  }
  return value as K8sObject;
}

/** String for a number or boolean, null for null, undefined for anything else. */
function scalarToString(v: unknown): string | null | undefined {
  if (v === null) return null;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return undefined;
}

export function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a map';
  return `a ${typeof v}`;
}

export function isListKind(kind: string | undefined): boolean {
  return kind === undefined || kind.endsWith('List');
}

/**
 * Turns one parsed document into the objects it holds: a List (an object with an `items`
 * array and a kind that is absent or ends in `List`) or a top-level array gives its items,
 * any other object gives itself, an empty document or a `*List` without items nothing. What is skipped is reported once
 * per document, as a warning.
 */
export function* expandDocument(
  value: unknown,
  doc: number,
  path: string,
  problems: Problems,
  label: string,
): Generator<ParsedObject> {
  if (value === null || value === undefined) return;
  let items: unknown[] | undefined;
  if (Array.isArray(value)) {
    items = value;
  } else if (isPlainObject(value)) {
    const kind = value['kind'];
    const listy = kind === undefined || kind === null || (typeof kind === 'string' && isListKind(kind));
    if (listy && Array.isArray(value['items'])) items = value['items'];
    // `kind: PodList` with `items: null` (or none): an empty List, not an object.
    else if (typeof kind === 'string' && kind.endsWith('List') && value['items'] == null) return;
  }
  if (items === undefined) {
    const object = toK8sObject(value);
    if (typeof object === 'string') problems.warn(path, `${label} ${doc + 1} skipped: ${object}`);
    else yield { object, doc, item: undefined };
    return;
  }
  const skipped = new SkipCounter();
  for (let i = 0; i < items.length; i++) {
    const object = toK8sObject(items[i]);
    if (typeof object === 'string') skipped.add(i, object);
    else yield { object, doc, item: i };
  }
  skipped.report(problems, path, `${label} ${doc + 1}`);
}

/** Counts skipped List items so one broken List gives one warning, not thousands. */
export class SkipCounter {
  count = 0;
  private first = '';

  add(item: number, reason: string): void {
    if (this.count++ === 0) this.first = `item ${item}: ${reason}`;
  }

  report(problems: Problems, path: string, where: string): void {
    if (this.count === 0) return;
    const what = this.count === 1 ? '1 item' : `${this.count} items`;
    problems.warn(path, `${where}: ${what} skipped (first: ${this.first})`);
    this.count = 0;
  }
}

// ---- accessors ----

export function kindOf(o: K8sObject): string | undefined {
  return o.kind;
}

export function nameOf(o: K8sObject): string | undefined {
  return o.metadata?.name;
}

export function namespaceOf(o: K8sObject): string | undefined {
  return o.metadata?.namespace;
}

export function uidOf(o: K8sObject): string | undefined {
  return o.metadata?.uid;
}

/**
 * One key per object however often the archive writes it (a must-gather has both
 * `clusteroperators.yaml` and `clusteroperators/<name>.yaml`): the uid, else its coordinates.
 */
export function identityKey(o: K8sObject): string {
  const meta = o.metadata ?? {};
  return meta.uid ?? `${o.apiVersion ?? ''}/${o.kind ?? ''}/${meta.namespace ?? ''}/${meta.name ?? ''}`;
}

/** API group from apiVersion: `''` for the core group, undefined when there is no apiVersion. */
export function groupOf(o: K8sObject): string | undefined {
  const av = o.apiVersion;
  if (av === undefined) return undefined;
  const slash = av.lastIndexOf('/');
  return slash < 0 ? '' : av.slice(0, slash);
}

export function versionOf(o: K8sObject): string | undefined {
  const av = o.apiVersion;
  if (av === undefined) return undefined;
  return av.slice(av.lastIndexOf('/') + 1);
}

/** `Kind.group` as kubectl spells it (`Deployment.apps`, `Pod` for the core group). */
export function groupKindOf(o: K8sObject): string | undefined {
  const kind = o.kind;
  if (kind === undefined) return undefined;
  const group = groupOf(o);
  return group ? `${kind}.${group}` : kind;
}

/** A short human reference, `Kind[.group] [namespace/]name`: `Pod openshift-etcd/etcd-0`. */
export function refOf(o: K8sObject): string {
  const gk = groupKindOf(o) ?? '?';
  const name = nameOf(o) ?? '?';
  const ns = namespaceOf(o);
  return ns ? `${gk} ${ns}/${name}` : `${gk} ${name}`;
}

/** Kubernetes' regular plural of a kind (`InstallPlan` → `installplans`, `Policy` → `policies`). */
export function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();
  // Kinds named in the plural already: SecurityContextConstraints, Endpoints.
  if (/(constraints|endpoints)$/.test(lower)) return lower;
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}
