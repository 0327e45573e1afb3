import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRuleText } from '../../src/engine/load.js';
import type { Rule } from '../../src/engine/rule.js';

const CASES = fileURLToPath(new URL('../../rules/machine-api/machine-no-node.fixtures/', import.meta.url));

/** Machines in any phase, counted by their age at the collection time (`age: {atLeast|under}`). */
function ageRule(age: string, bound: 'atLeast' | 'under' = 'atLeast'): Rule {
  const text = `id: age-demo
title: Age demo
severity: warning
status: experimental
component: demo
signals:
  old:
    resource:
      group: machine.openshift.io
      kind: Machine
      since: metadata.creationTimestamp
      age: { ${bound}: ${age} }
      summary: "{{object.metadata.name}}"
message: "{{#each signals.old.items}}{{this.text}} {{/each}}"
`;
  const { rule, issues } = loadRuleText('age-demo.yaml', text, false);
  expect(issues).toEqual([]);
  return rule!;
}

async function run(fixture: string, rule: Rule) {
  return (await analyzeInput(join(CASES, fixture, 'input'), { limits: DEFAULT_LIMITS, rules: [rule] })).result!;
}

describe('resource signal age', () => {
  it('keeps only objects whose since time is at least that long before the collection time', async () => {
    // Collected 10:06:51; the Running Machines were created 08:20, the Provisioned one 09:14:40.
    const all = await run('fires-no-csr', ageRule('30m'));
    expect(all.findings[0]!.message.trim().split(' ')).toHaveLength(3);
    const oldest = await run('fires-no-csr', ageRule('1h'));
    expect(oldest.findings[0]!.message).not.toContain('q8v2h');
    expect(await run('fires-no-csr', ageRule('3h'))).toMatchObject({ findings: [], passed: [{ ruleId: 'age-demo' }] });
  });

  it('under keeps only the young ones', async () => {
    const young = await run('fires-no-csr', ageRule('1h', 'under'));
    expect(young.findings[0]!.message).toContain('q8v2h');
    expect(young.findings[0]!.message.trim().split(' ')).toHaveLength(1);
  });

  it('without a collection time, atLeast keeps every object (the serious reading) and under keeps none', async () => {
    const kept = await run('notchecked-no-collection-time', ageRule('30m'));
    expect(kept.findings).toHaveLength(1);
    expect(await run('notchecked-no-collection-time', ageRule('30m', 'under'))).toMatchObject({ findings: [] });
  });

  it('needs since and a duration', () => {
    const base = 'id: x\ntitle: xxx\nseverity: info\nstatus: experimental\ncomponent: x\nmessage: x\nsignals:\n  s:\n    resource:\n      kind: Machine\n';
    expect(loadRuleText('x.yaml', `${base}      age: { atLeast: 30m }\n`, false).issues.map((i) => i.reason)).toContain('age needs since: the field that says when the evidence began');
    expect(loadRuleText('x.yaml', `${base}      since: metadata.creationTimestamp\n      age: { atLeast: half an hour }\n`, false).issues.map((i) => i.reason).join()).toContain('must match pattern');
  });
});
