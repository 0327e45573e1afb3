#!/usr/bin/env node
// `npm run bench`: mgsift against the decompression limit and what users type today, on large
// must-gather-shaped archives (bench/generate.mjs). See BENCHMARKS.md for how to read it.
//
//   node bench/run.mjs [--sizes 0.25,1] [--reps 3] [--formats gz,xz] [--quick]
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { DEFAULT_CACHE, ensureArchive, ensureRealCopies, GB, hasCommand, REAL_COPIES, REAL_COPY_SOURCES, REPO, XZ_PRESET } from './generate.mjs';
import { logPatterns } from './patterns.mjs';

const CLI = join(REPO, 'dist', 'cli', 'main.js');
const USAGE = join(REPO, 'bench', 'usage.mjs');
const READ_FLOOR = join(REPO, 'bench', 'read-floor.mjs');
const MB = 1e6;
const CLONES = 10;

const TARGETS = {
  decompress: { gz: 1.0, xz: 1.1 },
  /** Issue 16: the real-content case (a real archive's image folder ×4, YAML-heavy) ÷ `gzip -dc`. */
  realDecompress: 1.8,
  tarGrep: 0.25,
  tarRg: 0.5,
  /** Issue 33: ÷ `pigz -dc | rg -a -P -f <the pack's regexes>` (PCRE2, as the issue measures it). */
  pipeRg: 1.0,
  /**
   * Issue 33: the pack ten times over (every rule cloned 9 times) ÷ the pack, on every case: the
   * pack ten times as large, built as `npm run build` builds the pack; beside it, the same clones
   * as a user's folder (`--rules`), as it stands and built ahead (`mgsift rules build`).
   */
  rules10: 1.2,
  rssMb: 250,
  rssGrowth: 1.1,
  /** Seconds `--update-risks` (load and evaluate every blocked-edges file) adds to an analysis. */
  updateRisksSeconds: 1.0,
  /** Issue 26: the whole pack ÷ the 27 rules it grew from, on the real-content case (time, peak RSS). */
  packPerSeedPack: 1.3,
  packRssPerSeedPack: 1.1,
};

/** The 27 rules of the pack before issue 26 grew it to 100+: the same run with `--only` them is its baseline. */
const SEED_PACK = [
  'clusterversion-failing', 'clusterversion-update-stalled', 'cvo-final-sync-lost', 'cvo-restarted-during-update',
  'cvo-status-rejected-capabilities', 'cvo-unsigned-target', 'cvo-update-forced', 'clusteroperator-degraded',
  'clusteroperator-unavailable', 'events-failed-scheduling', 'mcp-degraded', 'node-drain-blocked', 'node-not-ready',
  'pod-crashlooping', 'mco-ignition-spec-unsupported', 'mco-old-boot-image', 'cluster-alert-firing', 'olm-staging-registry',
  'ovn-leader-churn', 'clusteroperator-upgradeable-false', 'clusterversion-updates-not-retrieved', 'update-accepted-risks',
  'update-not-recommended', 'update-risk-applies', 'update-risk-evaluation-failed', 'update-risk-taken', 'update-rollback',
];

/** cincinnati-graph-data for the `--update-risks` runs: MGSIFT_UPDATE_RISKS, else the shared copy beside the worktree. */
const UPDATE_RISKS = [process.env.MGSIFT_UPDATE_RISKS, join(REPO, '..', 'shared', 'datasets', 'cincinnati-graph-data')].find(
  (dir) => dir && existsSync(join(dir, 'blocked-edges')),
);

function parseArgs(argv) {
  const options = { sizes: [0.25, 1], reps: 3, formats: ['gz', 'xz'], quick: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--sizes') options.sizes = value().split(',').map(Number);
    else if (flag === '--reps') options.reps = Number(value());
    else if (flag === '--formats') options.formats = value().split(',');
    else if (flag === '--quick') options.quick = true;
    else throw new Error(`unknown option ${flag} (use --sizes 0.25,1 --reps 3 --formats gz,xz --quick)`);
  }
  if (options.quick) {
    if (!argv.includes('--sizes')) options.sizes = [0.15];
    if (!argv.includes('--reps')) options.reps = 1;
  }
  if (options.sizes.some((s) => !(s > 0)) || !(options.reps >= 1) || options.formats.some((f) => f !== 'gz' && f !== 'xz')) {
    throw new Error('--sizes takes positive GB, --reps a count ≥ 1, --formats gz and/or xz');
  }
  return options;
}

