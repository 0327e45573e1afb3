/**
 * YAML files of Kubernetes objects: one object, a `kind: *List`, or several `---` documents.
 *
 * Each document is loaded on its own (split at `---` markers, which YAML forbids inside
 * content), so one broken document costs only itself. The block style Kubernetes clients
 * write is read by the fast `readBlockYaml`; anything else falls back to js-yaml, which runs with the JSON schema
 * (timestamps, `on`, `yes` stay strings), a nesting limit, and after loading a document that
 * uses aliases, a check that the aliases do not blow it up (billion laughs: js-yaml shares
 * aliased nodes, so loading is cheap but any later walk of the result is not).
 */
import yaml from 'js-yaml';
import { describeError, type Problems } from '../core/problems.js';
import { expandDocument, type K8sObject, type ParsedObject } from './k8s.js';
import { readBlockYaml, OUTSIDE_SUBSET, type Pick } from './yaml-block.js';

export interface YamlOptions {
  /** Deepest nesting of collections accepted (default 256; real CRDs reach about 40). */
  maxDepth?: number;
  /**
   * Most nodes a document may expand to through aliases, as a multiple of its text length
   * (default 2; and never below 10,000 nodes). Only documents with both `&` and `*` are
   * checked.
   */
  maxAliasExpansion?: number;
  /**
   * Read only these keys of each document where the fast block reader can (the others are
   * stepped over); a document it cannot read is parsed whole by js-yaml.
   */
  pick?: Pick | undefined;
}

export const DEFAULT_YAML_MAX_DEPTH = 256;
const MIN_EXPANSION_BUDGET = 10_000;

/** js-yaml 4.1+ options the bundled types do not declare yet. */
interface LoadOptionsExt extends yaml.LoadOptions {
  maxDepth?: number;
}

/** A document's span in the text. */
interface Chunk {
  start: number;
  end: number;
}

/**
 * Splits `text` at `---` document markers (the marker stays with the document it opens): `---`
 * at a line's start, then a blank or the line's end, as `/^---(?=[ \t\r\n]|$)/m` finds them
 * (U+2028 and U+2029 end a line too). Found with `indexOf`, which skips ahead far faster than a
 * multiline regex steps through every line (about 1 % of a YAML-heavy archive's run).
 */
function splitDocuments(text: string): Chunk[] {
  const chunks: Chunk[] = [];
  let start = 0;
  for (let at = text.indexOf('---'); at !== -1; at = text.indexOf('---', at + 3)) {
    if (!(at === 0 || LINE_BREAKS.has(text.charCodeAt(at - 1))) || !(at + 3 === text.length || MARKER_ENDS.has(text.charCodeAt(at + 3)))) continue;
    if (at > start) chunks.push({ start, end: at });
    start = at;
  }
  chunks.push({ start, end: text.length });
  return chunks;
}

/** What ends a line for `/^/m` and `/$/m`; what may follow a document marker: a blank, or the line's end. */
const LINE_BREAKS = new Set([0x0a, 0x0d, 0x2028, 0x2029]);
const MARKER_ENDS = new Set([0x20, 0x09, ...LINE_BREAKS]);

