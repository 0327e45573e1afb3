/**
 * A rule folder built ahead of its runs (`mgsift rules build DIR`), as `npm run build` builds the
 * built-in pack: every rule file that loads without an issue, every check made, is stored as its
 * parsed document in DIR/.mgsift-built.jsonl, by its text's length and SHA-1, and the file stamped
 * (`FileStamp`). `analyze --rules DIR` then takes an unchanged file's document from there instead
 * of parsing its YAML (a file whose stamp holds, without reading it), and compiles
 * its CEL and templates at first use (BENCHMARKS.md, "Rule folders built ahead"). It still checks
 * the document against the schema and its regexes for safety: the folder is less trusted than the
 * installed pack (SECURITY.md), and its build no more than its YAML. A file changed since is
 * parsed as before. The whole build is set aside when another mgsift version, another schema or
 * other shared signals made it: what it checked might not hold.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { packageText, packageVersion } from '../core/assets.js';
import { RULE_SCHEMA } from './rule-schema.js';
import { builtDocuments, type BuiltDocuments, type FileStamp } from './rule-source.js';
import { documentsFileText, readDocumentsFile, type DocumentsFile } from './documents-file.js';
import { packSharedFiles } from './shared-signals.js';

/** The build's file, in the rule folder (documents-file.ts says how it is laid out). */
export const BUILT_RULES_FILE = '.mgsift-built.jsonl';
const FORMAT = 'mgsift-built-rules/1';

/** What the stored documents were checked with: they hold while all of it is the same. */
interface CheckedWith {
  mgsift: string;
  /** SHA-256 of the rule schema. */
  schema: string;
  /** SHA-1 of the shared signals' files, the pack's and the folder's (a rule's check depends on the signals it uses). */
  shared: string;
}

function checkedWith(folderShared: readonly { file: string; text: string }[]): CheckedWith {
  const shared = createHash('sha1');
  for (const { text } of [...packSharedFiles(), ...folderShared]) shared.update(`${text.length}:`).update(text);
  return { mgsift: packageVersion(), schema: createHash('sha256').update(packageText(RULE_SCHEMA)).digest('hex'), shared: shared.digest('hex') };
}

/**
 * The build's text: `documents` (JSON by `documentKey`) checked with this mgsift, its schema and
 * these shared signals, and the `stamps` of the files they were stored for (by `folderFileName`).
 */
export function builtRulesText(documents: ReadonlyMap<string, string>, folderShared: readonly { file: string; text: string }[], stamps: Readonly<Record<string, FileStamp>>): string {
  return documentsFileText({ format: FORMAT, ...checkedWith(folderShared), files: stamps }, documents);
}

/** How a build names a rule file of its folder: its path under the folder, with `/`. */
export function folderFileName(dir: string, file: string): string {
  return relative(dir, file).split(sep).join('/');
}

/**
 * A folder's built documents, when its build holds (none when it has none); `note`: why a build
 * there is set aside, for the user.
 */
export function readBuiltRules(dir: string, folderShared: readonly { file: string; text: string }[]): { documents?: BuiltDocuments; note?: string } {
  const path = join(dir, BUILT_RULES_FILE);
  const notBuilt = (why?: string): { note: string } => ({ note: `${path} is not a build of \`mgsift rules build\`${why ? ` (${why})` : ''}: not used` });
  let file: DocumentsFile | undefined;
  try {
    file = readDocumentsFile(readFileSync(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return notBuilt((err as Error).message.split('\n', 1)[0]);
  }
  if (file === undefined || file.header['format'] !== FORMAT) return notBuilt();
  const now = checkedWith(folderShared);
  const changed = (['mgsift', 'schema', 'shared'] as const).filter((key) => file.header[key] !== now[key]);
  if (changed.length > 0) {
    const what = { mgsift: `mgsift ${String(file.header['mgsift'])} made it (this is ${now.mgsift})`, schema: 'the rule schema changed since', shared: 'the shared signals changed since' };
    return { note: `${path} is set aside: ${changed.map((key) => what[key]).join('; ')}; \`mgsift rules build ${dir}\` makes it again` };
  }
  return { documents: builtDocuments(file) };
}
