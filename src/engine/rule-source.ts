import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { readBuildOutputBytes } from '../core/build-output.js';
import { readDocumentsFile, type DocumentsFile } from './documents-file.js';
import { detachData } from '../core/detach.js';
import yaml from 'js-yaml';
import { OUTSIDE_SUBSET, parseBlockYaml } from '../parsers/yaml-block.js';

/** A problem in a rule file (or a file of shared signals), with where it is. */
export interface RuleIssue {
  file: string;
  line: number;
  reason: string;
}

/** A problem at a YAML path (keys; indices are skipped when finding its line). */
export interface PathProblem {
  path: string[];
  reason: string;
}

/**
 * Rule documents a build parsed and checked whole, as JSON by the length and SHA-1 of the file's
 * text: the built-in pack's (`npm run build`, scripts/pack-prebuilt.mjs) or a rule folder's
 * (`mgsift rules build`). An unchanged file is then not parsed as YAML again (js-yaml on the whole
 * pack is about 0.1 s of CPU at every start); a text of a length the build never saw is not hashed
 * (a user's folder of 1,845 rules: 12 ms).
 */
export class BuiltDocuments {
  private readonly lengths: ReadonlySet<number>;

  /**
   * `keys`: the documents' `documentKey`s; `read`: one document's JSON by its key; `stamps`: the
   * stamps of the files the build stored them for, by the name the build gave each file (a path
   * under the package or the folder), as its header holds them (unchecked).
   */
  constructor(
    keys: readonly string[],
    private readonly read: (key: string) => string | undefined,
    private readonly stamps: unknown = {},
  ) {
    this.lengths = new Set(keys.map((key) => Number.parseInt(key, 10)));
  }

  /** The document's JSON, when the build saw this very text. */
  json(text: string): string | undefined {
    return this.lengths.has(text.length) ? this.read(documentKey(text)) : undefined;
  }

  /**
   * The document stored for the file the build named `name` (lying at `onDisk`) when the file's
   * stamp is the one the build took: the file neither read nor hashed (about a sixth of what
   * loading a built-in rule cost). Undefined when that cannot be told so.
   */
  unchanged(name: string, onDisk: string): string | undefined {
    const stamps = this.stamps;
    const stamp: unknown = typeof stamps === 'object' && stamps !== null && Object.hasOwn(stamps, name) ? (stamps as Record<string, unknown>)[name] : undefined;
    if (!Array.isArray(stamp) || typeof stamp[3] !== 'string') return undefined;
    const key = stamp[3];
    let now: FileStamp;
    try {
      now = fileStamp(onDisk, key);
    } catch {
      return undefined;
    }
    return now.every((value, i) => value === stamp[i]) ? this.read(key) : undefined;
  }
}

/** How a build keys a file's document: its text's length and SHA-1. */
export function documentKey(text: string): string {
  return `${text.length}:${createHash('sha1').update(text).digest('hex')}`;
}

/** The document as JSON when JSON carries it unchanged (a YAML `.inf` it would not): what a build stores. */
export function storableDocument(document: unknown): string | undefined {
  const json = JSON.stringify(document);
  return json !== undefined && isDeepStrictEqual(JSON.parse(json), document) ? json : undefined;
}

/** Where `npm run build` writes the built-in pack's documents, beside this module (documents-file.ts says how). */
export const PACK_DOCUMENTS = './pack-parsed.jsonl';

/**
 * How a build knows a file unchanged without reading it: its size and the times it was last
 * modified and changed (an edit moves the second even when it keeps the size and sets the first
 * back), with the key of the document stored for its text then. A file copied since (an
 * install) has other times: it is read and its text keyed, as without a stamp.
 */
export type FileStamp = [size: number, mtimeMs: number, ctimeMs: number, key: string];

export function fileStamp(path: string, key: string): FileStamp {
  const { size, mtimeMs, ctimeMs } = statSync(path);
  return [size, mtimeMs, ctimeMs, key];
}

/**
 * The built-in pack's documents, with the stamps of the files they were stored for (by package
 * path); none in the single-file build and from the TypeScript sources.
 */
let packDocuments: BuiltDocuments | undefined;

function packBuild(): BuiltDocuments {
  if (packDocuments === undefined) {
    const file = packDocumentsFile();
    packDocuments = file === undefined ? new BuiltDocuments([], () => undefined) : builtDocuments(file);
  }
  return packDocuments;
}

/** A documents file (documents-file.ts) as built documents, with the stamps its header holds (`files`). */
export function builtDocuments(file: DocumentsFile): BuiltDocuments {
  return new BuiltDocuments(file.keys, file.json, file.header['files']);
}

/** The file of the pack's documents `npm run build` wrote (scripts/pack-prebuilt.mjs), when there is one that reads. */
function packDocumentsFile(): DocumentsFile | undefined {
  const bytes = readBuildOutputBytes(PACK_DOCUMENTS, import.meta.url);
  try {
    return bytes && readDocumentsFile(bytes);
  } catch {
    return undefined;
  }
}

function builtDocument(text: string, folder: BuiltDocuments | undefined): string | undefined {
  return packBuild().json(text) ?? folder?.json(text);
}

