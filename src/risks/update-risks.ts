/**
 * The known update risks of one archive: (a) the edges out of the desired version (the current
 * one, or the target of an update in progress, which the running CVO asks the update service from), (b) the
 * edges the cluster already took (ClusterVersion history transitions), and (c) where the
 * cluster's own `status.conditionalUpdates` disagree with mgsift's evaluation.
 *
 * Every verdict reads the archive as collected: a risk of an edge taken long ago is evaluated on
 * the cluster as it is now (the install-time version and platform do not change; other metrics
 * may have).
 */
import type { Facts } from '../facts/collector.js';
import type { UpdateRecommendations } from '../facts/updates.js';
import { compareVersions, isUpdateCandidate, parseVersion } from '../facts/version.js';
import type { MetricSource } from '../promql/index.js';
import type { RiskData } from './load.js';
import { RiskEvaluator, type RiskVerdict, type Verdict } from './evaluate.js';

export interface EdgeRisks {
  from: string;
  to: string;
  /** Conditional risks of the edge, one per risk name. */
  risks: RiskVerdict[];
  /** Files that block the edge without conditions (Cincinnati does not serve it). */
  unconditional: string[];
  /** The edge is the update in progress (newest history entry, not completed). */
  inProgress: boolean;
}

export interface TakenEdge extends EdgeRisks {
  /** Epoch ms of the transition's start and completion. */
  started?: number | undefined;
  completed?: number | undefined;
  state: string;
  /** The newest transition of the history: the update that brought the current state. */
  latest: boolean;
}

export interface ClusterComparison {
  to: string;
  name: string;
  /** What the cluster's Recommended condition says of this risk. */
  cluster: Verdict;
  mgsift: Verdict | 'not-in-data';
  /** True when both are known and differ. */
  disagree: boolean;
  detail: string;
}

export interface UpdateRisks {
  /** The blocked-edges folder read. */
  dataDir: string;
  files: number;
  /** Distinct risk names in the data. */
  names: number;
  problems: { file: string; reason: string }[];
  /**
   * Undefined when the current version is unknown. `preReleasesLeftOut`: pre-release targets
   * (`ec`, `fc`, `rc`) not considered because the cluster's channel does not serve them.
   */
  current?:
    | {
        version: string;
        targets: EdgeRisks[];
        preReleasesLeftOut?: { channel: string; count: number } | undefined;
        /** The last completed version, when `version` is the target of an update not completed yet. */
        updatingFrom?: string | undefined;
      }
    | undefined;
  taken: TakenEdge[];
  /** Undefined when the ClusterVersion has no conditionalUpdates. */
  cluster?: ClusterComparison[] | undefined;
}

