/**
 * A rule folder built ahead of its runs (`mgsift rules build DIR`), as `npm run build` builds the
 * built-in pack: every rule file that loads without an issue, every check made, is stored as its
 * parsed document in DIR/.mgsift-built.json, by its text's length and SHA-1. `analyze --rules DIR`
 * then takes an unchanged file's document from there instead of parsing its YAML, does not check
 * it against the schema or its regexes again, and compiles its CEL and templates at first use: a
 * third of what loading a large folder costs (BENCHMARKS.md, "A rule folder built ahead"). A file
 * changed since is parsed and checked as before. The whole build is set aside when another
 * mgsift version, another schema or other shared signals made it: its checks might not hold.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageText, packageVersion } from '../core/assets.js';
import { RULE_SCHEMA } from './rule-schema.js';
import { BuiltDocuments } from './rule-source.js';
import { packSharedFiles } from './shared-signals.js';

/** The build's file, in the rule folder. */
export const BUILT_RULES_FILE = '.mgsift-built.json';
const FORMAT = 'mgsift-built-rules/1';

/** What the stored documents were checked with: they hold while all of it is the same. */
interface CheckedWith {
  mgsift: string;
  /** SHA-256 of the rule schema. */
  schema: string;
  /** SHA-1 of the shared signals' files, the pack's and the folder's (a rule's check depends on the signals it uses). */
  shared: string;
}

interface BuiltRulesFile extends CheckedWith {
  format: typeof FORMAT;
  /** Each document's JSON, by its text's `documentKey`. */
  documents: Record<string, string>;
}

function checkedWith(folderShared: readonly { file: string; text: string }[]): CheckedWith {
  const shared = createHash('sha1');
  for (const { text } of [...packSharedFiles(), ...folderShared]) shared.update(`${text.length}:`).update(text);
  return { mgsift: packageVersion(), schema: createHash('sha256').update(packageText(RULE_SCHEMA)).digest('hex'), shared: shared.digest('hex') };
}

/** The build's text: `documents` (by `documentKey`) checked with this mgsift, its schema and these shared signals. */
export function builtRulesText(documents: Record<string, string>, folderShared: readonly { file: string; text: string }[]): string {
  return `${JSON.stringify({ format: FORMAT, ...checkedWith(folderShared), documents } satisfies BuiltRulesFile)}\n`;
}

/**
 * A folder's built documents, when its build holds (none when it has none); `note`: why a build
 * there is set aside, for the user.
 */
export function readBuiltRules(dir: string, folderShared: readonly { file: string; text: string }[]): { documents?: BuiltDocuments; note?: string } {
  const path = join(dir, BUILT_RULES_FILE);
  let built: Partial<BuiltRulesFile>;
  try {
    built = JSON.parse(readFileSync(path, 'utf8')) as Partial<BuiltRulesFile>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { note: `${path} is not a build of \`mgsift rules build\` (${(err as Error).message.split('\n', 1)[0]}): not used` };
  }
  const documents = built.documents;
  if (built.format !== FORMAT || typeof documents !== 'object' || documents === null || !Object.values(documents).every((json) => typeof json === 'string')) {
    return { note: `${path} is not a build of \`mgsift rules build\`: not used` };
  }
  const now = checkedWith(folderShared);
  const changed = (['mgsift', 'schema', 'shared'] as const).filter((key) => built[key] !== now[key]);
  if (changed.length > 0) {
    const what = { mgsift: `mgsift ${String(built.mgsift)} made it (this is ${now.mgsift})`, schema: 'the rule schema changed since', shared: 'the shared signals changed since' };
    return { note: `${path} is set aside: ${changed.map((key) => what[key]).join('; ')}; \`mgsift rules build ${dir}\` makes it again` };
  }
  return { documents: new BuiltDocuments(new Map(Object.entries(documents))) };
}
