/**
 * Instant evaluation of the PromQL subset of {@link parsePromql}, following the Prometheus
 * documentation's semantics, over samples that may be partly unknown.
 *
 * An archive is not a Prometheus: it holds one moment, and it may not show every series. So a
 * vector carries `gaps` (reasons why series may exist that it lacks) and a sample may have an
 * unknown value (`value: undefined`, with the reason in `unknown`). Every operator propagates
 * them conservatively: a gap disappears only where no missing series could change the result
 * (`group()` without grouping over a non-empty vector; `a or on () b` with `a` non-empty drops
 * `b` whatever it holds; `0 * x` is 0 for a finite unknown `x`). A range selector reads the one
 * moment the archive holds, so `max_over_time(x[1h])` is `x` at collection time.
 */
import type { AggregateOp, ArithmeticOp, BinaryOp, ComparisonOp, Expr, Matcher, VectorMatching } from './parse.js';

export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  labels: Labels;
  /** Undefined when the archive cannot tell the value (a count it did not see in full). */
  value: number | undefined;
  /** Why `value` is unknown. */
  unknown?: string | undefined;
  /** Where the sample came from (archive files or objects), for evidence. */
  sources: readonly string[];
}

/** The series of one metric the archive can show, and what it may miss. */
export interface Series {
  samples: readonly Sample[];
  /** Why series matching these matchers may exist that `samples` lacks; undefined when it shows them all. */
  gap?: ((matchers: readonly Matcher[]) => string | undefined) | undefined;
}

export interface MetricSource {
  series(metric: string): Series;
}

export interface Vector {
  kind: 'vector';
  samples: Sample[];
  gaps: string[];
}
export type Value = Vector | { kind: 'scalar'; value: number } | { kind: 'string'; value: string };

/** An evaluation Prometheus itself would fail (many-to-many matching, wrong argument types). */
export class EvaluationError extends Error {}

const NAME = '__name__';
/**
 * Labels no in-cluster series carries: `_id` is Telemetry's cluster id, which the published
 * queries name (`{_id=""}`, `by (_id)`, `on (_id)`) so they run on Telemetry too. Grouping or
 * matching on it is grouping or matching on nothing.
 */
const ABSENT_LABELS = new Set(['_id']);
const MAX_SOURCES = 20;

export function evaluate(expr: Expr, source: MetricSource): Value {
  switch (expr.type) {
    case 'number':
      return { kind: 'scalar', value: expr.value };
    case 'string':
      return { kind: 'string', value: expr.value };
    case 'selector':
      return select(expr.metric, expr.matchers, source);
    case 'over-time':
      return overTime(expr.func, vectorOf(evaluate(expr.expr, source), expr.func));
    case 'label-replace':
      return labelReplace(vectorOf(evaluate(expr.expr, source), 'label_replace'), expr);
    case 'aggregate': {
      const input = vectorOf(evaluate(expr.expr, source), expr.op);
      let k: number | undefined;
      if (expr.param) {
        const param = evaluate(expr.param, source);
        if (param.kind !== 'scalar') throw new EvaluationError(`${expr.op} needs a scalar parameter`);
        k = param.value;
      }
      return aggregate(expr.op, expr.grouping, k, input);
    }
    case 'negate': {
      const value = evaluate(expr.expr, source);
      if (value.kind === 'scalar') return { kind: 'scalar', value: -value.value };
      const v = vectorOf(value, 'unary minus');
      return { kind: 'vector', gaps: v.gaps, samples: v.samples.map((s) => ({ ...s, labels: dropName(s.labels), value: s.value === undefined ? undefined : -s.value })) };
    }
    case 'binary':
      return binary(expr.op, expr.bool, expr.matching, evaluate(expr.left, source), evaluate(expr.right, source));
  }
}

function vectorOf(value: Value, where: string): Vector {
  if (value.kind !== 'vector') throw new EvaluationError(`${where} needs an instant vector, not a ${value.kind}`);
  return value;
}

// ---- selectors ----

function matches(matcher: Matcher, labels: Labels): boolean {
  const value = labels[matcher.label] ?? '';
  switch (matcher.op) {
    case '=':
      return value === matcher.value;
    case '!=':
      return value !== matcher.value;
    case '=~':
      return anchored(matcher.value).test(value);
    case '!~':
      return !anchored(matcher.value).test(value);
  }
}

const regexCache = new Map<string, RegExp>();
/** Prometheus regexes are fully anchored (RE2 syntax; the queries use the part JavaScript shares). */
function anchored(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (!re) {
    try {
      re = new RegExp(`^(?:${pattern})$`, 's');
    } catch {
      throw new EvaluationError(`invalid regular expression ${JSON.stringify(pattern)}`);
    }
    regexCache.set(pattern, re);
  }
  return re;
}

