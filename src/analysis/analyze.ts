import { Problems } from '../core/problems.js';
import type { Limits } from '../core/limits.js';
import { InputError, isSingleFile, openInput } from '../sources/open.js';
import type { Source, SourceOptions } from '../sources/types.js';
import { walk } from '../ingest/walk.js';
import type { EntryConsumer, WalkSummary } from '../ingest/consumer.js';
import type { WalkProgress } from '../ingest/walk.js';
import { FactsCollector, type Facts } from '../facts/collector.js';
import { InventoryCollector, type Inventory } from '../facts/inventory.js';
import { TimelineSourcesCollector, type TimelineSources } from '../facts/timeline-sources.js';
import { RuleEngine, type EngineResult } from '../engine/engine.js';
import type { Rule } from '../engine/rule.js';
import { ClusterRoots, severalClusters } from './clusters.js';
import { BareLogRecogniser, nothingRecognised } from './recognised.js';
import { DigestCollector, type Digest, type ExplainedLine } from '../digest/collector.js';
import { MetricsCollector } from '../facts/metrics.js';
import type { RiskData } from '../risks/load.js';
import { updateRisks, type UpdateRisks } from '../risks/update-risks.js';

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
  onProgress?: (progress: WalkProgress) => void;
  /** Where the entries come from when not from the path (the built-in fixtures inside the single file). */
  open?: ((options: SourceOptions) => Source) | undefined;
  /**
   * Refuse an input that holds no gather tree and no log (default). Rule fixtures turn it off:
   * a fixture may be one line that only its rule reads.
   */
  requireArchive?: boolean;
}

/** The whole pipeline for one input: source → layout → parsers → facts and rules, in one pass. */
export async function analyzeInput(input: string, options: AnalyzeOptions): Promise<Analysis> {
  const started = Date.now();
  const problems = new Problems();
  const sourceOptions: SourceOptions = { limits: options.limits, problems };
  const source = options.open ? options.open(sourceOptions) : await openInput(input, sourceOptions);
  const bareInput = isSingleFile(source);
  const facts = new FactsCollector(options.limits.maxLineBytes);
  const engine = options.rules ? new RuleEngine(options.rules, { maxLineBytes: options.limits.maxLineBytes, bareInput }) : undefined;
  const inventory = options.inventory ? new InventoryCollector() : undefined;
  const timeline = new TimelineSourcesCollector();
  const digest = options.digest ? new DigestCollector(options.limits.maxLineBytes) : undefined;
  const logs = new BareLogRecogniser(bareInput);
  const clusterRoots = new ClusterRoots();
  const metrics = options.riskData ? new MetricsCollector() : undefined;
  const consumers: EntryConsumer[] = [logs, clusterRoots, facts, timeline, ...(engine ? [engine] : []), ...(inventory ? [inventory] : []), ...(digest ? [digest] : []), ...(metrics ? [metrics] : [])];
  const summary = await walk(source, consumers, { problems, limits: options.limits, onProgress: options.onProgress });
  if (summary.entries === 0 && problems.truncatedAt !== undefined) {
    // Nothing was read: no report to make, an input error (exit 2) with the container's reason.
    throw new InputError(`${input}: ${problems.items[0]?.reason ?? 'unreadable'}`);
  }
  // Something that is no diagnostic archive is an input error, never a clean report of 0 findings.
  const unrecognised = options.requireArchive === false ? undefined : nothingRecognised(summary, logs, problems);
  if (unrecognised !== undefined) throw new InputError(`${input}: ${unrecognised}`);
  const clusters = clusterRoots.clusters();
  if (clusters.length > 1) throw new InputError(severalClusters(input, clusters, source.container === 'directory'));
  const gathered = facts.facts();
  if (problems.truncatedAt !== undefined) engine?.truncated(problems.truncatedAt);
  const archiveMetrics = metrics?.metrics();
  const risks = options.riskData && archiveMetrics ? updateRisks(options.riskData, gathered, archiveMetrics, archiveMetrics.clusterVersion()) : undefined;
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
    problems,
    limits: options.limits,
    durationMs: Date.now() - started,
  };
}

/** A log line is explained when a finding holds it as evidence: same file, same line. */
function explainedLines(result: EngineResult | undefined): ExplainedLine[] {
  return (result?.findings ?? []).flatMap((finding) =>
    finding.evidence.flatMap((e) => (e.line !== undefined && e.file !== '' ? [{ file: e.file, line: e.line, text: e.text }] : [])),
  );
}
