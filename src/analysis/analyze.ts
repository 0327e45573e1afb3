import { Problems } from '../core/problems.js';
import type { Limits } from '../core/limits.js';
import { InputError, isSingleFile, openInput } from '../sources/open.js';
import type { Source } from '../sources/types.js';
import { walk } from '../ingest/walk.js';
import { isParallel, type WalkSummary } from '../ingest/consumer.js';
import type { WalkProgress } from '../ingest/walk.js';
import { EntryPool } from '../ingest/pool.js';
import type { Facts } from '../facts/collector.js';
import type { Inventory } from '../facts/inventory.js';
import type { TimelineSources } from '../facts/timeline-sources.js';
import type { EngineResult } from '../engine/engine.js';
import type { Rule } from '../engine/rule.js';
import type { Digest, ExplainedLine } from '../digest/collector.js';
import { analysisConsumers, threadsFor, type ConsumerOptions, type RuleSource, type WorkerConsumerOptions } from './consumers.js';

/** One input read once: its facts, and (when rules are given) the engine's verdicts. */
export interface Analysis {
  input: string;
  container: Source['container'];
  summary: WalkSummary;
  facts: Facts;
  /** Operator and node transitions, event groups: the timeline's object sources. */
  timeline: TimelineSources;
  result?: EngineResult | undefined;
  inventory?: Inventory | undefined;
  /** Failure lines no finding explains, folded into templates. */
  digest?: Digest | undefined;
  problems: Problems;
  limits: Limits;
  durationMs: number;
}

export interface AnalyzeOptions {
  limits: Limits;
  rules?: readonly Rule[];
  inventory?: boolean;
  /** Fold the failure lines that no finding explains into the unrecognised-errors digest. */
  digest?: boolean;
  onProgress?: ((progress: WalkProgress) => void) | undefined;
  /**
   * Threads that parse and scan entries: 1 (or absent) reads everything on this thread; N > 1
   * starts N worker threads and leaves this one the container. Needs `ruleSource` with rules.
   */
  threads?: number | 'auto' | undefined;
  /** Most threads `auto` may choose (several analyses at once share the cores). */
  maxThreads?: number | undefined;
  /** Where `rules` came from, for worker threads to load the same. */
  ruleSource?: RuleSource | undefined;
}

/** The whole pipeline for one input: source → layout → parsers → facts and rules, in one pass. */
export async function analyzeInput(input: string, options: AnalyzeOptions): Promise<Analysis> {
  const started = Date.now();
  const problems = new Problems();
  const source = await openInput(input, { limits: options.limits, problems });
  const bareInput = isSingleFile(source);
  const consumerOptions: ConsumerOptions = { maxLineBytes: options.limits.maxLineBytes, bareInput, inventory: options.inventory ?? false, digest: options.digest ?? false };
  const { facts, timeline, engine, inventory, digest, all: consumers } = analysisConsumers(consumerOptions, options.rules);
  const threads = await threadsFor(input, options.threads ?? 1, options.maxThreads);
  const pool = poolFor(threads, options, consumerOptions, consumers.every(isParallel));
  let summary: WalkSummary;
  try {
    summary = await walk(source, consumers, { problems, limits: options.limits, onProgress: options.onProgress, pool });
  } finally {
    await pool?.close();
  }
  if (summary.entries === 0 && problems.truncatedAt !== undefined) {
    // Nothing was read: no report to make, an input error (exit 2) with the container's reason.
    throw new InputError(`${input}: ${problems.items[0]?.reason ?? 'unreadable'}`);
  }
  const gathered = facts.facts();
  const result = engine?.finish(gathered);
  return {
    input,
    container: source.container,
    summary,
    facts: gathered,
    timeline: timeline.sources(),
    result,
    inventory: inventory?.inventory(),
    digest: digest?.digest(explainedLines(result), gathered.collectedAt),
    problems,
    limits: options.limits,
    durationMs: Date.now() - started,
  };
}

/** Worker threads for this analysis, when asked for and every consumer can run in one. */
function poolFor(threads: number, options: AnalyzeOptions, consumerOptions: ConsumerOptions, parallel: boolean): EntryPool | undefined {
  if (threads <= 1 || !parallel || (options.rules !== undefined && options.ruleSource === undefined)) return undefined;
  const workerOptions: WorkerConsumerOptions = { ...consumerOptions, rules: options.rules ? options.ruleSource : undefined };
  return new EntryPool(threads, { consumers: new URL('./consumers.js', import.meta.url).href, options: workerOptions, limits: options.limits });
}

/** A log line is explained when a finding holds it as evidence: same file, same line. */
function explainedLines(result: EngineResult | undefined): ExplainedLine[] {
  return (result?.findings ?? []).flatMap((finding) =>
    finding.evidence.flatMap((e) => (e.line !== undefined && e.file !== '' ? [{ file: e.file, line: e.line, text: e.text }] : [])),
  );
}
