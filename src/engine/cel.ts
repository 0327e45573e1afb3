import { readBuildOutputBytes } from '../core/build-output.js';
import { readDocumentsFile, type DocumentsFile } from './documents-file.js';
import { createRequire } from 'node:module';
import type { RE2JS } from '@bufbuild/re2';
import type { CelInput } from '@bufbuild/cel';
import { EMBEDDED } from '../core/assets.js';
import { quantityValue } from '../parsers/quantity.js';
import { buildDateOf, compareVersions, satisfiesRange, isYStreamChange, minorOf } from '../facts/version.js';
import { guardOf } from './cel-guards.js';
import { CEL_ERROR, compileToJs, type CompiledFunctions } from './cel-compile.js';

/**
 * `where` expressions in CEL, the language Kubernetes uses for validation rules and
 * admission policies (@bufbuild/cel runs the cel-spec conformance suite). Added functions
 * carry OpenShift knowledge so rules need not re-implement it:
 *   versionInRange(v, range)   semver range, pre-releases included (4.7.0-fc.3 is < 4.7.0)
 *   versionCompare(a, b)       -1 / 0 / 1 in OpenShift version order (4.10 > 4.9)
 *   isYStream(from, to)        the minor version changed
 *   minor(v)                   "4.14"
 *   buildDate(v)               "2021-04-29" for a dated CI/nightly/OKD build, "" otherwise
 *   quantity(q)                a Kubernetes resource quantity as a number ("16106296Ki" → bytes,
 *                              "500m" → 0.5, "4" → 4), as Kubernetes CEL's
 *                              quantity(q).asApproximateFloat(); an error (false) when not one
 */
type CelLibrary = typeof import('@bufbuild/cel');

/**
 * @bufbuild/cel (with protobuf and RE2) is loaded at the first parse, interpreter run or
 * `matches`: about 0.3 s of CPU at every start otherwise, and the built-in pack's expressions
 * come parsed (scripts/pack-prebuilt.mjs) and run compiled to JavaScript, so a small analysis
 * never needs it. The single-file bundle is CommonJS: esbuild bundles the plain `require`.
 */
function load<T>(name: '@bufbuild/cel' | '@bufbuild/re2'): T {
  return (EMBEDDED ? (name === '@bufbuild/cel' ? require('@bufbuild/cel') : require('@bufbuild/re2')) : createRequire(import.meta.url)(name)) as T;
}
let library: CelLibrary | undefined;
const celLibrary = (): CelLibrary => (library ??= load<CelLibrary>('@bufbuild/cel'));
let re2Library: typeof RE2JS | undefined;

/**
 * `matches` with each pattern compiled once: CEL's own compiles its RE2 pattern on every call,
 * most of the cost of a rule whose `where` matches a condition message on every object.
 */
const compiledPatterns = new Map<string, RE2JS>();
const re2 = {
  compile(pattern: string): RE2JS {
    let compiled = compiledPatterns.get(pattern);
    if (!compiled) compiledPatterns.set(pattern, (compiled = (re2Library ??= load<{ RE2JS: typeof RE2JS }>('@bufbuild/re2').RE2JS).compile(pattern)));
    return compiled;
  },
};

/** The added functions over plain strings (a value of another type is not theirs: an error). */
const ADDED = {
  versionInRange: (v: string, range: string): boolean => satisfiesRange(v, range),
  versionCompare: (a: string, b: string): number => compareVersions(a, b),
  isYStream: (a: string, b: string): boolean => isYStreamChange(a, b),
  minor: (v: string): string => minorOf(v) ?? '',
  buildDate: (v: string): string => buildDateOf(v) ?? '',
  quantity: (q: string): number => {
    const value = quantityValue(q);
    if (value === undefined) throw new Error(`not a resource quantity: ${q}`);
    return value;
  },
  matches: (s: string, pattern: string): boolean => re2.compile(pattern).test(s),
};

let interpreterEnv: ReturnType<CelLibrary['celEnv']> | undefined;
function celEnvironment(): ReturnType<CelLibrary['celEnv']> {
  if (interpreterEnv) return interpreterEnv;
  const { celEnv, celFunc, CelScalar } = celLibrary();
  const S = CelScalar.STRING;
  return (interpreterEnv = celEnv({
    re2,
    funcs: [
      celFunc('versionInRange', [S, S], CelScalar.BOOL, ADDED.versionInRange),
      celFunc('versionCompare', [S, S], CelScalar.INT, (a, b) => BigInt(ADDED.versionCompare(a, b))),
      celFunc('isYStream', [S, S], CelScalar.BOOL, ADDED.isYStream),
      celFunc('minor', [S], S, ADDED.minor),
      celFunc('buildDate', [S], S, ADDED.buildDate),
      celFunc('quantity', [S], CelScalar.DOUBLE, ADDED.quantity),
    ],
  }));
}

