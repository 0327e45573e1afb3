import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRuleText } from '../../src/engine/load.js';
import type { Rule } from '../../src/engine/rule.js';
import { tempDir } from '../helpers/archives.js';

/** A must-gather holding a ClusterVersion (when a version is given), an Infrastructure and one failed Machine. */
function mustGather(cluster: { version?: string; platform?: string; capabilities?: { enabled: string[]; known: string[] } }): string {
  const root = join(tempDir(), 'must-gather.local.1', 'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0');
  const put = (path: string, text: string): void => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  put('timestamp', '2024-01-30 10:00:00.000000000 +0000 UTC m=+0.1\n2024-01-30 10:05:00.000000000 +0000 UTC m=+300.1\n');
  if (cluster.version !== undefined) {
    const capabilities = cluster.capabilities
      ? `  capabilities:\n    enabledCapabilities: [${cluster.capabilities.enabled.join(', ')}]\n    knownCapabilities: [${cluster.capabilities.known.join(', ')}]\n`
      : '';
    put(
      'cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml',
      `apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  clusterID: 5c3e1a8f-2b7d-4e96-a0c4-9f1b2d3e4a5b\nstatus:\n${capabilities}  desired:\n    version: ${cluster.version}\n  history:\n  - state: Completed\n    version: ${cluster.version}\n    startedTime: "2024-01-01T00:00:00Z"\n    completionTime: "2024-01-01T01:00:00Z"\n`,
    );
  }
  if (cluster.platform !== undefined) {
    put(
      'cluster-scoped-resources/config.openshift.io/infrastructures/cluster.yaml',
      `apiVersion: config.openshift.io/v1\nkind: Infrastructure\nmetadata:\n  name: cluster\nstatus:\n  platform: ${cluster.platform}\n  platformStatus:\n    type: ${cluster.platform}\n`,
    );
  }
  put(
    'namespaces/openshift-machine-api/machine.openshift.io/machines/worker-a.yaml',
    'apiVersion: machine.openshift.io/v1beta1\nkind: Machine\nmetadata:\n  name: worker-a\n  namespace: openshift-machine-api\nstatus:\n  phase: Failed\n',
  );
  return root;
}

/** A rule on failed Machines, scoped by `applies`. */
function machineRule(applies: string): Rule {
  const text = `id: applies-demo
title: Applies demo
severity: warning
status: experimental
component: demo
applies: ${applies}
signals:
  failed:
    resource:
      group: machine.openshift.io
      kind: Machine
      where: object.status.phase == 'Failed'
message: failed
`;
  const { rule, issues } = loadRuleText('applies-demo.yaml', text, false);
  expect(issues).toEqual([]);
  return rule!;
}

async function run(input: string, rule: Rule) {
  return (await analyzeInput(input, { limits: DEFAULT_LIMITS, rules: [rule] })).result!;
}

describe('applies: a rule whose component cannot exist here is not applicable, never not checked', () => {
  it('a version below the range: not applicable, with the range, the version and the stated reason', async () => {
    const result = await run(mustGather({ version: '4.9.0', platform: 'AWS' }), machineRule('{ versions: ">=4.12.0-0", because: "Demo exists from OpenShift 4.12" }'));
    expect(result.findings).toEqual([]);
    expect(result.notChecked).toEqual([]);
    expect(result.notApplicable).toEqual([
      { ruleId: 'applies-demo', title: 'Applies demo', component: 'demo', reason: 'Demo exists from OpenShift 4.12; it is for OpenShift >=4.12.0-0; this cluster runs 4.9.0' },
    ]);
  });

  it('a version in the range runs the rule', async () => {
    const result = await run(mustGather({ version: '4.14.10', platform: 'AWS' }), machineRule('{ versions: ">=4.12.0-0" }'));
    expect(result.findings.map((f) => f.ruleId)).toEqual(['applies-demo']);
    expect(result.findings[0]!.caveat).toBeUndefined();
    expect(result.notApplicable).toEqual([]);
  });

  it('an unknown version runs the rule, its finding saying the version is unknown', async () => {
    const result = await run(mustGather({}), machineRule('{ versions: ">=4.12.0-0" }'));
    expect(result.notApplicable).toEqual([]);
    expect(result.findings.map((f) => [f.ruleId, f.caveat])).toEqual([
      ['applies-demo', 'The cluster version is unknown (this input holds no ClusterVersion); this rule is meant for versions >=4.12.0-0'],
    ]);
  });

  it('platformsExcept and platforms: not applicable on an excluded platform, run on another and on an unknown one', async () => {
    const except = machineRule('{ platformsExcept: [None, External] }');
    expect((await run(mustGather({ version: '4.9.0', platform: 'None' }), except)).notApplicable.map((n) => n.reason)).toEqual([
      "it is not for platform None, this cluster's",
    ]);
    expect((await run(mustGather({ version: '4.9.0', platform: 'AWS' }), except)).findings).toHaveLength(1);
    expect((await run(mustGather({ version: '4.9.0' }), except)).findings).toHaveLength(1);
    const only = machineRule('{ platforms: [AWS, GCP] }');
    expect((await run(mustGather({ version: '4.9.0', platform: 'Azure' }), only)).notApplicable.map((n) => n.reason)).toEqual([
      "it is for platform AWS, GCP; this cluster's platform is Azure",
    ]);
  });

  it('capabilities: not applicable only when the cluster knows the capability and has not enabled it', async () => {
    const rule = machineRule('{ capabilities: [MachineAPI] }');
    const disabled = await run(mustGather({ version: '4.14.10', platform: 'AWS', capabilities: { enabled: ['Console'], known: ['Console', 'MachineAPI'] } }), rule);
    expect(disabled.notApplicable.map((n) => n.reason)).toEqual(['it needs the MachineAPI capability, disabled on this cluster (ClusterVersion status.capabilities)']);
    // Enabled; a version that does not know it yet (4.12); a version without capabilities (4.9): all run.
    for (const capabilities of [{ enabled: ['MachineAPI'], known: ['MachineAPI'] }, { enabled: ['Console'], known: ['Console'] }, undefined]) {
      const result = await run(mustGather({ version: '4.14.10', platform: 'AWS', ...(capabilities ? { capabilities } : {}) }), rule);
      expect(result.findings).toHaveLength(1);
    }
  });

  it('lint: platforms and platformsExcept together, and names openshift/api does not have, are refused', () => {
    const base = 'id: x\ntitle: xxx\nseverity: info\nstatus: experimental\ncomponent: x\nmessage: x\nsignals:\n  s:\n    resource:\n      kind: Machine\n';
    const both = loadRuleText('x.yaml', `${base}applies:\n  platforms: [AWS]\n  platformsExcept: [None]\n`, false);
    expect(both.issues.map((i) => i.reason)).toContain('platforms and platformsExcept together: name the platforms the rule is for, or those it is not for');
    const unknown = loadRuleText('x.yaml', `${base}applies:\n  platforms: [Aws]\n  capabilities: [MachineApi]\n`, false);
    expect(unknown.rule).toBeUndefined();
    expect(unknown.issues.length).toBeGreaterThanOrEqual(2);
  });
});
