import type { Analysis } from '../analysis/analyze.js';
import type { Problems } from '../core/problems.js';
import { iso } from '../analysis/inspect.js';
import { SEVERITIES, severityRank, type NotChecked, type Severity } from '../engine/findings.js';
import { REPORT_SCHEMA_VERSION, type InputTruncation, type ClusterVerdicts, type ConditionRow, type NotRun, type Report, type RuleSelection, type Tool } from './model.js';
import { builtinRuleFiles } from '../engine/load.js';
import type { Facts } from '../facts/collector.js';
import type { ConditionInfo } from '../facts/cluster.js';
import { collectTimeline, historyRows, REPORT_SCOPE } from './timeline-items.js';
import { reportDigest } from './digest.js';
import { reportAudit } from './audit.js';
import { reportUpdateRisks } from './update-risks.js';
import { reportSummary } from './summary.js';
import { BUILD, packageVersion } from '../core/assets.js';
import { truncationText } from './common.js';

let tool: Tool | undefined;
/** The version, the built-in rules' count and the build, as `--version` prints and every report says. */
export function toolInfo(): Tool {
  tool ??= { name: 'mgsift', version: packageVersion(), build: BUILD, builtinRules: builtinRuleFiles().length };
  return tool;
}

/** The report of one analysis: what every renderer (JSON, HTML, Markdown, JUnit) draws from. */
export function buildReport(analysis: Analysis, now: Date = new Date()): Report {
  const { facts, result, problems } = analysis;
  const timeline = collectTimeline(analysis, REPORT_SCOPE);
  const findings = [...(result?.findings ?? [])].sort(
    (a, b) => severityRank(b.severity) - severityRank(a.severity) || a.ruleId.localeCompare(b.ruleId),
  );
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const finding of findings) counts[finding.severity]++;

  const banners: string[] = [];
  for (const finding of findings) if (finding.banner) banners.push(finding.banner);
  const assumed = findings.filter((f) => f.caveat !== undefined).map((f) => f.ruleId);
  if (assumed.length > 0) {
    banners.push(
      `The cluster version is unknown (this input holds no ClusterVersion), so rules meant for certain versions were run anyway: ${assumed.join(', ')} assume${assumed.length === 1 ? 's' : ''} the cluster is in the range ${assumed.length === 1 ? 'its finding names' : 'each finding names'}.`,
    );
  }
  const truncated = inputTruncation(problems);
  if (truncated) banners.push(`${truncationText(truncated)}; anything after it is missing from this report.`);
  const notChecked = (result?.notChecked ?? []).filter((n) => n.notGiven === undefined);
  if (notChecked.length > 0) banners.push(`${notChecked.length} rule(s) could not be checked on this input; see "Rules not checked".`);
  const inPart = result?.checkedInPart ?? [];
  if (inPart.length > 0) {
    banners.push(`${inPart.length} rule(s) found nothing, but only part of what they look at was gathered (an oc adm inspect holds only what it was asked for); see "Rules checked in part".`);
  }
  if (problems.items.length + problems.dropped > 0) banners.push(skippedBanner(problems));

  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: toolInfo(),
    generatedAt: now.toISOString(),
    input: { path: analysis.input, container: analysis.container, layout: analysis.summary.layout, truncated },
    cluster: {
      id: facts.cluster?.clusterID,
      version: facts.cluster?.currentVersion,
      desiredVersion: facts.cluster?.desiredVersion,
      platform: facts.cluster?.platform,
      channel: facts.cluster?.channel,
    },
    collectedAt: iso(facts.collectedAt),
    counts,
    banners,
    summary: reportSummary(facts.summary, facts.cluster, facts.history),
    diagnosis: result?.diagnosis ?? { roots: [], cyclesBroken: [] },
    findings,
    notChecked: [...notChecked].sort((a, b) => a.ruleId.localeCompare(b.ruleId)),
    notApplicable: [...(result?.notApplicable ?? [])].sort((a, b) => a.ruleId.localeCompare(b.ruleId)),
    checkedInPart: [...inPart].sort((a, b) => a.ruleId.localeCompare(b.ruleId)),
    notRun: notRunOf(result?.notChecked ?? []),
    passed: [...(result?.passed ?? [])].sort((a, b) => a.ruleId.localeCompare(b.ruleId)),
    facts: { history: historyRows(analysis), timeline: timeline.items, timelineOmitted: timeline.omitted, verdicts: clusterVerdicts(facts) },
    digest: analysis.digest && reportDigest(analysis.digest),
    updateRisks: reportUpdateRisks(analysis.updateRisks),
    audit: reportAudit(facts.audit, findings, { collectedAt: facts.collectedAt, desired: facts.history?.desired }),
    problems: problems.items,
    limits: analysis.limits,
    stats: { entries: analysis.summary.entries, bytesRead: analysis.summary.bytesRead, durationMs: analysis.durationMs, ruleCosts: analysis.ruleCosts },
  };
}

