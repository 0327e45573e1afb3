import type { ObjectRef } from './diagnosis.js';

/**
 * Whether a text names an object, however its message is phrased: the object's name as a whole
 * token (`pool worker is`, `MachineConfigPool "worker"`, `node ip-10-0-1-2.ec2.internal.`),
 * with its kind's own word (`pool`, `node`, `operator`: the last word of the kind) anywhere in
 * the same text. Operators word their messages differently across versions; the names they
 * carry are what links a symptom to its cause.
 *
 * Names that say nothing on their own are never matched: shorter than three characters, a word
 * of the kind itself (ClusterVersion `version`), or `cluster`, the name OpenShift gives every
 * cluster-wide singleton (Infrastructure, Network, Proxy, ...).
 */
export function textNames(text: string, ref: ObjectRef): boolean {
  const name = ref.name;
  if (name.length < 3 || name === 'cluster' || name === '*') return false;
  const kindWords = ref.kind.split(/(?=[A-Z])/).map((w) => w.toLowerCase());
  if (kindWords.includes(name.toLowerCase())) return false;
  const lower = text.toLowerCase();
  if (!lower.includes(kindWords[kindWords.length - 1]!)) return false;
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    if (isNameChar(text[at - 1]) || text[at - 1] === '.') continue;
    const after = text[at + name.length];
    // A dot ends a sentence unless a name goes on after it (`worker.example` is another name).
    if (isNameChar(after) || (after === '.' && isNameChar(text[at + name.length + 1]))) continue;
    return true;
  }
  return false;
}

function isNameChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_-]/.test(c);
}
