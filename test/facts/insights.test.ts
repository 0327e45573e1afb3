import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { insightsRecommendations, recommendationId } from '../../src/facts/insights.js';

const IO = 'must-gather.local.3417/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cbd33388f7e18954e5ce8ad9616e91df05ace604966c0a44111d85c897/cluster-scoped-resources/operator.openshift.io/insightsoperators/cluster.yaml';
const load = (fixture: string): unknown =>
  yaml.load(readFileSync(new URL(`../../rules/insights/insights-recommendation.fixtures/${fixture}/input/${IO}`, import.meta.url), 'utf8'));

describe('insightsRecommendations', () => {
  it('reads the health checks most risky first, with the rule and error key of their advisor link', () => {
    const recs = insightsRecommendations(load('fires-active-recommendations'), 'io.yaml')!;
    expect(recs.map((r) => `${r.totalRisk} ${r.risk} ${r.state} ${r.active} ${r.id}`)).toEqual([
      '3 important Enabled true ccx_rules_ocp.external.rules.ocp_version_end_of_life|OCP4X_BEYOND_EOL',
      '2 moderate Enabled true ccx_rules_ocp.external.rules.operator_unmanaged|OPERATOR_UNMANAGED',
      '1 low Disabled false ccx_rules_ocp.external.rules.nodes_requirements_check|NODES_MINIMUM_REQUIREMENTS_NOT_MET',
    ]);
    expect(recs[1]).toMatchObject({ ruleId: 'ccx_rules_ocp.external.rules.operator_unmanaged', errorKey: 'OPERATOR_UNMANAGED', object: { kind: 'InsightsRecommendation', name: 'ccx_rules_ocp.external.rules.operator_unmanaged' } });
    expect(recs[0]!.downloadedAt).toBe(Date.parse('2023-06-02T11:06:12Z'));
  });

  it('is an empty list for a downloaded report without recommendations, and nothing without a report', () => {
    expect(insightsRecommendations(load('quiet-no-recommendation'), 'io.yaml')).toEqual([]);
    expect(insightsRecommendations(load('notchecked-disconnected'), 'io.yaml')).toBeUndefined();
    expect(insightsRecommendations({ kind: 'InsightsOperator' }, 'io.yaml')).toBeUndefined();
  });

  it('takes the rule id from the link as the operator writes it, .report dropped; odd values give none', () => {
    expect(recommendationId('https://console.redhat.com/openshift/insights/advisor/clusters/c?first=a.b.rule.report%7CKEY')).toBe('a.b.rule|KEY');
    expect(recommendationId('https://console.redhat.com/openshift/insights/advisor/clusters/c')).toBeUndefined();
    expect(recommendationId('not a url')).toBeUndefined();
    const [odd] = insightsRecommendations({ status: { insightsReport: { healthChecks: [{ description: 'x', totalRisk: 7 }] } } }, 'f')!;
    expect(odd).toMatchObject({ totalRisk: 0, risk: 'unknown', state: 'Enabled', active: true, id: undefined, object: undefined });
  });
});
