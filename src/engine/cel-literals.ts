import { readBuildOutput } from '../core/build-output.js';
import { celExpr, type CelExpr } from './cel.js';
import { existsMacro, fieldPath, stringConstant, stringList } from './cel-ast.js';

/**
 * The words a file must contain for a `where` expression to hold on any object in it: a
 * prefilter, so that files no signal can match are not parsed (ripgrep's literal trick, applied
 * to objects). Read from the expression's syntax tree, conservatively:
 *   has(x.field)                    the field's name
 *   x == 'Word', 'Word' == x        the word, x a field as the file holds it (not `f.lowerAscii()`)
 *   x in ['A', 'B']                 one of the words, x as above
 *   a && b                          what either side requires (a value before a field name, which
 *                                   most objects of a kind hold; then fewer and longer words)
 *   a || b                          one of what each side requires (nothing when one side requires nothing)
 *   list.exists(c, p)               what p requires
 * Anything else requires nothing. Only words that YAML and JSON write verbatim count (letters,
 * digits, `_`, `.`, `-`; three or more): a value can be quoted or not, never split or escaped.
 * Undefined means no requirement: the file is always read.
 */
export function literalsRequiredBy(expression: string): readonly string[] | undefined {
  if (!REQUIRED.has(expression)) {
    const built = prebuiltWords()[expression];
    REQUIRED.set(expression, built !== undefined ? (built ?? undefined) : wordsOf(expression));
  }
  return REQUIRED.get(expression);
}

/**
 * The words of the pack's expressions, found at build time (`scripts/pack-prebuilt.mjs`): finding
 * them reads every expression's syntax tree, a tenth of a second at each start. By text, so a
 * user's copy of a built-in expression takes them too; `null`: the expression requires nothing.
 */
let prebuilt: Record<string, readonly string[] | null> | undefined;
function prebuiltWords(): Record<string, readonly string[] | null> {
  // Without it (the tests' sources, the single file) the words are found from the trees.
  prebuilt ??= readBuildOutput<Record<string, readonly string[] | null>>('./cel-words.json', import.meta.url, {});
  return prebuilt;
}

/** None for a text that does not parse (its program's first run reports that). */
function wordsOf(expression: string): readonly string[] | undefined {
  try {
    const expr = celExpr(expression);
    return expr ? requiredBy(expr)?.words : undefined;
  } catch {
    return undefined;
  }
}

const REQUIRED = new Map<string, readonly string[] | undefined>();

/** Words one of which a file must hold; `fields` when they are only field names (weak: the kind's objects share them). */
interface Requirement {
  words: readonly string[];
  fields: boolean;
}
const VERBATIM = /^[A-Za-z0-9_.-]{3,}$/;

/** Whether a text is a word YAML and JSON write as it is (never quoted apart, split or escaped), long enough to search for. */
export function isVerbatimWord(text: string): boolean {
  return VERBATIM.test(text);
}

function requiredBy(expr: CelExpr): Requirement | undefined {
  const kind = expr.exprKind;
  if (kind.case === 'selectExpr') return kind.value.testOnly ? word(kind.value.field, true) : undefined;
  if (kind.case === 'comprehensionExpr') {
    const exists = existsMacro(expr);
    return exists && requiredBy(exists.predicate);
  }
  if (kind.case !== 'callExpr') return undefined;
  const { function: fn, args } = kind.value;
  if (fn === '_&&_' && args.length === 2) return stronger(requiredBy(args[0]!), requiredBy(args[1]!));
  if (fn === '_||_' && args.length === 2) {
    const left = requiredBy(args[0]!);
    const right = requiredBy(args[1]!);
    return left && right ? { words: [...new Set([...left.words, ...right.words])], fields: left.fields || right.fields } : undefined;
  }
  if (fn === '_==_' && args.length === 2) {
    // Only a field read as it is: `f.lowerAscii() == 'degraded'` holds on `Degraded` in the file.
    const [left, right] = args as [CelExpr, CelExpr];
    if (isFieldRead(left)) return word(stringConstant(right), false);
    if (isFieldRead(right)) return word(stringConstant(left), false);
    return undefined;
  }
  if (fn === '@in' && args.length === 2 && isFieldRead(args[0]!)) {
    const words = stringList(args[1]!);
    if (!words || words.length === 0 || !words.every((text) => VERBATIM.test(text))) return undefined;
    return { words: [...new Set(words)], fields: false };
  }
  return undefined;
}

/** A variable, a field of one (`c.type`), or a key of one (`labels['role']`): a value as the file holds it. */
function isFieldRead(expr: CelExpr): boolean {
  return fieldPath(expr) !== undefined;
}

function word(text: string | undefined, fields: boolean): Requirement | undefined {
  return text !== undefined && VERBATIM.test(text) ? { words: [text], fields } : undefined;
}

/** Of two requirements both of which hold, the one more files fail: a value's, then fewer alternatives, then longer words. */
function stronger(a: Requirement | undefined, b: Requirement | undefined): Requirement | undefined {
  if (!a) return b;
  if (!b) return a;
  if (a.fields !== b.fields) return a.fields ? b : a;
  if (a.words.length !== b.words.length) return a.words.length < b.words.length ? a : b;
  const shortest = (r: Requirement): number => Math.min(...r.words.map((w) => w.length));
  return shortest(b) > shortest(a) ? b : a;
}
