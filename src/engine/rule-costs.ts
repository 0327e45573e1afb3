import { performance } from 'node:perf_hooks';

/**
 * The time each rule takes of an analysis, on this thread: its signals' matching (CEL, regexes,
 * evidence kept) and its evaluation at the end. A program or regex that several rules share is
 * charged to the first that runs it on an item. Asked for by `--rule-costs` (and the bench).
 */
export class RuleCosts {
  private readonly spent = new Map<string, number>();

  now(): number {
    return performance.now();
  }

  charge(ruleId: string, since: number): void {
    this.spent.set(ruleId, (this.spent.get(ruleId) ?? 0) + performance.now() - since);
  }

  /** The costliest rules first, in milliseconds (a tenth of one kept). */
  costliest(count: number): { rule: string; ms: number }[] {
    return [...this.spent]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([rule, ms]) => ({ rule, ms: Math.round(ms * 10) / 10 }));
  }
}
