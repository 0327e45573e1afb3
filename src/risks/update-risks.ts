/**
 * The known update risks of one archive: (a) the edges out of the current version, (b) the
 * edges the cluster already took (ClusterVersion history transitions), and (c) where the
 * cluster's own `status.conditionalUpdates` disagree with mgsift's evaluation.
 *
 * Every verdict reads the archive as collected: a risk of an edge taken long ago is evaluated on
 * the cluster as it is now (the install-time version and platform do not change; other metrics
 * may have).
 */
import type { Facts } from '../facts/collector.js';
import { compareVersions, isUpdateCandidate, parseVersion } from '../facts/version.js';
import { arrayAt, isRecord, recordAt, stringAt } from '../facts/internal.js';
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
  current?: { version: string; targets: EdgeRisks[]; preReleasesLeftOut?: { channel: string; count: number } | undefined } | undefined;
  taken: TakenEdge[];
  /** Undefined when the ClusterVersion has no conditionalUpdates. */
  cluster?: ClusterComparison[] | undefined;
}

export function updateRisks(data: RiskData, facts: Facts, metrics: MetricSource, clusterVersion: unknown): UpdateRisks {
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

  const version = facts.cluster?.currentVersion;
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
    cluster: version ? compareWithCluster(clusterVersion, version, edge) : undefined,
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
 * The cluster's `status.conditionalUpdates[]`: each target's risks and its `Recommended`
 * condition. `True` means no risk applies; `False` with a risk's name as reason means that one
 * applies (`MultipleReasons`: those whose URL or message the condition's message repeats);
 * `Unknown` means the cluster could not evaluate them.
 */
function compareWithCluster(clusterVersion: unknown, version: string, edge: (from: string, to: string) => EdgeRisks): ClusterComparison[] | undefined {
  const updates = arrayAt(recordAt(clusterVersion, 'status'), 'conditionalUpdates');
  if (updates.length === 0) return undefined;
  const out: ClusterComparison[] = [];
  for (const update of updates) {
    if (!isRecord(update)) continue;
    const to = stringAt(recordAt(update, 'release'), 'version');
    if (!to) continue;
    const recommended = arrayAt(update, 'conditions').find((c) => stringAt(c, 'type') === 'Recommended');
    const status = stringAt(recommended, 'status');
    const reason = stringAt(recommended, 'reason') ?? '';
    const message = stringAt(recommended, 'message') ?? '';
    const ours = new Map(edge(version, to).risks.map((r) => [r.name, r]));
    for (const risk of arrayAt(update, 'risks')) {
      const name = stringAt(risk, 'name');
      if (!name) continue;
      const url = stringAt(risk, 'url');
      let cluster: Verdict;
      if (status === 'True') cluster = 'does-not-apply';
      else if (status === 'False') cluster = reason === name || (reason === 'MultipleReasons' && ((url && message.includes(url)) || message.includes(name))) ? 'applies' : 'does-not-apply';
      else cluster = 'unknown';
      const mine = ours.get(name);
      const mgsift = mine?.verdict ?? 'not-in-data';
      const disagree = cluster !== 'unknown' && mgsift !== 'unknown' && mgsift !== 'not-in-data' && cluster !== mgsift;
      out.push({
        to,
        name,
        cluster,
        mgsift,
        disagree,
        detail: `cluster: Recommended=${status ?? '?'}${reason ? ` (${reason})` : ''}; mgsift: ${mine ? `${mine.verdict}: ${mine.reason}` : 'the data given has no such risk on this edge'}`,
      });
    }
  }
  return out;
}
