/**
 * Insights Advisor's verdicts on the cluster, as the Insights operator stores them in
 * `InsightsOperator/cluster` (operator.openshift.io/v1, openshift/api operator/v1/types_insights.go):
 * `status.insightsReport.downloadedAt` (when the last report was downloaded; empty on a cluster
 * that never got one, e.g. disconnected) and `status.insightsReport.healthChecks[]`
 * `{description, totalRisk (1..4), advisorURI, state: Enabled|Disabled}`.
 *
 * The operator writes `advisorURI` as
 * `https://console.redhat.com/openshift/insights/advisor/clusters/<cluster id>?first=<rule>|<ERROR_KEY>`
 * (openshift/insights-operator pkg/insights/metrics.go, CreateInsightsAdvisorLink), `<rule>` being
 * the rule's module without `.report` (`ccx_rules_ocp.external.rules.operator_unmanaged`): the rule
 * and error key name the recommendation, so rules that detect the same problem can name it too.
 */
import { arrayAt, isRecord, recordAt, stringAt, timeMs } from './internal.js';

/** Insights' words for total risk 1..4 (insights-operator `totalRiskToStr`). */
export type InsightsRisk = 'low' | 'moderate' | 'important' | 'critical' | 'unknown';

export interface InsightsRecommendation {
  description: string;
  /** 1 (low) to 4 (critical); 0 when the archive holds no number. */
  totalRisk: number;
  risk: InsightsRisk;
  /** `Enabled`, or `Disabled` when the user disabled it in Insights Advisor. */
  state: string;
  /** False when disabled: a disabled recommendation is the user's decision, not a finding. */
  active: boolean;
  advisorUri?: string | undefined;
  /** `<rule>|<ERROR_KEY>` from the advisor link, e.g. `ccx_rules_ocp.external.rules.operator_unmanaged|OPERATOR_UNMANAGED`. */
  id?: string | undefined;
  /** The rule's module without `.report`. */
  ruleId?: string | undefined;
  errorKey?: string | undefined;
  /** Epoch ms: when the report holding it was downloaded. */
  downloadedAt?: number | undefined;
  /** Where it was read. */
  file: string;
  /** What links to other findings name: the recommendation by its rule id. */
  object?: { kind: 'InsightsRecommendation'; name: string } | undefined;
}

const RISKS: readonly InsightsRisk[] = ['low', 'moderate', 'important', 'critical'];

/**
 * The health checks of an InsightsOperator object, most risky first; undefined when it holds no
 * downloaded report (no `downloadedAt` and no health checks): Insights has said nothing then.
 */
export function insightsRecommendations(insightsOperator: unknown, file: string): InsightsRecommendation[] | undefined {
  const report = recordAt(recordAt(insightsOperator, 'status'), 'insightsReport');
  const checks = arrayAt(report, 'healthChecks');
  const downloadedAt = timeMs(report?.['downloadedAt']);
  if (downloadedAt === undefined && checks.length === 0) return undefined;
  return checks
    .map((check) => recommendation(check, downloadedAt, file))
    .sort((a, b) => b.totalRisk - a.totalRisk || a.description.localeCompare(b.description));
}

function recommendation(check: unknown, downloadedAt: number | undefined, file: string): InsightsRecommendation {
  const raw = isRecord(check) ? check['totalRisk'] : undefined;
  const totalRisk = typeof raw === 'number' && Number.isInteger(raw) && raw >= 1 && raw <= 4 ? raw : 0;
  const state = stringAt(check, 'state') ?? 'Enabled';
  const advisorUri = stringAt(check, 'advisorURI');
  const id = recommendationId(advisorUri);
  const [ruleId, errorKey] = id === undefined ? [] : id.split('|');
  return {
    description: stringAt(check, 'description') ?? '(no description)',
    totalRisk,
    risk: RISKS[totalRisk - 1] ?? 'unknown',
    state,
    active: state !== 'Disabled',
    advisorUri,
    id,
    ruleId: ruleId || undefined,
    errorKey: errorKey || undefined,
    downloadedAt,
    file,
    object: ruleId ? { kind: 'InsightsRecommendation', name: ruleId } : undefined,
  };
}

/** The `first` query parameter of an advisor link (`<rule>|<ERROR_KEY>`), `.report` dropped from the rule. */
export function recommendationId(advisorUri: string | undefined): string | undefined {
  if (advisorUri === undefined) return undefined;
  let first: string | null;
  try {
    first = new URL(advisorUri).searchParams.get('first');
  } catch {
    return undefined;
  }
  if (!first) return undefined;
  const [rule = '', key] = first.split('|');
  const ruleId = rule.replace(/\.report$/, '');
  return key === undefined ? ruleId : `${ruleId}|${key}`;
}
