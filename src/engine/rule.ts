import type { ConditionNode } from './condition.js';
import type { CelProgram } from './cel.js';
import type { Template } from './templates.js';
import type { Severity } from './findings.js';
import type { ExplainsEntry } from './diagnosis.js';
import type { FieldPath } from './field-path.js';
import type { Applies } from './applies.js';

/** A rule as loaded, validated and compiled from its YAML file. */
export interface Rule {
  id: string;
  title: string;
  severity: Severity;
  status: 'experimental' | 'stable' | 'deprecated';
  component: string;
  tags: string[];
  /** Templates: a reference may name the evidence's own link (an alert's runbook); empty ones are dropped. */
  references: Template[];
  /** The references as written (a template may take its link from the evidence). */
  referenceSources: string[];
  falsepositives: string;
  applies: Applies;
  signals: Signal[];
  condition: ConditionNode;
  /**
   * The first entry that holds sets the severity: its condition (absent: always) and, with
   * `youngMs`, every piece of resource evidence with a `since` time began less than that before
   * the collection time (a state still settling, as an operator's condition during an update).
   */
  severityWhen: { condition: ConditionNode | undefined; youngMs?: number | undefined; severity: Severity }[];
  message: Template;
  /** One line on what happened (objects, cause, since when); generated from the finding where absent. */
  headline: Template | undefined;
  remediation: Template | undefined;
  banner: Template | undefined;
  /** One finding per key this renders from each evidence item (see `per` in rules/README.md). */
  per: Template | undefined;
  maxEvidence: number;
  /** Objects a finding of this rule is about, and objects its evidence names (for links). */
  about: ObjectTemplate[];
  mentions: ObjectTemplate[];
  /** Spans of time a finding stands for, for links by time. */
  windows: WindowTemplate[];
  /** Which other findings a finding of this rule may explain. */
  explains: ExplainsEntry[];
  /** Where the rule came from. */
  file: string;
  /** The domain it covers (etcd, nodes, storage, …): the folder its file is in. */
  domain: string;
  builtin: boolean;
}

/**
 * One object (or several: `name` may render names separated by commas or spaces) per evidence
 * item of `signal`, or one for the finding without it. Absent parts default to the evidence's
 * object (a log line's pod).
 */
export interface ObjectTemplate {
  signal: string | undefined;
  kind: Template | undefined;
  namespace: Template | undefined;
  name: Template | undefined;
}

export interface WindowTemplate {
  signal: string | undefined;
  /** Render epoch ms or an ISO time; `to` empty: open until collection. */
  from: Template;
  to: Template | undefined;
  label: Template;
}

export interface LogSelector {
  namespace?: string | undefined;
  pod?: RegExp | undefined;
  container?: string | undefined;
  stream?: string | undefined;
  path?: RegExp | undefined;
  /** The glob `path` was compiled from, for what reports and the coverage table say. */
  pathGlob?: string | undefined;
  bare?: boolean | undefined;
}

interface SignalBase {
  name: string;
  /**
   * What the signal is compiled from, as its rule file writes it (a shared signal resolved): its
   * type and body as JSON, not its description. Two signals written alike match alike (the engine
   * matches, or evaluates, one of them). Undefined for a signal made in code.
   */
  written?: string | undefined;
}

export interface LogSignal extends SignalBase {
  type: 'log';
  files: readonly LogSelector[];
  regex: RegExp;
  /** Any of these must occur in a line before the regex runs; undefined: no prefilter. */
  literals: string[] | undefined;
  levels: Set<string> | undefined;
  /** When set, the signal's data counts as present only once a line matching this is seen. */
  presence: LogSignal | undefined;
  /** When set, one item per file: its last `tail` matching lines, joined (a container's last words). */
  tail?: number | undefined;
  /**
   * Keeps only lines dated more than `settleMs` after the cluster finished installing (its install's
   * completion in the ClusterVersion history): controllers lose leases and retry while the cluster
   * assembles itself, and static pods still roll out new revisions minutes after. Kept when either
   * time is unknown.
   */
  afterInstall?: { settleMs: number } | undefined;
  resolution: Resolution;
}

export interface ResourceSignal extends SignalBase {
  type: 'resource';
  group: string;
  /** The kinds it reads (several: kinds of the one group). */
  kinds: readonly string[];
  /** Their plural resources, as the archive's folders and file names carry them. */
  resources: readonly string[];
  namespace: string | undefined;
  objectName: string | undefined;
  where: CelProgram | undefined;
  /** Regex over a field's values; its named captures (every match) go into the evidence. */
  match: { path: FieldPath; regex: RegExp; required: boolean } | undefined;
  summary: Template | undefined;
  /** Field holding when the evidence began (a condition's lastTransitionTime): the item's time. */
  since: FieldPath | undefined;
  /** Keeps only evidence whose `since` is this old at the collection time (see {@link EvidenceAge}). */
  age: EvidenceAge | undefined;
}

/**
 * How long before the collection time a resource's evidence must have begun (epoch ms spans).
 * `atLeast`: a state that lasted (an operator down past the platform alert's wait); it holds
 * when either time is unknown, so a missing clock keeps the serious reading. `under`: a state
 * still young; it holds only when both times are known.
 */
export interface EvidenceAge {
  atLeastMs?: number | undefined;
  underMs?: number | undefined;
}

export interface EventSignal extends SignalBase {
  type: 'event';
  reason: RegExp | undefined;
  message: RegExp | undefined;
  literal: string | undefined;
  namespace: string | undefined;
  involvedKind: string | undefined;
  involvedName: RegExp | undefined;
  /** CEL over `object` (the event). */
  where: CelProgram | undefined;
  /**
   * Keeps only events first seen after the cluster finished installing (its install's completion
   * in the ClusterVersion history): operators repeat errors while the cluster assembles itself, as
   * origin's pathological-event test knows; or still seen 15 minutes or more after it (not settled
   * with the install). Kept when that time is unknown.
   */
  afterInstall: boolean;
  /** Only events that happened more than this many times (`count`, or `series.count`): checked before `where`. */
  countAbove: number | undefined;
  /** Keeps only events last seen this long before the collection time (see {@link EvidenceAge}). */
  age: EvidenceAge | undefined;
  resolution: Resolution;
}

/**
 * What shows that the failure a log line or an event records is over by the collection time
 * (`resolvedBy` in rules/README.md): such evidence is history, not a present alarm.
 */
export interface Resolution {
  resolvers: readonly Resolver[];
  /** Why nothing later supersedes this evidence (a state a line reports, a corruption): said instead of resolvers. */
  persists: string | undefined;
}

export type Resolver = SignalResolver | QuietResolver;

/**
 * Another signal of the rule whose evidence shows the failure over: a later success of the same
 * object (`EnsuredLoadBalancer` after `SyncLoadBalancerFailed`), or the object's state now (a
 * condition back to good, a Subscription at its latest CSV).
 */
export interface SignalResolver {
  type: 'signal';
  signal: string;
  /**
   * The object the resolving evidence must be about, rendered over the resolved item; parts left
   * out match any. Undefined: the resolved item's own object.
   */
  object: { kind: Template | undefined; namespace: Template | undefined; name: Template | undefined } | undefined;
  /** The resolving evidence must be dated after the resolved item. */
  later: boolean;
}

/** Not seen for this long before the collection time. */
export interface QuietResolver {
  type: 'quiet';
  quietForMs: number;
}

export interface FactSignal extends SignalBase {
  type: 'fact';
  fact: string;
  where: CelProgram | undefined;
  summary: Template | undefined;
}

export type Signal = LogSignal | ResourceSignal | EventSignal | FactSignal;