const say = (message) => process.stderr.write(`bench: ${message}\n`);

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** The benchmark measures the built CLI; build it when dist/ is missing or older than src/. */
function ensureBuilt() {
  if (existsSync(CLI) && statSync(CLI).mtimeMs >= newestMtime(join(REPO, 'src'))) return;
  say('building dist/ (npm run build)');
  const build = spawnSync('npm', ['run', 'build'], { cwd: REPO, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed');
}

/** ripgrep and pigz come from Debian's packages when missing (CI and this machine run as root). */
function ensureTools() {
  const missing = [['rg', 'ripgrep'], ['pigz', 'pigz']].filter(([command]) => !hasCommand(command)).map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    say(`${missing.join(' and ')} missing and not root: the baselines that need them are skipped`);
    return;
  }
  say(`installing ${missing.join(', ')} with apt-get`);
  const install = () => spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
  if (!install()) {
    spawnSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'] });
    install();
  }
}

function firstLine(command, args) {
  const run = spawnSync(command, args, { encoding: 'utf8' });
  return run.status === 0 ? `${run.stdout}${run.stderr}`.split('\n')[0].trim() : 'not installed';
}

function machine() {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGb: +(totalmem() / 2 ** 30).toFixed(1),
    kernel: release(),
    node: process.version,
    locale: process.env.LC_ALL || process.env.LC_CTYPE || process.env.LANG || 'unset',
    tools: {
      gzip: firstLine('gzip', ['--version']),
      pigz: firstLine('pigz', ['--version']),
      xz: firstLine('xz', ['--version']),
      tar: firstLine('tar', ['--version']),
      grep: firstLine('grep', ['--version']),
      rg: firstLine('rg', ['--version']),
    },
  };
}

/**
 * A copy of the package whose pack is ten times the shipped one (its rules/ with the clones of
 * `clones` beside them), built as `npm run build` builds the pack; its CLI's path.
 */
function tenfoldPackage(dir, clones) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const name of ['dist', 'scripts', 'rules', 'package.json']) cpSync(join(REPO, name), join(dir, name), { recursive: true });
  cpSync(clones, join(dir, 'rules'), { recursive: true });
  for (const name of ['node_modules', 'templates']) symlinkSync(join(REPO, name), join(dir, name));
  const build = spawnSync(process.execPath, [join(dir, 'scripts', 'pack-prebuilt.mjs')], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the pack ×10's build: exit ${build.status}\n${build.stdout}${build.stderr}`);
  return join(dir, 'dist', 'cli', 'main.js');
}

/** The full pack ten times: nine clones of every shipped rule under new ids, as a user folder. */
function tenfoldPack(dir) {
  rmSync(dir, { recursive: true, force: true });
  const rulesDir = join(REPO, 'rules');
  const walk = (folder) =>
    readdirSync(folder, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? (e.name.endsWith('.fixtures') ? [] : walk(join(folder, e.name))) : /\.ya?ml$/.test(e.name) ? [join(folder, e.name)] : [],
    );
  for (const file of walk(rulesDir)) {
    const text = readFileSync(file, 'utf8');
    const id = /^id: (\S+)$/m.exec(text)?.[1];
    if (!id) continue;
    for (let k = 2; k <= CLONES; k++) {
      const target = join(dir, relative(rulesDir, file).replace(/[^/]+$/, `${id}-x${k}.yaml`));
      mkdirSync(join(target, '..'), { recursive: true });
      writeFileSync(target, text.replace(/^id: \S+$/m, `id: ${id}-x${k}`));
    }
  }
}

const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs a shell command line and returns its wall time in seconds; `ok` lists accepted exit codes. */
function timed(commandLine, ok = [0], env = process.env) {
  const started = performance.now();
  const run = spawnSync('bash', ['-o', 'pipefail', '-c', commandLine], { stdio: ['ignore', 'ignore', 'pipe'], env, maxBuffer: 16 * 2 ** 20 });
  const seconds = (performance.now() - started) / 1000;
  if (!ok.includes(run.status ?? -1)) throw new Error(`${commandLine.slice(0, 200)}… exited ${run.status}: ${String(run.stderr).slice(0, 500)}`);
  return seconds;
}

/**
 * The scaling curve (issue 16): `--threads 1` and `--threads 2` on every core, and on one core
 * (`taskset -c 0`: the process, its zlib pool and the `xz` it starts), so that how the time
 * splits between the container and the parsing shows.
 */
const THREAD_RUNS = [
  { name: 'threads2', args: ['--threads', '2'], prefix: [] },
  { name: 'oneCoreThreads1', args: ['--threads', '1'], prefix: ['taskset', '-c', '0'] },
  { name: 'oneCoreThreads2', args: ['--threads', '2'], prefix: ['taskset', '-c', '0'] },
];

/** One mgsift analysis: wall time, peak RSS, CPU time and the report's findings. */
function mgsift(archive, work, extraArgs, prefix = [], cli = CLI) {
  const report = join(work, 'report.json');
  const usageFile = join(work, 'usage.json');
  rmSync(report, { force: true });
  rmSync(usageFile, { force: true });
  const line = [...prefix, 'node', '--import', quote(pathToFileURL(USAGE).href), quote(cli), 'analyze', quote(archive), '--format', 'json', '-o', quote(report), ...extraArgs.map(quote)].join(' ');
  const seconds = timed(line, [0, 1], { ...process.env, MGSIFT_BENCH_USAGE: usageFile });
  const usage = runUsage(readFileSync(usageFile, 'utf8'));
  return { seconds, relaunched: usage.relaunched, rssMb: usage.maxRssBytes / MB, launcherRssMb: usage.launcherRssBytes / MB, launcherPrivateMb: usage.launcherPrivateBytes / MB, cpuSeconds: usage.cpuSeconds, mainCpuSeconds: usage.mainCpuSeconds, report: JSON.parse(readFileSync(report, 'utf8')) };
}

