/**
 * The consumers one analysis reads an archive with, built the same way on the main thread and
 * in each worker thread of the entry pool (`ingest/pool.ts`), so that what a worker takes from
 * an entry merges into the main thread's consumer at the same position.
 */
import { availableParallelism } from 'node:os';
import { stat } from 'node:fs/promises';
import type { EntryConsumer } from '../ingest/consumer.js';
import { EntryPool } from '../ingest/pool.js';
import { FactsCollector } from '../facts/collector.js';
import { InventoryCollector } from '../facts/inventory.js';
import { TimelineSourcesCollector } from '../facts/timeline-sources.js';
import { ClusterStateCollector } from '../facts/cluster-state.js';
import { CertificateCollector } from '../facts/certificates.js';
import { RuleEngine } from '../engine/engine.js';
import { loadRules } from '../engine/load.js';
import type { Rule } from '../engine/rule.js';
import { DigestCollector } from '../digest/collector.js';
import { MetricsCollector } from '../facts/metrics.js';
import { AuditCollector } from '../facts/audit-collector.js';
import { REPORT_AUDIT_LIMITS } from '../facts/audit.js';
import { BareLogRecogniser } from './recognised.js';
import { ClusterRoots } from './clusters.js';
import { EMBEDDED } from '../core/assets.js';
import type { RuleCosts } from '../engine/rule-costs.js';

/** Where rules were loaded from: worker threads load the same ones. */
export interface RuleSource {
  /** User rule folders, loaded after the built-in pack. */
  dirs: string[];
  /** The rules selected, by id, in the main thread's order. */
  ids: string[];
}

export interface ConsumerOptions {
  maxLineBytes: number;
  bareInput: boolean;
  inventory: boolean;
  digest: boolean;
  /** The metric names the update risks read (`--update-risks`); absent without risk data. */
  metrics?: readonly string[] | undefined;
}

export interface AnalysisConsumers {
  logs: BareLogRecogniser;
  clusterRoots: ClusterRoots;
  facts: FactsCollector;
  timeline: TimelineSourcesCollector;
  /** What the cluster summary is made of. */
  state: ClusterStateCollector;
  /** The certificates of ConfigMaps and Secrets (fact `certificates`), when a rule reads them. */
  certificates?: CertificateCollector | undefined;
  engine?: RuleEngine | undefined;
  inventory?: InventoryCollector | undefined;
  digest?: DigestCollector | undefined;
  metrics?: MetricsCollector | undefined;
  /** The audit logs (`audit_logs/<server>/`), read only where the input holds them. */
  audit: AuditCollector;
  /** All of them, in the order every thread uses. */
  all: EntryConsumer[];
}

export function analysisConsumers(options: ConsumerOptions, rules: readonly Rule[] | undefined, costs?: RuleCosts): AnalysisConsumers {
  const facts = new FactsCollector(options.maxLineBytes);
  const engine = rules ? new RuleEngine(rules, { maxLineBytes: options.maxLineBytes, bareInput: options.bareInput, costs }) : undefined;
  const inventory = options.inventory ? new InventoryCollector() : undefined;
  const timeline = new TimelineSourcesCollector();
  const state = new ClusterStateCollector();
  // Reading every ConfigMap's and Secret's certificates is costly: only when a rule reads them.
  const certificates = rules?.some((rule) => readsFact(rule, 'certificates')) ? new CertificateCollector() : undefined;
  // The digest already folds every failure line: a rule reading what repeats costs nothing more.
  const digest = options.digest || rules?.some((rule) => readsFact(rule, 'log.templates')) ? new DigestCollector(options.maxLineBytes) : undefined;
  const metrics = options.metrics ? new MetricsCollector(options.metrics) : undefined;
  const logs = new BareLogRecogniser(options.bareInput);
  const clusterRoots = new ClusterRoots();
  const audit = new AuditCollector({ maxLineBytes: options.maxLineBytes, limits: REPORT_AUDIT_LIMITS });
  const all: EntryConsumer[] = [logs, clusterRoots, facts, timeline, state, audit, ...(certificates ? [certificates] : []), ...(engine ? [engine] : []), ...(inventory ? [inventory] : []), ...(digest ? [digest] : []), ...(metrics ? [metrics] : [])];
  return { logs, clusterRoots, facts, timeline, state, certificates, engine, inventory, digest, metrics, audit, all };
}


/** Whether a rule has a signal on this fact. */
function readsFact(rule: Rule, name: string): boolean {
  return rule.signals.some((signal) => signal.type === 'fact' && signal.fact === name);
}

/** What a worker thread builds its consumers from. */
export interface WorkerConsumerOptions extends ConsumerOptions {
  rules?: RuleSource | undefined;
}

/** Rules a worker thread loaded, by source: several inputs read by one pool load them once. */
const loaded = new Map<string, Promise<Rule[]>>();

/** A worker thread's consumers for one input (the entry pool imports this module by URL). */
export async function createConsumers(options: WorkerConsumerOptions): Promise<EntryConsumer[]> {
  let rules: Promise<Rule[]> | undefined;
  if (options.rules) {
    const key = JSON.stringify(options.rules);
    rules = loaded.get(key) ?? rulesOf(options.rules);
    loaded.set(key, rules);
  }
  return analysisConsumers(options, await rules).all;
}

/** A pool whose workers build the consumers of this module (the single file's entry point gives them `createConsumers`). */
export function analysisPool(threads: number): EntryPool {
  return new EntryPool(threads, { consumers: EMBEDDED ? undefined : import.meta.url });
}

async function rulesOf(source: RuleSource): Promise<Rule[]> {
  const byId = new Map((await loadRules(source.dirs, { deferCompile: true })).rules.map((rule) => [rule.id, rule]));
  return source.ids.map((id) => {
    const rule = byId.get(id);
    if (!rule) throw new Error(`rule ${id} did not load in a worker thread`);
    return rule;
  });
}

/**
 * Inputs smaller than this (compressed size of an archive or file) are read on one thread when
 * `--threads` is left out: starting workers and loading the rules in each costs more than the
 * workers save (measured in BENCHMARKS.md, "Threads").
 */
export const AUTO_THREADS_MIN_BYTES = 48 * 1024 * 1024;

/** Threads for `--threads` left out: one core for reading the container, the others for parsing. */
export function defaultThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** The threads for one input: as asked, or for `auto` the default for inputs that are not small (directories are not). */
export async function threadsFor(input: string, threads: number | 'auto', max = Infinity): Promise<number> {
  if (threads !== 'auto') return threads;
  const size = await stat(input).then(
    (s) => (s.isFile() ? s.size : Infinity),
    () => 0,
  );
  return size < AUTO_THREADS_MIN_BYTES ? 1 : Math.max(1, Math.min(max, defaultThreads()));
}
