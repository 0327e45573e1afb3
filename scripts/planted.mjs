#!/usr/bin/env node
/**
 * The planted-case table: each case of test/planted/cases planted into a copy of the real AWS
 * must-gather, analysed, and judged (root cases: a root of the diagnosis is one of the case's
 * `match` rule ids; quiet cases: no new finding at warning or above against the unmodified base).
 *
 *   node scripts/planted.mjs [-j N] [--json out.json] [--keep] [name-substring ...]
 *
 * Root cases marked `heldBack: true` are kept out of a batch's rule work until the batch is done;
 * the table marks them with `*` and the totals count them apart.
 *
 * Needs the built CLI (dist/) and ../shared/samples-real/must-gather-aws.tar.xz.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { baseline, loadCases, pool, prepareBase, runCase } from './planted-lib.mjs';

const args = process.argv.slice(2);
let jobs = Math.max(1, Math.min(2, availableParallelism() - 1));
let jsonOut;
let keep = false;
const filters = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '-j' || args[i] === '--jobs') jobs = Number(args[++i]);
  else if (args[i] === '--json') jsonOut = args[++i];
  else if (args[i] === '--keep') keep = true;
  else filters.push(args[i]);
}

const cases = loadCases().filter((c) => filters.length === 0 || filters.some((f) => c.name.includes(f)));
const base = prepareBase();
process.stderr.write(`base: ${base.baseDir} (collected ${new Date(base.t0).toISOString()}), ${cases.length} cases, ${jobs} at once\n`);
await baseline(base);

const results = await pool(cases, jobs, async (c) => {
  try {
    const r = await runCase(c, base, { keep });
    process.stderr.write(`${r.verdict.padEnd(8)} ${c.name}\n`);
    return r;
  } catch (error) {
    process.stderr.write(`ERROR    ${c.name}: ${error.message}\n`);
    return { name: c.name, expect: c.quiet ? 'quiet' : c.expect.root, roots: [], newFindings: [], findings: [], verdict: 'ERROR', error: error.message };
  }
});

const cut = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const heldBack = new Set(cases.filter((c) => c.heldBack).map((c) => c.name));
const rows = results.map((r) => {
  const found = r.expect === 'quiet' ? r.newFindings.map((f) => `${f.ruleId}(${f.severity})`).join(', ') || '-' : r.roots.map((x) => x.ruleId).join(', ') || '-';
  return [heldBack.has(r.name) ? `${r.name} *` : r.name, r.expect, found, r.verdict];
});
const header = ['case', 'expected', 'roots found (quiet: new warning+)', 'verdict'];
const widths = [Math.max(...rows.map((r) => r[0].length), 4), 34, 70, 8];
const line = (cells) => cells.map((c, i) => cut(String(c), widths[i]).padEnd(widths[i])).join('  ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of rows) console.log(line(row));

const rootCases = results.filter((r) => r.expect !== 'quiet' && !heldBack.has(r.name));
const heldBackCases = results.filter((r) => heldBack.has(r.name));
const quietCases = results.filter((r) => r.expect === 'quiet');
const passing = (list) => list.filter((r) => r.verdict === 'pass').length;
const named = passing(rootCases);
const namedHeldBack = passing(heldBackCases);
const unjudged = [...rootCases, ...heldBackCases].filter((r) => r.verdict === 'unjudged').length;
const quiet = passing(quietCases);
const heldBackTotal = heldBackCases.length ? `, held back (*) ${namedHeldBack}/${heldBackCases.length}` : '';
console.log(`\nnamed as root ${named}/${rootCases.length}${heldBackTotal}${unjudged ? ` (${unjudged} without a match list)` : ''}, near-misses quiet ${quiet}/${quietCases.length}`);

const failing = results.filter((r) => r.verdict === 'FAIL' || r.verdict === 'ERROR');
if (failing.length) {
  console.log('\nfailing cases:');
  for (const r of failing) {
    console.log(`- ${r.name}: ${r.error ?? ''}`);
    if (r.expect === 'quiet') for (const f of r.newFindings) console.log(`    new ${f.ruleId} (${f.severity}): ${cut(f.line, 150)}`);
    else {
      console.log(`    roots: ${r.roots.map((x) => `${x.ruleId}(${x.severity})`).join(', ') || 'none'}`);
      const m = r.matchedFinding;
      console.log(m ? `    matching rule fired but not a root: ${m.ruleId} (${m.severity}), explained by ${m.explainedBy.map((e) => e.ruleId ?? e).join(', ') || 'nothing (below warning?)'}` : `    no rule of [${(r.match ?? []).join(', ')}] fired`);
    }
  }
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ named, rootCases: rootCases.length, namedHeldBack, heldBackCases: heldBackCases.length, quiet, quietCases: quietCases.length, results }, null, 2));
