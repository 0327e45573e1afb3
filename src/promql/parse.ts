/**
 * PromQL text → a small expression tree, on the Prometheus project's own grammar
 * (`@prometheus-io/lezer-promql`). Only the subset that update-risk queries use is accepted;
 * anything else is refused with the construct named (`offset`, `rate()`, a subquery, ...), so a
 * caller can say "could not evaluate" instead of guessing.
 */
import { parser } from '@prometheus-io/lezer-promql';
import type { SyntaxNode } from '@lezer/common';

export type MatchOp = '=' | '!=' | '=~' | '!~';
export interface Matcher {
  label: string;
  op: MatchOp;
  value: string;
}

export type AggregateOp = 'group' | 'count' | 'sum' | 'max' | 'min' | 'topk' | 'bottomk';
export type OverTimeFunction = 'max_over_time' | 'min_over_time' | 'avg_over_time' | 'sum_over_time' | 'last_over_time' | 'count_over_time';
export type ArithmeticOp = '+' | '-' | '*' | '/' | '%' | '^';
export type ComparisonOp = '==' | '!=' | '>' | '<' | '>=' | '<=';
export type SetOp = 'and' | 'or' | 'unless';
export type BinaryOp = ArithmeticOp | ComparisonOp | SetOp;

export interface VectorMatching {
  /** `on (…)` when true, `ignoring (…)` when false. */
  on: boolean;
  labels: string[];
  /** `group_left (…)` / `group_right (…)`: the side with many samples, and the labels copied from the other side. */
  group?: { side: 'left' | 'right'; include: string[] } | undefined;
}

export type Expr =
  | { type: 'number'; value: number }
  | { type: 'string'; value: string }
  | { type: 'selector'; metric: string; matchers: Matcher[]; rangeMs?: number | undefined }
  | { type: 'aggregate'; op: AggregateOp; grouping?: { without: boolean; labels: string[] } | undefined; param?: Expr | undefined; expr: Expr }
  | { type: 'over-time'; func: OverTimeFunction; expr: Expr }
  | { type: 'label-replace'; expr: Expr; dst: string; replacement: string; src: string; regex: string }
  | { type: 'binary'; op: BinaryOp; bool: boolean; matching?: VectorMatching | undefined; left: Expr; right: Expr }
  | { type: 'negate'; expr: Expr };

/** Thrown for text that is not PromQL, or PromQL outside the supported subset (`construct` names it). */
export class PromqlError extends Error {
  constructor(
    message: string,
    readonly construct?: string,
  ) {
    super(message);
  }
}

const AGGREGATES: Record<string, AggregateOp> = { Group: 'group', Count: 'count', Sum: 'sum', Max: 'max', Min: 'min', Topk: 'topk', Bottomk: 'bottomk' };
const OVER_TIME: Record<string, OverTimeFunction> = {
  MaxOverTime: 'max_over_time',
  MinOverTime: 'min_over_time',
  AvgOverTime: 'avg_over_time',
  SumOverTime: 'sum_over_time',
  LastOverTime: 'last_over_time',
  CountOverTime: 'count_over_time',
};
const BINARY: Record<string, BinaryOp> = {
  Add: '+', Sub: '-', Mul: '*', Div: '/', Mod: '%', Pow: '^',
  Eql: '==', Neq: '!=', Gtr: '>', Lss: '<', Gte: '>=', Lte: '<=',
  And: 'and', Or: 'or', Unless: 'unless',
};
const MATCH_OPS: Record<string, MatchOp> = { EqlSingle: '=', Neq: '!=', EqlRegex: '=~', NeqRegex: '!~' };
/** Node names of constructs outside the subset, as a person would call them. */
const REFUSED: Record<string, string> = {
  OffsetExpr: 'offset',
  SubqueryExpr: 'subquery',
  StepInvariantExpr: '@ modifier',
  QuotedLabelMatcher: 'quoted label name',
  QuotedLabelName: 'quoted label name',
};

/** Parses a query; throws {@link PromqlError} for a syntax error or a construct outside the subset. */
export function parsePromql(text: string): Expr {
  const tree = parser.parse(text);
  let error: number | undefined;
  tree.iterate({
    enter(node) {
      if (node.type.isError && error === undefined) error = node.from;
    },
  });
  if (error !== undefined) throw new PromqlError(`PromQL syntax error at offset ${error}: ${JSON.stringify(text.slice(error, error + 20))}`);
  const top = tree.topNode.firstChild;
  if (!top) throw new PromqlError('empty PromQL query');
  return new Reader(text).expr(top);
}

class Reader {
  constructor(private readonly text: string) {}