/** The same functions for compiled programs, which see the data as it is. */
const COMPILED_FUNCTIONS: CompiledFunctions = Object.fromEntries(
  Object.entries(ADDED).map(([name, fn]) => [
    name,
    (...args: unknown[]) => (args.length === fn.length && args.every((a) => typeof a === 'string') ? (fn as (...s: string[]) => unknown)(...(args as string[])) : CEL_ERROR),
  ]),
);

/** A compiled boolean expression, with the text it was compiled from (for what it needs of a file, see `cel-literals.ts`). */
export type CelProgram = ((bindings: Record<string, unknown>) => boolean) & { readonly source: string };

export class CelCompileError extends Error {}

/**
 * One program per expression text, compiled or deferred: rules that share an expression share
 * its program, and the engine its verdict per object (a user's copy of a built-in rule too).
 */
const programs = new Map<string, { program: CelProgram; compiled: CelRun | undefined }>();
type CelRun = (bindings: Record<string, unknown>) => boolean;

function programOf(expression: string): { program: CelProgram; compiled: CelRun | undefined } {
  let entry = programs.get(expression);
  if (!entry) {
    const held: { program: CelProgram; compiled: CelRun | undefined } = {
      program: withSource((bindings) => (held.compiled ??= compileCelProgram(expression))(bindings), expression),
      compiled: undefined,
    };
    programs.set(expression, (entry = held));
  }
  return entry;
}

/** Compiles a boolean CEL expression now (a syntax error throws CelCompileError); evaluation errors (a missing field) count as false. */
export function compileCel(expression: string): CelProgram {
  const entry = programOf(expression);
  if (entry.compiled === undefined) {
    // The interpreter's planner checks what the compiled form would take on trust (a function's
    // name and arity), once per text. The pack's own texts never come here when analysing: they
    // are compiled at first run (`deferredCel`), `rules lint` having checked them before a build ships.
    interpretedCelProgram(expression);
    entry.compiled = compileCelProgram(expression);
  }
  return entry.program;
}

/**
 * Whether an expression is one of the pack's own, parsed and checked when it was built: a user's
 * copy of a built-in rule then compiles it at first run, as the pack does (`rules lint` compiles all).
 */
export function isPackExpression(expression: string): boolean {
  return prebuiltTree(expression) !== undefined;
}

/**
 * A program compiled at its first run, for the built-in pack when analysing: most of its
 * expressions never meet an object they apply to, and parsing them all is a large share of
 * start-up. The pack is compiled eagerly by `rules lint` and its tests, so a syntax error
 * cannot ship; should one, the first run throws (the entry is reported as not read).
 */
export function deferredCel(expression: string): CelProgram {
  return programOf(expression).program;
}

function withSource(run: (bindings: Record<string, unknown>) => boolean, source: string): CelProgram {
  return Object.assign(run, { source });
}

/** An expression's syntax tree (cel-spec's `ParsedExpr`, as @bufbuild/cel's parser returns it). */
export type ParsedExpr = ReturnType<CelLibrary['parse']>;
export type CelExpr = NonNullable<ParsedExpr['expr']>;

/** Parsed expressions by text: the interpreter's plan and the syntax trees read it once. */
const parsed = new Map<string, ParsedExpr>();

/** The syntax tree of an expression as the parser makes it (throws CelCompileError on a syntax error). */
export function parseCel(expression: string): ParsedExpr {
  let tree = parsed.get(expression);
  if (!tree) {
    try {
      tree = celLibrary().parse(expression);
    } catch (err) {
      throw new CelCompileError(`CEL: ${(err as Error).message.split('\n', 1)[0]}`);
    }
    parsed.set(expression, tree);
  }
  return tree;
}

/**
 * The pack's expressions parsed at build time (`scripts/pack-prebuilt.mjs`): each expression's tree
 * (`ParsedExpr.expr`) as JSON, 64-bit integers as `{"$bigint": "…"}`, a line each by its text
 * (documents-file.ts: a run decodes the trees it uses; the 369 of them as one JSON took 10 ms to
 * parse at each run), read without loading the parser. Absent in the single-file build and from
 * the TypeScript sources.
 */
export const CEL_TREES = './cel-parsed.jsonl';
let prebuilt: DocumentsFile | null | undefined;
const trees = new Map<string, CelExpr | undefined>();

/** The tree `npm run build` made of a pack expression, encoded; undefined for any other text. */
function prebuiltTree(expression: string): string | undefined {
  if (prebuilt === undefined) {
    const bytes = readBuildOutputBytes(CEL_TREES, import.meta.url);
    try {
      prebuilt = (bytes && readDocumentsFile(bytes)) ?? null;
    } catch {
      // A build cut short: the texts are parsed at run time.
      prebuilt = null;
    }
  }
  return prebuilt?.json(expression);
}

/** An expression's syntax tree: the one built ahead of time, else the parser's (a syntax error throws CelCompileError). */
export function celExpr(expression: string): CelExpr | undefined {
  if (trees.has(expression)) return trees.get(expression);
  const encoded = prebuiltTree(expression);
  const tree = encoded === undefined ? parseCel(expression).expr : decodeExprTree(encoded);
  trees.set(expression, tree);
  return tree;
}

