import { describe, it, expect } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/archives.js';
import { mgsift } from '../helpers/cli.js';

/** A version-scoped rule on an input without ClusterVersion runs, and the report names the assumption. */
const INSPECT = new URL('../../rules/mco/mco-old-boot-image.fixtures/fires-inspect-no-clusterversion/input/', import.meta.url).pathname;
const OUT_OF_RANGE = new URL('../../rules/mco/mco-old-boot-image.fixtures/quiet-46-and-newer-boot-images/input/', import.meta.url).pathname;

interface JsonReport {
  banners: string[];
  findings: { ruleId: string; caveat?: string; message: string }[];
  notChecked: { ruleId: string; reason: string }[];
  notApplicable: { ruleId: string; reason: string }[];
}

function analyze(input: string, only: string): JsonReport {
  const run = mgsift(['analyze', input, '--format', 'json', '-o', '-', '--fail-on', 'critical', '--only', only]);
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as JsonReport;
}

describe('rules with applies.versions on an input whose cluster version is unknown', () => {
  it('run; the finding and "Read this first" say the version is unknown and which range the rule is for', () => {
    const report = analyze(INSPECT, 'mco-old-boot-image');
    const finding = report.findings.find((f) => f.ruleId === 'mco-old-boot-image');
    expect(finding?.caveat).toBe('The cluster version is unknown (this input holds no ClusterVersion); this rule is meant for versions >=4.11.0-0');
    expect(finding?.message.startsWith(`${finding?.caveat}.\n`)).toBe(true);
    expect(report.banners).toContain(
      'The cluster version is unknown (this input holds no ClusterVersion), so rules meant for certain versions were run anyway: mco-old-boot-image assumes the cluster is in the range its finding names.',
    );
  });

  it('a known version outside the range makes the rule not applicable, with the version it saw, never not checked', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'old-only.yaml'),
      [
        'id: old-only-aleph',
        'title: A rule meant for clusters before 4.6 only',
        'severity: info',
        'status: experimental',
        'component: test',
        'applies: { versions: "<4.6.0-0" }',
        'signals:',
        '  aleph: { log: { files: [{ namespace: openshift-machine-config-operator }], regex: "CoreOS aleph version" } }',
        'message: aleph seen',
      ].join('\n'),
    );
    const run = (input: string, stderr = ''): JsonReport => {
      const out = mgsift(['analyze', input, '--rules', dir, '--only', 'old-only-aleph', '--format', 'json', '-o', '-', '--fail-on', 'critical']);
      expect(out.stderr).toBe(stderr);
      return JSON.parse(out.stdout) as JsonReport;
    };
    // The one rule selected could not be checked: exit 2 with that line, the report still written.
    const known = run(OUT_OF_RANGE, `mgsift: error: ${OUT_OF_RANGE}: no rule could be checked (1 not applicable: old-only-aleph: it is for OpenShift <4.6.0-0; this cluster runs 4.14.10)\n`);
    expect(known.findings).toEqual([]);
    expect(known.notChecked).toEqual([]);
    expect(known.banners.filter((b) => b.includes('could not be checked'))).toEqual([]);
    expect(known.notApplicable).toEqual([expect.objectContaining({ ruleId: 'old-only-aleph', reason: 'it is for OpenShift <4.6.0-0; this cluster runs 4.14.10' })]);
    const unknown = run(INSPECT);
    expect(unknown.findings.map((f) => [f.ruleId, f.caveat])).toEqual([
      ['old-only-aleph', 'The cluster version is unknown (this input holds no ClusterVersion); this rule is meant for versions <4.6.0-0'],
    ]);
  });
});
