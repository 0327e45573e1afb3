import { Problems } from '../core/problems.js';
import type { Limits } from '../core/limits.js';
import { InputError, isSingleFile, openInput } from '../sources/open.js';
import type { Source, SourceOptions } from '../sources/types.js';
import { walk } from '../ingest/walk.js';
import { isParallel, type WalkSummary } from '../ingest/consumer.js';
import type { WalkProgress } from '../ingest/walk.js';
import type { EntryPool } from '../ingest/pool.js';
import type { Facts } from '../facts/collector.js';
import type { Inventory } from '../facts/inventory.js';
import type { TimelineSources } from '../facts/timeline-sources.js';
import type { EngineResult } from '../engine/engine.js';
import type { Rule } from '../engine/rule.js';
import type { Digest, ExplainedLine } from '../digest/collector.js';
import { severalClusters } from './clusters.js';
import { nothingRecognised } from './recognised.js';
import type { RiskData } from '../risks/load.js';
import type { UpdateRisks } from '../risks/update-risks.js';
import { clusterSummary } from '../facts/cluster-summary.js';
import { STILL_GOING_AFTER_INSTALL_MS } from '../facts/history.js';
import { analysisConsumers, analysisPool, threadsFor, type ConsumerOptions, type RuleSource, type WorkerConsumerOptions } from './consumers.js';
import { RuleCosts } from '../engine/rule-costs.js';

/** How many of the costliest rules `ruleCosts` lists. */
const RULE_COSTS_LISTED = 20;

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
  /** Known update risks evaluated against the archive; absent without risk data. */
  updateRisks?: UpdateRisks | undefined;
  /** The costliest rules in milliseconds, when asked (`ruleCosts`). */
  ruleCosts?: { rule: string; ms: number }[] | undefined;
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
  /** cincinnati-graph-data blocked edges to evaluate (`--update-risks`). */
  riskData?: RiskData | undefined;
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
  /** Worker threads to read with (the caller's, kept open for the next input), instead of `threads`. */
  pool?: EntryPool | undefined;
  /** Where the entries come from when not from the path (the built-in fixtures inside the single file). */
  open?: ((options: SourceOptions) => Source) | undefined;
  /**
   * Refuse an input that holds no gather tree and no log (default). Rule fixtures turn it off:
   * a fixture may be one line that only its rule reads.
   */
  requireArchive?: boolean;
  /** Time each rule's matching and evaluation (read on this thread: workers would each time their own part). */
  ruleCosts?: boolean | undefined;
}

