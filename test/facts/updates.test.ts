import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { updateRecommendations } from '../../src/facts/updates.js';

const CV = 'must-gather.local.7210436528113540923/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cbd33388f7e18954e5ce8ad9616e91df05ace604966c0a44111d85c897/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml';
const load = (rule: string, fixture: string): unknown =>
  yaml.load(readFileSync(new URL(`../../rules/update/${rule}.fixtures/${fixture}/input/${CV}`, import.meta.url), 'utf8'));

describe('updateRecommendations', () => {
  it('tells per risk whether it applies, from Recommended reasons: one risk, MultipleReasons, EvaluationFailed', () => {
    const u = updateRecommendations(load('update-not-recommended', 'fires-one-and-several-risks'), 'cv.yaml', '4.13.30');
    expect(u.available.map((a) => a.version)).toEqual(['4.13.32', '4.13.31']);
    expect(u.conditional.map((c) => `${c.version} ${c.recommended} ${c.reason}`)).toEqual([
      '4.14.22 False MultipleReasons',
      '4.14.21 False MultipleReasons',
      '4.14.20 Unknown EvaluationFailed',
      '4.14.17 False IngressDegradedOnRouterReloads',
    ]);
    const byName = Object.fromEntries(u.risks.map((r) => [r.name, r]));
    expect(byName['IngressDegradedOnRouterReloads']).toMatchObject({ exposure: 'applies', targets: ['4.14.22', '4.14.21', '4.14.17'], url: 'https://issues.redhat.com/browse/NE-1689' });
    expect(byName['OVNInterConnectTransitionIPsec']).toMatchObject({ exposure: 'applies', targets: ['4.14.21'] });
    expect(byName['AzureRegistryImageMigrationUserProvisioned']!.exposure).toBe('evaluation-failed');
    expect(byName['AzureRegistryImageMigrationUserProvisioned']!.exposureMessage).toMatch(/^client-side throttling/);
    expect(byName['ARODNSWrongBootSequence']).toMatchObject({ exposure: 'evaluation-failed', exposureMessage: 'invalid PromQL result length must be one, but is 0' });
    expect(u.retrievedUpdates?.status).toBe('True');
    expect(u.channel).toBe('stable-4.14');
  });

  it('reads recommended updates, accepted risks in the history, and the newer per-risk Applies conditions', () => {
    const calm = updateRecommendations(load('update-not-recommended', 'quiet-recommended-or-unevaluated'), 'cv.yaml');
    expect(calm.risks.map((r) => `${r.name} ${r.exposure}`)).toEqual(['CephCapDropPanic does-not-apply']);
    const accepted = updateRecommendations(load('update-accepted-risks', 'fires-not-recommended-target-taken'), 'cv.yaml');
    expect(accepted.accepted).toHaveLength(1);
    expect(accepted.accepted[0]).toMatchObject({ version: '4.14.17', state: 'Completed', started: Date.parse('2024-05-03T10:02:44Z') });
    const newer = {
      spec: { desiredUpdate: { version: '4.22.1', acceptRisks: [{ name: 'RiskB' }] } },
      status: {
        conditionalUpdateRisks: [
          { name: 'RiskA', url: 'https://example.com/a', message: 'A', matchingRules: [{ type: 'Always' }], conditions: [{ type: 'Applies', status: 'True', reason: 'Always' }] },
          { name: 'RiskB', url: 'https://example.com/b', message: 'B', matchingRules: [{ type: 'PromQL', promql: { promql: 'up' } }], conditions: [{ type: 'Applies', status: 'False', reason: 'NotMatching' }] },
        ],
        conditionalUpdates: [{ release: { version: '4.22.2' }, riskNames: ['RiskA', 'RiskB'], conditions: [{ type: 'Recommended', status: 'False', reason: 'MultipleReasons', message: 'A https://example.com/a' }] }],
      },
    };
    const u = updateRecommendations(newer, 'cv.yaml');
    expect(u.risks.map((r) => `${r.name} ${r.exposure} accepted=${r.accepted} ${r.targets.join(',')} ${r.matchingRules.join('|')}`)).toEqual([
      'RiskA applies accepted=false 4.22.2 Always',
      'RiskB does-not-apply accepted=true 4.22.2 PromQL: up',
    ]);
  });

  it('is empty on a ClusterVersion without update data (the real 4.8 aws archive: no channel)', () => {
    const u = updateRecommendations(load('update-not-recommended', 'quiet-real-no-channel'), 'cv.yaml');
    expect(u).toMatchObject({ available: [], conditional: [], risks: [], accepted: [] });
    expect(u.retrievedUpdates).toMatchObject({ status: 'False', reason: 'NoChannel' });
    expect(updateRecommendations(undefined, 'x').risks).toEqual([]);
  });
});
