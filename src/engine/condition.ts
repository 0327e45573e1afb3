/**
 * A rule's `condition`: signal names joined by `and`, `or`, `not` and parentheses, evaluated
 * in three-valued (Kleene) logic. A signal is `true` (matched), `false` (its data was read and
 * nothing matched) or `unknown` (the archive lacks its data); a condition that comes out
 * `unknown` makes the rule *not checked* instead of silently passed.
 *
 * Two more terms: `name >= 3` (also `>`, `<=`, `<`, `==`) compares how many pieces of evidence
 * the signal matched (unknown when its data is missing), so "repeatedly" can mean repeatedly;
 * `absent(name)` is true when the archive lacks the signal's data and false otherwise (never
 * unknown), for a rule that reads other evidence only when the best one is missing.
 */
export type Truth = true | false | 'unknown';

export type Comparison = '>=' | '>' | '<=' | '<' | '==';

export type ConditionNode =
  | { op: 'signal'; name: string }
  | { op: 'count'; name: string; compare: Comparison; value: number }
  | { op: 'absent'; name: string }
  | { op: 'not'; arg: ConditionNode }
  | { op: 'and' | 'or'; args: ConditionNode[] };

/** What a condition reads of each signal. */
export interface SignalValues {
  truth(name: string): Truth;
  /** Evidence matched, those dropped by the cap included. */
  count(name: string): number;
  /**
   * False when part of the signal's scope was not read or not gathered: what matched is a lower
   * bound, so "nothing matched" and "fewer than n" are unknown. Absent: every signal is complete.
   */
  complete?(name: string): boolean;
}

export class ConditionSyntaxError extends Error {}

const TOKEN = /\s*(\(|\)|>=|<=|==|>|<|[0-9]+|[A-Za-z_][A-Za-z0-9_]*|\S)/y;
const COMPARISONS: readonly string[] = ['>=', '>', '<=', '<', '=='];
const KEYWORDS: readonly string[] = ['and', 'or', 'not', 'absent'];

export function parseCondition(text: string): ConditionNode {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) tokens.push(m[1]!);
  let pos = 0;
  const peek = (): string | undefined => tokens[pos];
  const expect = (what: string): void => {
    if (tokens[pos] !== what) throw new ConditionSyntaxError(`expected '${what}' at token ${pos + 1} of "${text}"`);
    pos++;
  };
  const parseOr = (): ConditionNode => {
    const args = [parseAnd()];
    while (peek() === 'or') {
      pos++;
      args.push(parseAnd());
    }
    return args.length === 1 ? args[0]! : { op: 'or', args };
  };
  const parseAnd = (): ConditionNode => {
    const args = [parseNot()];
    while (peek() === 'and') {
      pos++;
      args.push(parseNot());
    }
    return args.length === 1 ? args[0]! : { op: 'and', args };
  };
  const parseNot = (): ConditionNode => {
    if (peek() === 'not') {
      pos++;
      return { op: 'not', arg: parseNot() };
    }
    if (peek() === '(') {
      pos++;
      const inner = parseOr();
      expect(')');
      return inner;
    }
    if (peek() === 'absent') {
      pos++;
      expect('(');
      const name = signalName();
      expect(')');
      return { op: 'absent', name };
    }
    const name = signalName();
    const compare = peek();
    if (compare !== undefined && COMPARISONS.includes(compare)) {
      pos++;
      const value = peek();
      if (value === undefined || !/^[0-9]+$/.test(value)) throw new ConditionSyntaxError(`expected a number after '${compare}' in "${text}"`);
      pos++;
      return { op: 'count', name, compare: compare as Comparison, value: Number(value) };
    }
    return { op: 'signal', name };
  };
  const signalName = (): string => {
    const name = peek();
    if (name === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || KEYWORDS.includes(name)) {
      throw new ConditionSyntaxError(`expected a signal name at token ${pos + 1} of "${text}"`);
    }
    pos++;
    return name;
  };
  const node = parseOr();
  if (pos !== tokens.length) throw new ConditionSyntaxError(`unexpected '${tokens[pos]}' in "${text}"`);
  return node;
}

/** The condition that holds when every signal matched (the default). */
export function allOf(names: readonly string[]): ConditionNode {
  return { op: 'and', args: names.map((name) => ({ op: 'signal', name })) };
}

/** A condition as a rule writes it (`not still_pending`, `a and (b or c)`, `lost >= 2`, `absent(x)`). */
export function conditionText(node: ConditionNode): string {
  switch (node.op) {
    case 'signal':
      return node.name;
    case 'count':
      return `${node.name} ${node.compare} ${node.value}`;
    case 'absent':
      return `absent(${node.name})`;
    case 'not':
      return `not ${node.arg.op === 'and' || node.arg.op === 'or' ? `(${conditionText(node.arg)})` : conditionText(node.arg)}`;
    case 'and':
    case 'or':
      return node.args.map((arg) => (arg.op === 'and' || arg.op === 'or' ? `(${conditionText(arg)})` : conditionText(arg))).join(` ${node.op} `);
  }
}

export function signalNames(node: ConditionNode): string[] {
  switch (node.op) {
    case 'signal':
    case 'count':
    case 'absent':
      return [node.name];
    case 'not':
      return signalNames(node.arg);
    default:
      return node.args.flatMap(signalNames);
  }
}

export function evaluateCondition(node: ConditionNode, signals: SignalValues): Truth {
  switch (node.op) {
    case 'signal': {
      const truth = signals.truth(node.name);
      return truth === false && signals.complete?.(node.name) === false ? 'unknown' : truth;
    }
    case 'count': {
      if (signals.truth(node.name) === 'unknown') return 'unknown';
      const count = signals.count(node.name);
      const result = compareCount(count, node.compare, node.value);
      if (signals.complete?.(node.name) !== false) return result;
      // More data can only raise the count: keep only what a higher count cannot change.
      if (node.compare === '>=' || node.compare === '>') return result ? true : 'unknown';
      if (node.compare === '<=' || node.compare === '<') return result ? 'unknown' : false;
      return count > node.value ? false : 'unknown';
    }
    case 'absent':
      return signals.truth(node.name) === 'unknown';
    case 'not': {
      const inner = evaluateCondition(node.arg, signals);
      return inner === 'unknown' ? 'unknown' : !inner;
    }
    case 'and': {
      let result: Truth = true;
      for (const arg of node.args) {
        const v = evaluateCondition(arg, signals);
        if (v === false) return false;
        if (v === 'unknown') result = 'unknown';
      }
      return result;
    }
    case 'or': {
      let result: Truth = false;
      for (const arg of node.args) {
        const v = evaluateCondition(arg, signals);
        if (v === true) return true;
        if (v === 'unknown') result = 'unknown';
      }
      return result;
    }
  }
}

function compareCount(count: number, compare: Comparison, value: number): boolean {
  switch (compare) {
    case '>=':
      return count >= value;
    case '>':
      return count > value;
    case '<=':
      return count <= value;
    case '<':
      return count < value;
    case '==':
      return count === value;
  }
}