/**
 * One run's usage from bench/usage.mjs's lines: the analysing process's peak RSS and main
 * thread (the second Node's when the run relaunched itself), the CPU of both processes, and the
 * first Node's peak RSS and private memory while it waited (0 without a relaunch).
 */
function runUsage(text) {
  const lines = text.trim().split('\n').map((l) => JSON.parse(l));
  const analysing = lines.find((l) => l.relaunched) ?? lines[0];
  const launcher = lines.find((l) => l !== analysing);
  return {
    relaunched: analysing.relaunched,
    maxRssBytes: analysing.maxRssBytes,
    launcherRssBytes: launcher?.maxRssBytes ?? 0,
    launcherPrivateBytes: launcher?.privateBytes ?? 0,
    cpuSeconds: lines.reduce((sum, l) => sum + l.cpuSeconds, 0),
    mainCpuSeconds: analysing.mainCpuSeconds,
  };
}

/** What must not change between runs: each finding's rule, severity and evidence places. */
function findingKeys(report, ruleIdOf = (id) => id) {
  return report.findings
    .map((f) => `${ruleIdOf(f.ruleId)} ${f.severity} ${f.evidence.map((e) => `${e.signal}@${e.file}:${e.line ?? ''}`).join(',')} +${f.evidenceDropped ?? 0}`)
    .sort();
}