function select(metric: string, matchers: readonly Matcher[], source: MetricSource): Vector {
  const series = source.series(metric);
  const samples = series.samples
    .filter((s) => matchers.every((m) => matches(m, s.labels)))
    .map((s) => ({ ...s, labels: { ...s.labels, [NAME]: metric } }));
  const gap = series.gap?.(matchers);
  return { kind: 'vector', samples, gaps: gap ? [gap] : [] };
}

function overTime(func: string, v: Vector): Vector {
  const samples = v.samples.map((s) => ({ ...s, labels: dropName(s.labels), value: func === 'count_over_time' ? 1 : s.value, unknown: func === 'count_over_time' ? undefined : s.unknown }));
  return { kind: 'vector', samples, gaps: v.gaps };
}

function labelReplace(v: Vector, expr: Expr & { type: 'label-replace' }): Vector {
  if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(expr.dst)) throw new EvaluationError(`invalid label name ${JSON.stringify(expr.dst)}`);
  const re = anchored(expr.regex);
  const samples = v.samples.map((s) => {
    const m = re.exec(s.labels[expr.src] ?? '');
    if (!m) return s;
    const value = expandTemplate(expr.replacement, m);
    const labels = { ...s.labels };
    if (value === '') delete labels[expr.dst];
    else labels[expr.dst] = value;
    return { ...s, labels };
  });
  return { kind: 'vector', samples, gaps: v.gaps };
}

/** Go's `Regexp.Expand`: `$1`, `${1}`, `$name`, `${name}`, `$$`. */
function expandTemplate(template: string, m: RegExpExecArray): string {
  return template.replace(/\$(\$|\{(\w+)\}|(\w+))/g, (_all, whole: string, braced: string | undefined, bare: string | undefined) => {
    if (whole === '$') return '$';
    const ref = braced ?? bare ?? '';
    const group = /^\d+$/.test(ref) ? m[Number(ref)] : m.groups?.[ref];
    return group ?? '';
  });
}

// ---- aggregation ----

function aggregate(op: AggregateOp, grouping: { without: boolean; labels: string[] } | undefined, k: number | undefined, v: Vector): Vector {
  const groups = new Map<string, { labels: Labels; members: Sample[] }>();
  for (const s of v.samples) {
    const labels = groupLabels(s.labels, grouping);
    const key = labelsKey(labels);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { labels, members: [] }));
    group.members.push(s);
  }
  const oneGroup = grouping === undefined || (!grouping.without && grouping.labels.every((l) => ABSENT_LABELS.has(l)));
  if (op === 'topk' || op === 'bottomk') return selectK(op, k ?? 0, [...groups.values()], v.gaps);
  const samples: Sample[] = [];
  const gapReason = v.gaps.join('; ');
  for (const { labels, members } of groups.values()) {
    const sources = mergeSources(members);
    if (op === 'group') {
      samples.push({ labels, value: 1, sources });
      continue;
    }
    if (op === 'count' && v.gaps.length === 0) {
      samples.push({ labels, value: members.length, sources });
      continue;
    }
    const unknown = v.gaps.length > 0 ? gapReason : members.find((m) => m.value === undefined)?.unknown;
    if (unknown !== undefined) {
      samples.push({ labels, value: undefined, unknown, sources });
      continue;
    }
    const values = members.map((m) => m.value as number);
    const value = op === 'sum' || op === 'count' ? values.reduce((a, b) => a + b, 0) : op === 'max' ? Math.max(...values) : Math.min(...values);
    samples.push({ labels, value: op === 'count' ? members.length : value, sources });
  }
  // Missing series can add groups, except when everything falls into one group that already exists.
  const gaps = oneGroup && op === 'group' && samples.length > 0 ? [] : v.gaps;
  return { kind: 'vector', samples, gaps };
}

function selectK(op: 'topk' | 'bottomk', k: number, groups: { members: Sample[] }[], gaps: string[]): Vector {
  const samples: Sample[] = [];
  const extra = [...gaps];
  const n = Math.floor(k);
  for (const { members } of groups) {
    if (n < 1) continue;
    const unknown = members.find((m) => m.value === undefined);
    if (unknown) {
      extra.push(unknown.unknown ?? 'a value is unknown');
      continue;
    }
    // Stable sort: among equal values the first seen is kept.
    const sorted = [...members].sort((a, b) => (op === 'topk' ? (b.value as number) - (a.value as number) : (a.value as number) - (b.value as number)));
    samples.push(...sorted.slice(0, n));
  }
  return { kind: 'vector', samples, gaps: unique(extra) };
}

