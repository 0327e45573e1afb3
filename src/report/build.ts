import { readFileSync } from 'node:fs';
import type { Analysis } from '../analysis/analyze.js';
import type { Problems } from '../core/problems.js';
import { iso } from '../analysis/inspect.js';
import { SEVERITIES, severityRank, type Severity } from '../engine/findings.js';
import { REPORT_SCHEMA_VERSION, type ClusterVerdicts, type ConditionRow, type Report } from './model.js';
import type { Facts } from '../facts/collector.js';
import type { ConditionInfo } from '../facts/cluster.js';
import { collectTimeline, historyRows, REPORT_SCOPE } from './timeline-items.js';
import { reportDigest } from './digest.js';

/** mgsift's own version (package.json), written into every report. */
export const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

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
  if (problems.truncatedAt) banners.push(`The input is truncated or corrupt: it was read up to ${problems.truncatedAt}; anything after it is missing from this report.`);
  const notChecked = result?.notChecked ?? [];
  if (notChecked.length > 0) banners.push(`${notChecked.length} rule(s) could not be checked on this input; see "Rules not checked".`);
  if (problems.items.length + problems.dropped > 0) banners.push(skippedBanner(problems));

  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'mgsift', version: VERSION },
    generatedAt: now.toISOString(),
    input: { path: analysis.input, container: analysis.container, layout: analysis.summary.layout },
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
    diagnosis: result?.diagnosis ?? { roots: [], cyclesBroken: [] },
    findings,
    notChecked: [...notChecked].sort((a, b) => a.ruleId.localeCompare(b.ruleId)),
    passed: [...(result?.passed ?? [])].sort((a, b) => a.ruleId.localeCompare(b.ruleId)),
    facts: { history: historyRows(analysis), timeline: timeline.items, timelineOmitted: timeline.omitted, verdicts: clusterVerdicts(facts) },
    digest: analysis.digest && reportDigest(analysis.digest),
    problems: problems.items,
    limits: analysis.limits,
    stats: { entries: analysis.summary.entries, bytesRead: analysis.summary.bytesRead, durationMs: analysis.durationMs },
  };
}

/** The cluster's own verdicts as the reports show them. */
export function clusterVerdicts(facts: Facts): ClusterVerdicts {
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
