/**
 * A rule folder built ahead of its runs (`mgsift rules build DIR`), as `npm run build` builds the
 * built-in pack: every rule file that loads without an issue, every check made, is stored as its
 * parsed document in DIR/.mgsift-built.jsonl, by its text's length and SHA-1. `analyze --rules DIR`
 * then takes an unchanged file's document from there instead of parsing its YAML, and compiles
 * its CEL and templates at first use (BENCHMARKS.md, "Rule folders built ahead"). It still checks
 * the document against the schema and its regexes for safety: the folder is less trusted than the
 * installed pack (SECURITY.md), and its build no more than its YAML. A file changed since is
 * parsed as before. The whole build is set aside when another mgsift version, another schema or
 * other shared signals made it: what it checked might not hold.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageText, packageVersion } from '../core/assets.js';
import { RULE_SCHEMA } from './rule-schema.js';
import { BuiltDocuments } from './rule-source.js';
import { packSharedFiles } from './shared-signals.js';

/**
 * The build's file, in the rule folder: a line of JSON (what its documents were checked with, and
 * where each lies), then each document's JSON on a line of its own. A run reads a document's
 * bytes when it needs it: the whole as one JSON of JSON strings took 55 ms to parse for 1,845.
 */
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

interface BuiltRulesHeader extends CheckedWith {
  format: typeof FORMAT;
  /** Where each document's JSON lies, by its text's `documentKey`: bytes from the end of this line, and how many. */
  documents: Record<string, [number, number]>;
}

function checkedWith(folderShared: readonly { file: string; text: string }[]): CheckedWith {
  const shared = createHash('sha1');
  for (const { text } of [...packSharedFiles(), ...folderShared]) shared.update(`${text.length}:`).update(text);
  return { mgsift: packageVersion(), schema: createHash('sha256').update(packageText(RULE_SCHEMA)).digest('hex'), shared: shared.digest('hex') };
}

/** The build's text: `documents` (JSON by `documentKey`) checked with this mgsift, its schema and these shared signals. */
export function builtRulesText(documents: ReadonlyMap<string, string>, folderShared: readonly { file: string; text: string }[]): string {
  const places: BuiltRulesHeader['documents'] = {};
  let at = 0;
  for (const [key, json] of documents) {
    const length = Buffer.byteLength(json);
    places[key] = [at, length];
    at += length + 1;
  }
  const header: BuiltRulesHeader = { format: FORMAT, ...checkedWith(folderShared), documents: places };
  return `${[JSON.stringify(header), ...documents.values()].join('\n')}\n`;
}

/**
 * A folder's built documents, when its build holds (none when it has none); `note`: why a build
 * there is set aside, for the user.
 */
export function readBuiltRules(dir: string, folderShared: readonly { file: string; text: string }[]): { documents?: BuiltDocuments; note?: string } {
  const path = join(dir, BUILT_RULES_FILE);
  const notBuilt = (why?: string): { note: string } => ({ note: `${path} is not a build of \`mgsift rules build\`${why ? ` (${why})` : ''}: not used` });
  let bytes: Buffer;
  let parsed: unknown;
  try {
    bytes = readFileSync(path);
    const newline = bytes.indexOf(NEWLINE);
    parsed = JSON.parse(bytes.toString('utf8', 0, newline < 0 ? bytes.length : newline));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return notBuilt((err as Error).message.split('\n', 1)[0]);
  }
  if (typeof parsed !== 'object' || parsed === null) return notBuilt();
  const header = parsed as Partial<BuiltRulesHeader>;
  // The documents start after the header's line; a file of one line holds none.
  const newline = bytes.indexOf(NEWLINE);
  const body = newline < 0 ? bytes.length : newline + 1;
  const places = header.documents;
  const inFile = ([start, length]: unknown[]): boolean => Number.isSafeInteger(start) && Number.isSafeInteger(length) && (start as number) >= 0 && (length as number) >= 0 && body + (start as number) + (length as number) <= bytes.length;
  if (header.format !== FORMAT || typeof places !== 'object' || places === null || !Object.values(places).every((place) => Array.isArray(place) && inFile(place))) return notBuilt();
  const now = checkedWith(folderShared);
  const changed = (['mgsift', 'schema', 'shared'] as const).filter((key) => header[key] !== now[key]);
  if (changed.length > 0) {
    const what = { mgsift: `mgsift ${String(header.mgsift)} made it (this is ${now.mgsift})`, schema: 'the rule schema changed since', shared: 'the shared signals changed since' };
    return { note: `${path} is set aside: ${changed.map((key) => what[key]).join('; ')}; \`mgsift rules build ${dir}\` makes it again` };
  }
  return {
    documents: new BuiltDocuments(Object.keys(places), (key) => {
      if (!Object.hasOwn(places, key)) return undefined;
      const [start, length] = places[key]!;
      return bytes.toString('utf8', body + start, body + start + length);
    }),
  };
}

const NEWLINE = 0x0a;
