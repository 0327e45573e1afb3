import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRuleText } from '../../src/engine/load.js';
import type { Rule } from '../../src/engine/rule.js';

const RULES = fileURLToPath(new URL('../../rules/', import.meta.url));
const ALERTS = join(RULES, 'monitoring/cluster-alert-firing.fixtures/fires-three-alerting-rules/input');

/** A rule over the `alerts` fact: every firing alert of any severity, grouped by `per` when given. */
function alertRule(per: string | undefined, extra = '', id = 'per-demo'): Rule {
  const text = `id: ${id}
title: Per demo
severity: warning
status: experimental
component: demo
${per !== undefined ? `per: "${per}"\n` : ''}references: ["{{#with evidence.[0].item}}{{runbookUrl}}{{/with}}", "https://example.com/static"]
signals:
  critical:
    fact: { name: alerts, where: "item.state == 'firing' && item.severity == 'critical'", summary: "{{item.name}}" }
  other:
    fact: { name: alerts, where: "item.state == 'firing' && item.severity != 'critical'", summary: "{{item.name}}" }
condition: critical or other
severityWhen:
  - { condition: critical, severity: critical }
${extra}message: "{{evidence.length}} x {{signals.other.count}}"
`;
  const { rule, issues } = loadRuleText(`${id}.yaml`, text, false);
  expect(issues).toEqual([]);
  return rule!;
}

describe('rule field per', () => {
  it('makes one finding per key, with the condition and severity evaluated on each group alone', async () => {
    const analysis = await analyzeInput(ALERTS, { limits: DEFAULT_LIMITS, rules: [alertRule('{{item.name}}')] });
    const findings = analysis.result!.findings;
    expect(findings.map((f) => `${f.key} ${f.severity} ${f.message}`).sort()).toEqual([
      'AlertmanagerReceiversNotConfigured warning 1 x 1',
      'ClusterOperatorDegraded warning 1 x 1',
      'ClusterOperatorDown critical 1 x 0',
      'KubePodCrashLooping warning 1 x 1',
      'UpdateAvailable warning 1 x 1',
      'Watchdog warning 1 x 1',
    ]);
    const down = findings.find((f) => f.key === 'ClusterOperatorDown')!;
    // References are templates: the alert's own runbook, then the static one; empty ones dropped.
    expect(down.references).toEqual(['https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/ClusterOperatorDown.md', 'https://example.com/static']);
    expect(down.evidence[0]!.object).toEqual({ kind: 'ClusterOperator', name: 'authentication' });
    expect(findings.find((f) => f.key === 'Watchdog')!.references).toEqual(['https://example.com/static']);
  });

  it('two rules with the same fact signals each get all their evidence (a where and a summary run once per item for both)', async () => {
    const analysis = await analyzeInput(ALERTS, { limits: DEFAULT_LIMITS, rules: [alertRule(undefined), alertRule(undefined, '', 'per-demo-copy')] });
    const findings = analysis.result!.findings;
    expect(findings.map((f) => `${f.ruleId} ${f.message}`)).toEqual(['per-demo 6 x 5', 'per-demo-copy 6 x 5']);
    expect(findings[1]!.evidence.map((e) => e.text)).toEqual(findings[0]!.evidence.map((e) => e.text));
  });

  it('without per, or when every key is empty, makes one finding of all the evidence', async () => {
    for (const rule of [alertRule(undefined), alertRule('{{item.nothing}}')]) {
      const analysis = await analyzeInput(ALERTS, { limits: DEFAULT_LIMITS, rules: [rule] });
      expect(analysis.result!.findings).toHaveLength(1);
      expect(analysis.result!.findings[0]).toMatchObject({ severity: 'critical', message: '6 x 5' });
      expect(analysis.result!.findings[0]!.key).toBeUndefined();
    }
  });
});
