// Writes the coverage table of the built-in pack into rules/README.md (between its markers).
import { readFileSync, writeFileSync } from 'node:fs';
import { loadRules } from '../dist/engine/load.js';
import { coverageTable, withCoverage } from '../dist/ruletest/coverage.js';

const readmePath = new URL('../rules/README.md', import.meta.url);
const loaded = await loadRules([]);
if (loaded.issues.length > 0) {
  for (const issue of loaded.issues) console.error(`${issue.file}:${issue.line}: ${issue.reason}`);
  process.exit(1);
}
const updated = withCoverage(readFileSync(readmePath, 'utf8'), coverageTable(loaded.rules));
if (updated === undefined) {
  console.error('rules/README.md lacks the coverage markers');
  process.exit(1);
}
writeFileSync(readmePath, updated);
console.log(`rules/README.md: coverage of ${loaded.rules.length} rules written`);