/** The whole pipeline for one input: source → layout → parsers → facts and rules, in one pass. */
export async function analyzeInput(input: string, options: AnalyzeOptions): Promise<Analysis> {
  const started = Date.now();
  const problems = new Problems();
  const sourceOptions: SourceOptions = { limits: options.limits, problems };
  const source = options.open ? options.open(sourceOptions) : await openInput(input, sourceOptions);
  const bareInput = isSingleFile(source);
  const consumerOptions: ConsumerOptions = {
    maxLineBytes: options.limits.maxLineBytes,
    bareInput,
    inventory: options.inventory ?? false,
    digest: options.digest ?? false,
    metrics: options.riskData?.metrics,
  };
  const costs = options.ruleCosts ? new RuleCosts() : undefined;
  const { logs, clusterRoots, facts, timeline, state, certificates, engine, inventory, digest, metrics, audit, all: consumers } = analysisConsumers(consumerOptions, options.rules, costs);
  // Every consumer must be able to run in a worker, and workers must be able to load the rules.
  const parallel = consumers.every(isParallel) && (options.rules === undefined || options.ruleSource !== undefined);
  const threads = options.pool || !parallel || costs ? 1 : await threadsFor(input, options.threads ?? 1, options.maxThreads);
  const ownPool = threads > 1 ? analysisPool(threads) : undefined;
  const pool = parallel && !costs ? startInput(options.pool ?? ownPool, options, consumerOptions) : undefined;
  let summary: WalkSummary;
  try {
    summary = await walk(source, consumers, { problems, limits: options.limits, onProgress: options.onProgress, pool });
  } finally {
    await ownPool?.close();
  }
  if (summary.entries === 0 && problems.stopped !== undefined) {
    // Nothing was read: no report to make, an input error (exit 2) with the container's reason.
    throw new InputError(`${input}: ${problems.items[0]?.reason ?? 'unreadable'}`);
  }
  // Something that is no diagnostic archive is an input error, never a clean report of 0 findings.
  const unrecognised = options.requireArchive === false ? undefined : nothingRecognised(summary, logs, problems);
  if (unrecognised !== undefined) throw new InputError(`${input}: ${unrecognised}`);
  const clusters = clusterRoots.clusters();
  if (clusters.length > 1) throw new InputError(severalClusters(input, clusters, source.container === 'directory'));
  const gathered = facts.facts();
  // Before the rules finish: the update's health insights are a fact they read.
  gathered.certificates = certificates?.result();
  const window = recentLogWindow(gathered);
  gathered.logTemplates = window && digest?.recentTemplates(window.from, window.to);
  const auditSummary = audit.summary();
  gathered.audit = auditSummary.files.length > 0 ? auditSummary : undefined;
  gathered.summary = clusterSummary({ state: state.state(), cluster: gathered.cluster, history: gathered.history, collectedAt: gathered.collectedAt, alerts: gathered.alerts });
  if (problems.stopped !== undefined) engine?.truncated(problems.stopped.at);
  const archiveMetrics = metrics?.metrics();
  // The evaluator and its PromQL parser load only when risk data is given (--update-risks).
  const risks = options.riskData && archiveMetrics ? (await import('../risks/update-risks.js')).updateRisks(options.riskData, gathered, archiveMetrics) : undefined;
  const result = engine?.finish({ ...gathered, updateRisks: risks });
  return {
    input,
    container: source.container,
    summary,
    facts: gathered,
    timeline: timeline.sources(),
    result,
    inventory: inventory?.inventory(),
    digest: digest?.digest(explainedLines(result), gathered.collectedAt),
    updateRisks: risks,
    ruleCosts: costs?.costliest(RULE_COSTS_LISTED),
    problems,
    limits: options.limits,
    durationMs: Date.now() - started,
  };
}

/**
 * The span fact `log.templates` counts lines in: the 30 minutes before the collection, from 15
 * minutes after the install completed at the earliest (operators settle by then); undefined
 * without the collection time.
 */
const RECENT_LOG_WINDOW_MS = 30 * 60_000;

function recentLogWindow(facts: Facts): { from: number; to: number } | undefined {
  const to = facts.collectedAt;
  if (to === undefined) return undefined;
  const installed = facts.history?.install?.completionTime;
  const settled = installed === undefined ? -Infinity : installed + STILL_GOING_AFTER_INSTALL_MS;
  return { from: Math.max(to - RECENT_LOG_WINDOW_MS, settled), to };
}

/** The pool's workers set up for this input. */
function startInput(pool: EntryPool | undefined, options: AnalyzeOptions, consumerOptions: ConsumerOptions): EntryPool | undefined {
  if (!pool) return undefined;
  const workerOptions: WorkerConsumerOptions = { ...consumerOptions, rules: options.rules ? options.ruleSource : undefined };
  pool.begin(workerOptions, options.limits);
  return pool;
}

/** A log line is explained when a finding holds it as evidence: same file, same line. */
function explainedLines(result: EngineResult | undefined): ExplainedLine[] {
  return (result?.findings ?? []).flatMap((finding) =>
    finding.evidence.flatMap((e) => (e.line !== undefined && e.file !== '' ? [{ file: e.file, line: e.line, text: e.text }] : [])),
  );
}