export function updateRisks(data: RiskData, facts: Facts, metrics: MetricSource): UpdateRisks {
  const evaluator = new RiskEvaluator(metrics, data.queries);
  const transitions = facts.history?.transitions ?? [];
  const newest = transitions.at(-1);
  const inProgress = newest && !newest.isInstall && newest.state === 'Partial' && newest.completed === undefined && newest.from ? { from: newest.from.version, to: newest.to.version } : undefined;

  const edge = (from: string, to: string): EdgeRisks => {
    const blocked = data.edges.filter((e) => e.to === to && e.fromRegex.test(from));
    const byName = new Map<string, RiskVerdict>();
    for (const e of blocked) if (e.name && !byName.has(e.name)) byName.set(e.name, evaluator.verdict(e));
    return {
      from,
      to,
      risks: [...byName.values()].sort(byVerdictThenName),
      unconditional: blocked.filter((e) => !e.name).map((e) => e.file),
      inProgress: inProgress?.from === from && inProgress.to === to,
    };
  };

  // Mid-update, the running CVO is the target's: it asks the update service from the desired
  // version, so the next update's edges (and the cluster's own conditionalUpdates) start there.
  const completed = facts.cluster?.currentVersion;
  const version = facts.cluster?.desiredVersion ?? completed;
  let current: UpdateRisks['current'];
  if (version) {
    const candidates = [...new Set(data.edges.filter((e) => e.fromRegex.test(version) && isUpdateCandidate(version, e.to)).map((e) => e.to))];
    const channel = facts.cluster?.channel;
    const targets = candidates.filter((to) => servesPreReleases(channel) || !isPreRelease(to));
    const leftOut = candidates.length - targets.length;
    current = {
      version,
      targets: targets.sort(compareVersions).map((to) => edge(version, to)),
      preReleasesLeftOut: leftOut > 0 && channel ? { channel, count: leftOut } : undefined,
      updatingFrom: completed !== undefined && completed !== version ? completed : undefined,
    };
  }

  const taken: TakenEdge[] = [];
  for (const t of transitions) {
    if (t.isInstall || !t.from?.version || !t.to.version) continue;
    const e = edge(t.from.version, t.to.version);
    if (e.risks.length === 0 && e.unconditional.length === 0) continue;
    taken.push({ ...e, started: t.started, completed: t.completed, state: t.state, latest: t === newest });
  }

  return {
    dataDir: data.dir,
    files: data.edges.length,
    names: new Set(data.edges.map((e) => e.name).filter(Boolean)).size,
    problems: data.problems,
    current,
    taken,
    cluster: version ? compareWithCluster(facts.updates, version, edge) : undefined,
  };
}

/**
 * Whether a channel offers pre-release builds: `candidate-4.y` does (release and feature
 * candidates, engineering candidates); `stable-`, `fast-` and `eus-` channels never do. An
 * unknown or other channel is taken to offer them (nothing is left out on a guess).
 */
function servesPreReleases(channel: string | undefined): boolean {
  return !channel || !/^(stable|fast|eus)-/.test(channel);
}

function isPreRelease(version: string): boolean {
  const kind = parseVersion(version)?.kind;
  return kind === 'ec' || kind === 'fc' || kind === 'rc';
}

const ORDER: Record<Verdict, number> = { applies: 0, unknown: 1, 'does-not-apply': 2 };
function byVerdictThenName(a: RiskVerdict, b: RiskVerdict): number {
  return ORDER[a.verdict] - ORDER[b.verdict] || a.name.localeCompare(b.name);
}

/**
 * The cluster's own verdict on each risk of each of its `conditionalUpdates`, as the facts read
 * it (`facts/updates.ts`: per-risk `Applies` conditions, else the update's `Recommended`),
 * beside mgsift's for the same edge.
 */
function compareWithCluster(updates: UpdateRecommendations | undefined, version: string, edge: (from: string, to: string) => EdgeRisks): ClusterComparison[] | undefined {
  if (!updates || updates.conditional.length === 0) return undefined;
  const risks = new Map(updates.risks.map((r) => [r.name, r]));
  const out: ClusterComparison[] = [];
  for (const update of updates.conditional) {
    const ours = new Map(edge(version, update.version).risks.map((r) => [r.name, r]));
    for (const name of update.risks) {
      const exposure = risks.get(name)?.exposure ?? 'unknown';
      const cluster: Verdict = exposure === 'applies' || exposure === 'does-not-apply' ? exposure : 'unknown';
      const mine = ours.get(name);
      const mgsift = mine?.verdict ?? 'not-in-data';
      const disagree = cluster !== 'unknown' && mgsift !== 'unknown' && mgsift !== 'not-in-data' && cluster !== mgsift;
      out.push({
        to: update.version,
        name,
        cluster,
        mgsift,
        disagree,
        detail: `cluster: Recommended=${update.recommended}${update.reason ? ` (${update.reason})` : ''}; mgsift: ${mine ? `${mine.verdict}: ${mine.reason}` : 'the data given has no such risk on this edge'}`,
      });
    }
  }
  return out;
}
