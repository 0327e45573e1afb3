/**
 * Field paths for `match` on resource signals: `status.conditions[type=Degraded].message`.
 * Segments are separated by dots; a key holding dots or slashes is quoted in brackets
 * (`metadata.annotations["machineconfiguration.openshift.io/reason"]`); `name[key=value]`
 * keeps the elements of the list `name` whose `key` equals `value` (as text); a list without a
 * selector fans out over every element. The result is every string (or number) at the path.
 */
export type FieldPath = { name: string; filter?: { key: string; value: string } | undefined }[];

const TOKEN = /\.?(?:([A-Za-z0-9_$-]+)|\["([^"\]]+)"\])(?:\[([A-Za-z0-9_$-]+)=([^\]"]*)\])?/y;

export function parseFieldPath(source: string): FieldPath {
  const path: FieldPath = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(source);
    if (!match || (start === 0 && source.startsWith('.'))) throw new Error(`field path '${source}': cannot read it from '${source.slice(start)}'`);
    path.push({ name: match[1] ?? match[2]!, filter: match[3] === undefined ? undefined : { key: match[3], value: match[4]! } });
  }
  if (path.length === 0) throw new Error('field path is empty');
  return path;
}

export function fieldValues(value: unknown, path: FieldPath): string[] {
  let current: unknown[] = [value];
  for (const segment of path) {
    const next: unknown[] = [];
    for (const item of current) {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
      const child = (item as Record<string, unknown>)[segment.name];
      const elements = Array.isArray(child) ? child : [child];
      for (const element of elements) {
        if (element === undefined || element === null) continue;
        if (segment.filter && !matchesFilter(element, segment.filter)) continue;
        next.push(element);
      }
    }
    current = next;
  }
  return current.filter((v) => typeof v === 'string' || typeof v === 'number').map(String);
}

function matchesFilter(element: unknown, filter: { key: string; value: string }): boolean {
  if (element === null || typeof element !== 'object') return false;
  const value = (element as Record<string, unknown>)[filter.key];
  return value !== undefined && value !== null && String(value) === filter.value;
}
