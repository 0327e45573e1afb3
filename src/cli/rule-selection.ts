import { stat } from 'node:fs/promises';
import { loadRules, type LoadedRules } from '../engine/load.js';
import type { Rule } from '../engine/rule.js';
import { UsageError } from './options.js';

/** Loads the pack and user folders; a broken rule stops `analyze` with its file and line. */
export async function loadRulesOrFail(userDirs: readonly string[]): Promise<LoadedRules> {
  await requireFolders(userDirs);
  // The pack's own CEL and templates are parsed when first used (`rules lint` parses them all).
  const loaded = await loadRules(userDirs, { deferCompile: true });
  if (loaded.issues.length > 0) {
    const first = loaded.issues[0]!;
    throw new UsageError(`${first.file}:${first.line}: ${first.reason}${loaded.issues.length > 1 ? ` (and ${loaded.issues.length - 1} more; run mgsift rules lint)` : ''}`);
  }
  return loaded;
}

/** A mistyped `--rules` is an error (exit 2 with the path), never a run without the user's rules. */
export async function requireFolders(dirs: readonly string[], named = '--rules '): Promise<void> {
  for (const dir of dirs) {
    const info = await stat(dir).catch(() => undefined);
    if (info === undefined) throw new UsageError(`${named}${dir}: no such folder`);
    if (!info.isDirectory()) throw new UsageError(`${named}${dir}: not a folder`);
  }
}

/** `--only` / `--exclude` by rule id or tag. */
export function selectRules(rules: readonly Rule[], only: readonly string[] | undefined, exclude: readonly string[] | undefined): Rule[] {
  const matches = (rule: Rule, names: readonly string[]): boolean => names.some((n) => n === rule.id || rule.tags.includes(n));
  const known = (name: string): boolean => rules.some((rule) => rule.id === name || rule.tags.includes(name));
  for (const name of [...(only ?? []), ...(exclude ?? [])]) if (!known(name)) throw new UsageError(`no rule or tag named '${name}' (see mgsift rules list)`);
  return rules.filter((rule) => (!only || matches(rule, only)) && !(exclude && matches(rule, exclude)));
}
