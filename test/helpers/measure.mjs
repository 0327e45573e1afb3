// Runs one analysis with the full rule pack and the digest (as `mgsift analyze` does) in this
// process and prints its peak RSS (bytes) and what it read, as JSON: a child process per
// measurement keeps them independent.
import { analyzeInput } from '../../dist/analysis/analyze.js';
import { loadRules } from '../../dist/engine/load.js';
import { DEFAULT_LIMITS } from '../../dist/core/limits.js';
import { peakRssBytes } from './vmhwm.mjs';

const { rules } = await loadRules();
const analysis = await analyzeInput(process.argv[2], { limits: DEFAULT_LIMITS, rules, digest: true });
process.stdout.write(
  JSON.stringify({
    maxRssBytes: peakRssBytes(),
    files: analysis.summary.files,
    bytesRead: analysis.summary.bytesRead,
    findings: analysis.result.findings.map((f) => f.ruleId),
    problems: analysis.problems.items.length,
    digest: {
      lines: analysis.digest.lines,
      templates: analysis.digest.components.reduce((n, c) => n + c.templates.length, 0),
      unfolded: analysis.digest.components.reduce((n, c) => n + c.unfolded, 0),
    },
  }),
);