function groupLabels(labels: Labels, grouping: { without: boolean; labels: string[] } | undefined): Labels {
  if (!grouping) return {};
  const out: Record<string, string> = {};
  if (grouping.without) {
    for (const [k, val] of Object.entries(labels)) if (k !== NAME && !grouping.labels.includes(k)) out[k] = val;
  } else {
    for (const k of grouping.labels) if (labels[k] !== undefined && labels[k] !== '') out[k] = labels[k];
  }
  return out;
}

// ---- binary operators ----

const ARITHMETIC = new Set<BinaryOp>(['+', '-', '*', '/', '%', '^']);
const COMPARISON = new Set<BinaryOp>(['==', '!=', '>', '<', '>=', '<=']);

function binary(op: BinaryOp, bool: boolean, matching: VectorMatching | undefined, left: Value, right: Value): Value {
  if (left.kind === 'string' || right.kind === 'string') throw new EvaluationError(`operator ${op} does not take strings`);
  if (op === 'and' || op === 'or' || op === 'unless') {
    if (left.kind !== 'vector' || right.kind !== 'vector') throw new EvaluationError(`set operator ${op} needs two instant vectors`);
    return setOperation(op, matching, left, right);
  }
  if (left.kind === 'scalar' && right.kind === 'scalar') {
    if (COMPARISON.has(op) && !bool) throw new EvaluationError('comparisons between scalars must use bool');
    const value = scalarOp(op as ArithmeticOp | ComparisonOp, left.value, right.value);
    return { kind: 'scalar', value: COMPARISON.has(op) ? Number(value.keep) : value.value };
  }
  if (left.kind === 'vector' && right.kind === 'vector') return vectorOp(op as ArithmeticOp | ComparisonOp, bool, matching, left, right);
  const vector = (left.kind === 'vector' ? left : right) as Vector;
  const scalar = (left.kind === 'scalar' ? left : right) as { value: number };
  const vectorOnLeft = left.kind === 'vector';
  const samples: Sample[] = [];
  const gaps = [...vector.gaps];
  for (const s of vector.samples) {
    const result = elementOp(op as ArithmeticOp | ComparisonOp, vectorOnLeft ? s.value : scalar.value, vectorOnLeft ? scalar.value : s.value);
    const labels = ARITHMETIC.has(op) || bool ? dropName(s.labels) : s.labels;
    if (result === undefined) {
      if (COMPARISON.has(op) && !bool) gaps.push(s.unknown ?? 'a value is unknown');
      else samples.push({ ...s, labels, value: undefined });
      continue;
    }
    if (COMPARISON.has(op)) {
      if (bool) samples.push({ ...s, labels, value: Number(result.keep), unknown: undefined });
      else if (result.keep) samples.push({ ...s, labels });
      continue;
    }
    samples.push({ ...s, labels, value: result.value, unknown: undefined });
  }
  return { kind: 'vector', samples, gaps: unique(gaps) };
}

/** Undefined when an operand is unknown (and the answer depends on it). */
function elementOp(op: ArithmeticOp | ComparisonOp, a: number | undefined, b: number | undefined): { value: number; keep: boolean } | undefined {
  // Archive values are finite, so a known 0 times an unknown value is 0.
  if (op === '*' && (a === 0 || b === 0)) return { value: 0, keep: true };
  if (a === undefined || b === undefined) return undefined;
  return scalarOp(op, a, b);
}

function scalarOp(op: ArithmeticOp | ComparisonOp, a: number, b: number): { value: number; keep: boolean } {
  switch (op) {
    case '+': return { value: a + b, keep: true };
    case '-': return { value: a - b, keep: true };
    case '*': return { value: a * b, keep: true };
    case '/': return { value: a / b, keep: true };
    case '%': return { value: a % b, keep: true };
    case '^': return { value: a ** b, keep: true };
    // A comparison keeps the left-hand value.
    case '==': return { value: a, keep: a === b };
    case '!=': return { value: a, keep: a !== b };
    case '>': return { value: a, keep: a > b };
    case '<': return { value: a, keep: a < b };
    case '>=': return { value: a, keep: a >= b };
    case '<=': return { value: a, keep: a <= b };
  }
}

function signature(labels: Labels, matching: VectorMatching | undefined): string {
  if (matching?.on) {
    const out: Record<string, string> = {};
    for (const k of matching.labels) if (labels[k]) out[k] = labels[k];
    return labelsKey(out);
  }
  const ignored = matching?.labels ?? [];
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(labels)) if (k !== NAME && !ignored.includes(k) && val !== '') out[k] = val;
  return labelsKey(out);
}

