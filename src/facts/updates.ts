/**
 * What the cluster-version operator concluded about updates, from `ClusterVersion/version`
 * (openshift/api config/v1 types_cluster_version.go):
 *
 * - `status.availableUpdates[]`: recommended targets;
 * - `status.conditionalUpdates[]` (4.10+): `{release: {version, image}, risks: [{name, url, message,
 *   matchingRules}], conditions: [{type: Recommended, status, reason, message}]}`. Recommended is
 *   True (`AsExpected`, `NotExposedToRisks`, `AllExposedRisksAccepted`), False (reason: the one
 *   risk that applies, or `MultipleReasons`) or Unknown (`EvaluationFailed`: a PromQL matching
 *   rule could not be evaluated; the message says `Exposure to <risk> is unknown due to an
 *   evaluation failure: …`). Newer CVOs add per-risk `conditions` of type `Applies`, list the
 *   risks once in `status.conditionalUpdateRisks[]` and name them from each update (`riskNames`);
 * - `spec.desiredUpdate.acceptRisks[].name` (newer CVOs): risks the administrator accepted;
 * - `status.history[].acceptedRisks`: what was waived to start that update;
 * - conditions `RetrievedUpdates`, `Upgradeable`, `ReleaseAccepted`.
 */
import { arrayAt, isRecord, recordAt, stringAt, timeMs } from './internal.js';
import { conditionMap, type ConditionInfo } from './cluster.js';

/** Whether a risk applies to this cluster, as the CVO evaluated it. */
export type RiskExposure = 'applies' | 'does-not-apply' | 'evaluation-failed' | 'unknown';

export interface UpdateRisk {
  name: string;
  url?: string | undefined;
  message?: string | undefined;
  /** Matching rule types in order (`PromQL`, `Always`), with the PromQL text where there is one. */
  matchingRules: string[];
  exposure: RiskExposure;
  /** Why the exposure is what it is (the evaluation error for `evaluation-failed`). */
  exposureMessage?: string | undefined;
  /** Listed in `spec.desiredUpdate.acceptRisks`. */
  accepted: boolean;
  /** Update targets this risk is attached to, in the ClusterVersion's order. */
  targets: string[];
}

export interface ConditionalUpdate {
  version: string;
  image?: string | undefined;
  /** `Recommended` condition status: `True`, `False`, `Unknown` (absent: `Unknown`). */
  recommended: string;
  reason?: string | undefined;
  message?: string | undefined;
  /** Epoch ms of the Recommended condition's last transition. */
  since?: number | undefined;
  /** Names of its risks. */
  risks: string[];
}

export interface AcceptedRisks {
  version: string;
  state: string;
  /** Epoch ms. */
  started?: number | undefined;
  acceptedRisks: string;
}

export interface UpdateRecommendations {
  /** Where the ClusterVersion was read. */
  file: string;
  current?: string | undefined;
  channel?: string | undefined;
  available: { version: string; image?: string | undefined }[];
  conditional: ConditionalUpdate[];
  /** Every risk named by a conditional update (or by `conditionalUpdateRisks`), once. */
  risks: UpdateRisk[];
  /** History entries whose update was started by accepting risks. */
  accepted: AcceptedRisks[];
  retrievedUpdates?: ConditionInfo | undefined;
  upgradeable?: ConditionInfo | undefined;
  releaseAccepted?: ConditionInfo | undefined;
}

/** `Exposure to X is unknown due to an evaluation failure: …` (one per failed risk in a message). */
const EVALUATION_FAILED = /Exposure to (\S+) is unknown due to an evaluation failure: ([^\n]*)/g;