/** A tree of cel-parsed.jsonl as the parser made it. */
export function decodeExprTree(encoded: string): CelExpr {
  // Parsed plainly, then its `{"$bigint": "…"}` turned into bigints by one walk over its objects:
  // a reviver is called for every value of the tree, and took three times as long.
  return withBigints(JSON.parse(encoded) as object) as CelExpr;
}

/** `node` with each `{"$bigint": "…"}` object under it (an array's item, an object's value) made a bigint, in place. */
function withBigints(node: object): object {
  const values = node as Record<string, unknown>;
  for (const key in values) {
    const value = values[key];
    if (value === null || typeof value !== 'object') continue;
    const digits = (value as { $bigint?: unknown }).$bigint;
    values[key] = typeof digits === 'string' ? BigInt(digits) : withBigints(value);
  }
  return node;
}

function compileCelProgram(expression: string): CelRun {
  const tree = celExpr(expression);
  return (tree && compileToJs(tree, COMPILED_FUNCTIONS)) ?? interpretedCelProgram(expression);
}

/** The interpreter's program, whatever the expression (`compileToJs` is held to its verdicts). */
export function interpretedCelProgram(expression: string): CelRun {
  let program: (ctx: Record<string, CelInput>) => unknown;
  try {
    program = celLibrary().plan(celEnvironment(), parseCel(expression)) as (ctx: Record<string, CelInput>) => unknown;
  } catch (err) {
    if (err instanceof CelCompileError) throw err;
    throw new CelCompileError(`CEL: ${(err as Error).message.split('\n', 1)[0]}`);
  }
  const guard = guardOf(celExpr(expression));
  return (bindings) => {
    if (guard && !guard(bindings)) return false;
    // A missing field is a CelError, an Error: without this, capturing its stack trace is most
    // of the cost of a rule over objects that lack the field (hostile input can make them all).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      const result = program(celBindings(bindings));
      return !celLibrary().isCelError(result) && result === true;
    } catch {
      return false;
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
  };
}

/** Converted values of bound objects: several signals' programs see the same object. */
const converted = new WeakMap<object, CelInput>();

function celBindings(bindings: Record<string, unknown>): Record<string, CelInput> {
  const out: Record<string, CelInput> = {};
  for (const [name, value] of Object.entries(bindings)) {
    if (value === null || typeof value !== 'object') {
      out[name] = toCelInput(value, 0);
      continue;
    }
    let input = converted.get(value);
    if (input === undefined) converted.set(value, (input = toCelInput(value, 0)));
    out[name] = input;
  }
  return out;
}

/**
 * Plain archive data for CEL: numbers become doubles except integers (int64 as bigint),
 * undefined is dropped, so YAML and JSON objects evaluate as Kubernetes would see them.
 * Objects and lists are converted when a program reaches into them, not before: a `where`
 * reads a few fields of a Pod, and copying the whole object (managed fields, spec) for it was
 * most of the cost of the pack's Pod and ClusterOperator signals.
 */
function toCelInput(value: unknown, depth: number): CelInput {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (value === null || typeof value !== 'object') return value as CelInput;
  if (depth > 64) return null;
  // A list's elements are wrapped when the list is reached (an object's fields still wait for their own read).
  if (Array.isArray(value)) return celLibrary().celList(value.map((item: unknown) => toCelInput(item, depth + 1)));
  return celLibrary().celMap(new LazyObjectMap(value as Record<string, unknown>, depth + 1));
}

/**
 * An object's fields as the map CEL reads, each value converted when read (not kept: a wrapper
 * is cheap to make again, and holding every converted field of every object read raised the
 * peak memory of a 31 MB pod List by a quarter).
 */
class LazyObjectMap implements ReadonlyMap<string, CelInput> {
  private fieldNames: string[] | undefined;
  constructor(
    private readonly object: Record<string, unknown>,
    private readonly depth: number,
  ) {}
  private names(): string[] {
    return (this.fieldNames ??= Object.keys(this.object).filter((key) => this.object[key] !== undefined));
  }
  get size(): number {
    return this.names().length;
  }
  get(key: string): CelInput | undefined {
    if (typeof key !== 'string' || !Object.hasOwn(this.object, key)) return undefined;
    const value = this.object[key];
    return value === undefined ? undefined : toCelInput(value, this.depth);
  }
  has(key: string): boolean {
    return this.get(key) !== undefined;
  }
  forEach(callback: (value: CelInput, key: string, map: ReadonlyMap<string, CelInput>) => void, thisArg?: unknown): void {
    for (const key of this.names()) callback.call(thisArg, this.get(key)!, key, this);
  }
  *entries(): MapIterator<[string, CelInput]> {
    for (const key of this.names()) yield [key, this.get(key)!];
  }
  *keys(): MapIterator<string> {
    yield* this.names();
  }
  *values(): MapIterator<CelInput> {
    for (const key of this.names()) yield this.get(key)!;
  }
  [Symbol.iterator](): MapIterator<[string, CelInput]> {
    return this.entries();
  }
}
