import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mgsift } from '../helpers/cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;
/** The whole expected `diagnosis` of each input, reviewed by hand (test/samples/diagnosis/<name>.json). */
const EXPECTED = new URL('./diagnosis/', import.meta.url).pathname;
const STUCK_DRAIN =
  'rules/health/node-drain-blocked.fixtures/fires-stuck-update/input';

function diagnosisOf(input: string): unknown {
  const run = mgsift(['analyze', join(ROOT, input), '--format', 'json', '-o', '-', '--fail-on', 'critical']);
  expect(run.stderr).toBe('');
  return (JSON.parse(run.stdout) as { diagnosis: unknown }).diagnosis;
}

function expected(name: string): unknown {
  return JSON.parse(readFileSync(join(EXPECTED, `${name}.json`), 'utf8'));
}

describe('the diagnosis of each bundled sample and of the stuck-drain fixture is exactly the reviewed one', () => {
  const cases: [string, string][] = [
    ['capabilities-rollback', 'samples/capabilities-rollback.tar.gz'],
    ['cvo-final-sync-lost', 'samples/cvo-final-sync-lost.tar.gz'],
    ['healthy', 'samples/healthy.tar.gz'],
    ['mco-ignition-rollback', 'samples/mco-ignition-rollback.tar.gz'],
    ['old-boot-image', 'samples/old-boot-image.tar.gz'],
    ['olm-staging-registry', 'samples/olm-staging-registry.tar.gz'],
    ['stuck-drain', STUCK_DRAIN],
  ];
  it.each(cases)('%s', (name, input) => {
    expect(diagnosisOf(input)).toEqual(expected(name));
  });
});

/** A diagnosis line of the text format as `1. ERROR rule-id`: its place, severity and finding id (in parentheses after the rule's title). */
function chainEntry(line: string): string {
  const m = /^(\d+\.| +→) ([A-Z]+) .* \(([a-z0-9-]+(?: \[[^\]]+\])?)\)(?: \[.*\])?$/.exec(line);
  return m ? `${m[1]!} ${m[2]!} ${m[3]!}` : line;
}

describe('what the diagnosis says', () => {
  it('the Ignition rollback: the MCO root (with the rollback) explains the pools and the machine-config operator; ingress, which ClusterVersion Failing names, is its own root (its router deployment lacks replicas)', () => {
    const text = mgsift(['analyze', join(ROOT, 'samples/mco-ignition-rollback.tar.gz'), '--format', 'text']);
    expect(text.stderr).toBe('');
    const lines = text.stdout.split('\n').filter((l) => /^(\d+\.| +→)/.test(l));
    expect(lines.map(chainEntry)).toEqual([
      '1. ERROR mco-ignition-spec-unsupported',
      '   → ERROR mcp-degraded',
      '      → CRITICAL clusteroperator-unavailable',
      '         → WARNING clusteroperator-upgradeable-false',
      // The rollback past oc's estimate: it waits on the machine-config operator.
      '         → WARNING update-health [update-slow]',
      '      → ERROR clusteroperator-degraded',
      '   → ERROR update-rollback',
      '      → INFO cvo-restarted-during-update',
      '2. ERROR ingress-router-pods-unavailable',
      '   → ERROR clusteroperator-degraded',
      '      → ERROR clusterversion-failing',
    ]);
    // Each node leads with its headline, then its rule's title (the class) and its id.
    expect(lines[0]).toMatch(/^1\. ERROR The Machine Config Operator cannot parse an Ignition spec version newer than it supports since 2021-04-29T23:34:37Z: pools master and worker cannot render \(after the rollback to 4\.6\.27\) · The Machine Config Operator cannot parse/);
    // One finding, two operators: each sits where its own evidence puts it, with its own since.
    expect(lines[5]).toContain('· ClusterOperator reports Degraded=True — ClusterOperator machine-config, since 2021-04-30 00:02:47Z (clusteroperator-degraded) [names MachineConfigPool master]');
    expect(lines[9]).toContain('— ClusterOperator ingress, since 2021-04-30 01:12:02Z (clusteroperator-degraded) [both about ClusterOperator ingress]');
    expect(lines[10]).toContain('[names ClusterOperator ingress]');
    expect(lines[7]).toContain('[at 2021-04-29 23:59:02Z, inside the rollback 4.7.0-0.ci-2021-04-29-142719 → 4.6.27 (since 2021-04-29 23:34:37Z, still open when collected)]');
  });

  it('the stuck drain: the PodDisruptionBudget at its limit → drain → the node the update waits on → pool → operator → update, and the unrelated node whose kubelet stopped posting as another root, explaining its NotReady', () => {
    const { stdout } = mgsift(['analyze', join(ROOT, STUCK_DRAIN), '--format', 'text']);
    const lines = stdout.split('\n').filter((l) => /^(\d+\.| +→)/.test(l));
    expect(lines[3]).toMatch(/^2\. WARNING PodDisruptionBudget rabbitmq-server allows no disruption since \S+ \(3 healthy of 3 required\)/);
    expect(lines[4]).toMatch(/^ {3}→ ERROR Node \S+ could not be drained for \d+h\d+m: evicting \S+ is blocked by a PodDisruptionBudget · .* \[names PodDisruptionBudget shop\/rabbitmq-server\]$/);
    expect(lines.map(chainEntry)).toEqual([
      '1. ERROR node-status-unknown [ip-10-0-151-183.ec2.internal]',
      '   → ERROR node-not-ready',
      '      → WARNING update-health [node-unavailable]',
      '2. WARNING pdb-at-limit',
      '   → ERROR node-drain-blocked',
      '      → ERROR update-health [node-degraded]',
      '         → ERROR mcp-degraded',
      '            → ERROR clusteroperator-degraded',
      '               → ERROR clusterversion-failing',
      '               → WARNING clusterversion-update-stalled',
      '               → WARNING update-health [update-slow]',
    ]);
  });

  it('a healthy archive says "no problem found" plainly, in every format', () => {
    const input = join(ROOT, 'samples/healthy.tar.gz');
    const text = mgsift(['analyze', input, '--format', 'text']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('\nNo problem found: no rule found anything at warning or above (1 informational finding below, none of them a problem).\n');
    // "below" and "see Rules not checked" are answered on the same screen.
    expect(text.stdout).toContain('\nFindings (1):\n  INFO events-failed-scheduling: Resolved before the collection: Pod cluster-version-operator-849b4dcf9c-dl6zb waited for a node from 2021-08-03T09:14:55Z; none is still unscheduled\n');
    // How many rules the trimmed sample cannot check grows with the pack; that the list follows is the point.
    expect(text.stdout).toMatch(/\nRules not checked \(\d+\):\n  [a-z0-9-]+: the archive lacks /);
    expect(text.stdout).toMatch(/\nNot run: update-risk data not given: 2 rules not run \(update-risk-applies, update-risk-taken\)/);
    const md = mgsift(['analyze', input, '--format', 'md', '-o', '-']).stdout;
    // The cluster at a glance first (here: not updating, two operators), then the diagnosis.
    expect(md).toMatch(/^# mgsift report[^\n]*\n\n## At a glance\n\n\*At the collection time, [^\n]*\n\n- Version 4\.8\.0-0\.nightly-2021-07-31-065602, not updating \(installed [^\n]*\n- Operators 2\/2 available[^\n]*\n\n## Diagnosis\n\nNo problem found: /);
  });
});
