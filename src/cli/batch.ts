/**
 * Many analyses at once. With one job they run here, one after another; with more, in a pool of
 * worker threads running the same code (the analysis is CPU-bound on its thread), one analysis
 * per worker at a time. Results come back in completion order, each tagged with its input's
 * index; a failure (unreadable input, unexpected error, a worker that dies) is a result too, so
 * the other inputs go on.
 */
import { Worker } from 'node:worker_threads';
import { analyzeInput } from '../analysis/analyze.js';
import { analysisPool } from '../analysis/consumers.js';
import type { EntryPool } from '../ingest/pool.js';
import { buildReport, withSelection } from '../report/build.js';
import type { Report, RuleSelection } from '../report/model.js';
import type { WalkProgress } from '../ingest/walk.js';
import { loadRules } from '../engine/load.js';
import type { Rule } from '../engine/rule.js';
import type { Limits } from '../core/limits.js';
import { describeError } from '../core/problems.js';
import { Channel } from '../core/channel.js';
import type { RiskData } from '../risks/load.js';
import { loadUpdateRisks } from './update-risks.js';
import { selfWorker } from '../core/assets.js';

/** What a worker needs to analyse as this thread would: the limits and the same rules. */
export interface BatchSpec {
  limits: Limits;
  /** User rule folders, loaded after the built-in pack as `--rules` does. */
  ruleDirs: string[];
  /** The rules `--only` / `--exclude` selected, by id. */
  ruleIds: string[];
  /** `--threads` for each input; `auto` at most `maxThreads` (the jobs share the cores). */
  threads: number | 'auto';
  maxThreads: number;
  /** The update-risk data folder (`--update-risks`), loaded once per worker. */
  updateRisksDir?: string | undefined;
  /** What `--only` / `--exclude` asked and left out, for every report to say. */
  selection?: RuleSelection | undefined;
  /** `--rule-costs`: time each rule (on one thread) and list the costliest in the report's stats. */
  ruleCosts?: boolean | undefined;
}

/** One input's result: its report, or the one-line reason there is none. */
export type Outcome = { report: Report } | { error: string; cause?: unknown };

/** The whole pipeline for one input, down to the report every renderer draws from. */
export async function reportOf(
  input: string,
  spec: BatchSpec,
  rules: readonly Rule[],
  riskData: RiskData | undefined,
  onProgress?: (progress: WalkProgress) => void,
  pool?: EntryPool,
): Promise<Report> {
  const { limits, threads, maxThreads } = spec;
  const ruleSource = { dirs: spec.ruleDirs, ids: spec.ruleIds };
  return withSelection(buildReport(await analyzeInput(input, { limits, rules, digest: true, riskData, onProgress, threads, maxThreads, ruleSource, pool, ruleCosts: spec.ruleCosts })), spec.selection);
}

/** The update-risk data a {@link BatchSpec} names. */
export function specRiskData(spec: BatchSpec): Promise<RiskData | undefined> {
  return loadUpdateRisks(spec.updateRisksDir);
}

/** The rules a {@link BatchSpec} names (its folders were loaded and checked once already). */
export async function specRules(spec: BatchSpec): Promise<Rule[]> {
  const wanted = new Set(spec.ruleIds);
  return (await loadRules(spec.ruleDirs, { deferCompile: true })).rules.filter((rule) => wanted.has(rule.id));
}

export interface AnalysesOptions {
  jobs: number;
  /** Rules for analyses in this thread (workers load theirs from the spec). */
  rules: readonly Rule[];
  /** Update-risk data for analyses in this thread. */
  riskData?: RiskData | undefined;
  /** Byte progress of an analysis in this thread. */
  progress?: (input: string) => { update(progress: WalkProgress): void; done(): void };
}

/** Every input analysed, in completion order, each result with its input's index. */
export function analyses(inputs: readonly string[], spec: BatchSpec, options: AnalysesOptions): AsyncIterable<PoolReply<Outcome>> {
  if (options.jobs <= 1 || inputs.length <= 1) return inThread(inputs, spec, options);
  return workerPool<string, Outcome>(inputs, {
    jobs: options.jobs,
    // The single file starts a copy of itself; the dev build, its worker script.
    ...(selfWorker() ?? { script: new URL('./batch-worker.js', import.meta.url) }),
    workerData: spec,
    onCrash: (reason) => ({ error: `analysis stopped: ${reason}` }),
  });
}

async function* inThread(inputs: readonly string[], spec: BatchSpec, options: AnalysesOptions): AsyncGenerator<PoolReply<Outcome>> {
  // An explicit --threads over several inputs: the workers are started once, for all of them.
  const threads = spec.threads !== 'auto' && inputs.length > 1 ? spec.threads : 1;
  let pool = threads > 1 ? analysisPool(threads) : undefined;
  try {
    for (const [index, input] of inputs.entries()) {
      // A worker that died failed its input only: the next one gets fresh workers.
      if (pool?.failed) {
        await pool.close();
        pool = analysisPool(threads);
      }
      const progress = options.progress?.(input);
      let result: Outcome;
      try {
        result = { report: await reportOf(input, spec, options.rules, options.riskData, progress && ((at) => progress.update(at)), pool) };
      } catch (err) {
        result = { error: describeError(err), cause: err };
      } finally {
        progress?.done();
      }
      yield { index, result };
    }
  } finally {
    await pool?.close();
  }
}

/** A message to a pool worker, and its answer. */
export interface PoolRequest<T> {
  index: number;
  task: T;
}
export interface PoolReply<R> {
  index: number;
  result: R;
}

export interface PoolOptions<R> {
  jobs: number;
  /** Worker script (or, with `eval`, its source): answers each {@link PoolRequest} with one {@link PoolReply}. */
  script: URL | string;
  eval?: boolean;
  workerData: unknown;
  /** The result of a task whose worker died (uncaught error, out of memory, exit). */
  onCrash: (reason: string) => R;
}

/**
 * Runs tasks on up to `jobs` worker threads, one task per worker at a time, and yields the
 * results as they come. A worker that dies fails its current task only; a fresh worker takes
 * the remaining tasks. Stopping the iteration early terminates every worker.
 */
export async function* workerPool<T, R>(tasks: readonly T[], options: PoolOptions<R>): AsyncGenerator<PoolReply<R>> {
  const results = new Channel<PoolReply<R>>();
  const workers = new Set<Worker>();
  let next = 0;
  const start = (): void => {
    const worker = new Worker(options.script, { workerData: options.workerData, eval: options.eval === true });
    workers.add(worker);
    let current: number | undefined;
    let crash: unknown;
    const feed = (): void => {
      if (next < tasks.length) {
        current = next++;
        worker.postMessage({ index: current, task: tasks[current] as T } satisfies PoolRequest<T>);
      } else {
        current = undefined;
        void worker.terminate();
      }
    };
    worker.on('message', (reply: PoolReply<R>) => {
      results.push(reply);
      feed();
    });
    worker.on('error', (err) => {
      crash = err;
    });
    worker.on('exit', (code) => {
      workers.delete(worker);
      if (current !== undefined) {
        results.push({ index: current, result: options.onCrash(crash !== undefined ? describeError(crash) : `worker exited with code ${code}`) });
        current = undefined;
        if (next < tasks.length) start();
      }
      if (workers.size === 0) results.close();
    });
    feed();
  };
  if (tasks.length === 0) return;
  try {
    for (let i = 0; i < Math.min(options.jobs, tasks.length); i++) start();
    yield* results;
  } finally {
    await Promise.all([...workers].map((worker) => worker.terminate()));
  }
}
