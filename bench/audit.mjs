#!/usr/bin/env node
// `npm run bench:audit`: issue 36's targets for the audit logs.
//   - `mgsift audit` on gather_audit_logs folders of several sizes ÷ `zcat` of the same files
//     (target ≤ 2.5), and its peak RSS (target ≤ 300 MB, flat from the smallest to the largest);
//   - `analyze` of a real must-gather with 130 000 audit events added ÷ the same without
//     (target ≤ 1.5).
//
//   node bench/audit.mjs [--sizes 0.1,2] [--reps 3] [--events 130000] [--cache .bench-cache]
//
// Sizes are GB of uncompressed audit log (10^9 bytes); the logs are made by bench/audit-volume.mjs
// and cached. Results go to bench/audit-results.json and stdout.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { DEFAULT_CACHE, REPO } from './generate.mjs';
import { writeAuditLogs } from './audit-volume.mjs';

const CLI = join(REPO, 'dist', 'cli', 'main.js');
const USAGE = join(REPO, 'bench', 'usage.mjs');
const REAL = join(REPO, '..', 'shared', 'samples-real', 'must-gather-aws.tar.xz');
/** Bytes of one generated event line, about: sizes are turned into event counts with it. */
const LINE_BYTES = 1050;
const TARGETS = { auditPerZcat: 2.5, rssMb: 300, analyzeWithPerWithout: 1.5 };
const say = (message) => process.stderr.write(`bench:audit: ${message}\n`);

function parseArgs(argv) {
  const options = { sizes: [0.1, 0.5], reps: 3, events: 130_000, cache: DEFAULT_CACHE };
  for (let i = 0; i < argv.length; i++) {
    const value = () => argv[++i] ?? '';
    if (argv[i] === '--sizes') options.sizes = value().split(',').map(Number);
    else if (argv[i] === '--reps') options.reps = Number(value());
    else if (argv[i] === '--events') options.events = Number(value());
    else if (argv[i] === '--cache') options.cache = value();
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return options;
}

/** Wall seconds, peak RSS and CPU of one command (mgsift through usage.mjs; others by wall time only). */
function run(line, usageFile) {
  const started = performance.now();
  const result = spawnSync('bash', ['-o', 'pipefail', '-c', line], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, MGSIFT_BENCH_USAGE: usageFile ?? '' } });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0 && result.status !== 1) throw new Error(`${line} exited ${result.status}: ${String(result.stderr).slice(0, 400)}`);
  const usage = usageFile ? JSON.parse(readFileSync(usageFile, 'utf8')) : undefined;
  return { seconds, rssMb: usage ? usage.maxRssBytes / 1e6 : undefined, cpuSeconds: usage?.cpuSeconds };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mgsift = (args) => ['node', '--import', pathToFileURL(USAGE).href, CLI, ...args].map((a) => `'${a}'`).join(' ');

async function auditFolder(cache, sizeGb) {
  const dir = join(cache, `audit-${sizeGb}gb`);
  if (existsSync(join(dir, 'done'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  say(`writing ${sizeGb} GB of audit logs to ${dir}`);
  await writeAuditLogs(dir, { events: Math.round((sizeGb * 1e9) / LINE_BYTES) });
  writeFileSync(join(dir, 'done'), '');
  return dir;
}

/** The real must-gather unpacked, and a copy with `events` audit events in its image folder; both packed as .tar.gz. */
async function analyzePair(cache, events) {
  const dir = join(cache, `audit-analyze-${events}`);
  const without = join(dir, 'without.tar.gz');
  const withAudit = join(dir, 'with.tar.gz');
  if (existsSync(join(dir, 'done'))) return { without, withAudit };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'tree'), { recursive: true });
  say(`unpacking ${REAL}`);
  if (spawnSync('tar', ['-xJf', REAL, '-C', join(dir, 'tree')]).status !== 0) throw new Error(`cannot unpack ${REAL}`);
  const top = readdirSync(join(dir, 'tree'))[0];
  spawnSync('tar', ['-czf', without, '-C', join(dir, 'tree'), top]);
  const image = readdirSync(join(dir, 'tree', top)).find((name) => name.startsWith('quay-io') || name.startsWith('registry'));
  if (!image) throw new Error('no image folder in the real must-gather');
  await writeAuditLogs(join(dir, 'tree', top, image), { events });
  spawnSync('tar', ['-czf', withAudit, '-C', join(dir, 'tree'), top]);
  rmSync(join(dir, 'tree'), { recursive: true, force: true });
  writeFileSync(join(dir, 'done'), '');
  return { without, withAudit };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!existsSync(CLI)) throw new Error('build first: npm run build');
  const work = join(options.cache, 'audit-work');
  mkdirSync(work, { recursive: true });
  const usageFile = join(work, 'usage.json');
  const results = { sizes: [], analyze: undefined, targets: TARGETS };
  for (const sizeGb of options.sizes) {
    const dir = await auditFolder(options.cache, sizeGb);
    const files = `'${dir}'/audit_logs/*/*.gz`;
    const zcat = [];
    const audit = [];
    for (let rep = 0; rep < options.reps; rep++) {
      zcat.push(run(`zcat ${files} > /dev/null`).seconds);
      audit.push(run(`${mgsift(['audit', dir, '--format', 'json'])} > /dev/null`, usageFile));
    }
    const row = {
      sizeGb,
      zcatSeconds: median(zcat),
      auditSeconds: median(audit.map((a) => a.seconds)),
      auditCpuSeconds: median(audit.map((a) => a.cpuSeconds)),
      rssMb: Math.max(...audit.map((a) => a.rssMb)),
    };
    row.auditPerZcat = row.auditSeconds / row.zcatSeconds;
    results.sizes.push(row);
    say(`${sizeGb} GB: mgsift audit ${row.auditSeconds.toFixed(2)} s, zcat ${row.zcatSeconds.toFixed(2)} s (×${row.auditPerZcat.toFixed(2)}, target ≤ ${TARGETS.auditPerZcat}); peak RSS ${row.rssMb.toFixed(0)} MB (target ≤ ${TARGETS.rssMb})`);
  }
  if (existsSync(REAL)) {
    const { without, withAudit } = await analyzePair(options.cache, options.events);
    const plain = [];
    const audited = [];
    for (let rep = 0; rep < options.reps; rep++) {
      plain.push(run(`${mgsift(['analyze', without, '--format', 'json', '-o', join(work, 'without.json')])}`, usageFile));
      audited.push(run(`${mgsift(['analyze', withAudit, '--format', 'json', '-o', join(work, 'with.json')])}`, usageFile));
    }
    results.analyze = {
      events: options.events,
      withoutSeconds: median(plain.map((r) => r.seconds)),
      withSeconds: median(audited.map((r) => r.seconds)),
      withoutRssMb: Math.max(...plain.map((r) => r.rssMb)),
      withRssMb: Math.max(...audited.map((r) => r.rssMb)),
    };
    results.analyze.withPerWithout = results.analyze.withSeconds / results.analyze.withoutSeconds;
    say(`analyze with ${options.events} audit events ${results.analyze.withSeconds.toFixed(2)} s, without ${results.analyze.withoutSeconds.toFixed(2)} s (×${results.analyze.withPerWithout.toFixed(2)}, target ≤ ${TARGETS.analyzeWithPerWithout})`);
  } else {
    say(`${REAL} missing: the analyze comparison is skipped`);
  }
  writeFileSync(join(REPO, 'bench', 'audit-results.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
}

await main();
