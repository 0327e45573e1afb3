/**
 * Signals of several rules written alike are matched once (the first rule's) and the others get a
 * copy of what it held: each rule's verdict, evidence and resolution must be what it has alone.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRuleText } from '../../src/engine/load.js';
import type { Rule } from '../../src/engine/rule.js';

// The real azure must-gather, trimmed: four SyncLoadBalancerFailed events on Service
// openshift-ingress/router-default, then EnsuredLoadBalancer ones.
const INPUT = fileURLToPath(new URL('../../rules/networking/ingress-loadbalancer-not-ready.fixtures/resolved-ensured-after-failures-azure/input', import.meta.url));

/** `failed` is written the same in every rule; what resolves it (`ensured`) and the cap may differ. */
function lbRule(id: string, ensuredReason: string, maxEvidence = 50): Rule {
  const text = `id: ${id}
title: Load balancer demo ${id}
severity: error
status: experimental
component: demo
condition: failed
maxEvidence: ${maxEvidence}
message: "failed {{signals.failed.count}} times"
signals:
  failed: { event: { reason: '^SyncLoadBalancerFailed$', resolvedBy: [{ signal: ensured }] } }
  ensured: { event: { reason: '^${ensuredReason}$' } }
`;
  const { rule, issues } = loadRuleText(`${id}.yaml`, text, false);
  expect(issues).toEqual([]);
  return rule!;
}

async function findings(rules: Rule[]) {
  const result = (await analyzeInput(INPUT, { limits: DEFAULT_LIMITS, rules })).result!;
  return result.findings.map(({ ruleId, severity, message, resolved, evidence }) => ({ ruleId, severity, message, resolved, evidence }));
}

describe('signals written alike in several rules', () => {
  it('each rule finds, holds and resolves what it finds alone', async () => {
    const resolvedByEnsured = lbRule('lb-resolved', 'EnsuredLoadBalancer');
    const neverResolved = lbRule('lb-present', 'NeverSeenReason');
    const copy = lbRule('lb-resolved-copy', 'EnsuredLoadBalancer');
    const capped = lbRule('lb-capped', 'NeverSeenReason', 2);
    const together = await findings([resolvedByEnsured, neverResolved, copy, capped]);
    const alone = [
      ...(await findings([resolvedByEnsured])),
      ...(await findings([neverResolved])),
      ...(await findings([copy])),
      ...(await findings([capped])),
    ];
    expect(together).toEqual(alone);

    const byId = new Map(together.map((f) => [f.ruleId, f]));
    // The first rule's resolution marks its own items only: the twin that nothing resolves stays present.
    expect(byId.get('lb-resolved')).toMatchObject({ severity: 'info' });
    expect(byId.get('lb-resolved')!.evidence.filter((e) => e.signal === 'failed').every((e) => e.resolved !== undefined)).toBe(true);
    expect(byId.get('lb-present')).toMatchObject({ severity: 'error', message: 'failed 4 times', resolved: undefined });
    expect(byId.get('lb-present')!.evidence.filter((e) => e.signal === 'failed')).toHaveLength(4);
    expect(byId.get('lb-present')!.evidence.every((e) => e.resolved === undefined)).toBe(true);
    // Another evidence cap is another signal: it holds its own two.
    expect(byId.get('lb-capped')!.evidence.filter((e) => e.signal === 'failed')).toHaveLength(2);
    expect(byId.get('lb-capped')).toMatchObject({ message: 'failed 4 times' });
  });

  it('a fact signal is evaluated once for the rules that write it alike, each holding its own copy', async () => {
    const factRule = (id: string, severity: string): Rule => {
      const text = `id: ${id}
title: Collection demo ${id}
severity: ${severity}
status: experimental
component: demo
condition: collected
message: "collected at {{signals.collected.first.data.time}}"
signals:
  collected: { fact: { name: collection, where: 'item.time > 0', summary: 'at {{item.time}}' } }
`;
      const { rule, issues } = loadRuleText(`${id}.yaml`, text, false);
      expect(issues).toEqual([]);
      return rule!;
    };
    const rules = [factRule('fact-first', 'warning'), factRule('fact-twin', 'error')];
    const together = await findings(rules);
    expect(together).toEqual([...(await findings([rules[0]!])), ...(await findings([rules[1]!]))]);
    expect(together.map((f) => [f.ruleId, f.severity, f.evidence.length])).toEqual([
      ['fact-first', 'warning', 1],
      ['fact-twin', 'error', 1],
    ]);
    // Each holds its own item: what marks one does not mark the other.
    expect(together[0]!.evidence[0]).not.toBe(together[1]!.evidence[0]);
  });
});
