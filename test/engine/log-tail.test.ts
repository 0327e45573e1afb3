import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRuleText } from '../../src/engine/load.js';
import { openMemory } from '../../src/sources/open.js';

/** The pod-blocked fixture: an init container's previous.log of one line, and current logs of none. */
const INPUT = fileURLToPath(new URL('../../rules/workloads/pod-blocked.fixtures/fires-init-crash-and-missing-secret/input', import.meta.url));
const PREVIOUS =
  'must-gather.local.4410238820/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cbd33388f7e18954e5ce8ad9616e91df05ace604966c0a44111d85c897/namespaces/openshift-etcd/pods/etcd-ip-10-0-187-218.ec2.internal/etcd-ensure-env-vars/etcd-ensure-env-vars/logs/previous.log';

function tailRule(tail: number): ReturnType<typeof loadRuleText>['rule'] {
  const text = `id: tail-demo
title: Tail demo
severity: warning
status: experimental
component: demo
references: ["https://example.com"]
signals:
  last:
    log: { files: [{ stream: previous }], regex: '\\S', tail: ${tail}, persists: a demo of the tail }
condition: last
message: "{{#each evidence}}[{{this.container}}@{{this.line}}: {{this.text}}]{{/each}}"
`;
  const { rule, issues } = loadRuleText('tail-demo.yaml', text, false);
  expect(issues).toEqual([]);
  return rule;
}

describe('log signal tail', () => {
  it('holds one item per file: its last lines joined, at the first of them, with the container it came from', async () => {
    const analysis = await analyzeInput(INPUT, { limits: DEFAULT_LIMITS, rules: [tailRule(3)!], requireArchive: false });
    const [finding] = analysis.result!.findings;
    expect(finding!.message).toBe('[etcd-ensure-env-vars@1: 2021-08-03T10:06:40.512034118Z Expected node IP to be 10.0.187.218 got 10.0.187.219]');
    expect(finding!.evidence.map((e) => [e.file, e.line])).toEqual([[PREVIOUS, 1]]);
  });

  it('keeps the last lines of a long log, read at the end: the first kept line places it, the last one times it', async () => {
    const log = Array.from({ length: 40 }, (_, i) => `2021-08-03T10:06:${String(i).padStart(2, '0')}.000000000Z line ${i + 1}`);
    log.splice(38, 0, '   ');
    const path = `${PREVIOUS.slice(0, PREVIOUS.indexOf('/namespaces/'))}/namespaces/demo/pods/demo-pod/demo/demo/logs/previous.log`;
    const files = [{ path, bytes: () => Buffer.from(`${log.join('\n')}\n`) }];
    const analysis = await analyzeInput('tail-demo', { limits: DEFAULT_LIMITS, rules: [tailRule(3)!], requireArchive: false, open: (options) => openMemory('tail-demo', { files }, options) });
    const [finding] = analysis.result!.findings;
    // The blank line 39 does not match: lines 38, 40 and 41.
    expect(finding!.message).toBe(`[demo@38: ${log[37]}\n${log[39]}\n${log[40]}]`);
    expect(finding!.evidence.map((e) => [e.file, e.line, e.time])).toEqual([[path, 38, Date.parse('2021-08-03T10:06:39Z')]]);
  });
});
