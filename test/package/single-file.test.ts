/**
 * The single file as a customer runs it on an air-gapped laptop: `npm run package` once, the
 * executable and the .cjs copied alone into an empty folder outside the repo, run with no
 * network (`unshare -n`) and a PATH of coreutils only (no node, no xz), and compared with the
 * dev build (dist/) run the usual way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { needs, needsShared } from '../helpers/needs.js';
import { largeCvoLog } from '../helpers/synthetic.js';
import { LARGE_CONTENT_BYTES } from '../../src/cli/relaunch.js';

const REPO = new URL('../../', import.meta.url).pathname;
const DEV = join(REPO, 'dist/cli/main.js');
const REAL_XZ = join(REPO, '../shared/samples-real/must-gather-metal.tar.xz');
const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
const EXECUTABLE = `mgsift-${version}-linux-x64`;
const BUNDLE = `mgsift-${version}.cjs`;
/** Programs of coreutils a shell session has; the only ones on PATH. */
const COREUTILS = ['cat', 'cp', 'env', 'head', 'ls', 'mkdir', 'mv', 'rm', 'sha256sum', 'sort', 'tail', 'true', 'wc'];

const which = (name: string): string | undefined => ['/usr/bin', '/bin'].map((dir) => join(dir, name)).find((path) => existsSync(path));
const UNSHARE = which('unshare');
const canUnshare = UNSHARE !== undefined && spawnSync(UNSHARE, ['-n', 'true']).status === 0;
/** What the package build needs: Linux x64 (the executable is made from this Node binary) and the devDependencies. */
const missing = [
  process.platform === 'linux' && process.arch === 'x64' ? undefined : `a linux-x64 machine (this is ${process.platform}-${process.arch})`,
  ...['esbuild', 'postject'].map((tool) => (existsSync(join(REPO, 'node_modules/.bin', tool)) ? undefined : `${tool} (npm ci)`)),
].filter((reason) => reason !== undefined);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The JSON report without what differs between two runs or two builds (time, duration, build). */
function comparable(stdout: string): unknown {
  const report = JSON.parse(stdout) as { generatedAt?: string; stats: { durationMs?: number }; tool?: unknown };
  delete report.generatedAt;
  delete report.stats.durationMs;
  delete report.tool;
  return report;
}

