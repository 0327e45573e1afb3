import { celEnv, celFunc, CelScalar, parse, plan, isCelError, type CelInput } from '@bufbuild/cel';
import { buildDateOf, compareVersions, satisfiesRange, isYStreamChange, minorOf } from '../facts/version.js';

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
const S = CelScalar.STRING;
const env = celEnv({
  funcs: [
    celFunc('versionInRange', [S, S], CelScalar.BOOL, (v, range) => satisfiesRange(v, range)),
    celFunc('versionCompare', [S, S], CelScalar.INT, (a, b) => BigInt(compareVersions(a, b))),
    celFunc('isYStream', [S, S], CelScalar.BOOL, (a, b) => isYStreamChange(a, b)),
    celFunc('minor', [S], S, (v) => minorOf(v) ?? ''),
    celFunc('buildDate', [S], S, (v) => buildDateOf(v) ?? ''),
    celFunc('quantity', [S], CelScalar.DOUBLE, (q) => {
      const value = quantityValue(q);
      if (value === undefined) throw new Error(`not a resource quantity: ${q}`);
      return value;
    }),
  ],
});

/** Suffixes of a Kubernetes resource quantity (apimachinery `resource.Quantity`): binary, decimal, milli. */
const QUANTITY_SUFFIX: Record<string, number> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** A Kubernetes resource quantity as a number (`16106296Ki` → bytes, `500m` → 0.5); undefined when it is not one. */
export function quantityValue(text: string): number | undefined {
  const m = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(?:([eE][+-]?[0-9]+)|(Ki|Mi|Gi|Ti|Pi|Ei|[mkMGTPE])?)$/.exec(text.trim());
  if (!m) return undefined;
  const value = Number(m[1]) * (m[2] ? 10 ** Number(m[2].slice(1)) : (QUANTITY_SUFFIX[m[3] ?? ''] ?? 1));
  return Number.isFinite(value) ? value : undefined;
}

export type CelProgram = (bindings: Record<string, unknown>) => boolean;

export class CelCompileError extends Error {}

/** Programs by expression: rules that share an expression share its program (and the engine its result per object). */
const programs = new Map<string, CelProgram>();

/** Compiles a boolean CEL expression; evaluation errors (a missing field) count as false. */
export function compileCel(expression: string): CelProgram {
  let compiled = programs.get(expression);
  if (!compiled) programs.set(expression, (compiled = compileCelProgram(expression)));
  return compiled;
}

/** Deferred programs by expression, shared as compiled ones are (see `deferredCel`). */
const deferred = new Map<string, CelProgram>();

/**
 * A program compiled at its first run, for the built-in pack when analysing: most of its
 * expressions never meet an object they apply to, and parsing them all is a large share of
 * start-up. The pack is compiled eagerly by `rules lint` and its tests, so a syntax error
 * cannot ship; should one, the first run throws (the entry is reported as not read).
 */
export function deferredCel(expression: string): CelProgram {
  let program = deferred.get(expression);
  if (!program) {
    let compiled: CelProgram | undefined;
    program = (bindings) => (compiled ??= compileCel(expression))(bindings);
    deferred.set(expression, program);
  }
  return program;
}

function compileCelProgram(expression: string): CelProgram {
  let program: (ctx: Record<string, CelInput>) => unknown;
  try {
    program = plan(env, parse(expression)) as (ctx: Record<string, CelInput>) => unknown;
  } catch (err) {
    throw new CelCompileError(`CEL: ${(err as Error).message.split('\n', 1)[0]}`);
  }
  return (bindings) => {
    // A missing field is a CelError, an Error: without this, capturing its stack trace is most
    // of the cost of a rule over objects that lack the field (hostile input can make them all).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      const result = program(celBindings(bindings));
      return !isCelError(result) && result === true;
    } catch {
      return false;
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
  };
}

/** Converted values of bound objects: several signals' programs see the same object. */
const converted = new WeakMap<object, unknown>();

function celBindings(bindings: Record<string, unknown>): Record<string, CelInput> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(bindings)) {
    if (value === null || typeof value !== 'object') {
      out[name] = toCelInput(value);
      continue;
    }
    let input = converted.get(value);
    if (input === undefined) converted.set(value, (input = toCelInput(value)));
    out[name] = input;
  }
  return out as Record<string, CelInput>;
}

/**
 * Plain archive data for CEL: numbers become doubles except integers (int64 as bigint),
 * undefined is dropped, so YAML and JSON objects evaluate as Kubernetes would see them.
 */
function toCelInput(value: unknown, depth = 0): unknown {
  if (depth > 64) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map((v) => toCelInput(v, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toCelInput(v, depth + 1);
    return out;
  }
  return value;
}
