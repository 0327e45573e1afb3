import type { CelExpr } from './cel.js';
import { existsMacro, fieldPath, hasTest, stringConstant, stringList, type FieldPath } from './cel-ast.js';

/**
 * A quick verdict on a `where` expression in plain JavaScript, checked before its CEL program
 * runs: false when the expression cannot be true of the bound data, true when it may be (the
 * program decides). An interpreter's run costs tens of microseconds, this a few property reads,
 * and most objects fail a `where`'s first conditions (a namespace, a name prefix, a phase, a
 * container's waiting reason). Decided exactly, the rest is "may be":
 *   a && b, a || b                  as CEL combines them (an error is not true)
 *   v.a.b == 'x', 'x' == v.a.b      the field holds that string
 *   v.a.b in ['x', 'y']             the field holds one of the strings
 *   'x' in v.a.b                    the field is a map with key x, or a list holding 'x'
 *   has(v.a.b)                      v.a is a map holding b, not null
 *   !has(v.a.b)                     v.a is anything else (a v.a that cannot be selected is CEL's
 *                                   error: not true)
 *   v.a.b.startsWith('x')           the field is a string that starts (ends) with it
 *   L.exists(c, p)                  some element of the list L may satisfy p; L a field, or a
 *                                   list of fields and `has(f) ? f : []`
 * `v` is a bound variable; fields are read as CEL reads them (strings are strings, undefined is
 * absent, a map's null field is not `has`). The test compares each form with the program alone.
 */
export type Guard = (bindings: Readonly<Record<string, unknown>>) => boolean;

/** The guard of an expression; undefined when nothing of it can be decided. */
export function guardOf(expr: CelExpr | undefined): Guard | undefined {
  const decide = expr && deciderOf(expr);
  if (!decide) return undefined;
  return (bindings) => decide((name) => (Object.hasOwn(bindings, name) ? { found: true, value: bindings[name] } : NOT_FOUND));
}

/** A variable's value in scope (the bindings, then the variables of the comprehensions around). */
type Scope = (name: string) => Value;
type Value = { found: true; value: unknown } | { found: false };
/** False: the expression cannot be true in this scope. */
type Decider = (scope: Scope) => boolean;
/** A value an expression evaluates to; undefined: not evaluated here. */
type Evaluator = (scope: Scope) => Value;

const NOT_FOUND: Value = { found: false };

function deciderOf(expr: CelExpr): Decider | undefined {
  const has = hasTest(expr);
  if (has) return (scope) => hasField(valueAt(scope, has.parent), has.field) === true;
  const kind = expr.exprKind;
  if (kind.case === 'comprehensionExpr') return existsDecider(expr);
  if (kind.case !== 'callExpr') return undefined;
  const { function: fn, args, target } = kind.value;
  if ((fn === '_&&_' || fn === '_||_') && args.length === 2) {
    const left = deciderOf(args[0]!);
    const right = deciderOf(args[1]!);
    if (fn === '_&&_') return left && right ? (scope) => left(scope) && right(scope) : (left ?? right);
    return left && right ? (scope) => left(scope) || right(scope) : undefined;
  }
  if (fn === '!_' && args.length === 1) {
    const negated = hasTest(args[0]!);
    return negated && ((scope) => hasField(valueAt(scope, negated.parent), negated.field) === false);
  }
  if (fn === '_==_' && args.length === 2) {
    const [left, right] = args as [CelExpr, CelExpr];
    const path = fieldPath(left) ?? fieldPath(right);
    const text = stringConstant(right) ?? stringConstant(left);
    return path && text !== undefined ? (scope) => stringAt(scope, path) === text : undefined;
  }
  if (fn === '@in' && args.length === 2) {
    const [element, container] = args as [CelExpr, CelExpr];
    const path = fieldPath(element);
    const texts = path && stringList(container);
    if (path && texts) return (scope) => texts.includes(stringAt(scope, path) as string);
    const key = stringConstant(element);
    const holder = fieldPath(container);
    if (key === undefined || !holder) return undefined;
    return (scope) => {
      const at = valueAt(scope, holder);
      if (!at.found) return false;
      if (Array.isArray(at.value)) return at.value.includes(key);
      return isMap(at.value) && own(at.value, key) != null;
    };
  }
  if ((fn === 'startsWith' || fn === 'endsWith') && target && args.length === 1) {
    const path = fieldPath(target);
    const text = stringConstant(args[0]!);
    if (!path || text === undefined) return undefined;
    return fn === 'startsWith'
      ? (scope) => stringAt(scope, path)?.startsWith(text) === true
      : (scope) => stringAt(scope, path)?.endsWith(text) === true;
  }
  return undefined;
}

/**
 * `L.exists(c, p)`: true when some element may satisfy p; over a map (its keys) always may be;
 * over anything else, or an L that cannot be evaluated, CEL's error.
 */
function existsDecider(expr: CelExpr): Decider | undefined {
  const exists = existsMacro(expr);
  const predicate = exists && deciderOf(exists.predicate);
  const range = exists && evaluatorOf(exists.range);
  if (!exists || !predicate || !range) return undefined;
  const { iterVar } = exists;
  return (scope) => {
    const at = range(scope);
    if (!at.found) return false;
    if (isMap(at.value)) return true;
    if (!Array.isArray(at.value)) return false;
    return at.value.some((element: unknown) => predicate((name) => (name === iterVar ? { found: true, value: element } : scope(name))));
  };
}

/** A field, `has(f) ? f : []`, or a list of those; anything else is not evaluated here. */
function evaluatorOf(expr: CelExpr): Evaluator | undefined {
  const path = fieldPath(expr);
  if (path) return (scope) => valueAt(scope, path);
  const kind = expr.exprKind;
  if (kind.case === 'listExpr') {
    const elements = kind.value.elements.map(evaluatorOf);
    if (elements.some((element) => element === undefined)) return undefined;
    return (scope) => {
      const values: unknown[] = [];
      for (const element of elements) {
        const at = element!(scope);
        if (!at.found) return NOT_FOUND; // an element CEL cannot evaluate fails the whole list
        values.push(at.value);
      }
      return { found: true, value: values };
    };
  }
  if (kind.case === 'callExpr' && kind.value.function === '_?_:_' && kind.value.args.length === 3) {
    const [condition, whenTrue, whenFalse] = kind.value.args as [CelExpr, CelExpr, CelExpr];
    const test = hasTest(condition);
    const chosen = [evaluatorOf(whenTrue), evaluatorOf(whenFalse)];
    if (!test || !chosen[0] || !chosen[1]) return undefined;
    return (scope) => {
      const has = hasField(valueAt(scope, test.parent), test.field);
      return has === undefined ? NOT_FOUND : chosen[has ? 0 : 1]!(scope);
    };
  }
  return undefined;
}

function valueAt(scope: Scope, path: FieldPath): Value {
  const [name, ...fields] = path;
  const root = scope(name);
  if (!root.found) return NOT_FOUND;
  let value = root.value;
  // Selecting a field of anything but a map, or one the map lacks, is CEL's error; a null is a value.
  for (const field of fields) {
    value = isMap(value) ? own(value, field) : undefined;
    if (value === undefined) return NOT_FOUND;
  }
  return { found: true, value };
}

function stringAt(scope: Scope, path: FieldPath): string | undefined {
  const at = valueAt(scope, path);
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
