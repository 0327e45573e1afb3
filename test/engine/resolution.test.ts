import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRuleText } from '../../src/engine/load.js';
import { signalsFiringAlone } from '../../src/engine/resolution.js';
import type { Rule } from '../../src/engine/rule.js';

// The real azure must-gather, trimmed: SyncLoadBalancerFailed on Service openshift-ingress/router-default
// (last 15:02:03Z), EnsuredLoadBalancer at 15:02:46Z, 15:04:33Z and 15:05:16Z; collected 15:34:17Z (the last of the timestamp file's times).
const INPUT = fileURLToPath(new URL('../../rules/networking/ingress-loadbalancer-not-ready.fixtures/resolved-ensured-after-failures-azure/input', import.meta.url));
const EVENTS = 'namespaces/openshift-ingress/core/events.yaml';

function demoRule(resolvedBy: string, extraSignals = '', topLevel = ''): Rule {
  const text = `id: lb-demo
title: Load balancer demo
severity: error
status: experimental
component: demo
signals:
  failed:
    event:
      reason: '^SyncLoadBalancerFailed$'
      involvedName: '^(?:router-(?<controller>.+)|.+)$'
${resolvedBy.replace(/^/gm, '      ')}
  ensured:
    event:
      reason: '^EnsuredLoadBalancer$'
${extraSignals}
condition: failed
message: "failed {{signals.failed.count}} times"
remediation: "fix the cloud"
about:
  - signal: failed
${topLevel}`;
  const { rule, issues } = loadRuleText('lb-demo.yaml', text, false);
  expect(issues).toEqual([]);
  return rule!;
}

async function run(rule: Rule) {
  return (await analyzeInput(INPUT, { limits: DEFAULT_LIMITS, rules: [rule] })).result!;
}

describe('resolvedBy: the present wins', () => {
  it('without resolvedBy, the failures are a present finding', async () => {
    const result = await run(demoRule(''));
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({ severity: 'error', message: 'failed 4 times' });
    expect(result.findings[0]!.resolved).toBeUndefined();
    expect(result.diagnosis.roots.map((r) => r.ruleId)).toEqual(['lb-demo']);
  });

  it('a later success of the same object makes them history: info, times, what resolved each, no remediation, no root', async () => {
    const result = await run(demoRule('resolvedBy:\n  - signal: ensured'));
    expect(result.findings).toHaveLength(1);
    const history = result.findings[0]!;
    expect(history.severity).toBe('info');
    expect(history.resolved).toEqual({ lastSeen: Date.parse('2021-09-13T15:02:03Z'), at: Date.parse('2021-09-13T15:02:46Z') });
    expect(history.remediation).toBe('');
    expect(history.message).toContain('Resolved before the collection (last seen 2021-09-13T15:02:03Z, over by 2021-09-13T15:02:46Z)');
    const failures = history.evidence.filter((e) => e.signal === 'failed');
    expect(failures).toHaveLength(4);
    for (const item of failures) {
      expect(item.file.endsWith(EVENTS)).toBe(true);
      expect(item.resolved?.by).toMatch(/^EnsuredLoadBalancer Service\/router-default/);
    }
    expect(result.diagnosis.roots).toEqual([]);
    expect(result.passed).toEqual([]);
  });

  it('later: a state dated before the failure resolves nothing; later: false takes the state now whatever its time', async () => {
    // IngressController default, dated by its creation (14:52:24Z), before every failure.
    const controller = `  controller:
    resource:
      group: operator.openshift.io
      kind: IngressController
      since: metadata.creationTimestamp`;
    const join = "object: { kind: IngressController, namespace: openshift-ingress-operator, name: '{{controller}}' }";
    const later = await run(demoRule(`resolvedBy:\n  - { signal: controller, ${join} }`, controller));
    expect(later.findings[0]!.severity).toBe('error');
    const now = await run(demoRule(`resolvedBy:\n  - { signal: controller, ${join}, later: false }`, controller));
    expect(now.findings[0]!.severity).toBe('info');
    expect(now.findings[0]!.evidence.find((e) => e.signal === 'failed')!.resolved).toEqual({ by: 'IngressController openshift-ingress-operator/default' });
  });

  it('an object pattern that renders empty resolves nothing', async () => {
    const result = await run(demoRule("resolvedBy:\n  - { signal: ensured, object: { kind: Service, name: '{{nothere}}' } }"));
    expect(result.findings[0]).toMatchObject({ severity: 'error' });
  });

  it('an object pattern joins on the parts given (a capture of involvedName)', async () => {
    const joined = await run(demoRule("resolvedBy:\n  - { signal: ensured, object: { kind: Service, name: 'router-{{controller}}' } }"));
    expect(joined.findings[0]!.severity).toBe('info');
    const other = await run(demoRule("resolvedBy:\n  - { signal: ensured, object: { kind: Service, name: 'router-other' } }"));
    expect(other.findings[0]!.severity).toBe('error');
  });

  it('quietFor: over when the object was not seen failing for that long before the collection (its last failure 32 minutes before)', async () => {
    const quiet = await run(demoRule('resolvedBy:\n  - quietFor: 20m'));
    expect(quiet.findings[0]!.severity).toBe('info');
    expect(quiet.findings[0]!.evidence[0]!.resolved?.by).toMatch(/^not seen again in the 32m before the collection/);
    const recent = await run(demoRule('resolvedBy:\n  - quietFor: 1h'));
    expect(recent.findings[0]!.severity).toBe('error');
  });

  it('quietFor counts the failures dropped past the evidence cap: one still repeating there is not quiet', async () => {
    // One event kept (14:57:37Z, 36 minutes before the collection); the three dropped ones end at 15:02:03Z (32 minutes).
    const capped = await run(demoRule('resolvedBy:\n  - quietFor: 35m', '', 'maxEvidence: 1\n'));
    // Dropped: three failures and two of the three EnsuredLoadBalancer events.
    expect(capped.findings[0]).toMatchObject({ severity: 'error', evidenceDropped: 5 });
    const quiet = await run(demoRule('resolvedBy:\n  - quietFor: 30m', '', 'maxEvidence: 1\n'));
    expect(quiet.findings[0]!.severity).toBe('info');
  });

  it('the loader refuses a resolver naming an unknown signal or the signal itself', () => {
    const text = (name: string): string =>
      `id: x\ntitle: xxx\nseverity: info\nstatus: experimental\ncomponent: x\nmessage: x\nsignals:\n  a:\n    event:\n      reason: '^A$'\n      resolvedBy: [{ signal: ${name} }]\n`;
    expect(loadRuleText('x.yaml', text('nope'), false).issues[0]!.reason).toMatch(/unknown signal 'nope'/);
    expect(loadRuleText('x.yaml', text('a'), false).issues[0]!.reason).toMatch(/its own signal/);
  });

  it('names the log and event signals that alone make a rule fire', () => {
    // `ensured` is read but not in the condition: only `failed` fires the rule.
    expect(signalsFiringAlone(demoRule('')).map((s) => s.name)).toEqual(['failed']);
  });
});
