/**
 * `about` and `mentions` name only objects the archive holds (issue 32 item 4): a rule's fixed
 * entry for an Insights recommendation is shown, and joins, only when the archive holds Insights
 * data; and one paused pool is one root of the diagnosis, oc's own insight on it explained under
 * the machine-config finding.
 */
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRules } from '../../src/engine/load.js';
import type { DiagnosisNode } from '../../src/engine/diagnosis.js';

const ROOT = new URL('../../', import.meta.url).pathname;

async function diagnosed(input: string): Promise<{ roots: DiagnosisNode[]; about: Map<string, string[]> }> {
  const { rules } = await loadRules([]);
  const result = (await analyzeInput(`${ROOT}${input}`, { limits: DEFAULT_LIMITS, rules })).result!;
  const about = new Map(result.findings.map((f) => [f.ruleId, f.about.map((o) => `${o.kind} ${o.name}`)]));
  return { roots: result.diagnosis.roots, about };
}

function shape(nodes: readonly DiagnosisNode[], depth = 0): string[] {
  return nodes.flatMap((n) => [`${'  '.repeat(depth)}${n.ruleId}`, ...shape(n.explains, depth + 1)]);
}

describe('about names only objects the archive holds', () => {
  it('a paused pool during an update: one root, the update\'s pool-paused insight under it, no Insights recommendation the archive lacks', async () => {
    const { roots, about } = await diagnosed('rules/mco/mco-pool-paused-update-pending.fixtures/fires-paused-during-update/input');
    expect(shape(roots)).toEqual(['mco-pool-paused-update-pending', '  update-health [pool-paused]']);
    expect(about.get('mco-pool-paused-update-pending')).toEqual(['MachineConfigPool worker']);
    expect(roots.flatMap((r) => r.about.map((o) => o.kind))).not.toContain('InsightsRecommendation');
  });

  it('a fixed entry for an Insights recommendation is dropped without Insights data, kept and joined with it', async () => {
    const without = await diagnosed('rules/config/ocp-version-end-of-life.fixtures/fires-end-of-life/input');
    expect(without.about.get('ocp-version-end-of-life')).toEqual(['ClusterVersion version']);
    const withInsights = await diagnosed('rules/config/ocp-version-end-of-life.fixtures/fires-end-of-life-with-insights/input');
    expect(withInsights.about.get('ocp-version-end-of-life')).toEqual(['ClusterVersion version', 'InsightsRecommendation ccx_rules_ocp.external.rules.ocp_version_end_of_life']);
    expect(shape(withInsights.roots)).toEqual(['ocp-version-end-of-life', '  insights-recommendation [ccx_rules_ocp.external.rules.ocp_version_end_of_life|OCP4X_BEYOND_EOL]']);
  });
});
