/**
 * The pack's verdict on one item of a fact outside a run of the rules: whether some rule would
 * take it as evidence of a problem. Views that list a fact's items (the timeline's alerts) ask
 * here, so what the rules leave out by design (a heartbeat alert, an informational one) is left
 * out there too, from the rules' own `where`, never from a list of names kept beside them.
 */
import { severityRank } from './findings.js';
import type { FactSignal, Rule } from './rule.js';

/**
 * A test of a fact's items: true when a signal over `fact` of a rule that can raise a finding
 * at warning or above accepts the item (a signal with no `where` accepts every item). Undefined
 * when no such rule reads the fact: the pack has no verdict on it.
 */
export function problemItems(rules: readonly Rule[], fact: string): ((item: unknown, bindings: Record<string, unknown>) => boolean) | undefined {
  const warning = severityRank('warning');
  const signals = rules
    .filter((rule) => Math.max(severityRank(rule.severity), ...rule.severityWhen.map((s) => severityRank(s.severity))) >= warning)
    .flatMap((rule) => rule.signals)
    .filter((signal): signal is FactSignal => signal.type === 'fact' && signal.fact === fact);
  if (signals.length === 0) return undefined;
  return (item, bindings) => signals.some((signal) => signal.where === undefined || signal.where({ ...bindings, item }));
}