  private src(node: SyntaxNode): string {
    return this.text.slice(node.from, node.to);
  }

  expr(node: SyntaxNode): Expr {
    switch (node.name) {
      case 'ParenExpr':
        return this.expr(this.only(node));
      case 'NumberDurationLiteral':
        return { type: 'number', value: parseNumber(this.src(node)) };
      case 'StringLiteral':
        return { type: 'string', value: unquote(this.src(node)) };
      case 'VectorSelector':
        return this.selector(node);
      case 'MatrixSelector': {
        const selector = this.selector(this.child(node, 'VectorSelector'));
        return { ...selector, rangeMs: parseDuration(this.src(this.child(node, 'DurationExpr'))) };
      }
      case 'UnaryExpr': {
        const op = this.src(this.child(node, 'UnaryOp'));
        const operand = this.expr(this.children(node).find((c) => c.name !== 'UnaryOp')!);
        if (op === '+') return operand;
        return operand.type === 'number' ? { type: 'number', value: -operand.value } : { type: 'negate', expr: operand };
      }
      case 'AggregateExpr':
        return this.aggregate(node);
      case 'FunctionCall':
        return this.call(node);
      case 'BinaryExpr':
        return this.binary(node);
      default:
        throw new PromqlError(`unsupported PromQL construct: ${REFUSED[node.name] ?? node.name}`, REFUSED[node.name] ?? node.name);
    }
  }

  private selector(node: SyntaxNode): Expr & { type: 'selector' } {
    const name = node.getChild('Identifier');
    const matchers: Matcher[] = [];
    const list = node.getChild('LabelMatchers');
    for (const m of list ? this.children(list) : []) {
      if (m.name !== 'UnquotedLabelMatcher') throw new PromqlError(`unsupported PromQL construct: ${REFUSED[m.name] ?? m.name}`, REFUSED[m.name] ?? m.name);
      const op = MATCH_OPS[this.only(this.child(m, 'MatchOp')).name];
      if (!op) throw new PromqlError(`unsupported label matcher in ${this.src(m)}`, 'label matcher');
      matchers.push({ label: this.src(this.child(m, 'LabelName')), op, value: unquote(this.src(this.child(m, 'StringLiteral'))) });
    }
    let metric = name ? this.src(name) : '';
    const byName = matchers.findIndex((m) => m.label === '__name__' && m.op === '=');
    if (metric === '' && byName >= 0) metric = matchers.splice(byName, 1)[0]!.value;
    if (metric === '') throw new PromqlError(`a selector without a metric name is not supported: ${this.src(node)}`, 'selector without metric name');
    return { type: 'selector', metric, matchers };
  }

  private aggregate(node: SyntaxNode): Expr {
    const opNode = this.only(this.child(node, 'AggregateOp'));
    const op = AGGREGATES[opNode.name];
    if (!op) throw new PromqlError(`unsupported PromQL aggregation: ${this.src(opNode)}`, this.src(opNode));
    const modifier = node.getChild('AggregateModifier');
    const grouping = modifier
      ? { without: modifier.getChild('Without') !== null, labels: this.labels(this.child(modifier, 'GroupingLabels')) }
      : undefined;
    const args = this.children(this.child(node, 'FunctionCallBody')).map((c) => this.expr(c));
    const wanted = op === 'topk' || op === 'bottomk' ? 2 : 1;
    if (args.length !== wanted) throw new PromqlError(`${op} takes ${wanted} argument(s), not ${args.length}`);
    return wanted === 2 ? { type: 'aggregate', op, grouping, param: args[0], expr: args[1]! } : { type: 'aggregate', op, grouping, expr: args[0]! };
  }

  private call(node: SyntaxNode): Expr {
    const fnNode = this.only(this.child(node, 'FunctionIdentifier'));
    const fn = this.src(fnNode);
    const args = this.children(this.child(node, 'FunctionCallBody')).map((c) => this.expr(c));
    const overTime = OVER_TIME[fnNode.name];
    if (overTime) {
      const arg = args[0];
      if (args.length !== 1 || arg?.type !== 'selector' || arg.rangeMs === undefined) throw new PromqlError(`${fn} takes one range selector`);
      return { type: 'over-time', func: overTime, expr: arg };
    }
    if (fnNode.name === 'LabelReplace') {
      const [expr, ...strings] = args;
      if (!expr || strings.length !== 4 || strings.some((s) => s.type !== 'string')) throw new PromqlError('label_replace takes a vector and four strings');
      const [dst, replacement, src, regex] = strings.map((s) => (s as { value: string }).value) as [string, string, string, string];
      return { type: 'label-replace', expr, dst, replacement, src, regex };
    }
    throw new PromqlError(`unsupported PromQL function: ${fn}()`, `${fn}()`);
  }

