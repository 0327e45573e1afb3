import { readFileSync } from 'node:fs';
import type { Analysis } from '../analysis/analyze.js';
import { iso } from '../analysis/inspect.js';
import { SEVERITIES, severityRank, type Severity } from '../engine/findings.js';
import { REPORT_SCHEMA_VERSION, type HistoryRow, type Report, type TimelineItem } from './model.js';
import { reportDigest } from './digest.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The report of one analysis: what every renderer (JSON, HTML, Markdown, JUnit) draws from. */
export function buildReport(analysis: Analysis, now: Date = new Date()): Report {
  const { facts, result, problems } = analysis;
  const findings = [...(result?.findings ?? [])].sort(
    (a, b) => severityRank(b.severity) - severityRank(a.severity) || a.ruleId.localeCompare(b.ruleId),
  );
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const finding of findings) counts[finding.severity]++;

  const banners: string[] = [];
  for (const finding of findings) if (finding.banner) banners.push(finding.banner);
  if (problems.truncatedAt) banners.push(`The input is truncated or corrupt: it was read up to ${problems.truncatedAt}; anything after it is missing from this report.`);
  const notChecked = result?.notChecked ?? [];
  if (notChecked.length > 0) banners.push(`${notChecked.length} rule(s) could not be checked on this input; see "Rules not checked".`);
  const skipped = problems.items.length + problems.dropped;
  if (skipped > 0) banners.push(`${skipped} part(s) of the input could not be read; see "What could not be read".`);

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
    findings,
    notChecked: [...notChecked].sort((a, b) => a.ruleId.localeCompare(b.ruleId)),
    passed: [...(result?.passed ?? [])].sort((a, b) => a.ruleId.localeCompare(b.ruleId)),
    facts: { history: historyRows(analysis), timeline: timeline(analysis) },
    digest: analysis.digest && reportDigest(analysis.digest),
    problems: problems.items,
    limits: analysis.limits,
    stats: { entries: analysis.summary.entries, bytesRead: analysis.summary.bytesRead, durationMs: analysis.durationMs },
  };
}

function historyRows(analysis: Analysis): HistoryRow[] {
  const transitions = analysis.facts.history?.transitions ?? [];
  return transitions.map((t) => ({
    version: t.to.version,
    state: t.to.state,
    verified: t.to.verified,
    started: iso(t.to.startedTime),
    completed: iso(t.to.completionTime),
    image: t.to.image || undefined,
    rollback: t.rollback,
    install: t.isInstall,
    forced: t.forced,
  }));
}

/** CVO pod lifetimes and moments, and every finding's timed evidence, on one axis. */
function timeline(analysis: Analysis): TimelineItem[] {
  const items: TimelineItem[] = [];
  for (const pod of analysis.facts.cvo.pods) {
    const start = iso(pod.firstTime);
    if (start) items.push({ lane: 'cvo', start, end: iso(pod.lastTime), label: `CVO ${pod.pod}`, detail: pod.build ? `build ${pod.build.raw}` : undefined });
    for (const moment of pod.moments) {
      const at = iso(moment.time);
      if (at) items.push({ lane: 'cvo', start: at, label: moment.kind, detail: moment.text });
    }
  }
  for (const finding of analysis.result?.findings ?? []) {
    for (const evidence of finding.evidence) {
      const at = iso(evidence.time);
      if (at) items.push({ lane: 'finding', start: at, label: finding.ruleId, detail: evidence.text, ruleId: finding.ruleId, severity: finding.severity });
    }
  }
  return items.sort((a, b) => a.start.localeCompare(b.start) || a.lane.localeCompare(b.lane) || a.label.localeCompare(b.label));
}