function plantedMissing(report, expected) {
  return expected.filter(
    (p) => !report.findings.some((f) => f.ruleId === p.ruleId && f.evidence.some((e) => e.file === p.file && e.line === p.line)),
  );
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * One repetition of one archive: every measurement once, in an order rotated by `rep` so a
 * slow drift of the machine spreads over all of them.
 */
function repetition(setup, rep, runs, check) {
  const { archive, format, work, patterns, tools } = setup;
  const decompressor = format === 'gz' ? 'gzip -dc' : 'xz -dc';
  const pipeDecompressor = format === 'gz' ? 'pigz -dc' : 'xz -dc';
  const rgArgs = patterns.filter((p) => p.rust).flatMap((p) => ['-e', quote(p.rust)]).join(' ');
  const grepArgs = patterns.filter((p) => p.ere).flatMap((p) => ['-e', quote(p.ere)]).join(' ');
  const counts = join(work, 'counts.txt');
  const pcreFile = join(work, 'pack-regexes.pcre');
  writeFileSync(pcreFile, `${patterns.filter((p) => p.pcre).map((p) => p.pcre).join('\n')}\n`);
  // A figure the platform cannot give (the main thread's CPU outside Linux) is left out.
  const record = (name, value) => value !== undefined && (runs[name] ??= []).push(value);
  const steps = [
    () => record('decompress', timed(`${decompressor} ${quote(archive)} > /dev/null`)),
    // mgsift's reading of the container alone (nothing parsed): the floor no parser or rule can lower.
    () => record('readFloor', timed(`node ${quote(READ_FLOOR)} ${quote(archive)} > /dev/null`)),
    () => {
      if (setup.lean) return;
      const tree = join(work, 'tree');
      rmSync(tree, { recursive: true, force: true });
      mkdirSync(tree);
      const extract = timed(`tar -x${format === 'gz' ? 'z' : 'J'}f ${quote(archive)} -C ${quote(tree)}`);
      record('extract', extract);
      // Counts go to a file: grep and rg stop at the first match when their output is /dev/null.
      const grep = timed(`grep -rEc ${grepArgs} ${quote(tree)} > ${quote(counts)}`, [0, 1]);
      record('grep', grep);
      record('tarGrep', extract + grep);
      if (tools.rg) {
        const rg = timed(`rg -c ${rgArgs} ${quote(tree)} > ${quote(counts)}`, [0, 1]);
        record('rg', rg);
        record('tarRg', extract + rg);
      }
      rmSync(tree, { recursive: true, force: true });
    },
    () => {
      if (!tools.rg || (format === 'gz' && !tools.pigz)) return;
      // ripgrep's own engine, and its PCRE2 one as issue 33 measures it.
      record('pipeRg', timed(`${pipeDecompressor} ${quote(archive)} | rg -a -c ${rgArgs} > ${quote(counts)}`, [0, 1]));
      record('pipeRgPcre', timed(`${pipeDecompressor} ${quote(archive)} | rg -a -c -P -f ${quote(pcreFile)} > ${quote(counts)}`, [0, 1]));
    },
    () => {
      const one = mgsift(archive, work, []);
      record('mgsift', one.seconds);
      record('mgsiftCpu', one.cpuSeconds);
      record('mgsiftMainCpu', one.mainCpuSeconds);
      record('rssMb', one.rssMb);
      record('relaunched', one.relaunched ? 1 : 0);
      record('launcherRssMb', one.launcherRssMb);
      record('launcherPrivateMb', one.launcherPrivateMb);
      check(one.report, 'full pack');
    },
    () => {
      if (setup.lean) return;
      for (const run of THREAD_RUNS) {
        if (run.prefix[0] && !tools[run.prefix[0]]) continue;
        const one = mgsift(archive, work, run.args, run.prefix);
        record(run.name, one.seconds);
        record(`${run.name}Cpu`, one.cpuSeconds);
        record(`${run.name}MainCpu`, one.mainCpuSeconds);
        record(`${run.name}RssMb`, one.rssMb);
        check(one.report, `full pack, ${[...run.prefix, ...run.args].join(' ')}`);
      }
    },
    () => {
      // The same analysis with every published update risk loaded and evaluated.
      if (!UPDATE_RISKS || setup.lean) return;
      // Its findings are the pack's plus the update-risk ones, so it is left out of the findings check.
      const risks = mgsift(archive, work, ['--update-risks', UPDATE_RISKS]);
      record('mgsiftRisks', risks.seconds);
      record('mgsiftRisksCpu', risks.cpuSeconds);
      record('risksRssMb', risks.rssMb);
    },
    () => {
      // The run as it was before the relaunch (src/cli/relaunch.ts): one Node, V8's four
      // background threads taking turns with the main thread on 2 cores.
      const single = mgsift(archive, work, [], ['MGSIFT_RELAUNCH=0']);
      record('mgsiftNoRelaunch', single.seconds);
      record('mgsiftNoRelaunchCpu', single.cpuSeconds);
      check(single.report, 'full pack, MGSIFT_RELAUNCH=0');
    },
    () => {
      // The pack as it was before issue 26: its findings are a subset, so no findings check.
      const seed = mgsift(archive, work, ['--only', SEED_PACK.join(',')]);
      record('mgsiftSeed', seed.seconds);
      record('seedRssMb', seed.rssMb);
    },
    () => {
      // Where the pack's time goes, rule by rule (one thread, timed): once per archive.
      if (rep !== 0 || setup.lean) return;
      const timedRules = mgsift(archive, work, ['--rule-costs']);
      runs.ruleCosts = timedRules.report.stats.ruleCosts;
      check(timedRules.report, 'full pack, --rule-costs');
    },
    tenfoldRun([], setup.tenfoldCli, 'Pack', 'pack ×10, built in'),
    tenfoldRun(['--rules', setup.tenfold], CLI, '', 'pack ×10, a user folder'),
    tenfoldRun(['--rules', setup.tenfoldBuilt], CLI, 'Built', 'pack ×10, a user folder built'),
  ];
  for (let i = 0; i < steps.length; i++) steps[(i + rep) % steps.length]();

  /** A pack ×10 run (`cli` with `args`), its figures named `mgsift10<name>`, `mgsift10<name>Cpu`, `rss10<name>Mb`. */
  function tenfoldRun(args, cli, name, label) {
    return () => {
      const ten = mgsift(archive, work, args, [], cli);
      record(`mgsift10${name}`, ten.seconds);
      record(`mgsift10${name}Cpu`, ten.cpuSeconds);
      record(`rss10${name}Mb`, ten.rssMb);
      check(ten.report, label);
    };
  }
}

/**
 * Collects every run's findings; `verdict` then checks the planted signals were found each time,
 * every full-pack run of one size gave the same findings, and each ×10 run gave each of them ten
 * times (its clones behave like their originals).
 */
function findingsRecorder(expected) {
  const runs = [];
  return {
    record: (label) => (report, pack) => {
      const tenfold = pack.startsWith('pack ×10');
      runs.push({ label: `${label} (${pack})`, tenfold, missing: plantedMissing(report, expected), keys: findingKeys(report, tenfold ? (id) => id.replace(/-x\d+$/, '') : undefined) });
    },
    verdict() {
      const problems = runs.flatMap((r) => r.missing.map((p) => `${r.label}: planted ${p.ruleId} at ${p.file}:${p.line} not found`));
      const reference = runs.find((r) => !r.tenfold)?.keys;
      if (!reference) return problems;
      const expectedTenfold = JSON.stringify(reference.flatMap((k) => Array(CLONES).fill(k)).sort());
      for (const r of runs) {
        const same = JSON.stringify(r.keys) === (r.tenfold ? expectedTenfold : JSON.stringify(reference));
        if (!same) problems.push(`${r.label}: ${r.tenfold ? "the clones' findings are not ten times the pack's" : 'findings differ from the first run'}`);
      }
      return problems;
    },
  };
}

function ratios(m, format) {
  const r = (a, b) => (m[a] !== undefined && m[b] ? m[a] / m[b] : undefined);
  return {
    mgsiftPerDecompress: r('mgsift', 'decompress'),
    noRelaunchPerDecompress: r('mgsiftNoRelaunch', 'decompress'),
    noRelaunchPerDefault: r('mgsiftNoRelaunch', 'mgsift'),
    readFloorPerDecompress: r('readFloor', 'decompress'),
    mgsiftPerReadFloor: r('mgsift', 'readFloor'),
    mgsiftPerTarGrep: r('mgsift', 'tarGrep'),
    mgsiftPerTarRg: r('mgsift', 'tarRg'),
    mgsiftPerPipeRg: r('mgsift', 'pipeRg'),
    mgsiftPerPipeRgPcre: r('mgsift', 'pipeRgPcre'),
    rules10PackPerRules1: r('mgsift10Pack', 'mgsift'),
    rules10PerRules1: r('mgsift10', 'mgsift'),
    rules10BuiltPerRules1: r('mgsift10Built', 'mgsift'),
    packPerSeedPack: r('mgsift', 'mgsiftSeed'),
    packRssPerSeedPack: r('rssMb', 'seedRssMb'),
    threads2PerDecompress: r('threads2', 'decompress'),
    threads2PerThreads1: r('threads2', 'mgsift'),
    oneCoreThreads2PerThreads1: r('oneCoreThreads2', 'oneCoreThreads1'),
    twoCoresPerOneCore: r('mgsift', 'oneCoreThreads1'),
    // CPU seconds, all threads: on a shared machine wall time swings by more than the second measured.
    updateRisksCpuSeconds: m.mgsiftRisksCpu !== undefined && m.mgsiftCpu !== undefined ? m.mgsiftRisksCpu - m.mgsiftCpu : undefined,
    updateRisksCpuRatio: m.mgsiftRisksCpu !== undefined && m.mgsiftCpu ? m.mgsiftRisksCpu / m.mgsiftCpu : undefined,
    decompressLimit: TARGETS.decompress[format],
  };
}

/**
 * Each target on each archive; `headline` marks the issue's own cases: everything on the largest
 * .tar.gz, the xz decompression ratio on the largest .tar.xz, and memory at every size.
 */
function targetRows(results) {
  const rows = [];
  const add = (scope, name, value, limit, headline) => rows.push({ scope, name, value, limit, met: value === undefined ? undefined : value <= limit, headline });
  const scaled = results.filter((r) => !r.real);
  const largest = Math.max(...scaled.map((r) => r.sizeGb));
  for (const r of results.filter((x) => x.real)) {
    add(nameOf(r), 'mgsift ÷ gzip -dc', r.ratios.mgsiftPerDecompress, TARGETS.realDecompress, true);
    add(nameOf(r), 'mgsift ÷ (pigz -dc | rg -a -P -f <regexes>)', r.ratios.mgsiftPerPipeRgPcre, TARGETS.pipeRg, true);
    // ripgrep's own engine, which finds the pack's literals with SIMD: a stricter baseline than the issue's.
    add(nameOf(r), 'mgsift ÷ (pigz -dc | rg -a -e …), Rust', r.ratios.mgsiftPerPipeRg, TARGETS.pipeRg, false);
    add(nameOf(r), 'pack ×10 ÷ pack', r.ratios.rules10PackPerRules1, TARGETS.rules10, true);
    add(nameOf(r), 'pack ×10 as a user folder (--rules) ÷ pack', r.ratios.rules10PerRules1, TARGETS.rules10, false);
    add(nameOf(r), 'the same folder built (rules build) ÷ pack', r.ratios.rules10BuiltPerRules1, TARGETS.rules10, false);
    add(nameOf(r), 'pack ÷ the 27-rule seed pack', r.ratios.packPerSeedPack, TARGETS.packPerSeedPack, true);
    add(nameOf(r), 'peak RSS, pack ÷ seed pack (medians)', r.ratios.packRssPerSeedPack, TARGETS.packRssPerSeedPack, true);
    add(nameOf(r), 'peak RSS, MB (highest run)', r.max.rssMb, TARGETS.rssMb, false);
  }
  for (const r of scaled) {
    const scope = nameOf(r);
    const headline = r.sizeGb === largest && r.format === 'gz';
    const tool = r.format === 'gz' ? 'gzip' : 'xz';
    add(scope, `mgsift ÷ ${tool} -dc`, r.ratios.mgsiftPerDecompress, TARGETS.decompress[r.format], r.sizeGb === largest);
    add(scope, 'mgsift ÷ (tar -x + grep -rE)', r.ratios.mgsiftPerTarGrep, TARGETS.tarGrep, headline);
    add(scope, 'mgsift ÷ (tar -x + rg)', r.ratios.mgsiftPerTarRg, TARGETS.tarRg, headline);
    const pipe = `${r.format === 'gz' ? 'pigz' : 'xz'} -dc`;
    add(scope, `mgsift ÷ (${pipe} | rg -a -P -f <regexes>)`, r.ratios.mgsiftPerPipeRgPcre, TARGETS.pipeRg, headline);
    add(scope, `mgsift ÷ (${pipe} | rg -a -e …), Rust`, r.ratios.mgsiftPerPipeRg, TARGETS.pipeRg, false);
    add(scope, 'pack ×10 ÷ pack', r.ratios.rules10PackPerRules1, TARGETS.rules10, headline);
    add(scope, 'pack ×10 as a user folder (--rules) ÷ pack', r.ratios.rules10PerRules1, TARGETS.rules10, false);
    add(scope, 'the same folder built (rules build) ÷ pack', r.ratios.rules10BuiltPerRules1, TARGETS.rules10, false);
    add(scope, 'peak RSS, MB (highest run)', r.max.rssMb, TARGETS.rssMb, true);
    add(scope, 'CPU seconds --update-risks adds (medians)', r.ratios.updateRisksCpuSeconds, TARGETS.updateRisksSeconds, true);
  }
  for (const format of new Set(scaled.map((r) => r.format))) {
    const bySize = scaled.filter((r) => r.format === format).sort((a, b) => a.sizeGb - b.sizeGb);
    if (bySize.length < 2) continue;
    const [small, big] = [bySize[0], bySize[bySize.length - 1]];
    add(`${small.sizeGb} → ${big.sizeGb} GB .tar.${format}`, 'peak RSS growth', big.max.rssMb / small.max.rssMb, TARGETS.rssGrowth, true);
  }
  return rows;
}

const fmt = (x, digits = 2) => (x === undefined ? '—' : x.toFixed(digits));
/** How an archive is named in the tables: its size and format, or the real-content case's label. */
const nameOf = (r) => r.label ?? `${r.sizeGb} GB .tar.${r.format}`;

function printTable(results, targets) {
  const lines = [];
  for (const r of results) {
    lines.push(`${nameOf(r)}: ${fmt(r.bytes / MB, 0)} MB in ${r.files} files, archive ${fmt(r.archiveBytes / MB, 0)} MB`);
  }
  lines.push('');
  lines.push('medians in seconds (MB/s of uncompressed content)');
  const cols = ['decompress', 'readFloor', 'extract', 'grep', 'rg', 'tarGrep', 'tarRg', 'pipeRg', 'pipeRgPcre', 'mgsift', 'mgsift10Pack', 'mgsift10', 'mgsift10Built'];
  lines.push(['archive'.padEnd(18), ...cols.map((c) => c.padStart(15))].join(''));
  for (const r of results) {
    const cells = cols.map((c) => (r.medians[c] === undefined ? '—' : `${fmt(r.medians[c], 1)} (${Math.round(r.bytes / MB / r.medians[c])})`).padStart(15));
    lines.push([nameOf(r).padEnd(18), ...cells].join(''));
  }
  lines.push('readFloor: mgsift reading the container and nothing else (bench/read-floor.mjs: decompression, tar framing, limits; no file parsed)');
  lines.push('floor ÷ decompress, and mgsift ÷ floor (medians): ' + results.map((r) => `${nameOf(r)}: ${fmt(r.ratios.readFloorPerDecompress)}, ${fmt(r.ratios.mgsiftPerReadFloor)}`).join('; '));
  lines.push('');
  lines.push('mgsift CPU seconds, all threads (median): ' + results.map((r) => `${nameOf(r)}: ${fmt(r.medians.mgsiftCpu, 1)} (pack ×10 ${fmt(r.medians.mgsift10PackCpu, 1)}, as a user folder ${fmt(r.medians.mgsift10Cpu, 1)}, built ${fmt(r.medians.mgsift10BuiltCpu, 1)}; --update-risks ${fmt(r.medians.mgsiftRisksCpu, 1)})`).join('; '));
  for (const r of results) {
    const added = r.ratios.updateRisksCpuSeconds;
    if (added === undefined) continue;
    const verdict = added <= TARGETS.updateRisksSeconds ? 'met' : 'NOT MET';
    lines.push(`--update-risks on ${nameOf(r)}: adds ${fmt(added)} CPU s (${fmt(r.ratios.updateRisksCpuRatio, 3)} × the run without; peak RSS ${fmt(r.max.risksRssMb, 0)} MB vs ${fmt(r.max.rssMb, 0)}); target ≤ ${TARGETS.updateRisksSeconds} s: ${verdict}`);
  }
  lines.push(
    'the default run relaunched itself with --v8-pool-size=1 (src/cli/relaunch.ts: 2 cores, an input that holds 24 MB or more): ' +
      results.map((r) => `${nameOf(r)}: ${r.medians.relaunched ? 'yes' : 'no'} (the first Node while it waits: ${fmt(r.max.launcherPrivateMb, 0)} MB of its own, RSS ${fmt(r.max.launcherRssMb, 0)} MB with Node\'s code shared with the second)`).join('; '),
  );
  lines.push(
    'without the relaunch (MGSIFT_RELAUNCH=0: one Node, V8\'s default pool of 4), median s, ÷ the default run, ÷ decompress: ' +
      results.map((r) => `${nameOf(r)}: ${fmt(r.medians.mgsiftNoRelaunch, 2)}, ${fmt(r.ratios.noRelaunchPerDefault, 3)}, ${fmt(r.ratios.noRelaunchPerDecompress, 3)}`).join('; '),
  );
  lines.push('peak RSS, MB (highest run): ' + results.map((r) => `${nameOf(r)}: ${fmt(r.max.rssMb, 0)} (pack ×10 ${fmt(r.max.rss10PackMb, 0)}, as a user folder ${fmt(r.max.rss10Mb, 0)}, built ${fmt(r.max.rss10BuiltMb, 0)}, --threads 2 ${fmt(r.max.threads2RssMb, 0)})`).join('; '));
  lines.push('');
  lines.push('scaling (medians: wall s / CPU s, all threads / CPU s, main thread); --threads 1 is the default on 2 cores');
  // Issue 16's targets are for the default thread count (1 on 2 cores); two threads here are a point of the curve.
  lines.push(['archive'.padEnd(18), ...['2 cores, 1 thread', '2 cores, 2 threads', '1 core, 1 thread', '1 core, 2 threads', '2 thr ÷ 1 thr', '2 thr ÷ decompress'].map((c) => c.padStart(22))].join(''));
  for (const r of results) {
    const m = r.medians;
    const cell = (name) => (m[name] === undefined ? '—' : `${fmt(m[name], 1)} / ${fmt(m[`${name}Cpu`], 1)} / ${fmt(m[`${name}MainCpu`], 1)}`).padStart(22);
    lines.push([nameOf(r).padEnd(18), cell('mgsift'), cell('threads2'), cell('oneCoreThreads1'), cell('oneCoreThreads2'), fmt(r.ratios.threads2PerThreads1, 3).padStart(22), fmt(r.ratios.threads2PerDecompress, 3).padStart(22)].join(''));
  }
  lines.push('with worker threads the main thread reads the container and merges; its CPU (last figure) bounds the wall time however many cores run the workers');
  for (const r of results) {
    if (!r.ruleCosts) continue;
    lines.push('');
    lines.push(`the 10 costliest rules on ${nameOf(r)} (--rule-costs: matching and evaluation, ms, one thread; of ${fmt(r.medians.mgsift, 1)} s in all)`);
    for (const c of r.ruleCosts.slice(0, 10)) lines.push(`  ${String(c.ms.toFixed(0)).padStart(6)}  ${c.rule}`);
  }
  lines.push('');
  lines.push('targets (≤ limit; * = the issue\'s own cases: the largest .tar.gz, xz -dc on the largest .tar.xz, memory everywhere)');
  for (const t of targets) {
    const verdict = t.met === undefined ? 'not measured' : t.met ? 'met' : 'NOT MET';
    lines.push(`  ${t.headline ? '*' : ' '} ${t.scope.padEnd(22)} ${t.name.padEnd(44)} ${fmt(t.value, t.value >= 100 ? 0 : 3).padStart(8)}  ≤ ${String(t.limit).padEnd(5)} ${verdict}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** The run as JSON: in .bench-cache/ under its time, and as bench/last-results.json for a full run. */
function writeResults({ options, seconds, generated, archives, patterns, results, targets, problems }) {
  const output = {
    when: new Date().toISOString(),
    command: `node bench/run.mjs ${process.argv.slice(2).join(' ')}`.trim(),
    options,
    machine: machine(),
    secondsTotal: seconds,
    secondsPreparing: generated,
    archives: [...new Map(archives.map((a) => [a.label ?? a.sizeGb, a.manifest])).values()].map((m) => ({
      name: m.name,
      source: m.sourceNote,
      sizeGb: m.sizeGb,
      bytes: m.bytes,
      files: m.files,
      clonedNamespaces: m.clonedNamespaces,
      generateSeconds: m.generateSeconds,
      archives: Object.fromEntries(Object.entries(m.archives).map(([f, x]) => [f, { file: relative(REPO, x.path), bytes: x.bytes, compressor: x.compressor, buildSeconds: x.buildSeconds }])),
      planted: m.expected.map((p) => ({ ruleId: p.ruleId, file: p.file, line: p.line })),
    })),
    xzPreset: XZ_PRESET,
    patterns,
    results,
    targets,
    findingsCheck: problems.length ? { ok: false, problems } : { ok: true },
    units: { seconds: 'wall clock, median of repetitions', MB: 1e6, GB: GB },
  };
  const text = `${JSON.stringify(output, null, 2)}\n`;
  const stamp = output.when.replace(/[:.]/g, '-');
  writeFileSync(join(DEFAULT_CACHE, `results-${stamp}.json`), text);
  if (!options.quick) writeFileSync(join(REPO, 'bench', 'last-results.json'), text);
  say(`results: ${relative(REPO, join(DEFAULT_CACHE, `results-${stamp}.json`))}${options.quick ? '' : ' and bench/last-results.json'}`);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  ensureBuilt();
  ensureTools();
  say(UPDATE_RISKS ? `update risks: ${UPDATE_RISKS}` : 'update risks: no cincinnati-graph-data (MGSIFT_UPDATE_RISKS or ../shared/datasets): that run is skipped');
  const tools = { rg: hasCommand('rg'), pigz: hasCommand('pigz'), taskset: hasCommand('taskset') };
  const { loadRules } = await import(pathToFileURL(join(REPO, 'dist', 'engine', 'load.js')).href);
  const patterns = logPatterns((await loadRules()).rules);
  for (const p of patterns) {
    if (!p.ere) say(`grep cannot express ${p.ruleId}/${p.signal}: ${p.ereReason}`);
    if (!p.rust) say(`rg cannot express ${p.ruleId}/${p.signal}: ${p.rustReason}`);
  }

  const work = join(DEFAULT_CACHE, 'run');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const tenfold = join(work, 'rules-x10');
  tenfoldPack(tenfold);
  const tenfoldBuilt = join(work, 'rules-x10-built');
  tenfoldPack(tenfoldBuilt);
  const build = spawnSync(process.execPath, [CLI, 'rules', 'build', tenfoldBuilt], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`mgsift rules build ${tenfoldBuilt}: exit ${build.status}\n${build.stdout}${build.stderr}`);
  const tenfoldCli = tenfoldPackage(join(work, 'package-x10'), tenfold);

  const archives = [];
  for (const sizeGb of options.sizes) {
    const manifest = await ensureArchive({ sizeGb, formats: options.formats, log: say });
    for (const format of options.formats) archives.push({ sizeGb, format, manifest, archive: manifest.archives[format].path, runs: {} });
  }
  // The real-content cases (issue 16; azure ×4 is issue 33's own): real YAML and logs, not
  // scaled; .tar.gz only, against gzip -dc. The first (aws) is timed in full; the others (`lean`)
  // for the issue's targets alone, without the extract-and-grep baselines, thread counts and
  // update risks that the other cases already time.
  for (const [i, from] of REAL_COPY_SOURCES.entries()) {
    const real = ensureRealCopies({ log: say, from });
    if (!real) {
      say(`no ${from.archive}: the ${from.name} real-content case is skipped`);
      continue;
    }
    const manifest = {
      name: real.name,
      sourceNote: `${real.source}: its image folder ×${real.copies}, as gathered`,
      sizeGb: real.bytes / GB,
      bytes: real.bytes,
      files: real.files,
      clonedNamespaces: 0,
      generateSeconds: real.buildSeconds,
      archives: { gz: { path: real.path, bytes: real.archiveBytes, compressor: 'pigz -6', buildSeconds: real.buildSeconds } },
      expected: [],
    };
    archives.push({ sizeGb: manifest.sizeGb, format: 'gz', label: `${from.name} image ×${REAL_COPIES}`, real: true, lean: i > 0, manifest, archive: real.path, runs: {} });
  }
  const generated = (performance.now() - started) / 1000;

  const recorders = new Map();
  for (const a of archives) {
    // Warm the page cache: the first read of a cold archive would count against whoever runs first.
    timed(`cat ${quote(a.archive)} > /dev/null`);
    const key = a.label ?? a.sizeGb;
    if (!recorders.has(key)) recorders.set(key, findingsRecorder(a.manifest.expected));
  }
  for (let rep = 0; rep < options.reps; rep++) {
    for (const a of archives) {
      say(`repetition ${rep + 1}/${options.reps}: ${nameOf(a)}`);
      const check = recorders.get(a.label ?? a.sizeGb).record(`${nameOf(a)} rep ${rep + 1}`);
      repetition({ archive: a.archive, format: a.format, lean: a.lean === true, work, patterns, tools, tenfold, tenfoldBuilt, tenfoldCli }, rep, a.runs, check);
    }
  }
  rmSync(work, { recursive: true, force: true });
  const problems = [...recorders.values()].flatMap((r) => r.verdict());

  const results = archives.map((a) => {
    const { ruleCosts, ...timings } = a.runs;
    const medians = Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, median(v)]));
    const max = Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.max(...v)]));
    return {
      sizeGb: a.sizeGb,
      format: a.format,
      label: a.label,
      real: a.real ?? false,
      bytes: a.manifest.bytes,
      files: a.manifest.files,
      archiveBytes: a.manifest.archives[a.format].bytes,
      runs: timings,
      ruleCosts,
      medians,
      max,
      ratios: ratios(medians, a.format),
    };
  });
  const targets = targetRows(results);
  printTable(results, targets);
  const seconds = (performance.now() - started) / 1000;
  if (problems.length) process.stdout.write(`\nFINDINGS CHECK FAILED:\n  ${problems.join('\n  ')}\n`);
  else process.stdout.write(`\nfindings check: every run found the ${archives[0]?.manifest.expected.length ?? 0} planted signals at their file:line, and the same findings with every thread count, on one core or two\n`);
  process.stdout.write(`took ${seconds.toFixed(0)} s (${generated.toFixed(0)} s preparing archives)\n`);

  writeResults({ options, seconds, generated, archives, patterns, results, targets, problems });
  if (problems.length) process.exitCode = 1;
}

await main();
