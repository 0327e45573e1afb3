import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { tempDir } from '../helpers/archives.js';

const cv = (failing: boolean): string =>
  `apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  clusterID: 5b1e6a8e-0c2f-4d7a-9e61-3f0b2c4d5e6f\nstatus:\n  conditions:\n  - type: Failing\n    status: "${failing ? 'True' : 'False'}"\n    lastTransitionTime: "2021-08-03T09:50:00Z"\n  history:\n  - state: Completed\n    version: 4.8.2\n    startedTime: "2021-08-03T09:10:00Z"\n    completionTime: "2021-08-03T09:45:00Z"\n`;
const co = (degraded: boolean): string =>
  `apiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata:\n  name: dns\nstatus:\n  conditions:\n  - type: Available\n    status: "True"\n  - type: Degraded\n    status: "${degraded ? 'True' : 'False'}"\n`;
const list = (item: string): string => `apiVersion: v1\nitems:\n- ${item.trimEnd().replaceAll('\n', '\n  ')}\nkind: List\n`;

describe('must-gather writes each object twice (its own file, the List): the first copy read wins everywhere', () => {
  it('a folder is read in name order, so an own file edited after the gather wins over its List for the facts and the summary', async () => {
    const root = join(tempDir(), 'must-gather.local.1', 'quay-io-image');
    const config = join(root, 'cluster-scoped-resources', 'config.openshift.io');
    mkdirSync(join(config, 'clusterversions'), { recursive: true });
    mkdirSync(join(config, 'clusteroperators'), { recursive: true });
    writeFileSync(join(root, 'timestamp'), '2021-08-03 10:14:13.632 +0000 UTC m=+0.1\n');
    writeFileSync(join(config, 'clusterversions', 'version.yaml'), cv(true));
    writeFileSync(join(config, 'clusterversions.yaml'), list(cv(false)));
    writeFileSync(join(config, 'clusteroperators', 'dns.yaml'), co(true));
    writeFileSync(join(config, 'clusteroperators.yaml'), list(co(false)));
    const analysis = await analyzeInput(join(root, '..', '..'), { limits: DEFAULT_LIMITS, rules: [] });
    expect(analysis.facts.clusterVersionFile).toMatch(/clusterversions\/version\.yaml$/);
    expect(analysis.facts.summary?.operators?.degraded).toEqual(['dns']);
  });
});