describe.skipIf(missing.length > 0)(`the single file, offline, alone in a folder ${needs('a linux-x64 machine, esbuild and postject: npm ci')}`, () => {
  let dir = '';
  let bin = '';
  /** Runs in `dir` with PATH = coreutils only, no network when `unshare -n` is allowed. */
  const offline = (command: string[], timeoutMs = 120_000, env: Record<string, string> = {}): Run => {
    const argv = canUnshare ? [UNSHARE!, '-n', ...command] : command;
    const run = spawnSync(argv[0]!, argv.slice(1), { cwd: dir, env: { PATH: bin, HOME: dir, LANG: 'C.UTF-8', ...env }, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  const dev = (args: string[]): Run => {
    const run = spawnSync(process.execPath, [DEV, ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000, maxBuffer: 256 * 1024 * 1024 });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  const builds = (): [string, string[]][] => [
    ['executable', [join(dir, EXECUTABLE)]],
    ['.cjs on Node', [process.execPath, join(dir, BUNDLE)]],
  ];

  beforeAll(() => {
    const packaged = spawnSync(process.execPath, [join(REPO, 'scripts/package.mjs')], { cwd: REPO, encoding: 'utf8', timeout: 600_000 });
    if (packaged.status !== 0) throw new Error(`npm run package failed:\n${packaged.stderr}`);
    dir = mkdtempSync(join(tmpdir(), 'mgsift-offline-'));
    for (const name of [EXECUTABLE, BUNDLE, 'SHA256SUMS']) copyFileSync(join(REPO, 'release', name), join(dir, name));
    bin = join(dir, 'bin');
    mkdirSync(bin);
    for (const name of COREUTILS) {
      const path = which(name);
      if (path) symlinkSync(path, join(bin, name));
    }
    copyFileSync(join(REPO, 'samples/cvo-final-sync-lost.tar.gz'), join(dir, 'cvo-final-sync-lost.tar.gz'));
    // `oc adm inspect clusterversion/version ns/openshift-cluster-version` writes this tree.
    cpSync(join(REPO, 'samples/scenarios/cvo-final-sync-lost/overlay'), join(dir, 'inspect.local.5093174425417391208'), { recursive: true });
    mkdirSync(join(dir, 'two'));
    for (const name of ['healthy.tar.gz', 'olm-staging-registry.tar.gz']) copyFileSync(join(REPO, 'samples', name), join(dir, 'two', name));
  }, 600_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is one executable and one .cjs with their checksums; neither node nor xz is on PATH', () => {
    expect(offline(['sha256sum', '-c', 'SHA256SUMS'])).toMatchObject({ code: 0 });
    expect(existsSync(join(bin, 'node')) || existsSync(join(bin, 'xz'))).toBe(false);
  });

  it('--version prints the version, the built-in rules\' count and the commit it was built from', () => {
    const rules = (JSON.parse(dev(['rules', 'list', '--json']).stdout) as unknown[]).length;
    for (const [, command] of builds()) {
      const run = offline([...command, '--version']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^mgsift ${version.replaceAll('.', '\\.')} \\(${rules} built-in rules, build [0-9a-f]{12}(-dirty)? \\d{4}-\\d{2}-\\d{2}\\)\\n$`));
    }
  });

  it.each([
    ['a bundled sample', 'cvo-final-sync-lost.tar.gz'],
    ['an inspect tree', 'inspect.local.5093174425417391208'],
  ])('analyze of %s: the dev build\'s findings and exit code 1 (a finding at or above --fail-on)', (_what, input) => {
    const args = ['analyze', input, '--format', 'json', '-o', '-', '--fail-on', 'warning'];
    const expected = dev(args);
    expect(expected.code).toBe(1);
    const report = JSON.parse(expected.stdout) as { findings: { ruleId: string }[]; tool: { build: string } };
    expect(report.findings.map((f) => f.ruleId)).toContain('cvo-final-sync-lost');
    for (const [, command] of builds()) {
      const run = offline([...command, ...args]);
      expect(run.stderr).toBe(expected.stderr);
      expect(run.code).toBe(1);
      expect(comparable(run.stdout)).toEqual(comparable(expected.stdout));
      expect((JSON.parse(run.stdout) as { tool: { build: string } }).tool.build).toMatch(/^[0-9a-f]{12}/);
    }
  });

  it('exit code 2 and one line for an input that is not there', () => {
    const run = offline([join(dir, EXECUTABLE), 'analyze', 'nothing-here.tar.gz']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mgsift: error: .*nothing-here\.tar\.gz.*\n$/);
  });

  it('rules test passes from the executable: the built-in fixtures travel inside it', () => {
    const run = offline([join(dir, EXECUTABLE), 'rules', 'test'], 300_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+ passed, 0 failed$/m);
    expect(run.stdout).not.toMatch(/^FAIL/m);
  }, 300_000);

  it('--rules DIR adds a user rule, which fires with its evidence', () => {
    mkdirSync(join(dir, 'my-rules'), { recursive: true });
    writeFileSync(
      join(dir, 'my-rules', 'cvo-context-canceled.yaml'),
      `id: my-cvo-context-canceled
title: A CVO log line ends with context canceled
severity: warning
status: experimental
component: cluster-version-operator
signals:
  canceled:
    log:
      files:
        - { namespace: openshift-cluster-version, container: cluster-version-operator }
      regex: 'context canceled$'
message: The CVO logged a canceled context.
`,
    );
    for (const [, command] of builds()) {
      const run = offline([...command, 'analyze', 'cvo-final-sync-lost.tar.gz', '--rules', 'my-rules', '--format', 'json', '-o', '-']);
      expect(run.stderr).toBe('');
      const finding = (JSON.parse(run.stdout) as { findings: { ruleId: string; evidence: { file: string }[] }[] }).findings.find((f) => f.ruleId === 'my-cvo-context-canceled');
      expect(finding?.evidence[0]?.file).toMatch(/openshift-cluster-version\/pods\/.*previous\.log$/);
    }
  });

  it('--jobs 2 analyses a folder of archives in worker threads started from the executable itself', () => {
    const expected = dev(['analyze', 'two', '--jobs', '2', '--format', 'json', '-o', 'out-dev']);
    const run = offline([join(dir, EXECUTABLE), 'analyze', 'two', '--jobs', '2', '--format', 'json', '-o', 'out']);
    expect(run.code).toBe(expected.code);
    expect(run.stderr).toContain('index: 2 archives (0 read in part, 0 with nothing checked, 0 failed)');
    for (const name of ['healthy.json', 'olm-staging-registry.json']) {
      expect(comparable(readFileSync(join(dir, 'out', name), 'utf8'))).toEqual(comparable(readFileSync(join(dir, 'out-dev', name), 'utf8')));
    }
  });

  it('--threads 3 reads one archive in worker threads started from the single file itself: the dev build\'s report', () => {
    const args = ['analyze', 'cvo-final-sync-lost.tar.gz', '--threads', '3', '--format', 'json', '-o', '-'];
    const expected = dev(args);
    for (const [, command] of builds()) {
      // The report is the same with any thread count by design: Node's own worker_threads log tells that three started.
      const run = offline([...command, ...args], 120_000, { NODE_DEBUG: 'worker' });
      expect(run.code).toBe(expected.code);
      expect(comparable(run.stdout)).toEqual(comparable(expected.stdout));
      expect(run.stderr.match(/created Worker with ID/g)).toHaveLength(3);
    }
  });

  it.runIf(existsSync(REAL_XZ))(`a real .tar.xz with no xz on PATH: the built-in decoder gives the dev build's report ${needsShared('samples-real/must-gather-metal.tar.xz')}`, () => {
    const args = ['analyze', REAL_XZ, '--format', 'json', '-o', '-'];
    const expected = dev(args);
    const run = offline([join(dir, EXECUTABLE), ...args]);
    expect(run.code).toBe(expected.code);
    expect(comparable(run.stdout)).toEqual(comparable(expected.stdout));
  }, 120_000);

  it.runIf(availableParallelism() === 2)(`on two cores, a large input goes on in a second start of the executable, given its arguments alone: the dev build's report ${needs('a machine of exactly 2 cores, as CI is')}`, async () => {
    largeCvoLog(join(dir, 'cluster-version-operator.log'), LARGE_CONTENT_BYTES);
    const args = ['analyze', 'cluster-version-operator.log', '--format', 'json', '-o', '-'];
    const expected = dev(args);
    const first = spawn(join(dir, EXECUTABLE), args, { cwd: dir, env: { PATH: bin, HOME: dir, LANG: 'C.UTF-8' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    first.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const ended = new Promise<number | null>((resolve) => first.on('exit', (code) => resolve(code)));
    // The second start is the first's child, read from /proc while the run lasts.
    let children = '';
    let done = false;
    void ended.then(() => (done = true));
    while (!done && children === '') {
      children = (() => {
        try {
          return readFileSync(`/proc/${first.pid}/task/${first.pid}/children`, 'utf8').trim();
        } catch {
          return '';
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(children, 'a second process started').not.toBe('');
    expect(readFileSync(`/proc/${children.split(' ')[0]}/cmdline`, 'utf8').split('\0').slice(1, 3)).toEqual(args.slice(0, 2));
    expect(await ended).toBe(expected.code);
    expect(comparable(stdout)).toEqual(comparable(expected.stdout));
  }, 120_000);

  it.skipIf(canUnshare)('network isolation not checked: `unshare -n` is not permitted on this machine (needs root or user namespaces)', () => {});
});

if (missing.length > 0) {
  describe('the single file', () => {
    it.skip(`skipped: building it needs ${missing.join(', ')}`, () => {});
  });
}
