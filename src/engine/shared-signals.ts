/**
 * Shared signals: signal shapes several rules would otherwise copy, kept by name in a pack's
 * `_shared/*.yaml` files (`sharedSignals: {<name>: <signal>}`). A rule's signal takes one with
 * `use: <name>` and may override its fields; the loader resolves that before it checks the rule,
 * so the engine only ever sees whole signals.
 */
import { readFile } from 'node:fs/promises';
import { isPlainObject, type PlainObject } from '../parsers/k8s.js';
import { packageFiles, packagePath, packageText } from '../core/assets.js';
import { schemaProblems } from './rule-schema.js';
import { lineOfPath, parseRuleYaml, type PathProblem, type RuleIssue } from './rule-source.js';

/** The folder of shared-signal files in a pack (the built-in one or a `--rules` folder). */
export const SHARED_DIR = '_shared';

const SIGNAL_TYPES = ['log', 'resource', 'event', 'fact'] as const;

export interface SharedSignal {
  /** The signal as written: `description` and one of log, resource, event, fact. */
  spec: PlainObject;
  file: string;
}

export interface SharedSignals {
  signals: ReadonlyMap<string, SharedSignal>;
  issues: RuleIssue[];
}

/** Whether a pack-relative path (`_shared/signals.yaml`, `rules/_shared/x.yml`) is a shared-signals file. */
export function isSharedSignalsPath(path: string): boolean {
  return path.split(/[\\/]/).slice(-2, -1)[0] === SHARED_DIR && /\.ya?ml$/.test(path);
}

/**
 * Reads shared-signal files over `base` (the built-in pack's, for a user folder): a name
 * defined twice is an issue, and the first definition stays.
 */
export function readSharedSignals(files: readonly { file: string; text: string }[], base?: SharedSignals): SharedSignals {
  const signals = new Map(base?.signals);
  const issues: RuleIssue[] = [];
  for (const { file, text } of files) {
    const parsed = parseRuleYaml(file, text);
    if ('issue' in parsed) {
      issues.push(parsed.issue);
      continue;
    }
    const problems = schemaProblems('sharedSignalsFile', parsed.document);
    issues.push(...problems.map(({ path, reason }) => ({ file, line: lineOfPath(text, path), reason })));
    if (problems.length > 0) continue;
    for (const [name, spec] of Object.entries((parsed.document as { sharedSignals: Record<string, PlainObject> }).sharedSignals)) {
      const twin = signals.get(name);
      if (twin) issues.push({ file, line: lineOfPath(text, ['sharedSignals', name]), reason: `shared signal '${name}' is also defined in ${twin.file}` });
      else signals.set(name, { spec, file });
    }
  }
  return { signals, issues };
}

let pack: SharedSignals | undefined;

/** The built-in pack's shared-signal files (`rules/_shared/`) and their text. */
export function packSharedFiles(): { file: string; text: string }[] {
  return packageFiles(`rules/${SHARED_DIR}`)
    .filter(isSharedSignalsPath)
    .sort()
    .map((path) => ({ file: packagePath(path), text: packageText(path) }));
}

/** The built-in pack's shared signals, read once. */
export function packSharedSignals(): SharedSignals {
  pack ??= readSharedSignals(packSharedFiles());
  return pack;
}

/** A user rule folder's shared-signal files (its `_shared/`) and their text. */
export async function folderSharedFiles(dir: string): Promise<{ file: string; text: string }[]> {
  const { default: fg } = await import('fast-glob');
  const files = (await fg([`${SHARED_DIR}/*.yaml`, `${SHARED_DIR}/*.yml`], { cwd: dir, absolute: true })).sort();
  return Promise.all(files.map(async (file) => ({ file, text: await readFile(file, 'utf8') })));
}

/** A user rule folder's shared signals, over the built-in pack's, and the files they are read from. */
export async function folderSharedSignals(dir: string): Promise<SharedSignals & { files: { file: string; text: string }[] }> {
  const files = await folderSharedFiles(dir);
  return { ...readSharedSignals(files, packSharedSignals()), files };
}

/**
 * A rule document with each `use` signal replaced by the shared signal it names, its own fields
 * laid over the shared ones. `uses`: which shared signal each such signal took, for messages.
 * Anything not shaped like a rule is returned as it is, for the schema to say what is wrong.
 */
export function resolveSharedSignals(document: unknown, shared: ReadonlyMap<string, SharedSignal>): { document: unknown; problems: PathProblem[]; uses: Map<string, string> } {
  const problems: PathProblem[] = [];
  const uses = new Map<string, string>();
  if (!isPlainObject(document) || !isPlainObject(document['signals'])) return { document, problems, uses };
  const signals: PlainObject = {};
  for (const [name, spec] of Object.entries(document['signals'])) {
    if (!isPlainObject(spec) || spec['use'] === undefined) {
      signals[name] = spec;
      continue;
    }
    const { use, ...own } = spec;
    const path = ['signals', name, 'use'];
    const found = typeof use === 'string' ? shared.get(use) : undefined;
    if (typeof use !== 'string' || !found) {
      const known = [...shared.keys()].sort().join(', ') || 'none';
      problems.push({ path, reason: `signal '${name}' uses unknown shared signal '${String(use)}' (known: ${known})` });
      continue;
    }
    const type = SIGNAL_TYPES.find((t) => t in found.spec);
    const foreign = SIGNAL_TYPES.filter((t) => t !== type && t in own);
    if (foreign.length > 0) {
      problems.push({ path, reason: `signal '${name}' overrides ${foreign.join(', ')}, but shared signal '${use}' is a ${type ?? 'typeless'} signal` });
      continue;
    }
    signals[name] = overlay(found.spec, own);
    uses.set(name, use);
  }
  return { document: { ...document, signals }, problems, uses };
}

/** `over` laid on `base`: mappings merge key by key; any other value (text, number, list) replaces. */
function overlay(base: PlainObject, over: PlainObject): PlainObject {
  const merged: PlainObject = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const under = merged[key];
    merged[key] = isPlainObject(under) && isPlainObject(value) ? overlay(under, value) : value;
  }
  return merged;
}