/** The update recommendations of a ClusterVersion object. */
export function updateRecommendations(clusterVersion: unknown, file: string, current?: string): UpdateRecommendations {
  const spec = recordAt(clusterVersion, 'spec');
  const status = recordAt(clusterVersion, 'status');
  const conditions = conditionMap(clusterVersion);
  const acceptedNames = new Set(
    arrayAt(recordAt(spec, 'desiredUpdate'), 'acceptRisks').flatMap((r) => (stringAt(r, 'name') ? [stringAt(r, 'name')!] : [])),
  );
  const risks = new Map<string, UpdateRisk>();
  /** Risks with their own `Applies` condition: that condition decides, not the update's Recommended. */
  const evaluated = new Set<string>();
  const riskOf = (raw: unknown): UpdateRisk | undefined => {
    const name = stringAt(raw, 'name');
    if (name === undefined) return undefined;
    let risk = risks.get(name);
    if (!risk) {
      risk = { name, matchingRules: [], exposure: 'unknown', accepted: acceptedNames.has(name), targets: [] };
      risks.set(name, risk);
    }
    risk.url ??= stringAt(raw, 'url');
    risk.message ??= stringAt(raw, 'message');
    if (risk.matchingRules.length === 0) risk.matchingRules = matchingRules(raw);
    const applies = conditionMap(arrayAt(raw, 'conditions'))['Applies'];
    if (applies) {
      evaluated.add(name);
      setExposure(risk, appliesExposure(applies), applies.message);
    }
    return risk;
  };
  for (const raw of arrayAt(status, 'conditionalUpdateRisks')) riskOf(raw);

  const conditional: ConditionalUpdate[] = [];
  for (const raw of arrayAt(status, 'conditionalUpdates')) {
    const release = recordAt(raw, 'release');
    const version = stringAt(release, 'version') ?? '(no version)';
    const recommended = conditionMap(arrayAt(raw, 'conditions'))['Recommended'];
    const names = new Set<string>(arrayAt(raw, 'riskNames').filter((n): n is string => typeof n === 'string'));
    for (const r of arrayAt(raw, 'risks')) {
      const risk = riskOf(r);
      if (risk) names.add(risk.name);
    }
    for (const name of names) {
      const risk = risks.get(name) ?? riskOf({ name });
      if (risk && !risk.targets.includes(version)) risk.targets.push(version);
      if (risk && recommended && !evaluated.has(name)) setExposure(risk, ...exposureFromRecommended(risk, recommended));
    }
    conditional.push({
      version,
      image: stringAt(release, 'image'),
      recommended: recommended?.status ?? 'Unknown',
      reason: recommended?.reason,
      message: recommended?.message,
      since: recommended?.lastTransitionMs,
      risks: [...names],
    });
  }

  return {
    file,
    current,
    channel: stringAt(spec, 'channel'),
    available: arrayAt(status, 'availableUpdates').flatMap((u) =>
      isRecord(u) && stringAt(u, 'version') !== undefined ? [{ version: stringAt(u, 'version')!, image: stringAt(u, 'image') }] : [],
    ),
    conditional,
    risks: [...risks.values()],
    accepted: arrayAt(status, 'history').flatMap((h) => {
      const acceptedRisks = stringAt(h, 'acceptedRisks');
      if (acceptedRisks === undefined) return [];
      return [{ version: stringAt(h, 'version') ?? '(no version)', state: stringAt(h, 'state') ?? 'Unknown', started: timeMs(isRecord(h) ? h['startedTime'] : undefined), acceptedRisks }];
    }),
    retrievedUpdates: conditions['RetrievedUpdates'],
    upgradeable: conditions['Upgradeable'],
    releaseAccepted: conditions['ReleaseAccepted'],
  };
}

function appliesExposure(applies: ConditionInfo): RiskExposure {
  if (applies.status === 'True') return 'applies';
  if (applies.status === 'False') return 'does-not-apply';
  return applies.reason === 'EvaluationFailed' ? 'evaluation-failed' : 'unknown';
}

/**
 * What an update's Recommended condition says about one of its risks (older CVOs give no
 * per-risk condition): True → the risk does not apply (or was accepted); a failed evaluation
 * is named in the message; reason = the risk's name → it applies; MultipleReasons → it applies
 * when the message carries its URL or its message; False with another risk's name as reason →
 * that one alone applies, so this one does not (a second risk that applied or failed to
 * evaluate would have made the reason MultipleReasons).
 */
function exposureFromRecommended(risk: UpdateRisk, recommended: ConditionInfo): [RiskExposure, string | undefined] {
  const message = recommended.message ?? '';
  for (const m of message.matchAll(EVALUATION_FAILED)) if (m[1] === risk.name) return ['evaluation-failed', m[2]];
  if (recommended.status === 'True') return ['does-not-apply', undefined];
  if (recommended.reason === risk.name) return ['applies', undefined];
  if (recommended.reason === 'EvaluationFailed') return ['unknown', undefined];
  const named = (risk.url !== undefined && message.includes(risk.url)) || (risk.message !== undefined && message.includes(risk.message));
  if (named) return ['applies', undefined];
  return recommended.status === 'False' ? ['does-not-apply', undefined] : ['unknown', undefined];
}

/** Keeps the strongest word on a risk seen from several updates: applies > evaluation-failed > does-not-apply > unknown. */
function setExposure(risk: UpdateRisk, exposure: RiskExposure, message: string | undefined): void {
  const rank: Record<RiskExposure, number> = { applies: 3, 'evaluation-failed': 2, 'does-not-apply': 1, unknown: 0 };
  if (rank[exposure] <= rank[risk.exposure]) return;
  risk.exposure = exposure;
  risk.exposureMessage = message;
}

function matchingRules(raw: unknown): string[] {
  return arrayAt(raw, 'matchingRules').flatMap((rule) => {
    const type = stringAt(rule, 'type');
    if (type === undefined) return [];
    const promql = stringAt(recordAt(rule, 'promql'), 'promql');
    return [promql !== undefined ? `${type}: ${promql.trim()}` : type];
  });
}
