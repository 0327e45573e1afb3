import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { mgsift } from '../helpers/cli.js';

const SAMPLES = new URL('../../samples/', import.meta.url).pathname;

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
