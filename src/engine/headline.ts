/**
 * A finding's headline: one line that says what happened in this archive (the objects, the
 * cause, since when), as a support engineer opens a case comment. A rule writes it (`headline`);
 * where it does not, or it renders empty, one is made from the finding's objects and time.
 */
import { isoTime } from '../core/duration.js';
import type { ObjectRef } from './diagnosis.js';

/** Longer headlines are cut at a word with an ellipsis: a headline is read at a glance. */
export const HEADLINE_MAX = 200;

/** What ends a headline cut at {@link HEADLINE_MAX}. */
export const HEADLINE_CUT = '…';

/** Names a generated headline shows per kind before `and N more`. */
const NAMES_SHOWN = 3;

/** A rendered headline on one line (whitespace collapsed), at most {@link HEADLINE_MAX} characters. */
export function oneLineHeadline(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= HEADLINE_MAX) return line;
  const room = line.slice(0, HEADLINE_MAX - HEADLINE_CUT.length);
  const word = room.lastIndexOf(' ');
  return `${(word > HEADLINE_MAX / 2 ? room.slice(0, word) : room).replace(/[\s,;:(—-]+$/, '')}${HEADLINE_CUT}`;
}

/**
 * The headline of a rule that writes none: its title, then what it is about by kind, with a count
 * and the first names (`2 Pods (a, b)`), and since when.
 */
export function generatedHeadline(title: string, about: readonly ObjectRef[], since: number | undefined): string {
  const byKind = new Map<string, ObjectRef[]>();
  for (const ref of about) byKind.set(ref.kind, [...(byKind.get(ref.kind) ?? []), ref]);
  const head = title.replace(/[.\s]+$/, '');
  const when = since !== undefined ? `, since ${secondTime(since)}` : '';
  // Fewer names until it fits: the count and kind say the rest, and since when is said last.
  let line = head;
  for (const shown of [NAMES_SHOWN, 1, 0]) {
    const objects = [...byKind].map(([kind, refs]) => objectsPhrase(kind, refs, shown));
    line = `${head}${objects.length > 0 ? `: ${objects.join('; ')}` : ''}${when}`;
    if (line.length <= HEADLINE_MAX) return line;
  }
  return oneLineHeadline(line);
}

/** `Pod openshift-etcd/etcd-0`, `3 Pods in openshift-etcd (a, b and 1 more)`, or `3 Pods` with no name shown. */
function objectsPhrase(kind: string, refs: readonly ObjectRef[], shown: number): string {
  // One namespace for all: said once.
  const namespaces = new Set(refs.map((r) => r.namespace ?? ''));
  const shared = namespaces.size === 1 ? [...namespaces][0]! : undefined;
  const names = [...new Set(refs.map((r) => (shared !== undefined || !r.namespace ? r.name : `${r.namespace}/${r.name}`)))];
  if (names.length === 1 && shown > 0) return `${kind} ${shared ? `${shared}/` : ''}${names[0]!}`;
  return countedNames(kind, names, shown, shared ? ` in ${shared}` : '');
}

/**
 * Names with their count and kind, as a headline gives them: `ClusterOperator dns`, `3
 * ClusterOperators (a, b and c)`, `5 Nodes (a, b, c and 2 more)`; `shown` 0: the count alone.
 */
export function countedNames(kind: string, names: readonly string[], shown: number, where = ''): string {
  if (names.length === 1 && shown > 0) return `${kind}${where} ${names[0]!}`;
  if (shown === 0) return names.length === 1 ? `a ${kind}${where}` : `${names.length} ${pluralKind(kind)}${where}`;
  return `${names.length} ${pluralKind(kind)}${where} (${listedNames(names, shown)})`;
}

/** The first `shown` names and how many more: `a, b and c`, `a, b, c and 4 more`. */
export function listedNames(names: readonly string[], shown: number): string {
  if (names.length > shown) return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}` : (names[0] ?? '');
}

/** To the second: a headline is a sentence, not a log line. */
function secondTime(ms: number): string {
  return isoTime(Math.floor(ms / 1000) * 1000);
}

/** A kind in the plural as API lists name it (`Pods`, `Ingresses`, `NetworkPolicies`). */
export function pluralKind(kind: string): string {
  if (/[^aeiou]y$/.test(kind)) return `${kind.slice(0, -1)}ies`;
  if (/(s|x|ch|sh)$/.test(kind)) return `${kind}es`;
  return `${kind}s`;
}

/** A history finding's headline: it says first that the failure is over (the finding says when). */
export function historyHeadline(headline: string): string {
  return oneLineHeadline(`Resolved before the collection: ${headline}`);
}
