import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRuleText } from '../../src/engine/load.js';
import type { Rule } from '../../src/engine/rule.js';

const FIXTURES = fileURLToPath(new URL('../../rules/workloads/events-pathological.fixtures/', import.meta.url));

/** Events repeated more than 20 times, with or without `afterInstall`. */
function repeatedRule(afterInstall: boolean): Rule {
  const text = `id: repeated-demo
title: Repeated demo
severity: warning
status: experimental
component: demo
signals:
  repeated:
    event: { afterInstall: ${afterInstall}, where: "has(object.count) && object.count > 20" }
message: "{{#each evidence}}{{this.reason}} {{/each}}"
`;
  const { rule, issues } = loadRuleText('repeated-demo.yaml', text, false);
  expect(issues).toEqual([]);
  return rule!;
}

async function reasons(input: string, afterInstall: boolean): Promise<string[] | undefined> {
  const analysis = await analyzeInput(FIXTURES + input, { limits: DEFAULT_LIMITS, rules: [repeatedRule(afterInstall)] });
  const finding = analysis.result!.findings[0];
  return finding?.message.trim().split(' ').sort();
}

describe('event signal afterInstall', () => {
  it('drops events first seen before the install completed (9 of the real archive repeated at install), keeps later ones', async () => {
    expect(await reasons('quiet-install-time-benign-and-under/input', false)).toHaveLength(11);
    expect(await reasons('quiet-install-time-benign-and-under/input', true)).toEqual(['BackOff', 'Unhealthy']);
    // MissingVersion began at 09:18:58, before the install completed at 09:45:28; Failed happened 20 times only.
    expect(await reasons('fires-after-install/input', true)).toEqual(['BackOff', 'ConfigMissing', 'FailedCreatePodSandBox', 'Unhealthy']);
    expect(await reasons('fires-after-install/input', false)).toContain('MissingVersion');
  });
});