function inputTruncation(problems: Problems): InputTruncation | undefined {
  const stop = problems.stopped;
  return stop && { by: stop.by, reason: stop.reason, lastEntry: stop.at, entriesRead: stop.entries, streamBytesRead: stop.streamBytes };
}

/** Rules not checked only for want of command-line data, grouped by that data and said once. */
function notRunOf(notChecked: readonly NotChecked[]): NotRun[] {
  const byData = new Map<string, NotRun>();
  for (const n of [...notChecked].sort((a, b) => a.ruleId.localeCompare(b.ruleId))) {
    if (!n.notGiven) continue;
    let group = byData.get(n.notGiven.data);
    if (!group) byData.set(n.notGiven.data, (group = { data: n.notGiven.data, how: n.notGiven.how, rules: [], note: '' }));
    group.rules.push({ ruleId: n.ruleId, title: n.title, component: n.component });
  }
  for (const group of byData.values()) {
    const ids = group.rules.map((r) => r.ruleId).join(', ');
    group.note = `${group.data} not given: ${group.rules.length} rule${group.rules.length === 1 ? '' : 's'} not run (${ids}); use ${group.how}.`;
  }
  return [...byData.values()];
}

/**
 * The report of a run narrowed by --only / --exclude: the selection is kept and a banner names
 * it, so no report claims a rule was looked at that never ran.
 */
export function withSelection(report: Report, selection: RuleSelection | undefined): Report {
  if (selection === undefined || selection.leftOut.length === 0) return report;
  const flags = [...(selection.only.length > 0 ? [`--only ${selection.only.join(',')}`] : []), ...(selection.exclude.length > 0 ? [`--exclude ${selection.exclude.join(',')}`] : [])];
  const shown = selection.leftOut.slice(0, 10).join(', ');
  const more = selection.leftOut.length > 10 ? ` and ${selection.leftOut.length - 10} more` : '';
  const banner = `Rules selected with ${flags.join(' ')}: ${selection.leftOut.length} rule(s) of the pack did not run (${shown}${more}).`;
  return { ...report, selection, banners: [...report.banners, banner] };
}

/** The cluster's own verdicts as the reports show them. */
function clusterVerdicts(facts: Facts): ClusterVerdicts {
  const updates = facts.updates;
  return {
    alerts: facts.alerts?.map((a) => ({
      name: a.name,
      severity: a.severity,
      state: a.state,
      since: iso(a.since),
      labels: a.labelText,
      summary: a.summary,
      description: a.description,
      runbookUrl: a.runbookUrl,
      silenced: a.silenced,
      object: a.object,
      file: a.file,
    })),
    insights: facts.insights?.map((r) => ({
      description: r.description,
      totalRisk: r.totalRisk,
      risk: r.risk,
      state: r.state,
      id: r.id,
      advisorUri: r.advisorUri,
      downloadedAt: iso(r.downloadedAt),
      file: r.file,
    })),
    updates: updates && {
      channel: updates.channel,
      available: updates.available.map((u) => u.version),
      conditional: updates.conditional.map((u) => ({ version: u.version, recommended: u.recommended, reason: u.reason, risks: u.risks })),
      risks: updates.risks.map((r) => ({
        name: r.name,
        url: r.url,
        message: r.message,
        exposure: r.exposure,
        exposureMessage: r.exposureMessage,
        accepted: r.accepted,
        targets: r.targets,
      })),
      retrievedUpdates: conditionRow(updates.retrievedUpdates),
      upgradeable: conditionRow(updates.upgradeable),
      releaseAccepted: conditionRow(updates.releaseAccepted),
    },
  };
}

function conditionRow(condition: ConditionInfo | undefined): ConditionRow | undefined {
  return condition && { status: condition.status, reason: condition.reason, message: condition.message, since: iso(condition.lastTransitionMs) };
}

/** Problems named in the banner itself; the section "What could not be read" lists them all. */
const BANNER_PROBLEMS = 3;

/** What could not be read, errors first: the first few with their reasons, and how many more. */
function skippedBanner(problems: Problems): string {
  const total = problems.items.length + problems.dropped;
  const first = [...problems.items].sort((a, b) => Number(b.severity === 'error') - Number(a.severity === 'error')).slice(0, BANNER_PROBLEMS);
  const listed = first.map((p) => `${p.path || '(the input)'}: ${p.reason}`).join('; ');
  const more = total - first.length;
  return `${total} part(s) of the input could not be read: ${listed}${more > 0 ? `; and ${more} more` : ''}. See "What could not be read".`;
}
