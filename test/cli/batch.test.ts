/**
 * `mgsift analyze` on many archives: the six bundled samples as a folder of archives, a corrupt
 * one and a missing one, in parallel; the index, the jsonl lines, the exit codes. The real
 * archives too, when /work/shared is there.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import yaml from 'js-yaml';
import { defaultThreads, threadsFor } from '../../src/analysis/consumers.js';
import { tempDir } from '../helpers/archives.js';
import { mgsift } from '../helpers/cli.js';
import { needsShared } from '../helpers/needs.js';

const SAMPLES = new URL('../../samples/', import.meta.url).pathname;
const REAL = new URL('../../../shared/samples-real/', import.meta.url).pathname;
const SCENARIOS = readdirSync(join(SAMPLES, 'scenarios')).sort();

const schema = JSON.parse(readFileSync(new URL('../../schema/index.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ strict: true, allErrors: true });
const validateIndex = ajv.compile(schema);
const validateArchive = ajv.compile({ $defs: schema.$defs, $ref: '#/$defs/archive' });

interface Row {
  input: string;
  status: string;
  error?: string;
  truncated?: { by: string; reason: string };
  reports: string[];
  cluster: { id?: string; version?: string };
  collectedAt?: string;
  counts?: Record<string, number>;
  findings: { ruleId: string; severity: string }[];
}
interface Index {
  summary: Record<string, number>;
  exit: { code: number; reason: string };
  rules: { ruleId: string; severity: string; archives: number }[];
  archives: Row[];
}

function expectedFindings(scenario: string): string[] {
  return (yaml.load(readFileSync(join(SAMPLES, 'scenarios', scenario, 'expect.yaml'), 'utf8')) as { findings: string[] }).findings;
}

/** The six samples in one folder (with a file that is no archive), as a support queue keeps them. */
function fleetFolder(): string {
  const fleet = join(tempDir(), 'fleet');
  mkdirSync(fleet);
  for (const scenario of SCENARIOS) copyFileSync(join(SAMPLES, `${scenario}.tar.gz`), join(fleet, `${scenario}.tar.gz`));
  writeFileSync(join(fleet, 'README.txt'), 'case notes\n');
  return fleet;
}

