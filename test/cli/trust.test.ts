/**
 * Issue 18: exits and outputs a pipeline can trust. Each case ran wrong before (a green exit on
 * something that is no archive, a hang, a report of two clusters as one, a log counted twice)
 * and is checked here through the built CLI, as users run it.
 */
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MG_MINI, packTree, tempDir } from '../helpers/archives.js';
import { mgsift } from '../helpers/cli.js';

const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;
const SAMPLES = new URL('../../samples/', import.meta.url).pathname;
const HEALTHY = join(SAMPLES, 'healthy.tar.gz');
const OLD_BOOT = join(SAMPLES, 'old-boot-image.tar.gz');

/** The CLI killed after `ms`: a hang shows as a signal, not as a test that never ends. */
function bounded(args: string[], ms = 30_000, cwd?: string) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: ms, killSignal: 'SIGKILL', cwd, maxBuffer: 64 * 1024 * 1024 });
  return { code: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr };
}

describe('no hang when reading stops early', () => {
  // mg-mini and 8 MB after it: more than the pipe from `xz -dc` holds once reading stops.
  const dir = tempDir();
  cpSync(MG_MINI, dir, { recursive: true });
  mkdirSync(join(dir, 'must-gather-aws', 'zz'));
  writeFileSync(join(dir, 'must-gather-aws', 'zz', 'big.log'), randomBytes(8 * 1024 * 1024).toString('base64'));
  const archive = packTree(dir, 'must-gather-aws', dir)['tar.xz'];
  it.each([
    ['analyze', ['analyze', archive, '--max-entries', '12', '--format', 'json', '-o', '-']],
    ['inspect', ['inspect', archive, '--max-entries', '12']],
    ['timeline', ['timeline', archive, '--max-entries', '12', '--no-rules']],
  ])('%s --max-entries on a .tar.xz ends', (_name, args) => {
    const run = bounded(args as string[], 20_000);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
  });
});

describe('-o: output paths are checked before the analysis, each failure one line and exit 2', () => {
  it.each(['/proc/x', '/proc/self/x/y'])('-o %s', (output) => {
    const run = bounded(['analyze', HEALTHY, '-o', output], 15_000);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(new RegExp(`^mgsift: error: -o ${output}: cannot create folder`));
  });

  it('--format md -o /proc/1/x fails in one line, without reading the archive', () => {
    const run = bounded(['analyze', '--format', 'md', '-o', '/proc/1/x', HEALTHY], 15_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mgsift: error: -o \/proc\/1\/x: cannot create folder \/proc\/1\/x/);
  });

  it('a file where a folder is needed is refused before the analysis', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'taken'), 'x');
    const run = bounded(['analyze', HEALTHY, '-o', join(dir, 'taken', 'out')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/a file stands where a folder is needed/);
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  it('-o report.html is a file (its format from the suffix), -o new/r.md makes its folder', () => {
    const dir = tempDir();
    expect(bounded(['analyze', HEALTHY, '-o', 'report.html', '-q'], 30_000, dir).code).toBe(0);
    expect(statSync(join(dir, 'report.html')).isFile()).toBe(true);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    expect(bounded(['analyze', HEALTHY, '-o', 'new/r.md', '-q'], 30_000, dir).code).toBe(0);
    expect(readFileSync(join(dir, 'new', 'r.md'), 'utf8')).toMatch(/^# /);
  });

  it('--format jsonl -o newdir makes the folder and its index.jsonl', () => {
    const dir = tempDir();
    expect(bounded(['analyze', HEALTHY, '--format', 'jsonl', '-o', 'newdir', '-q'], 30_000, dir).code).toBe(0);
    expect(readdirSync(join(dir, 'newdir'))).toEqual(['index.jsonl']);
  });

  it('several archives to one .md file is refused; to one .jsonl file it is a line each', () => {
    const dir = tempDir();
    const refused = bounded(['analyze', HEALTHY, OLD_BOOT, '--format', 'md', '-o', 'two.md'], 30_000, dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/several inputs do not fit one md file/);
    expect(readdirSync(dir)).toEqual([]);
    expect(bounded(['analyze', HEALTHY, OLD_BOOT, '-o', 'all.jsonl', '-q'], 60_000, dir).code).toBe(0);
    expect(readFileSync(join(dir, 'all.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('-o /dev/stdout works as -o -', () => {
    const run = bounded(['analyze', HEALTHY, '--format', 'json', '-o', '/dev/stdout']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).input.path).toBe(HEALTHY);
  });

  it('several JSON reports on stdout are one array; several JUnit documents are refused', () => {
    const json = bounded(['analyze', HEALTHY, OLD_BOOT, '--format', 'json', '-o', '-'], 60_000);
    expect((JSON.parse(json.stdout) as { input: { path: string } }[]).map((r) => r.input.path)).toEqual([HEALTHY, OLD_BOOT]);
    const junit = bounded(['analyze', HEALTHY, OLD_BOOT, '--format', 'junit', '-o', '-']);
    expect(junit.code).toBe(2);
    expect(junit.stderr).toMatch(/several junit reports do not make one document/);
  });
});
