import { describe, it, expect } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { mgsift } from '../helpers/cli.js';

const SAMPLES = new URL('../../samples/', import.meta.url).pathname;
const REAL = new URL('../../../shared/samples-real/', import.meta.url).pathname;

/** The failure-mode rules of the seeds: they must never fire on a healthy real archive. */
const SEED_RULES = [
  'cvo-final-sync-lost',
  'cvo-update-forced',
  'cvo-unsigned-target',
  'cvo-status-rejected-capabilities',
  'update-rollback',
  'olm-staging-registry',
  'mco-ignition-spec-unsupported',
  'mco-old-boot-image',
];

function findingIds(input: string): string[] {
  const run = mgsift(['analyze', input, '--format', 'json', '-o', '-', '--fail-on', 'critical']);
  expect(run.stderr).toBe('');
  return (JSON.parse(run.stdout) as { findings: { ruleId: string }[] }).findings.map((f) => f.ruleId).sort();
}

describe('bundled samples give exactly their documented findings', () => {
  const scenarios = readdirSync(join(SAMPLES, 'scenarios')).sort();
  it.each(scenarios)('%s', (scenario) => {
    const expected = yaml.load(readFileSync(join(SAMPLES, 'scenarios', scenario, 'expect.yaml'), 'utf8')) as { findings: string[] };
    expect(findingIds(join(SAMPLES, `${scenario}.tar.gz`))).toEqual([...expected.findings].sort());
  });
});

describe.runIf(existsSync(join(REAL, 'must-gather-aws.tar.xz')))('healthy real archives', () => {
  it.each(['must-gather-aws.tar.xz', 'must-gather-metal.tar.xz'])('%s raises none of the seed failure modes', (name) => {
    const ids = findingIds(join(REAL, name));
    for (const id of SEED_RULES) expect(ids).not.toContain(id);
  });
});
