/**
 * Known update risks evaluated offline, with the cluster-version operator's semantics
 * (openshift/cluster-version-operator `pkg/clusterconditions`, read for this module):
 *
 * - `conditionRegistry.Match` walks `matchingRules` in order; an unrecognised type is skipped;
 *   the first rule that evaluates without error decides; when none does, the risk cannot be
 *   evaluated (the errors aggregated).
 * - `Always` matches.
 * - `PromQL.Match` runs the query at one instant; the result must be a vector of exactly one
 *   sample, and its value 0 (does not apply) or 1 (applies); anything else is an error.
 *
 * mgsift adds one outcome the CVO does not have: *unknown*, when the archive cannot show what
 * the query reads (a gap or an unknown value, see facts/metrics.ts) or the query is outside the
 * supported PromQL subset. Unlike a CVO error, unknown stops the walk: in the cluster that rule
 * might have decided, so falling through to the next rule could give a verdict the CVO would not.
 */
import { EvaluationError, evaluate, PromqlError, type Expr, type MetricSource, type Sample } from '../promql/index.js';
import { parseQuery, type BlockedEdge, type MatchingRule } from './load.js';

export type Verdict = 'applies' | 'does-not-apply' | 'unknown';

export interface RiskEvidence {
  /** The result sample's labels, `{type="AWS"}`. */
  labels: string;
  value?: number | undefined;
  /** Archive files the sample came from. */
  sources: string[];
}

export interface RiskVerdict {
  name: string;
  url?: string | undefined;
  message?: string | undefined;
  /** The blocked-edges file. */
  file: string;
  verdict: Verdict;
  /** Why: the rule that decided, or why none could. */
  reason: string;
  /** The decisive query, when a PromQL rule decided (or was tried). */
  promql?: string | undefined;
  evidence: RiskEvidence[];
}

export interface RuleOutcome {
  verdict: Verdict;
  reason: string;
  promql?: string | undefined;
  evidence: RiskEvidence[];
}

/** Evaluates rule lists, each distinct list once (the same risk spans many files). */
export class RiskEvaluator {
  private readonly cache = new Map<string, RuleOutcome>();
  private readonly parsed: Map<string, Expr | PromqlError>;

  /** `parsed`: queries parsed already (`RiskData.queries`), shared: the queries parsed here are added to it. */
  constructor(
    private readonly metrics: MetricSource,
    parsed?: Map<string, Expr | PromqlError>,
  ) {
    this.parsed = parsed ?? new Map();
  }

  verdict(edge: BlockedEdge): RiskVerdict {
    const key = JSON.stringify(edge.matchingRules);
    let outcome = this.cache.get(key);
    if (!outcome) this.cache.set(key, (outcome = this.match(edge.matchingRules)));
    return { name: edge.name ?? '', url: edge.url, message: edge.message, file: edge.file, ...outcome };
  }

  /** `conditionRegistry.Match`, with mgsift's unknown. */
  match(rules: readonly MatchingRule[]): RuleOutcome {
    const errors: string[] = [];
    for (const rule of rules) {
      if (rule.type === 'unknown') continue;
      if (rule.type === 'Always') return { verdict: 'applies', reason: 'matching rule Always', evidence: [] };
      const outcome = this.promql(rule.promql);
      if ('error' in outcome) {
        errors.push(outcome.error);
        continue;
      }
      return outcome;
    }
    // No rule at all: the CVO's Match returns false without error.
    if (rules.length === 0) return { verdict: 'does-not-apply', reason: 'no matching rules', evidence: [] };
    return { verdict: 'unknown', reason: errors.length > 0 ? `the cluster could not evaluate it either: ${errors.join('; ')}` : 'no recognised matching rule', evidence: [] };
  }

  /** `PromQL.Match`: applies at one sample of 1, does not at 0; an error for anything else. */
  private promql(query: string): RuleOutcome | { error: string } {
    let expr = this.parsed.get(query);
    if (!expr) this.parsed.set(query, (expr = parseQuery(query)));
    if (expr instanceof PromqlError) return { verdict: 'unknown', reason: `mgsift cannot evaluate this query: ${expr.message}`, promql: query, evidence: [] };
    let result;
    try {
      result = evaluate(expr, this.metrics);
    } catch (err) {
      if (err instanceof EvaluationError) return { error: `PromQL error: ${err.message}` };
      throw err;
    }
    if (result.kind !== 'vector') return { error: `invalid PromQL result type is ${result.kind}, not vector` };
    const evidence = result.samples.map(toEvidence);
    if (result.gaps.length > 0) return { verdict: 'unknown', reason: `the archive cannot tell: ${result.gaps.join('; ')}`, promql: query, evidence };
    if (result.samples.length !== 1) return { error: `invalid PromQL result length must be one, but is ${result.samples.length}` };
    const sample = result.samples[0]!;
    if (sample.value === undefined) return { verdict: 'unknown', reason: `the archive cannot tell: ${sample.unknown ?? 'the value is unknown'}`, promql: query, evidence };
    if (sample.value === 1) return { verdict: 'applies', reason: `PromQL returned 1 ${evidence[0]?.labels ?? ''}`.trim(), promql: query, evidence };
    if (sample.value === 0) return { verdict: 'does-not-apply', reason: `PromQL returned 0 ${evidence[0]?.labels ?? ''}`.trim(), promql: query, evidence };
    return { error: `invalid PromQL result (must be 0 or 1): ${sample.value}` };
  }
}

function toEvidence(sample: Sample): RiskEvidence {
  const labels = Object.entries(sample.labels)
    .filter(([k]) => k !== '__name__')
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(',');
  return { labels: `{${labels}}`, value: sample.value, sources: [...sample.sources] };
}
