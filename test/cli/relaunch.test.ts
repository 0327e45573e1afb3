import { describe, it, expect, beforeAll } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { contentSize, LARGE_CONTENT_BYTES, worthRelaunching, type LaunchFacts } from '../../src/cli/relaunch.js';
import { tempDir } from '../helpers/archives.js';
import { needs } from '../helpers/needs.js';
import { largeCvoLog } from '../helpers/synthetic.js';

const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;
/** Preloaded into every Node of a run (the second inherits it): appends one JSON line per process. */
const RECORD = new URL('../helpers/record-process.mjs', import.meta.url).pathname;

describe('worthRelaunching', () => {
  const facts = (over: Partial<LaunchFacts> = {}): LaunchFacts => ({
    args: ['analyze', 'big.tar.gz', '-o', 'report.html'],
    execArgv: [],
    nodeOptions: undefined,
    relaunched: false,
    refused: false,
    cores: 2,
    contentSize: (path) => (path === 'big.tar.gz' ? LARGE_CONTENT_BYTES : path === 'small.tar.gz' ? LARGE_CONTENT_BYTES - 1 : undefined),
    ...over,
  });

  it('relaunches a run on two cores that names a file of the large size', () => {
    expect(worthRelaunching(facts())).toBe(true);
    expect(worthRelaunching(facts({ args: ['diff', 'small.tar.gz', 'big.tar.gz'] }))).toBe(true);
  });

  it('leaves every other run where it is', () => {
    expect(worthRelaunching(facts({ args: ['analyze', 'small.tar.gz'] })), 'a smaller input').toBe(false);
    expect(worthRelaunching(facts({ args: ['analyze', 'a-folder'] })), 'no file').toBe(false);
    expect(worthRelaunching(facts({ cores: 1 })), 'one core').toBe(false);
    expect(worthRelaunching(facts({ cores: 4 })), 'cores to spare').toBe(false);
    expect(worthRelaunching(facts({ relaunched: true })), 'the second Node').toBe(false);
    expect(worthRelaunching(facts({ refused: true })), 'MGSIFT_RELAUNCH=0').toBe(false);
    expect(worthRelaunching(facts({ nodeOptions: '--max-old-space-size=512 --v8-pool-size=2' })), 'a pool size in NODE_OPTIONS').toBe(false);
    expect(worthRelaunching(facts({ execArgv: ['--v8-pool-size=4'] })), 'a pool size on the command line').toBe(false);
    expect(worthRelaunching(facts({ args: ['analyze', 'big.tar.gz', '--threads', '2'] })), 'a thread count').toBe(false);
    expect(worthRelaunching(facts({ args: ['analyze', 'big.tar.gz', '--threads=1'] })), 'a thread count').toBe(false);
    expect(worthRelaunching(facts({ args: ['analyze', 'big.tar.gz', 'big.tar.gz', '--jobs', '2'] })), 'a job count').toBe(false);
    expect(worthRelaunching(facts({ args: ['analyze', 'big.tar.gz', 'big.tar.gz', '-j2'] })), 'a job count').toBe(false);
  });
});

describe('contentSize', () => {
  it('reads a gzip file\'s trailer, estimates xz and zip by their usual ratio, and takes any other file as it is', () => {
    const dir = tempDir();
    const file = (name: string, bytes: Buffer): string => {
      writeFileSync(join(dir, name), bytes);
      return join(dir, name);
    };
    expect(contentSize(file('text.log.gz', gzipSync(Buffer.alloc(300_000, 'a'))))).toBe(300_000);
    // Random bytes deflate to a little more than they are: the trailer is still what they hold.
    expect(contentSize(file('random.gz', gzipSync(randomBytes(50_000))))).toBe(50_000);
    const xz = Buffer.alloc(1000);
    Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]).copy(xz);
    expect(contentSize(file('must-gather.tar.xz', xz))).toBe(15_000);
    const zip = Buffer.alloc(1000);
    Buffer.from('PK\x03\x04', 'latin1').copy(zip);
    expect(contentSize(file('must-gather.zip', zip))).toBe(5_000);
    expect(contentSize(file('current.log', Buffer.alloc(1234, 'x')))).toBe(1234);
    mkdirSync(join(dir, 'folder'));
    expect(contentSize(join(dir, 'folder'))).toBeUndefined();
    // A named pipe is not opened (that would wait for a writer): it is no file.
    const fifo = join(dir, 'pipe');
    if (spawnSync('mkfifo', [fifo]).status === 0) expect(contentSize(fifo)).toBeUndefined();
    expect(contentSize(join(dir, 'not-there'))).toBeUndefined();
  });
});

