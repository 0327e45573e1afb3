import type { CelExpr } from './cel.js';

/**
 * Shapes of a CEL syntax tree that the engine reads without running it (the words a file must
 * hold, `cel-literals.ts`; the verdicts plain JavaScript can give, `cel-guards.ts`).
 */

/** A path from a variable: its name, then field names. */
export type FieldPath = readonly [string, ...string[]];

/** `v`, `v.a.b` or `v.a['b']`: a value as the data holds it; undefined for anything else. */
export function fieldPath(expr: CelExpr): FieldPath | undefined {
  const kind = expr.exprKind;
  if (kind.case === 'identExpr') return [kind.value.name];
  if (kind.case === 'selectExpr' && !kind.value.testOnly && kind.value.operand) {
    const parent = fieldPath(kind.value.operand);
    return parent && [...parent, kind.value.field];
  }
  if (kind.case === 'callExpr' && kind.value.function === '_[_]' && kind.value.args.length === 2) {
    const parent = fieldPath(kind.value.args[0]!);
    const key = stringConstant(kind.value.args[1]!);
    return parent && key !== undefined ? [...parent, key] : undefined;
  }
  return undefined;
}

/** `has(v.a.b)`: the path it selects from (`v.a`) and the field it tests (`b`). */
export function hasTest(expr: CelExpr): { parent: FieldPath; field: string } | undefined {
  const kind = expr.exprKind;
  if (kind.case !== 'selectExpr' || !kind.value.testOnly || !kind.value.operand) return undefined;
  const parent = fieldPath(kind.value.operand);
  return parent && { parent, field: kind.value.field };
}

/**
 * `range.exists(iterVar, predicate)`, as CEL expands the macro: an accumulator starting false,
 * each step `@result || predicate`.
 */
export function existsMacro(expr: CelExpr): { iterVar: string; range: CelExpr; predicate: CelExpr } | undefined {
  const kind = expr.exprKind;
  if (kind.case !== 'comprehensionExpr') return undefined;
  const { iterVar, iterRange, accuInit, loopStep } = kind.value;
  const init = accuInit?.exprKind;
  const step = loopStep?.exprKind;
  if (init?.case !== 'constExpr' || init.value.constantKind.case !== 'boolValue' || init.value.constantKind.value !== false) return undefined;
  if (step?.case !== 'callExpr' || step.value.function !== '_||_' || step.value.args.length !== 2 || !iterRange) return undefined;
  return { iterVar, range: iterRange, predicate: step.value.args[1]! };
}

export function stringConstant(expr: CelExpr): string | undefined {
  const kind = expr.exprKind;
  return kind.case === 'constExpr' && kind.value.constantKind.case === 'stringValue' ? kind.value.constantKind.value : undefined;
}

/** `['a', 'b']`: its strings; undefined when an element is anything else. */
export function stringList(expr: CelExpr): string[] | undefined {
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
