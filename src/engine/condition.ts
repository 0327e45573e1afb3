/**
 * A rule's `condition`: signal names joined by `and`, `or`, `not` and parentheses, evaluated
 * in three-valued (Kleene) logic. A signal is `true` (matched), `false` (its data was read and
 * nothing matched) or `unknown` (the archive lacks its data); a condition that comes out
 * `unknown` makes the rule *not checked* instead of silently passed.
 */
export type Truth = true | false | 'unknown';

export type ConditionNode =
  | { op: 'signal'; name: string }
  | { op: 'not'; arg: ConditionNode }
  | { op: 'and' | 'or'; args: ConditionNode[] };

export class ConditionSyntaxError extends Error {}

const TOKEN = /\s*(\(|\)|[A-Za-z_][A-Za-z0-9_]*|\S)/y;

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
    const name = peek();
    if (name === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || ['and', 'or', 'not'].includes(name)) {
      throw new ConditionSyntaxError(`expected a signal name at token ${pos + 1} of "${text}"`);
    }
    pos++;
    return { op: 'signal', name };
  };
  const node = parseOr();
  if (pos !== tokens.length) throw new ConditionSyntaxError(`unexpected '${tokens[pos]}' in "${text}"`);
  return node;
}

/** The condition that holds when every signal matched (the default). */
export function allOf(names: readonly string[]): ConditionNode {
  return { op: 'and', args: names.map((name) => ({ op: 'signal', name })) };
}

/** A condition as a rule writes it (`not still_pending`, `a and (b or c)`). */
export function conditionText(node: ConditionNode): string {
  switch (node.op) {
    case 'signal':
      return node.name;
    case 'not':
      return `not ${node.arg.op === 'signal' || node.arg.op === 'not' ? conditionText(node.arg) : `(${conditionText(node.arg)})`}`;
    default:
      return node.args.map((arg) => (arg.op === 'and' || arg.op === 'or' ? `(${conditionText(arg)})` : conditionText(arg))).join(` ${node.op} `);
  }
}

export function signalNames(node: ConditionNode): string[] {
  switch (node.op) {
    case 'signal':
      return [node.name];
    case 'not':
      return signalNames(node.arg);
    default:
      return node.args.flatMap(signalNames);
  }
}

export function evaluateCondition(node: ConditionNode, value: (signal: string) => Truth): Truth {
  switch (node.op) {
    case 'signal':
      return value(node.name);
    case 'not': {
      const inner = evaluateCondition(node.arg, value);
      return inner === 'unknown' ? 'unknown' : !inner;
    }
    case 'and': {
      let result: Truth = true;
      for (const arg of node.args) {
        const v = evaluateCondition(arg, value);
        if (v === false) return false;
        if (v === 'unknown') result = 'unknown';
      }
      return result;
    }
    case 'or': {
      let result: Truth = false;
      for (const arg of node.args) {
        const v = evaluateCondition(arg, value);
        if (v === true) return true;
        if (v === 'unknown') result = 'unknown';
      }
      return result;
    }
  }
}