const CONTENT_LINE_RE = /^[ \t]*[^\s#%]/m;
const DIRECTIVE_RE = /^%/m;

/** Counts line breaks in text[from, to). */
function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Objects in a YAML text, Lists expanded, each with its document and item index.
 * Broken documents are reported to `problems` (one line: where, and js-yaml's reason).
 */
export function* parseYamlItems(text: string, path: string, problems: Problems, opts: YamlOptions = {}): Generator<ParsedObject> {
  const maxDepth = opts.maxDepth ?? DEFAULT_YAML_MAX_DEPTH;
  const expansion = opts.maxAliasExpansion ?? 2;
  const chunks = splitDocuments(text);
  let lineCursor = 0;
  let lineAt = 0;
  let doc = 0;
  let carried = '';
  let carriedStart = 0;
  for (let c = 0; c < chunks.length; c++) {
    const chunk = chunks[c];
    if (chunk === undefined) continue;
    let body = text.slice(chunk.start, chunk.end);
    const explicit = body.startsWith('---');
    if (!explicit && !CONTENT_LINE_RE.test(body)) {
      // Before the first marker: only blank lines, comments or directives. Directives belong
      // to the next document.
      if (DIRECTIVE_RE.test(body)) {
        carried = body;
        carriedStart = chunk.start;
      }
      continue;
    }
    let bodyStart = chunk.start;
    if (carried) {
      body = carried + body;
      bodyStart = carriedStart;
      carried = '';
    }
    const index = doc++;
    let value: unknown;
    let mayShare: boolean;
    try {
      ({ value, mayShare } = loadDocument(body, path, maxDepth, opts.pick));
    } catch (err) {
      lineAt += countLines(text, lineCursor, bodyStart);
      lineCursor = bodyStart;
      problems.error(path, `YAML document ${index + 1}: ${yamlErrorText(err, lineAt)}`);
      continue;
    }
    if (value === null || value === undefined) continue;
    if (typeof value === 'object' && mayShare) {
      const budget = Math.max(MIN_EXPANSION_BUDGET, Math.floor(body.length * expansion));
      const verdict = checkExpansion(value, budget);
      if (verdict !== undefined) {
        problems.error(path, `YAML document ${index + 1}: rejected, ${verdict}`);
        continue;
      }
    }
    yield* expandDocument(value, index, path, problems, 'YAML document');
  }
}

/**
 * One document's value (the fast block reader first; js-yaml for everything else, and to word the
 * error), and whether aliases may share parts of it: the block reader says whether it met an
 * anchor; of what js-yaml reads, any document with both `&` and `*` in it may.
 */
function loadDocument(body: string, path: string, maxDepth: number, pick: Pick | undefined): { value: unknown; mayShare: boolean } {
  const read = readBlockYaml(body, maxDepth, pick);
  if (read !== OUTSIDE_SUBSET) return { value: read.value, mayShare: read.anchors };
  const loadOpts: LoadOptionsExt = { schema: yaml.JSON_SCHEMA, json: true, maxDepth, filename: path };
  return { value: yaml.load(body, loadOpts), mayShare: body.includes('&') && body.includes('*') };
}

/** Objects in a YAML text, Lists expanded (see `parseYamlItems`). */
export function* parseYamlObjects(text: string, path: string, problems: Problems, opts?: YamlOptions): Generator<K8sObject> {
  for (const parsed of parseYamlItems(text, path, problems, opts)) yield parsed.object;
}

/** One line from a js-yaml error: `line L, column C: reason`, lines counted in the whole file. */
function yamlErrorText(err: unknown, lineOffset: number): string {
  if (err instanceof RangeError) return 'nesting too deep to parse';
  if (err instanceof yaml.YAMLException) {
    const mark = err.mark as { line?: number; column?: number } | undefined;
    const reason = err.reason || describeError(err);
    if (mark && typeof mark.line === 'number' && typeof mark.column === 'number') {
      return `line ${mark.line + 1 + lineOffset}, column ${mark.column + 1}: ${reason}`;
    }
    return reason;
  }
  return describeError(err);
}

/**
 * Counts the nodes a walk of `root` would visit, following shared (aliased) nodes each time
 * they are referenced, without walking them more than once; a string weighs one node per 16
 * characters more (an aliased long string repeated a thousand times is a bomb for whoever
 * serializes the result). Returns why the document is rejected, or undefined if it stays
 * within `budget`.
 */
function checkExpansion(root: object, budget: number): string | undefined {
  const sizes = new Map<object, number>();
  const inProgress = new Set<object>();
  let verdict: string | undefined;

  const size = (node: object, depth: number): number => {
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (inProgress.has(node)) {
      verdict = 'it refers to itself through an alias';
      return Infinity;
    }
    if (depth > 10_000) {
      verdict = 'aliases nest too deep';
      return Infinity;
    }
    inProgress.add(node);
    let total = 1;
    const values: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const v of values) {
      if (typeof v === 'object' && v !== null) total += size(v, depth + 1);
      else if (typeof v === 'string') total += 1 + (v.length >> 4);
      else total += 1;
      if (total > budget) break;
    }
    inProgress.delete(node);
    sizes.set(node, total);
    return total;
  };

  try {
    const total = size(root, 0);
    if (verdict !== undefined) return verdict;
    if (total > budget) return `its aliases expand it to more than ${budget} nodes (alias bomb?)`;
  } catch (err) {
    return err instanceof RangeError ? 'aliases nest too deep' : describeError(err);
  }
  return undefined;
}