  private binary(node: SyntaxNode): Expr {
    const parts = this.children(node);
    const left = parts[0]!;
    const right = parts[parts.length - 1]!;
    const opNode = parts[1]!;
    const op = BINARY[opNode.name];
    if (!op) throw new PromqlError(`unsupported PromQL operator: ${this.src(opNode)}`, this.src(opNode));
    let bool = false;
    let matching: VectorMatching | undefined;
    for (const part of parts.slice(2, -1)) {
      if (part.name === 'BoolModifier') bool = true;
      else if (part.name === 'MatchingModifierClause') matching = this.matching(part);
      else throw new PromqlError(`unsupported PromQL construct: ${part.name}`, part.name);
    }
    return { type: 'binary', op, bool, matching, left: this.expr(left), right: this.expr(right) };
  }

  private matching(node: SyntaxNode): VectorMatching {
    const parts = this.children(node);
    const on = parts[0]?.name === 'On';
    const lists = parts.filter((p) => p.name === 'GroupingLabels');
    const side = parts.find((p) => p.name === 'GroupLeft' || p.name === 'GroupRight');
    return {
      on,
      labels: lists[0] ? this.labels(lists[0]) : [],
      group: side ? { side: side.name === 'GroupLeft' ? 'left' : 'right', include: lists[1] ? this.labels(lists[1]) : [] } : undefined,
    };
  }

  private labels(node: SyntaxNode): string[] {
    return this.children(node).map((c) => {
      if (c.name !== 'LabelName') throw new PromqlError(`unsupported grouping label ${this.src(c)}`, 'quoted label name');
      return this.src(c);
    });
  }

  private children(node: SyntaxNode): SyntaxNode[] {
    const out: SyntaxNode[] = [];
    for (let c = node.firstChild; c; c = c.nextSibling) out.push(c);
    return out;
  }

  private child(node: SyntaxNode, name: string): SyntaxNode {
    const c = node.getChild(name);
    if (!c) throw new PromqlError(`malformed ${node.name}: no ${name}`);
    return c;
  }

  private only(node: SyntaxNode): SyntaxNode {
    const c = node.firstChild;
    if (!c) throw new PromqlError(`malformed ${node.name}`);
    return c;
  }
}

function parseNumber(text: string): number {
  const lower = text.toLowerCase();
  if (lower === 'inf' || lower === '+inf') return Infinity;
  if (lower === 'nan') return NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new PromqlError(`unsupported number literal ${text}`, 'duration literal');
  return value;
}

const UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, y: 31_536_000_000 };

/** `1h`, `5m30s`, `90`: a range in ms. */
function parseDuration(text: string): number {
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  let total = 0;
  const re = /(\d+)(ms|s|m|h|d|w|y)/gy;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = re.exec(text))) {
    total += Number(m[1]) * UNITS_MS[m[2]!]!;
    end = re.lastIndex;
  }
  if (end !== text.length || end === 0) throw new PromqlError(`unsupported range ${text}`, 'range');
  return total;
}

/** A PromQL string literal: "…" or '…' with Go escapes, or `…` raw. */
function unquote(text: string): string {
  const quote = text[0];
  const body = text.slice(1, -1);
  if (quote === '`') return body;
  return body.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[0-7]{3}|.)/g, (_all, esc: string) => {
    switch (esc[0]) {
      case 'n': return '\n';
      case 't': return '\t';
      case 'r': return '\r';
      case 'a': return '\x07';
      case 'b': return '\b';
      case 'f': return '\f';
      case 'v': return '\v';
      case 'u': return String.fromCharCode(parseInt(esc.slice(1), 16));
      case 'x': return String.fromCharCode(parseInt(esc.slice(1), 16));
      default:
        return /^[0-7]{3}$/.test(esc) ? String.fromCharCode(parseInt(esc, 8)) : esc;
    }
  });
}

/** The metric names the selectors of an expression read. */
export function selectedMetrics(expr: Expr, into = new Set<string>()): Set<string> {
  switch (expr.type) {
    case 'selector':
      into.add(expr.metric);
      break;
    case 'aggregate':
      if (expr.param) selectedMetrics(expr.param, into);
      selectedMetrics(expr.expr, into);
      break;
    case 'over-time':
    case 'label-replace':
    case 'negate':
      selectedMetrics(expr.expr, into);
      break;
    case 'binary':
      selectedMetrics(expr.left, into);
      selectedMetrics(expr.right, into);
      break;
    case 'number':
    case 'string':
      break;
  }
  return into;
}
