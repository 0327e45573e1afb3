import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../src/engine/load.js';
import { coverageTable, withCoverage } from '../../src/ruletest/coverage.js';

describe('the coverage table of rules/README.md', () => {
  it('is the one the rule files give (run `npm run coverage` after changing a rule)', async () => {
    const loaded = await loadRules([]);
    expect(loaded.issues).toEqual([]);
    const readme = readFileSync(new URL('../../rules/README.md', import.meta.url), 'utf8');
    expect(withCoverage(readme, coverageTable(loaded.rules))).toBe(readme);
  });

  it('names each rule\'s domain, what it reads and where its text comes from', async () => {
    const table = coverageTable((await loadRules([])).rules);
    expect(table).toMatch(/^\| cvo \| `cvo-final-sync-lost` \| warning \| fact history\.transitions; logs of openshift-cluster-version\/cluster-version-operator, a single log; fact cvo\.pods \| \[BZ 1916384\]\(https:\/\/bugzilla\.redhat\.com\/show_bug\.cgi\?id=1916384\), \[openshift\/cluster-version-operator pull 501\]/m);
    expect(table).toMatch(/^\d+ rules in \d+ domains: /);
  });
});