describe('analyze on a folder of archives, a corrupt archive and a missing one, --jobs 2', () => {
  const dir = tempDir();
  const out = join(dir, 'out');
  const corrupt = join(dir, 'corrupt.tar.gz');
  const missing = join(dir, 'missing.tar.gz');
  let fleet = '';
  let run: ReturnType<typeof mgsift>;
  let index: Index;

  beforeAll(() => {
    fleet = fleetFolder();
    // The healthy sample cut short: gzip and tar break after the first entries.
    writeFileSync(corrupt, readFileSync(join(SAMPLES, 'healthy.tar.gz')).subarray(0, 6000));
    run = mgsift(['analyze', fleet, corrupt, missing, '-o', out, '--jobs', '2', '--format', 'html,json,md,jsonl', '--fail-on', 'critical']);
    index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as Index;
  });

  it('exits 2 (the missing input could not be read, the corrupt one is cut), after writing the others; each is one line on stderr', () => {
    expect(run.code).toBe(2);
    const errors = run.stderr.split('\n').filter((line) => line.startsWith('mgsift: error:'));
    expect(errors).toHaveLength(2);
    expect(errors).toContainEqual(expect.stringMatching(new RegExp(`^mgsift: error: cannot read ${missing}: ENOENT`)));
    expect(errors).toContainEqual(expect.stringMatching(new RegExp(`^mgsift: error: ${corrupt}: The input is truncated or corrupt \\(gzip: unexpected end of file\\): .*; the report covers the part read$`)));
    expect(run.stderr).toContain(`${fleet}: a folder of 6 archives, each analysed on its own; left out (not archives): README.txt`);
  });

  it('writes a report per archive and the index, nothing else', () => {
    const stems = [...SCENARIOS, 'corrupt'];
    const expected = [...stems.flatMap((s) => [`${s}.html`, `${s}.json`, `${s}.md`]), 'index.html', 'index.json', 'index.jsonl', 'index.md'];
    expect(readdirSync(out).sort()).toEqual(expected.sort());
  });

  it('index.json: a valid index, one row per archive in input order, each with its report and exact findings', () => {
    expect(validateIndex(index), ajv.errorsText(validateIndex.errors)).toBe(true);
    expect(index.archives.map((r) => r.input)).toEqual([...SCENARIOS.map((s) => join(fleet, `${s}.tar.gz`)), corrupt, missing]);
    for (const [i, scenario] of SCENARIOS.entries()) {
      const row = index.archives[i]!;
      expect(row.status).toBe('ok');
      expect(row.reports).toEqual([`${scenario}.html`, `${scenario}.json`, `${scenario}.md`]);
      expect(row.findings.map((f) => f.ruleId).sort()).toEqual([...expectedFindings(scenario)].sort());
      const report = JSON.parse(readFileSync(join(out, `${scenario}.json`), 'utf8')) as { cluster: { id: string; version: string }; collectedAt: string; counts: Record<string, number> };
      expect(row.cluster).toEqual({ id: report.cluster.id, version: report.cluster.version });
      expect(row.collectedAt).toBe(report.collectedAt);
      expect(row.counts).toEqual(report.counts);
    }
    expect(index.archives[0]?.cluster.version).toBe('4.13.15'); // capabilities-rollback
    expect(index.summary).toEqual({ archives: 8, ok: 6, partial: 1, nothingChecked: 0, failed: 1, failing: 1 });
  });

  it('the corrupt archive is a partial row saying where it broke; the missing one a failed row with no report', () => {
    const [partial, failed] = index.archives.slice(-2);
    expect(partial).toMatchObject({ status: 'partial', reports: ['corrupt.html', 'corrupt.json', 'corrupt.md'] });
    expect(partial?.error).toMatch(/^The input is truncated or corrupt \(gzip: unexpected end of file\): \d+ entr(y|ies) and .* of its uncompressed stream were read, up to /);
    expect(partial?.truncated).toMatchObject({ by: 'damage', reason: 'gzip: unexpected end of file' });
    expect(failed).toMatchObject({ status: 'failed', reports: [], findings: [], cluster: {} });
    expect(failed?.error).toMatch(/^cannot read .*missing\.tar\.gz: ENOENT/);
    expect(failed?.counts).toBeUndefined();
  });

  it('one column per rule that fired anywhere, counted across archives', () => {
    const fired = new Set([...SCENARIOS.flatMap(expectedFindings), ...index.archives.slice(-2).flatMap((r) => r.findings.map((f) => f.ruleId))]);
    expect(index.rules.map((r) => r.ruleId).sort()).toEqual([...fired].sort());
    expect(index.rules[0]).toMatchObject({ ruleId: 'clusteroperator-unavailable', severity: 'critical', archives: 1 });
    const rollback = index.rules.find((r) => r.ruleId === 'update-rollback');
    expect(rollback).toMatchObject({ severity: 'error', archives: 2 });
  });

  it('index.jsonl: one valid line per archive, the same rows as index.json', () => {
    const lines = readFileSync(join(out, 'index.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(8);
    const rows = lines.map((line) => JSON.parse(line) as Row);
    for (const row of rows) expect(validateArchive(row), ajv.errorsText(validateArchive.errors)).toBe(true);
    // Written as each archive finished: compare regardless of order.
    const byInput = (a: Row, b: Row): number => (a.input < b.input ? -1 : a.input > b.input ? 1 : 0);
    expect([...rows].sort(byInput)).toEqual([...index.archives].sort(byInput));
  });

  it('index.md and index.html: a row per archive linking its report, a column per rule, the failure spelled out', () => {
    const md = readFileSync(join(out, 'index.md'), 'utf8');
    for (const scenario of SCENARIOS) expect(md).toContain(`(${scenario}.md)`);
    expect(md).toContain('failed: cannot read');
    const header = md.split('\n').find((line) => line.startsWith('| # |')) ?? '';
    for (const rule of index.rules) expect(header).toContain(rule.ruleId);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toContain('http-equiv="Content-Security-Policy"');
    expect(html).not.toMatch(/<script/i);
    for (const scenario of SCENARIOS) expect(html).toContain(`href="${scenario}.html"`);
    expect(html).toContain('href="corrupt.html"');
    expect(html.match(/<th class="rule-col rule"/g)).toHaveLength(index.rules.length);
    expect(html).toContain('cannot read');
  });
});

describe('analyze on several inputs: exit codes, stdout, names', () => {
  const healthy = join(SAMPLES, 'healthy.tar.gz');
  const oldBoot = join(SAMPLES, 'old-boot-image.tar.gz');

  it('exit 2 when an input could not be read at all, after writing the reports of the others and an index that says so', () => {
    const out = join(tempDir(), 'out');
    const run = mgsift(['analyze', healthy, oldBoot, join(out, '..', 'nope.tar.gz'), '-o', out, '--fail-on', 'error', '-q']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^mgsift: error: cannot read .*nope\.tar\.gz/)]);
    expect(readdirSync(out).sort()).toEqual(['healthy.html', 'healthy.json', 'index.html', 'index.json', 'index.md', 'old-boot-image.html', 'old-boot-image.json']);
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as Index;
    expect(index.exit).toEqual({ code: 2, reason: "1 of 3 inputs could not be read at all (failed); the others' reports are written" });
    expect(readFileSync(join(out, 'index.md'), 'utf8')).toContain('**Exit 2:** 1 of 3 inputs could not be read at all (failed)');
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('<strong>Exit 2:</strong> 1 of 3 inputs could not be read at all (failed)');
    // The same with --format jsonl to stdout (no index): the exit code alone says it.
    expect(mgsift(['analyze', healthy, join(out, '..', 'nope.tar.gz'), '--format', 'jsonl', '-o', '-', '-q']).code).toBe(2);
  });

  it('exit 0 when every input was read and none reaches --fail-on', () => {
    expect(mgsift(['analyze', healthy, oldBoot, '--format', 'jsonl', '-o', '-', '--fail-on', 'error', '-q']).code).toBe(0);
  });

  it('exit 2 when no input could be analysed, with the index saying why for each', () => {
    const out = join(tempDir(), 'out');
    const run = mgsift(['analyze', join(out, 'a.tar.gz'), join(out, 'b.tar.gz'), '-o', out]);
    expect(run.code).toBe(2);
    expect(run.stderr.match(/^mgsift: error: cannot read/gm)).toHaveLength(2);
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as Index;
    expect(index.archives.map((r) => r.status)).toEqual(['failed', 'failed']);
  });

  it('--format jsonl -o - streams one line per archive and writes nothing', () => {
    const cwd = tempDir();
    const run = mgsift(['analyze', healthy, oldBoot, '--format', 'jsonl', '-o', '-', '--jobs', '2'], { cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const rows = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Row);
    expect(rows.map((r) => r.input).sort()).toEqual([healthy, oldBoot].sort());
    expect(rows.find((r) => r.input === oldBoot)?.findings.map((f) => f.ruleId).sort()).toEqual(['events-failed-scheduling', 'mco-old-boot-image']);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('--format json -o - with --jobs 2 prints the reports in input order', () => {
    const inputs = [oldBoot, healthy, join(SAMPLES, 'cvo-final-sync-lost.tar.gz')];
    const run = mgsift(['analyze', ...inputs, '--format', 'json', '-o', '-', '--jobs', '2']);
    const paths = [...run.stdout.matchAll(/^ {4}"path": "(.*)",$/gm)].map((m) => m[1]);
    expect(paths).toEqual(inputs);
  });

  it('two archives with one name get two reports; "index" stays the index', () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    for (const name of ['a', 'b']) {
      mkdirSync(join(dir, name));
      copyFileSync(healthy, join(dir, name, 'must-gather.tar.gz'));
    }
    copyFileSync(oldBoot, join(dir, 'index.tar.gz'));
    const run = mgsift(['analyze', join(dir, 'a', 'must-gather.tar.gz'), join(dir, 'b', 'must-gather.tar.gz'), join(dir, 'index.tar.gz'), '-o', out, '--format', 'json', '-q']);
    expect(run.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['index-2.json', 'index.html', 'index.json', 'index.md', 'must-gather-2.json', 'must-gather.json']);
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as Index;
    expect(index.archives.map((r) => r.reports)).toEqual([['must-gather.json'], ['must-gather-2.json'], ['index-2.json']]);
  });

  it('a case folder holding one archive is still one analysis, with no index', () => {
    const dir = join(tempDir(), 'case-01234');
    mkdirSync(dir);
    copyFileSync(oldBoot, join(dir, 'must-gather.tar.gz'));
    writeFileSync(join(dir, 'notes.txt'), 'customer notes\n');
    const out = join(dir, '..', 'out');
    expect(mgsift(['analyze', dir, '-o', out, '--format', 'json', '-q']).code).toBe(0);
    expect(readdirSync(out)).toEqual(['report.json']);
  });

  it('--jobs × --threads stays within the cores: a larger --threads is lowered to cores ÷ jobs, with a note', () => {
    const cores = availableParallelism();
    const perJob = Math.max(1, Math.floor(cores / 2));
    const asked = cores + 1;
    const note = `--threads ${asked} lowered to ${perJob}: --jobs 2 × --threads stays within the ${cores} cores`;
    const run = (args: string[]) => mgsift(['analyze', ...args, '-o', join(tempDir(), 'out'), '--format', 'json']);
    const lowered = run([healthy, oldBoot, '--jobs', '2', '--threads', String(asked)]);
    expect(lowered.code).toBe(0);
    expect(lowered.stderr.split('\n')).toContain(note);
    // Within the bound, or one input (one job whatever --jobs says): as asked, no note.
    expect(run([healthy, oldBoot, '--jobs', '2', '--threads', String(perJob)]).stderr).not.toContain('lowered');
    expect(run([healthy, '--jobs', '2', '--threads', String(asked)]).stderr).not.toContain('lowered');
  });

  it('--threads left out: an input that is not small gets the default threads, at most what each job may have', async () => {
    const dir = join(SAMPLES, 'scenarios');
    expect(await threadsFor(dir, 'auto')).toBe(defaultThreads());
    expect(await threadsFor(dir, 'auto', 1)).toBe(1);
    expect(await threadsFor(healthy, 'auto')).toBe(1); // small: workers would cost more than they save
    expect(await threadsFor(dir, 3, 1)).toBe(3); // an explicit count is lowered before, with its note
  });

  it('--jobs must be a whole number of at least 1', () => {
    for (const jobs of ['0', '-1', '1.5', 'many']) {
      const run = mgsift(['analyze', healthy, '--jobs', jobs, '-o', '-', '--format', 'json']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^mgsift: error: --jobs needs a whole number of at least 1/);
    }
  });
});

describe.runIf(existsSync(join(REAL, 'must-gather-aws.tar.xz')))(`analyze on the real archives, --jobs 2 ${needsShared('samples-real/')}`, () => {
  it('gives in worker threads the findings it gives in one thread', () => {
    const inputs = [join(REAL, 'must-gather-aws.tar.xz'), join(REAL, 'must-gather-metal.tar.xz')];
    const parallel = mgsift(['analyze', ...inputs, '--format', 'jsonl', '-o', '-', '--jobs', '2']);
    const serial = mgsift(['analyze', ...inputs, '--format', 'jsonl', '-o', '-']);
    // 1: the metal archive holds a real failed OLM install at error (test/precision/expected-findings.yaml).
    expect(parallel.code).toBe(1);
    expect(serial.code).toBe(1);
    const rows = (text: string): Row[] =>
      text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Row)
        .sort((a, b) => (a.input < b.input ? -1 : 1));
    const got = rows(parallel.stdout);
    expect(got).toEqual(rows(serial.stdout));
    expect(got.map((r) => [r.status, r.cluster.version])).toEqual([
      ['ok', '4.8.0-0.nightly-2021-07-31-065602'],
      ['ok', '4.9.0-0.nightly-2021-09-10-170926'],
    ]);
    expect(got[0]?.collectedAt?.slice(0, 10)).toBe('2021-08-03');
  }, 180_000);
});