/** The document the pack's build stored for one of its files (`path`: its package path, `onDisk` where it lies), unread while its stamp holds. */
export function packDocumentUnchanged(path: string, onDisk: string): string | undefined {
  return packBuild().unchanged(path, onDisk);
}

/** Deeper than any rule is written: such a document is left to js-yaml. */
const RULE_MAX_DEPTH = 64;

/**
 * A pack file's YAML document, or the issue that says why it is not one. `prebuilt`: a build
 * stored it (the pack's, or `folder`'s: a rule folder's `rules build`), which it does only for
 * files that loaded without an issue (a rule checked whole).
 */
export function parseRuleYaml(file: string, text: string, folder?: BuiltDocuments): { document: unknown; prebuilt: boolean } | { issue: RuleIssue } {
  const json = builtDocument(text, folder);
  if (json !== undefined) {
    try {
      return { document: JSON.parse(json) as unknown, prebuilt: true };
    } catch {
      // A folder's build edited by hand: the file is parsed as if it had none.
    }
  }
  // The block reader first (under half of js-yaml's time on a folder of rules); js-yaml
  // for anything outside its subset, and to word the error.
  // A parsed value is a view into the file's text, and a loaded rule keeps some of them (its
  // title, its texts): copied, they keep only themselves, not the whole file (a folder of 1,845
  // rules: 14 MB less held for the run).
  const block = parseBlockYaml(text, RULE_MAX_DEPTH, undefined, { uniqueKeys: true });
  if (block !== OUTSIDE_SUBSET) return { document: detachData(block), prebuilt: false };
  try {
    return { document: detachData(yaml.load(text, { schema: yaml.JSON_SCHEMA, filename: file })), prebuilt: false };
  } catch (err) {
    const mark = (err as { mark?: { line?: number } }).mark;
    return { issue: { file, line: (mark?.line ?? 0) + 1, reason: `YAML: ${(err as Error).message.split('\n', 1)[0]}` } };
  }
}

/** The 1-based line where a YAML path (keys, indices ignored) is written, best effort. */
export function lineOfPath(text: string, path: readonly string[]): number {
  const lines = text.split('\n');
  let line = 0;
  for (const key of path) {
    if (/^\d+$/.test(key)) continue;
    const pattern = new RegExp(`^\\s*(- )?["']?${escapeRegExp(key)}["']?\\s*:`);
    for (let i = line; i < lines.length; i++) {
      if (pattern.test(lines[i]!)) {
        line = i;
        break;
      }
    }
  }
  return line + 1;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What `rules new` writes where a person must still say something; a finished rule holds none. */
export const PLACEHOLDER = 'EDIT:';

/** `{{…}}` parts of a template: what they render comes from the evidence, not from the file. */
const TEMPLATE_PART = /\{\{[^}]*\}\}/g;

/**
 * Whether a reference is an https link, or a template that renders the evidence's own link
 * (an alert's runbook) and writes no text of its own.
 */
export function isLinkReference(reference: string): boolean {
  const literal = reference.replace(TEMPLATE_PART, '').trim();
  return literal === '' || /^https:\/\/\S+$/.test(literal);
}

/**
 * Why a headline template is not one line read at a glance: a loop lists without end, a line
 * break splits it (undefined when it is fine). The rendered text is cut at its length cap.
 */
export function headlineSourceProblem(source: string): string | undefined {
  if (/\{\{~?\s*#\s*each\b/.test(source)) return 'headline: no loops ({{#each}}): name the first objects with `names` and count the rest (`{{names about 3}}`)';
  if (/\n/.test(source.trim())) return 'headline: one line (a line break in the template; write it as one line)';
  return undefined;
}

/**
 * What `rules lint` asks of a rule or shared-signals file beyond loading it: no placeholder
 * left from `rules new`, and every reference an https link (a reader follows it).
 */
export function authoringIssues(file: string, text: string): RuleIssue[] {
  const lines = text.split('\n');
  const issues: RuleIssue[] = [];
  lines.forEach((line, i) => {
    if (line.includes(PLACEHOLDER)) issues.push({ file, line: i + 1, reason: `placeholder '${PLACEHOLDER}' left from \`rules new\`: write what it asks for` });
  });
  const parsed = parseRuleYaml(file, text);
  const document = 'document' in parsed && parsed.document !== null && typeof parsed.document === 'object' ? (parsed.document as { references?: unknown; headline?: unknown }) : undefined;
  if (typeof document?.headline === 'string') {
    const reason = headlineSourceProblem(document.headline);
    if (reason !== undefined) issues.push({ file, line: lineOfPath(text, ['headline']), reason });
  }
  const references = document?.references;
  if (!Array.isArray(references)) return issues;
  const from = lineOfPath(text, ['references']);
  for (const reference of references) {
    if (typeof reference !== 'string' || isLinkReference(reference)) continue;
    const at = lines.findIndex((line, i) => i >= from - 1 && line.includes(reference));
    issues.push({ file, line: at < 0 ? from : at + 1, reason: `reference '${reference}' is not an https:// link` });
  }
  return issues;
}
