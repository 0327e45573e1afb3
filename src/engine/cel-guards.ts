import type { CelExpr } from './cel.js';

/**
 * The conditions of an expression's top-level `&&` chain that plain JavaScript decides exactly on
 * the bound data, checked before the CEL program runs: a chain is true only when each of its
 * conditions is (CEL's `&&` is false or an error otherwise), so one failed guard settles it. Most
 * `where`s open with such a condition (a namespace, a name prefix, a phase), and most objects fail
 * it: an interpreter's run costs tens of microseconds, a guard a property read.
 *   v.a.b == 'x', 'x' == v.a.b      the field holds that string
 *   v.a.b in ['x', 'y']             the field holds one of the strings
 *   'x' in v.a.b                    the field is a map with key x, or a list holding 'x'
 *   has(v.a.b)                      v.a is a map holding b, not null
 *   !has(v.a.b)                     v.a is anything else (a v.a that cannot be selected is CEL's
 *                                   error: not true)
 *   v.a.b.startsWith('x')           the field is a string that starts (ends) with it
 * Anything else is left to the program. `v` is a bound variable; fields are read as CEL reads
 * them (strings are strings, undefined is absent, a map's null field is not `has`; the test
 * compares every guard with the program alone).
 */
export type Guard = (bindings: Readonly<Record<string, unknown>>) => boolean;

export function guardsOf(expr: CelExpr | undefined): Guard[] {
  const guards: Guard[] = [];
  for (const condition of expr ? conjuncts(expr) : []) {
    const guard = guardOf(condition);
    if (guard) guards.push(guard);
  }
  return guards;
}

function conjuncts(expr: CelExpr): CelExpr[] {
  const kind = expr.exprKind;
  if (kind.case === 'callExpr' && kind.value.function === '_&&_' && kind.value.args.length === 2) return [...conjuncts(kind.value.args[0]!), ...conjuncts(kind.value.args[1]!)];
  return [expr];
}

/** A path from a bound variable: its name, then field names. */
type Path = readonly [string, ...string[]];
type Value = { found: true; value: unknown } | { found: false };

function guardOf(expr: CelExpr): Guard | undefined {
  const kind = expr.exprKind;
  if (kind.case === 'selectExpr' && kind.value.testOnly) {
    const parent = kind.value.operand && pathOf(kind.value.operand);
    const field = kind.value.field;
    return parent && ((bindings) => hasField(valueAt(bindings, parent), field) === true);
  }
  if (kind.case !== 'callExpr') return undefined;
  const { function: fn, args, target } = kind.value;
  if (fn === '!_' && args.length === 1) {
    const inner = args[0]!.exprKind;
    if (inner.case !== 'selectExpr' || !inner.value.testOnly || !inner.value.operand) return undefined;
    const parent = pathOf(inner.value.operand);
    const field = inner.value.field;
    return parent && ((bindings) => hasField(valueAt(bindings, parent), field) === false);
  }
  if (fn === '_==_' && args.length === 2) {
    const [left, right] = args as [CelExpr, CelExpr];
    const path = pathOf(left) ?? pathOf(right);
    const text = stringConstant(right) ?? stringConstant(left);
    return path && text !== undefined ? (bindings) => stringAt(bindings, path) === text : undefined;
  }
  if (fn === '@in' && args.length === 2) {
    const [element, container] = args as [CelExpr, CelExpr];
    const path = pathOf(element);
    const texts = path && stringList(container);
    if (path && texts) return (bindings) => texts.includes(stringAt(bindings, path) as string);
    const key = stringConstant(element);
    const holder = pathOf(container);
    if (key === undefined || !holder) return undefined;
    return (bindings) => {
      const at = valueAt(bindings, holder);
      if (!at.found) return false;
      if (Array.isArray(at.value)) return at.value.includes(key);
      return isMap(at.value) && own(at.value, key) != null;
    };
  }
  if ((fn === 'startsWith' || fn === 'endsWith') && target && args.length === 1) {
    const path = pathOf(target);
    const text = stringConstant(args[0]!);
    if (!path || text === undefined) return undefined;
    return fn === 'startsWith'
      ? (bindings) => stringAt(bindings, path)?.startsWith(text) === true
      : (bindings) => stringAt(bindings, path)?.endsWith(text) === true;
  }
  return undefined;
}

/** `v`, `v.a.b` or `v.a['b']`. */
function pathOf(expr: CelExpr): Path | undefined {
  const kind = expr.exprKind;
  if (kind.case === 'identExpr') return [kind.value.name];
  if (kind.case === 'selectExpr' && !kind.value.testOnly && kind.value.operand) {
    const parent = pathOf(kind.value.operand);
    return parent && [...parent, kind.value.field];
  }
  if (kind.case === 'callExpr' && kind.value.function === '_[_]' && kind.value.args.length === 2) {
    const parent = pathOf(kind.value.args[0]!);
    const key = stringConstant(kind.value.args[1]!);
    return parent && key !== undefined ? [...parent, key] : undefined;
  }
  return undefined;
}

function valueAt(bindings: Readonly<Record<string, unknown>>, path: Path): Value {
  const [name, ...fields] = path;
  if (!Object.hasOwn(bindings, name)) return { found: false };
  let value: unknown = bindings[name];
  // Selecting a field of anything but a map, or one the map lacks, is CEL's error; a null is a value.
  for (const field of fields) {
    value = isMap(value) ? own(value, field) : undefined;
    if (value === undefined) return { found: false };
  }
  return { found: true, value };
}

function stringAt(bindings: Readonly<Record<string, unknown>>, path: Path): string | undefined {
  const at = valueAt(bindings, path);
  return at.found && typeof at.value === 'string' ? at.value : undefined;
}

/**
 * CEL's `has` on a value: undefined when the value could not be selected (an error), false on
 * anything but a map, and on a map whether it holds the field with a value other than null.
 */
function hasField(at: Value, field: string): boolean | undefined {
  if (!at.found) return undefined;
  return isMap(at.value) && own(at.value, field) != null;
}

/** A field of the object itself (a parsed object's prototype holds no data: `constructor` is no field). */
function own(map: Record<string, unknown>, field: string): unknown {
  return Object.hasOwn(map, field) ? map[field] : undefined;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function stringConstant(expr: CelExpr): string | undefined {
  const kind = expr.exprKind;
  return kind.case === 'constExpr' && kind.value.constantKind.case === 'stringValue' ? kind.value.constantKind.value : undefined;
}

function stringList(expr: CelExpr): string[] | undefined {
  const kind = expr.exprKind;
  if (kind.case !== 'listExpr') return undefined;
  const texts: string[] = [];
  for (const element of kind.value.elements) {
    const text = stringConstant(element);
    if (text === undefined) return undefined;
    texts.push(text);
  }
  return texts;
}
