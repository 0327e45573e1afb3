/**
 * Bounds of the rule format that no fixture pins at their edge: `severityWhen: young` (every
 * piece of resource evidence younger than the span) and an event signal's `countAbove`.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRuleText } from '../../src/engine/load.js';
import type { Rule } from '../../src/engine/rule.js';

const RULES = fileURLToPath(new URL('../../rules/', import.meta.url));
/** The network operator Degraded 6 minutes before the collection, during an update. */
const DEGRADED_6M = join(RULES, 'health/clusteroperator-degraded.fixtures/info-updating-degraded-6m/input');
const EVENTS = join(RULES, 'workloads/events-pathological.fixtures/fires-after-install/input');

function rule(text: string): Rule {
  const { rule: loaded, issues } = loadRuleText('demo.yaml', `id: demo\ntitle: Demo rule\nseverity: error\nstatus: experimental\ncomponent: demo\nmessage: demo\n${text}`, false);
  expect(issues).toEqual([]);
  return loaded!;
}

async function findings(input: string, r: Rule) {
  return (await analyzeInput(input, { limits: DEFAULT_LIMITS, rules: [r] })).result!.findings;
}

const degradedRule = (young: string): Rule =>
  rule(`signals:
  degraded:
    resource:
      group: config.openshift.io
      kind: ClusterOperator
      since: status.conditions[type=Degraded].lastTransitionTime
      where: object.status.conditions.exists(c, c.type == 'Degraded' && c.status == 'True')
condition: degraded
severityWhen:
  - { young: ${young}, severity: info }
`);

describe('severityWhen young', () => {
  it('holds while every timed piece of resource evidence is younger than the span, not once one is older', async () => {
    expect((await findings(DEGRADED_6M, degradedRule('7m')))[0]?.severity).toBe('info');
    expect((await findings(DEGRADED_6M, degradedRule('5m')))[0]?.severity).toBe('error');
  });
});

describe('event signal countAbove', () => {
  const repeated = (above: number): Rule => rule(`signals:\n  repeated:\n    event:\n      countAbove: ${above}\ncondition: repeated\n`);
  it('keeps only events that happened more than the count', async () => {
    const all = (await findings(EVENTS, repeated(0)))[0]!.evidence.length;
    const over20 = (await findings(EVENTS, repeated(20)))[0]!.evidence.length;
    expect(over20).toBeGreaterThan(0);
    expect(over20).toBeLessThan(all);
    expect(await findings(EVENTS, repeated(1_000_000))).toEqual([]);
  });
});