function setOperation(op: 'and' | 'or' | 'unless', matching: VectorMatching | undefined, left: Vector, right: Vector): Vector {
  const rightSigs = new Set(right.samples.map((s) => signature(s.labels, matching)));
  const leftSigs = new Set(left.samples.map((s) => signature(s.labels, matching)));
  if (op === 'or') {
    const added = right.samples.filter((s) => !leftSigs.has(signature(s.labels, matching)));
    // Missing right-hand series are dropped anyway when every signature is the empty one and the left has it.
    const rightGapsMatter = !(matching?.on && matching.labels.every((l) => ABSENT_LABELS.has(l)) && left.samples.length > 0);
    return { kind: 'vector', samples: [...left.samples, ...added], gaps: unique([...left.gaps, ...(rightGapsMatter ? right.gaps : [])]) };
  }
  const kept = left.samples.filter((s) => rightSigs.has(signature(s.labels, matching)) === (op === 'and'));
  // A missing right-hand series could match (and) or remove (unless) a left-hand sample.
  const rightGapsMatter = op === 'and' ? kept.length < left.samples.length : kept.length > 0;
  return { kind: 'vector', samples: kept, gaps: unique([...left.gaps, ...(rightGapsMatter ? right.gaps : [])]) };
}

function vectorOp(op: ArithmeticOp | ComparisonOp, bool: boolean, matching: VectorMatching | undefined, left: Vector, right: Vector): Vector {
  const group = matching?.group;
  // The "one" side, indexed by signature; each signature must be unique there.
  const [many, one] = group?.side === 'right' ? [right, left] : [left, right];
  const oneBySig = new Map<string, Sample>();
  for (const s of one.samples) {
    const sig = signature(s.labels, matching);
    if (oneBySig.has(sig)) {
      throw new EvaluationError(
        `found duplicate series for the match group ${sig} on the ${group?.side === 'right' ? 'left' : 'right'} hand-side of the operation: many-to-many matching not allowed`,
      );
    }
    oneBySig.set(sig, s);
  }
  const seenMany = new Set<string>();
  const samples: Sample[] = [];
  const gaps = unique([...left.gaps, ...right.gaps]);
  for (const m of many.samples) {
    const sig = signature(m.labels, matching);
    if (!group) {
      if (seenMany.has(sig)) throw new EvaluationError(`multiple matches for labels ${sig}: many-to-one matching must be explicit (group_left/group_right)`);
      seenMany.add(sig);
    }
    const o = oneBySig.get(sig);
    if (!o) continue;
    const [l, r] = group?.side === 'right' ? [o, m] : [m, o];
    const result = elementOp(op, l.value, r.value);
    const labels = resultLabels(m.labels, o.labels, op, bool, matching);
    const sources = mergeSources([l, r]);
    if (result === undefined) {
      const unknown = l.value === undefined ? l.unknown : r.unknown;
      if (COMPARISON.has(op) && !bool) gaps.push(unknown ?? 'a value is unknown');
      else samples.push({ labels, value: undefined, unknown, sources });
      continue;
    }
    if (COMPARISON.has(op) && !bool) {
      if (result.keep) samples.push({ labels, value: l.value, unknown: l.unknown, sources });
      continue;
    }
    samples.push({ labels, value: COMPARISON.has(op) ? Number(result.keep) : result.value, sources });
  }
  return { kind: 'vector', samples, gaps: unique(gaps) };
}

function resultLabels(manyLabels: Labels, oneLabels: Labels, op: BinaryOp, bool: boolean, matching: VectorMatching | undefined): Labels {
  let out: Record<string, string> = { ...manyLabels };
  if (ARITHMETIC.has(op) || bool) delete out[NAME];
  if (matching?.group) {
    for (const label of matching.group.include) {
      const value = oneLabels[label];
      if (value) out[label] = value;
      else delete out[label];
    }
  } else if (matching?.on) {
    const kept: Record<string, string> = {};
    for (const label of matching.labels) if (out[label] !== undefined) kept[label] = out[label];
    out = kept;
  } else if (matching) {
    for (const label of matching.labels) delete out[label];
  }
  return out;
}

// ---- helpers ----

function dropName(labels: Labels): Labels {
  if (!(NAME in labels)) return labels;
  const { [NAME]: _name, ...rest } = labels;
  return rest;
}

function labelsKey(labels: Labels): string {
  return JSON.stringify(Object.keys(labels).sort().map((k) => [k, labels[k]]));
}

function mergeSources(samples: readonly Sample[]): string[] {
  const out = new Set<string>();
  for (const s of samples) for (const src of s.sources) if (out.size < MAX_SOURCES) out.add(src);
  return [...out];
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}