interface Recorded {
  pid: number;
  ppid: number;
  relaunched: boolean;
  nodeOptions: string | undefined;
  execArgv: string[];
}

function records(file: string): Recorded[] {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Recorded) : [];
}

describe.skipIf(availableParallelism() !== 2)(`a large input on two cores ${needs('a machine of exactly 2 cores, as CI is')}`, () => {
  let dir: string;
  let log: string;
  beforeAll(() => {
    dir = tempDir();
    // A bare CVO log just over the size.
    log = join(dir, 'cluster-version-operator.log');
    largeCvoLog(log, LARGE_CONTENT_BYTES);
  });

  function run(input: string, env: NodeJS.ProcessEnv, tag: string) {
    const record = join(dir, `${tag}.jsonl`);
    const out = join(dir, tag);
    const result = spawnSync(process.execPath, ['--import', RECORD, CLI, 'analyze', input, '--format', 'json', '-o', out, '--fail-on', 'info'], {
      encoding: 'utf8',
      env: { ...process.env, ...env, MGSIFT_RECORD: record },
    });
    const report = existsSync(join(out, 'report.json')) ? (JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Record<string, unknown>) : undefined;
    if (report) {
      delete report.generatedAt;
      delete report.stats;
    }
    return { code: result.status, stderr: result.stderr, report, processes: records(record) };
  }

  it('goes on in a second Node with one V8 thread, with the same report and exit code as in one process', () => {
    const relaunched = run(log, {}, 'default');
    const single = run(log, { MGSIFT_RELAUNCH: '0' }, 'single');
    expect(relaunched.processes).toHaveLength(2);
    const second = relaunched.processes.find((p) => p.relaunched);
    expect(second?.nodeOptions).toContain('--v8-pool-size=1');
    expect(second?.execArgv).toContain('--min-semi-space-size=16');
    expect(second?.ppid).toBe(relaunched.processes.find((p) => !p.relaunched)?.pid);
    expect(single.processes).toHaveLength(1);
    expect(relaunched.code).toBe(single.code);
    expect(relaunched.report).toBeDefined();
    expect(relaunched.report).toEqual(single.report);
  });

  it('passes on an input error as one line and exit 2', () => {
    const zeros = join(dir, 'zeros.bin');
    writeFileSync(zeros, '');
    truncateSync(zeros, LARGE_CONTENT_BYTES);
    const relaunched = run(zeros, {}, 'zeros');
    expect(relaunched.processes).toHaveLength(2);
    expect(relaunched.code).toBe(2);
    expect(relaunched.stderr.trim().split('\n')).toHaveLength(1);
    expect(relaunched.stderr).toMatch(/^mgsift: error: /);
  });

  it('passes SIGTERM on to the second Node and ends by it', async () => {
    const record = join(dir, 'term.jsonl');
    const first = spawn(process.execPath, ['--import', RECORD, CLI, 'analyze', log, '--format', 'json', '-o', join(dir, 'term')], {
      env: { ...process.env, MGSIFT_RECORD: record },
      stdio: 'ignore',
    });
    const ended = new Promise<NodeJS.Signals | null>((resolve) => first.on('exit', (_code, signal) => resolve(signal)));
    // Once the second Node has started (it records itself at start), the first is told to stop.
    const started = Date.now();
    while (!records(record).some((p) => p.relaunched) && Date.now() - started < 20_000) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = records(record).find((p) => p.relaunched);
    expect(second).toBeDefined();
    first.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
    expect(() => process.kill(second!.pid, 0), 'the second Node is gone').toThrow();
  });
});
