import { parseCel, type CelExpr } from './cel.js';

/**
 * The words a text must contain for a `where` expression to hold on an object in it: a
 * prefilter, so that files no signal can match are not parsed and objects whose text lacks them
 * are not evaluated (ripgrep's literal trick, applied to objects). Read from the expression's
 * syntax tree, conservatively, as groups of words, each of which the text must hold one of:
 *   has(x.field)                    the field's name
 *   x == 'Word', 'Word' == x        the word, x a field as the file holds it (not `f.lowerAscii()`)
 *   x in ['A', 'B']                 one of the words, x as above
 *   a && b                          the groups of both sides
 *   a || b                          one group: a word of either side's strongest group (nothing
 *                                   when one side requires nothing)
 *   list.exists(c, p)               what p requires
 * Anything else requires nothing. Only words that YAML and JSON write verbatim count (letters,
 * digits, `_`, `.`, `-`; three or more): a value can be quoted or not, never split or escaped.
 * Undefined means no requirement: the file is always read, the object always evaluated.
 */
export function literalGroupsRequiredBy(expression: string): readonly (readonly string[])[] | undefined {
  return requirementOf(expression)?.map((group) => group.words);
}

/** The one group a file must hold a word of, the strongest (a value's over field names, then fewer and longer words). */
export function literalsRequiredBy(expression: string): readonly string[] | undefined {
  return requirementOf(expression)?.reduce(stronger).words;
}

function requirementOf(expression: string): Requirement | undefined {
  if (!REQUIRED.has(expression)) REQUIRED.set(expression, parsedRequirement(expression));
  return REQUIRED.get(expression);
}

/** None for a text that does not parse (its program's first run reports that). */
function parsedRequirement(expression: string): Requirement | undefined {
  try {
    const expr = parseCel(expression).expr;
    return expr ? requiredBy(expr) : undefined;
  } catch {
    return undefined;
  }
}

const REQUIRED = new Map<string, Requirement | undefined>();

/** Words one of which a text must hold; `fields` when they are only field names (weak: the kind's objects share them). */
interface Group {
  words: readonly string[];
  fields: boolean;
}
/** Groups that must all be met (at least one). */
type Requirement = readonly Group[];
const VERBATIM = /^[A-Za-z0-9_.-]{3,}$/;

function requiredBy(expr: CelExpr): Requirement | undefined {
  const kind = expr.exprKind;
  if (kind.case === 'selectExpr') return kind.value.testOnly ? word(kind.value.field, true) : undefined;
  if (kind.case === 'comprehensionExpr') {
    // `exists` expands to an accumulator starting false, each step `@result || predicate`.
    const { accuInit, loopStep } = kind.value;
    const init = accuInit?.exprKind;
    const step = loopStep?.exprKind;
    if (init?.case !== 'constExpr' || init.value.constantKind.case !== 'boolValue' || init.value.constantKind.value !== false) return undefined;
    if (step?.case !== 'callExpr' || step.value.function !== '_||_' || step.value.args.length !== 2) return undefined;
    return requiredBy(step.value.args[1]!);
  }
  if (kind.case !== 'callExpr') return undefined;
  const { function: fn, args } = kind.value;
  if (fn === '_&&_' && args.length === 2) {
    const left = requiredBy(args[0]!);
    const right = requiredBy(args[1]!);
    return left && right ? [...left, ...right] : (left ?? right);
  }
  if (fn === '_||_' && args.length === 2) {
    const left = requiredBy(args[0]!)?.reduce(stronger);
    const right = requiredBy(args[1]!)?.reduce(stronger);
    return left && right ? [{ words: [...new Set([...left.words, ...right.words])], fields: left.fields || right.fields }] : undefined;
  }
  if (fn === '_==_' && args.length === 2) {
    // Only a field read as it is: `f.lowerAscii() == 'degraded'` holds on `Degraded` in the file.
    const [left, right] = args as [CelExpr, CelExpr];
    if (isFieldRead(left)) return word(stringConstant(right), false);
    if (isFieldRead(right)) return word(stringConstant(left), false);
    return undefined;
  }
  if (fn === '@in' && args.length === 2 && isFieldRead(args[0]!)) {
    const list = args[1]!.exprKind;
    if (list.case !== 'listExpr' || list.value.elements.length === 0) return undefined;
    const words: string[] = [];
    for (const element of list.value.elements) {
      const text = stringConstant(element);
      if (text === undefined || !VERBATIM.test(text)) return undefined;
      words.push(text);
    }
    return [{ words: [...new Set(words)], fields: false }];
  }
  return undefined;
}

/** A variable, a field of one (`c.type`), or a key of one (`labels['role']`): a value as the file holds it. */
function isFieldRead(expr: CelExpr): boolean {
  const kind = expr.exprKind;
  if (kind.case === 'identExpr') return true;
  if (kind.case === 'selectExpr') return !kind.value.testOnly && kind.value.operand !== undefined && isFieldRead(kind.value.operand);
  if (kind.case === 'callExpr' && kind.value.function === '_[_]' && kind.value.args.length === 2) {
    return isFieldRead(kind.value.args[0]!) && stringConstant(kind.value.args[1]!) !== undefined;
  }
  return false;
}

function stringConstant(expr: CelExpr): string | undefined {
  const kind = expr.exprKind;
  return kind.case === 'constExpr' && kind.value.constantKind.case === 'stringValue' ? kind.value.constantKind.value : undefined;
}

function word(text: string | undefined, fields: boolean): Requirement | undefined {
  return text !== undefined && VERBATIM.test(text) ? [{ words: [text], fields }] : undefined;
}

/** Of two groups both of which hold, the one more texts fail: a value's, then fewer alternatives, then longer words. */
function stronger(a: Group, b: Group): Group {
  if (a.fields !== b.fields) return a.fields ? b : a;
  if (a.words.length !== b.words.length) return a.words.length < b.words.length ? a : b;
  const shortest = (group: Group): number => Math.min(...group.words.map((w) => w.length));
  return shortest(b) > shortest(a) ? b : a;
}
