/**
 * A risk taken is a candidate cause of what followed it: the ovn-leader-churn fixture (ovnkube
 * leader losses on 2023-10-05 from 01:40) with a ClusterVersion whose newest update, started
 * before them, went along an edge whose published risk applies to the cluster.
 */
import { cpSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { buildReport } from '../../src/report/build.js';
import { loadRules } from '../../src/engine/load.js';
import { loadRiskData } from '../../src/risks/load.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { tempDir } from '../helpers/archives.js';

const OVN = fileURLToPath(new URL('../../rules/ovn/ovn-leader-churn.fixtures/fires-must-gather-rollback/input/', import.meta.url));

const CLUSTER_VERSION = `apiVersion: config.openshift.io/v1
kind: ClusterVersion
metadata:
  name: version
spec:
  clusterID: 5f3a8c21-9d4e-4b7a-8c6f-1e2d3a4b5c6d
status:
  desired:
    version: 4.14.1
  history:
  - completionTime: "2023-10-05T01:20:00Z"
    startedTime: "2023-10-05T00:10:00Z"
    state: Completed
    verified: true
    version: 4.14.1
  - completionTime: "2023-09-01T10:00:00Z"
    startedTime: "2023-09-01T09:00:00Z"
    state: Completed
    verified: true
    version: 4.13.15
`;

const RISK = `to: 4.14.1
from: 4[.]13[.].*
url: https://issues.redhat.com/browse/OCPBUGS-27073
name: ExampleOVNRisk
message: |-
  Hand-made risk on the 4.13 to 4.14.1 edge for OVN-Kubernetes clusters on bare metal.
matchingRules:
- type: PromQL
  promql:
    promql: |
      group(cluster_infrastructure_provider{_id="",type="BareMetal"})
      or
      0 * group(cluster_infrastructure_provider{_id=""})
`;

describe('update-risk-taken in the diagnosis', () => {
  it('explains, by time, the OVN leader churn that followed the risky update', async () => {
    const dir = tempDir();
    cpSync(OVN, join(dir, 'input'), { recursive: true });
    const gather = join(dir, 'input', 'must-gather.local.30257');
    const root = join(gather, readdirSync(gather).find((e) => e.startsWith('quay-io'))!);
    writeFileSync(join(root, 'cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml'), CLUSTER_VERSION);
    mkdirSync(join(root, 'cluster-scoped-resources/config.openshift.io/infrastructures'), { recursive: true });
    writeFileSync(
      join(root, 'cluster-scoped-resources/config.openshift.io/infrastructures/cluster.yaml'),
      'apiVersion: config.openshift.io/v1\nkind: Infrastructure\nmetadata:\n  name: cluster\nstatus:\n  platformStatus:\n    type: BareMetal\n',
    );
    mkdirSync(join(dir, 'blocked-edges'));
    writeFileSync(join(dir, 'blocked-edges', '4.14.1-ExampleOVNRisk.yaml'), RISK);

    const rules = (await loadRules([])).rules.filter((r) => r.id === 'update-risk-taken' || r.id === 'ovn-leader-churn');
    const analysis = await analyzeInput(join(dir, 'input'), { limits: DEFAULT_LIMITS, rules, riskData: await loadRiskData(dir) });
    const report = buildReport(analysis);
    const taken = report.findings.find((f) => f.ruleId === 'update-risk-taken');
    const churn = report.findings.find((f) => f.ruleId === 'ovn-leader-churn');
    expect(taken?.severity).toBe('warning');
    expect(taken?.message).toContain('ExampleOVNRisk: 4.13.15 → 4.14.1 started 2023-10-05T00:10:00Z, Completed (PromQL returned 1 {})');
    expect(churn?.explainedBy).toContain('update-risk-taken');
    expect(JSON.stringify(report.diagnosis)).toContain('the update 4.13.15 → 4.14.1 with the known risk ExampleOVNRisk');
  });
});
