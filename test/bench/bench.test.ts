import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { loadRules } from '../../src/engine/load.js';
import type { Rule } from '../../src/engine/rule.js';
import { mgsift } from '../helpers/cli.js';

const REPO = new URL('../../', import.meta.url).pathname;

/** bench/patterns.mjs is plain JavaScript run by `npm run bench`; this is the shape it returns. */
interface Pattern {
  ruleId: string;
  signal: string;
  kind: 'regex' | 'presence';
  js: string;
  flags: string;
  ere?: string;
  rust?: string;
  pcre?: string;
}
type LogPatterns = (rules: Rule[]) => Pattern[];

interface Manifest {
  bytes: number;
  files: number;
  archives: Record<string, { path: string }>;
  expected: { ruleId: string; file: string; line: number; text: string }[];
}

function hasCommand(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

function walk(path: string): string[] {
  return statSync(path).isDirectory() ? readdirSync(path).flatMap((e) => walk(join(path, e))) : [path];
}

/** Every line of every rule's fixture inputs: the lines the pack's regexes are written against. */
function fixtureLines(rules: Rule[]): string[] {
  return rules.flatMap((rule) => {
    const fixtures = rule.file.replace(/\.ya?ml$/, '.fixtures');
    return readdirSync(fixtures)
      .filter((c) => statSync(join(fixtures, c)).isDirectory())
      .flatMap((c) => readdirSync(join(fixtures, c)).filter((e) => e.startsWith('input')).flatMap((e) => walk(join(fixtures, c, e))))
      // A gzipped input (gather-extra's .log.gz) holds its lines once decompressed.
      .flatMap((file) => (file.endsWith('.gz') ? gunzipSync(readFileSync(file)) : readFileSync(file)).toString('utf8').split('\n'));
  });
}

/** 1-based numbers of the lines of `file` that a tool selects with one pattern. */
function selected(command: string, args: string[], file: string): number[] {
  const run = spawnSync(command, [...args, file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  expect(run.status === 0 || run.status === 1, `${command} ${args.join(' ')}: ${run.stderr}`).toBe(true);
  return run.stdout.split('\n').filter(Boolean).map((l) => Number(l.split(':')[0]));
}

describe('benchmark baselines: the pack regexes for grep -E, rg and rg -P', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'mgsift-bench-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('select exactly the fixture lines the rules select', async () => {
    const { rules } = await loadRules();
    const { logPatterns } = (await import(pathToFileURL(join(REPO, 'bench', 'patterns.mjs')).href)) as { logPatterns: LogPatterns };
    const patterns = logPatterns(rules);
    expect(patterns.map((p) => `${p.ruleId}/${p.signal}`)).toContain('cvo-final-sync-lost/final_sync');
    const lines = fixtureLines(rules);
    const file = join(work, 'lines.txt');
    writeFileSync(file, `${lines.join('\n')}\n`);
    for (const p of patterns) {
      const regex = new RegExp(p.js, p.flags);
      const expected = lines.flatMap((line, i) => (regex.test(line) ? [i + 1] : []));
      expect(expected.length, `${p.ruleId}/${p.signal} matches some fixture line`).toBeGreaterThan(0);
      expect(p.ere, `${p.ruleId}/${p.signal} for grep`).toBeDefined();
      expect(selected('grep', ['-nE', '-e', p.ere ?? ''], file), `grep -E ${p.ere}`).toEqual(expected);
      if (!hasCommand('rg')) continue;
      expect(selected('rg', ['-n', '--no-heading', '-e', p.rust ?? ''], file), `rg ${p.rust}`).toEqual(expected);
      expect(p.pcre, `${p.ruleId}/${p.signal} for rg -P`).toBeDefined();
      expect(selected('rg', ['-n', '--no-heading', '-P', '-e', p.pcre ?? ''], file), `rg -P ${p.pcre}`).toEqual(expected);
    }
  });
});

describe('benchmark archives', () => {
  let cache: string;
  beforeAll(() => {
    cache = mkdtempSync(join(tmpdir(), 'mgsift-bench-'));
  });
  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  it('are scaled to the size asked, and mgsift reports each planted signal at its file and line', () => {
    const run = spawnSync(process.execPath, [join(REPO, 'bench', 'generate.mjs'), '--size', '0.003', '--formats', 'gz', '--source', 'mini', '--cache', cache], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const manifest = JSON.parse(run.stdout) as Manifest;
    expect(manifest.bytes).toBeGreaterThanOrEqual(3e6);
    // The fixture has CVO logs but no machine-config-daemon log: the CVO signal is planted.
    expect(manifest.expected.map((p) => p.ruleId).sort()).toEqual(['cvo-status-rejected-capabilities']);

    const archive = manifest.archives.gz?.path ?? '';
    const analysis = mgsift(['analyze', archive, '--format', 'json', '-o', '-', '--fail-on', 'critical']);
    expect(analysis.code, analysis.stderr).toBe(0);
    const report = JSON.parse(analysis.stdout) as { findings: { ruleId: string; evidence: { file: string; line?: number }[] }[] };
    for (const planted of manifest.expected) {
      const finding = report.findings.find((f) => f.ruleId === planted.ruleId);
      expect(finding?.evidence, planted.ruleId).toContainEqual(expect.objectContaining({ file: planted.file, line: planted.line }));
    }

    const listing = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8' }).stdout.split('\n');
    const clonedPodLogs = listing.filter((p) => /\/namespaces\/(?!openshift-cluster-version\/)[^/]+\/pods\/.+\/logs\/current\.log$/.test(p));
    expect(clonedPodLogs.length, 'cloned namespaces carry pod logs').toBeGreaterThan(0);
  });

  it('real-content case: the image folder four times under one root, each copy in full, read as one cluster', () => {
    const run = spawnSync(process.execPath, [join(REPO, 'bench', 'generate.mjs'), '--real-copies', '--source', 'mini', '--cache', cache], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const manifest = JSON.parse(run.stdout) as { path: string; files: number; copies: number };
    expect(manifest.copies).toBe(4);
    const files = spawnSync('tar', ['-tvzf', manifest.path], { encoding: 'utf8' }).stdout.split('\n').filter((line) => line.startsWith('-'));
    // Every file stored with its bytes (hard links in the cache are dereferenced), four image folders.
    expect(files).toHaveLength(manifest.files);
    const images = new Set(files.map((line) => /\/(quay-io-[^/]+)\//.exec(line)?.[1]).filter(Boolean));
    expect(images.size).toBe(4);

    const analysis = mgsift(['analyze', manifest.path, '--format', 'json', '-o', '-', '--fail-on', 'critical']);
    expect(analysis.code, analysis.stderr).toBe(0);
    const report = JSON.parse(analysis.stdout) as { problems: { reason: string }[] };
    expect(report.problems.some((p) => p.reason.startsWith('skipped as duplicate'))).toBe(true);
  });
});
