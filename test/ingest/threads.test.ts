/**
 * Entries read in worker threads (`--threads`) give what reading them on the main thread gives:
 * the same report for every bundled sample and fixture, the same order-dependent facts, the same
 * partial result when one entry fails, and an error (never a hang) when a worker dies; and what
 * waits on a slow worker (bytes in flight, object files held behind their List) stays bounded.
 *
 * Worker threads run the built modules (dist/), so these tests load the walk and the pool from
 * there too (`npm test` builds first).
 */
import { cpSync, appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type * as WalkModule from '../../src/ingest/walk.js';
import type * as PoolModule from '../../src/ingest/pool.js';
import type * as OpenModule from '../../src/sources/open.js';
import type * as ProblemsModule from '../../src/core/problems.js';
import type * as AnalyzeModule from '../../src/analysis/analyze.js';
import type * as BuildModule from '../../src/report/build.js';
import type * as JsonModule from '../../src/report/json.js';
import type * as LoadModule from '../../src/engine/load.js';
import type * as ConsumersModule from '../../src/analysis/consumers.js';
import type { EntryConsumer } from '../../src/ingest/consumer.js';
import type { Entry } from '../../src/sources/types.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { tempDir } from '../helpers/archives.js';
import { mgsift } from '../helpers/cli.js';

const built = async <T>(path: string): Promise<T> => (await import(new URL(`../../dist/${path}`, import.meta.url).href)) as T;
const { walk } = await built<typeof WalkModule>('ingest/walk.js');
const { EntryPool, BLOCK_BYTES, BYTES_IN_FLIGHT_PER_THREAD } = await built<typeof PoolModule>('ingest/pool.js');
const { openInput } = await built<typeof OpenModule>('sources/open.js');
const { Problems } = await built<typeof ProblemsModule>('core/problems.js');
const { analyzeInput } = await built<typeof AnalyzeModule>('analysis/analyze.js');
const { buildReport } = await built<typeof BuildModule>('report/build.js');
const { renderJson } = await built<typeof JsonModule>('report/json.js');
const { loadRules } = await built<typeof LoadModule>('engine/load.js');
const { analysisPool } = await built<typeof ConsumersModule>('analysis/consumers.js');

const RECORDER = new URL('../helpers/entry-consumers.mjs', import.meta.url).href;
const REPO = new URL('../../', import.meta.url).pathname;

interface RecorderOptions {
  throwOn?: string;
  exitOn?: string;
  failToStart?: boolean;
  stallUntil?: SharedArrayBuffer;
}
interface Recorder extends EntryConsumer {
  events: string[];
}
const { createConsumers } = (await import(RECORDER)) as { createConsumers(options: RecorderOptions): Promise<Recorder[]> };

const pod = (name: string, ns: string, padding = 0): string =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n${padding > 0 ? `  annotations:\n    padding: ${'x'.repeat(padding)}\n` : ''}`;
const listOf = (docs: string[]): string => `apiVersion: v1\nkind: List\nitems:\n${docs.map((d) => `- ${d.trimEnd().replaceAll('\n', '\n  ')}`).join('\n')}\n`;

/**
 * A must-gather of many small namespaces (pods List, each pod's own file, a log each), so that
 * entries interleave over the workers; in `ns-03` the List cannot be parsed, and one log spans
 * several blocks. `podBytes` pads a pod's own file by about that many bytes.
 */
function manyNamespaces(podBytes: (pod: string) => number = () => 0): string {
  const root = join(tempDir(), 'must-gather.local.1', 'quay-io-image');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'timestamp'), '2021-08-03 10:14:13.632 +0000 UTC m=+0.1\n');
  for (let n = 0; n < 12; n++) {
    const ns = `ns-${String(n).padStart(2, '0')}`;
    const dir = join(root, 'namespaces', ns);
    mkdirSync(join(dir, 'core'), { recursive: true });
    const pods = ['a', 'b', 'c'].map((p) => `${ns}-${p}`);
    writeFileSync(join(dir, 'core', 'pods.yaml'), n === 3 ? 'items: [unclosed\n' : listOf(pods.map((p) => pod(p, ns))));
    for (const p of pods) {
      const logs = join(dir, 'pods', p, 'app', 'app', 'logs');
      mkdirSync(logs, { recursive: true });
      writeFileSync(join(dir, 'pods', p, `${p}.yaml`), pod(p, ns, podBytes(p)));
      const lines = n === 5 && p.endsWith('-a') ? 40_000 : 3;
      writeFileSync(join(logs, 'current.log'), Array.from({ length: lines }, (_, i) => `2021-08-03T10:00:00.000Z line ${i} of ${p}\n`).join(''));
    }
  }
  return join(root, '..', '..');
}

/** A recorder's `stallUntil`: its worker reads nothing until released. */
function stallGate(): { buffer: SharedArrayBuffer; release(): void } {
  const gate = new Int32Array(new SharedArrayBuffer(4));
  return {
    buffer: gate.buffer,
    release: () => {
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
    },
  };
}

/**
 * What the recorder was handed from the input, on one thread or a pool of `threads`. With
 * `releaseAt`, the workers take nothing until the walk is handed the entry whose path ends so.
 */
async function record(
  input: string,
  threads: number,
  options: RecorderOptions = {},
  inWorkers = options,
  releaseAt?: string,
): Promise<{ events: string[]; problems: string[] }> {
  const [recorder] = await createConsumers(options);
  const problems = new Problems();
  const limits = DEFAULT_LIMITS;
  const pool = threads > 1 ? new EntryPool(threads, { consumers: RECORDER }) : undefined;
  const gate = stallGate();
  pool?.begin(releaseAt === undefined ? inWorkers : { ...inWorkers, stallUntil: gate.buffer }, limits);
  try {
    const source = await openInput(input, { limits, problems });
    async function* entries(): AsyncGenerator<Entry> {
      for await (const entry of source.entries()) {
        if (releaseAt !== undefined && entry.path.endsWith(releaseAt)) gate.release();
        yield entry;
      }
    }
    await walk({ input: source.input, container: source.container, position: source.position, entries }, [recorder!], { problems, limits, pool });
  } finally {
    gate.release();
    await pool?.close();
  }
  return { events: recorder!.events, problems: problems.items.map((p) => `${p.severity} ${p.path}: ${p.reason}`) };
}

describe('entries read in worker threads', () => {
  const input = manyNamespaces();

  it('hands the consumers the same objects and text in archive order, skipping own files only behind a clean List', async () => {
    const single = await record(input, 1);
    const threaded = await record(input, 3);
    expect(threaded).toEqual(single);
    const objects = single.events.filter((e) => e.startsWith('object '));
    // Every pod once: from its List, or (ns-03, whose List is broken) from its own file.
    expect(objects).toHaveLength(36);
    expect(objects.filter((e) => e.includes('/pods/'))).toEqual(['a', 'b', 'c'].map((p) => expect.stringContaining(`namespaces/ns-03/pods/ns-03-${p}/ns-03-${p}.yaml:1 Pod/ns-03-${p}`)));
    // The long log came in several blocks, whole.
    const long = single.events.find((e) => e.includes('ns-05-a/app/app/logs/current.log'));
    expect(Number(/ (\d+) bytes$/.exec(long ?? '')?.[1])).toBeGreaterThan(1024 * 1024);
    expect(single.problems).toEqual([expect.stringMatching(/^error .*namespaces\/ns-03\/core\/pods.yaml: YAML document 1: /)]);
  });

  it('a consumer that throws on one entry: that entry named, the others read, as on one thread', async () => {
    const throwOn = 'ns-07/core/pods.yaml';
    const single = await record(input, 1, { throwOn });
    const threaded = await record(input, 2, { throwOn });
    expect(threaded).toEqual(single);
    expect(single.problems).toEqual([expect.stringMatching(/^error .*\/ns-03\/core\/pods.yaml: YAML/), expect.stringMatching(/^error .*\/ns-07\/core\/pods.yaml: read failed: boom in a consumer$/)]);
    expect(single.events.filter((e) => e.includes('Pod/ns-08-'))).toHaveLength(3);
  });

  it('a worker that dies ends the run with one line naming the entry, never a hang', async () => {
    await expect(record(input, 2, { exitOn: 'ns-06-b/app/app/logs/current.log' })).rejects.toThrow(
      /^a worker thread stopped \(exit code 3\) while reading .*ns-06-b\/app\/app\/logs\/current\.log; --threads 1 reads without worker threads$/,
    );
    await expect(record(input, 2, {}, { failToStart: true })).rejects.toThrow(/^a worker thread stopped \(no consumers today\)/);
  });
});

describe('the entry pool bounds the bytes sent and not yet taken', () => {
  /** Eight logs of 1 MB, in blocks, handed to the pool as the walk does (each once the one before is handed over). */
  async function feed(pool: InstanceType<typeof EntryPool>, progress: { pulled: number; handed: number }): Promise<unknown[]> {
    const answers: Promise<PoolModule.EntryRead>[] = [];
    for (let i = 0; i < 8; i++) {
      const path = `ns/pods/p/app/app/logs/log-${i}.log`;
      const body = async function* (): AsyncGenerator<Buffer> {
        for (let at = 0; at < 1024 * 1024; at += BLOCK_BYTES) {
          progress.pulled += BLOCK_BYTES;
          yield Buffer.alloc(BLOCK_BYTES, 97 + i);
        }
      };
      const classified = { kind: 'pod-log' as const, format: 'text' as const, rule: 'test', path };
      const { answer } = await pool.read({ path, type: 'file', size: 1024 * 1024, body }, classified, [{ text: true }]);
      progress.handed++;
      answers.push(answer);
    }
    return (await Promise.all(answers)).map((read) => read.taken);
  }

  it('read() waits while a worker takes nothing, past BYTES_IN_FLIGHT_PER_THREAD × threads; released, everything is read', async () => {
    const bound = BYTES_IN_FLIGHT_PER_THREAD; // one thread
    expect(8 * 1024 * 1024).toBeGreaterThan(bound);
    const gate = stallGate();
    const pool = new EntryPool(1, { consumers: RECORDER });
    const free = new EntryPool(1, { consumers: RECORDER });
    try {
      pool.begin({ stallUntil: gate.buffer } satisfies RecorderOptions, DEFAULT_LIMITS);
      const stalled = { pulled: 0, handed: 0 };
      const reading = feed(pool, stalled);
      // The worker is blocked before it reads anything: nothing it sends can wake the feeder.
      while (stalled.pulled < bound) await new Promise(setImmediate);
      for (let turn = 0; turn < 50; turn++) await new Promise(setImmediate);
      expect(stalled.pulled).toBe(bound);
      // Entries 0-2 are handed over; entry 3's last block fills the bound and waits for room.
      expect(stalled.handed).toBe(bound / (1024 * 1024) - 1);
      gate.release();
      const taken = await reading;
      expect(stalled).toEqual({ pulled: 8 * 1024 * 1024, handed: 8 });
      free.begin({}, DEFAULT_LIMITS);
      expect(taken).toEqual(await feed(free, { pulled: 0, handed: 0 }));
      expect(taken).toEqual(Array.from({ length: 8 }, (_, i) => [[`text ns/pods/p/app/app/logs/log-${i}.log 1048576 bytes`]]));
    } finally {
      gate.release();
      await Promise.all([pool.close(), free.close()]);
    }
  });
});

/**
 * Namespaces whose pods' own files add up past what the walk holds while their List is read
 * (8 MB; one of them past the 1 MB one entry may hold): in `ns-b` the List is broken at its end,
 * so its pods are read from their own files; a log of several blocks follows each namespace.
 */
function bigPods(): string {
  const root = join(tempDir(), 'must-gather.local.2', 'quay-io-image');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'timestamp'), '2021-08-03 10:14:13.632 +0000 UTC m=+0.1\n');
  for (const ns of ['ns-a', 'ns-b']) {
    const dir = join(root, 'namespaces', ns);
    mkdirSync(join(dir, 'core'), { recursive: true });
    const pods = Array.from({ length: 30 }, (_, i) => `${ns}-${i}`);
    const big = (name: string, i: number): string => pod(name, ns, i === 7 ? 1_200_000 : 600_000);
    // ns-b's List breaks at its very end, after its pods' own files have had time to be held.
    writeFileSync(join(dir, 'core', 'pods.yaml'), listOf(pods.map(big)) + (ns === 'ns-b' ? 'kind: [unclosed\n' : ''));
    for (const [i, p] of pods.entries()) {
      mkdirSync(join(dir, 'pods', p), { recursive: true });
      writeFileSync(join(dir, 'pods', p, `${p}.yaml`), big(p, i));
    }
    const logs = join(dir, 'pods', `${ns}-log`, 'app', 'app', 'logs');
    mkdirSync(logs, { recursive: true });
    writeFileSync(join(logs, 'current.log'), `2021-08-03T10:00:00.000Z ${'y'.repeat(100)}\n`.repeat(20_000));
  }
  return join(root, '..', '..');
}

describe('object files held while their List is read', () => {
  it('past what may be held, the walk waits for the List: same objects in the same order as one thread, never a hang', async () => {
    const input = bigPods();
    const single = await record(input, 1);
    expect(await record(input, 2)).toEqual(single);
    const objects = single.events.filter((e) => e.startsWith('object '));
    // ns-a's pods from its List, ns-b's from their own files (its List is broken).
    expect(objects).toHaveLength(60);
    expect(objects.filter((e) => e.includes('/ns-b/pods/'))).toHaveLength(30);
  }, 60_000);

  // The workers take nothing until the walk is handed ns-03-c's own file: the own files before it
  // are held (their Lists still being read) and it waits for its List. ns-03's List cannot be
  // parsed, so its own files, held or waited for, are read; the others are dropped as copies.
  it.each([
    ['bigger than 1 MB', (p: string) => (p === 'ns-03-c' ? 1_500_000 : /^ns-0[013]-/.test(p) ? 600_000 : 0)],
    ['past 8 MB held in all', (p: string) => (/^ns-0[013]-/.test(p) ? 950_000 : 0)],
  ])('an object file whose List a worker still reads is held, or waits when %s: the same as on one thread', async (_case, size) => {
    const input = manyNamespaces(size);
    const single = await record(input, 1);
    const threaded = await record(input, 2, {}, {}, '/ns-03-c/ns-03-c.yaml');
    expect(threaded).toEqual(single);
    const objects = single.events.filter((e) => e.startsWith('object '));
    expect(objects).toHaveLength(36);
    expect(objects.filter((e) => e.includes('/pods/'))).toEqual(['a', 'b', 'c'].map((p) => expect.stringContaining(`namespaces/ns-03/pods/ns-03-${p}/ns-03-${p}.yaml:1 Pod/ns-03-${p}`)));
  });
});

describe('analyze with threads', () => {
  it('gives the same facts and report: CVO first and last lines over blocks, the last ClusterVersion, the digest', async () => {
    // mg-mini with a CVO log of several blocks, read by three workers along with everything else.
    const dir = join(tempDir(), 'mg');
    cpSync(join(REPO, 'test/fixtures/mg-mini'), dir, { recursive: true });
    const log = findFile(dir, 'current.log', 'openshift-cluster-version');
    const text = readFileSync(log, 'utf8');
    appendFileSync(log, text.repeat(Math.ceil((1024 * 1024) / text.length)));
    const rules = (await loadRules([])).rules;
    const ruleSource = { dirs: [], ids: rules.map((r) => r.id) };
    const report = async (threads: number): Promise<{ json: string; cvo: unknown }> => {
      const analysis = await analyzeInput(dir, { limits: DEFAULT_LIMITS, rules, digest: true, threads, ruleSource });
      return { json: renderJson(buildReport({ ...analysis, durationMs: 0 }, new Date(0))), cvo: analysis.facts.cvo };
    };
    const single = await report(1);
    const threaded = await report(3);
    expect(threaded.json).toBe(single.json);
    expect(threaded.cvo).toEqual(single.cvo);
    const pods = (single.cvo as { pods: { firstTime?: number; lastTime?: number }[] }).pods;
    expect(pods.length).toBeGreaterThan(0);
    for (const p of pods) expect(p.lastTime).toBeGreaterThanOrEqual(p.firstTime ?? Infinity);
  });
});

describe('rule fixtures in worker threads', () => {
  it('every rule fixture case (alerts, per-key findings, bare logs, parts not read) gives the same report on one thread and on a pool of 3', async () => {
    const cases = readdirSync(join(REPO, 'rules'), { recursive: true, withFileTypes: true })
      .filter((d) => d.isDirectory() && d.parentPath.endsWith('.fixtures'))
      .map((d) => join(d.parentPath, d.name))
      .sort();
    // A part not read (a YAML file cut short) is told to the rules in archive order, in both.
    const broken = join(tempDir(), 'broken');
    cpSync(join(REPO, 'test/fixtures/mg-mini'), broken, { recursive: true });
    const co = findFile(broken, 'ingress.yaml', 'clusteroperators');
    writeFileSync(co, `${readFileSync(co, 'utf8')}\n  bad: [unclosed\n`);
    const rules = (await loadRules([])).rules;
    const ruleSource = { dirs: [], ids: rules.map((r) => r.id) };
    const pool = analysisPool(3);
    try {
      for (const input of [broken, ...cases]) {
        const report = async (threads: 1 | 'pool'): Promise<string> => {
          const options = { limits: DEFAULT_LIMITS, rules, digest: true, ruleSource, requireArchive: false, ...(threads === 'pool' ? { pool } : { threads: 1 }) };
          const analysis = await analyzeInput(input, options);
          return renderJson(buildReport({ ...analysis, durationMs: 0 }, new Date(0)));
        };
        const single = await report(1);
        expect(await report('pool'), input).toBe(single);
        if (input === broken) expect(single).toContain('part of its input was not read');
      }
    } finally {
      await pool.close();
    }
  }, 240_000);
});

describe('--threads on the command line', () => {
  it('gives the same report for every bundled sample and rule fixture with --threads 1 and --threads 3', () => {
    const fixtures = readdirSync(join(REPO, 'rules'), { recursive: true, withFileTypes: true })
      .filter((d) => d.isDirectory() && d.parentPath.endsWith('.fixtures'))
      .map((d) => join(d.parentPath, d.name))
      .sort();
    const samples = readdirSync(join(REPO, 'samples'))
      .filter((f) => f.endsWith('.tar.gz'))
      .map((f) => join(REPO, 'samples', f));
    const inputs = [...samples, join(REPO, 'test/fixtures/mg-mini'), join(REPO, 'test/fixtures/timeline-nodes'), ...fixtures];
    expect(fixtures.length).toBeGreaterThan(30);
    // A fixture that is one file only its rule reads is no archive to `analyze` (the rule test
    // exempts it): refused alike with any thread count, its refusal a line of stderr.
    const reports = (threads: number): { files: Map<string, string>; stderr: string; index: string } => {
      const out = tempDir();
      const run = mgsift(['analyze', ...inputs, '--threads', String(threads), '--format', 'json', '-o', out, '-q']);
      const refused = run.stderr.split('\n').filter(Boolean);
      for (const line of refused) expect(line).toMatch(/^mgsift: error: .*: (no must-gather, inspect or gather-extra tree, and no log|no rule could be checked \(\d+ not checked): /);
      expect([0, 1, 2]).toContain(run.code);
      const files = readdirSync(out).filter((f) => f.endsWith('.json') && f !== 'index.json');
      // An input on which no rule could be checked has its report all the same.
      expect(files).toHaveLength(inputs.length - refused.filter((line) => !line.includes(': no rule could be checked (')).length);
      expect(files.length).toBeGreaterThan(30);
      const index = withoutRunTime(readFileSync(join(out, 'index.json'), 'utf8'));
      return { files: new Map(files.map((f) => [f, withoutRunTime(readFileSync(join(out, f), 'utf8'))])), stderr: run.stderr, index };
    };
    const one = reports(1);
    const three = reports(3);
    expect(three.stderr).toBe(one.stderr);
    expect(three.index).toBe(one.index);
    expect([...three.files.keys()]).toEqual([...one.files.keys()]);
    for (const [file, text] of one.files) expect(three.files.get(file), file).toBe(text);
    // Every fixture of the pack twice: about a minute on 2 idle cores, more on a busy CI runner.
  }, 300_000);

  it('gives the same timeline, and refuses a thread count that is not a whole number of at least 1', () => {
    const sample = join(REPO, 'samples', 'capabilities-rollback.tar.gz');
    const one = mgsift(['timeline', sample, '--threads', '1', '--format', 'json']);
    const three = mgsift(['timeline', sample, '--threads', '3', '--format', 'json']);
    expect(one.code).toBe(0);
    expect(three.stdout).toBe(one.stdout);
    const bad = mgsift(['analyze', sample, '--threads', '0', '-o', join(tempDir(), 'r.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("mgsift: error: --threads needs a whole number of at least 1, not '0'\n");
  });
});

/** A report's text without what changes from run to run. */
function withoutRunTime(json: string): string {
  return json.replace(/"(generatedAt|durationMs)": [^,\n]+/g, '"$1": -');
}

function findFile(dir: string, name: string, under: string): string {
  const found = readdirSync(dir, { recursive: true, withFileTypes: true }).find((d) => d.isFile() && d.name === name && d.parentPath.includes(under));
  if (!found) throw new Error(`no ${name} under ${under}`);
  return join(found.parentPath, found.name);
}
