/**
 * The "Known update risks" section of the reports: what mgsift concluded of OpenShift's
 * published update risks (cincinnati-graph-data `blocked-edges/`) on this archive, as report
 * rows (JSON), an HTML view (`templates/partials/update-risks.hbs`) and Markdown.
 *
 * Edges out of the current version are shown one row per risk and verdict, with the target
 * versions it holds for (a risk usually spans many targets); edges the cluster already took
 * one row per transition; then where the cluster's own conditionalUpdates disagree.
 */
import { parseVersion } from '../facts/version.js';
import type { UpdateRisks } from '../risks/update-risks.js';
import type { RiskVerdict } from '../risks/evaluate.js';
import type { ReportUpdateRisks, RiskRow } from './model.js';
import { iso } from '../analysis/inspect.js';
import { compareStrings, displayTime, httpUrl, sanitizeText } from './common.js';
import type { JsonObject } from './json.js';
import { mdText, mdUrl, table } from './md.js';
import { compareVersions } from '../facts/version.js';

/** What to do when no data was given (every format says it). */
export const NO_DATA_HINT =
  'No update-risk data was given. Pass --update-risks DIR (or set MGSIFT_UPDATE_RISKS) naming a checkout of ' +
  'https://github.com/openshift/cincinnati-graph-data (or its blocked-edges folder) to evaluate every risk OpenShift ' +
  'publishes for updates out of this cluster\'s version and for the updates it already took. Nothing is fetched.';

const VERDICT_ORDER = { applies: 0, unknown: 1, 'does-not-apply': 2 } as const;

/** Report rows of the analysis' update risks (undefined: no data given). */
export function reportUpdateRisks(risks: UpdateRisks | undefined): ReportUpdateRisks {
  if (!risks) return { hint: NO_DATA_HINT, current: [], blockedTargets: [], taken: [] };
  const rows = new Map<string, RiskRow>();
  for (const target of risks.current?.targets ?? []) {
    for (const risk of target.risks) {
      const key = JSON.stringify([risk.name, risk.verdict, risk.reason]);
      let row = rows.get(key);
      if (!row) rows.set(key, (row = { ...rowOf(risk), targets: [] }));
      row.targets.push(target.to);
      if (target.inProgress) row.inProgress = true;
    }
  }
  return {
    data: { dir: risks.dataDir, files: risks.files, names: risks.names, problems: risks.problems },
    currentVersion: risks.current?.version,
    updatingFrom: risks.current?.updatingFrom,
    targets: risks.current?.targets.length ?? 0,
    preReleasesLeftOut: risks.current?.preReleasesLeftOut,
    current: [...rows.values()].sort((a, b) => VERDICT_ORDER[a.verdict] - VERDICT_ORDER[b.verdict] || compareStrings(a.name, b.name)),
    blockedTargets: (risks.current?.targets ?? []).filter((t) => t.unconditional.length > 0).map((t) => t.to),
    taken: risks.taken.map((t) => ({
      from: t.from,
      to: t.to,
      started: iso(t.started),
      completed: iso(t.completed),
      state: t.state,
      inProgress: t.inProgress,
      unconditional: t.unconditional,
      risks: t.risks.map((r) => ({ ...rowOf(r), targets: [t.to], inProgress: t.inProgress })),
    })),
    cluster: risks.cluster,
  };
}

function rowOf(risk: RiskVerdict): RiskRow {
  return {
    name: risk.name,
    verdict: risk.verdict,
    reason: risk.reason,
    url: risk.url,
    message: risk.message,
    promql: risk.promql,
    file: risk.file,
    targets: [],
    inProgress: false,
    evidence: risk.evidence.map((e) => ({ labels: e.labels, value: e.value, sources: [...e.sources] })),
  };
}

/** `4.9.0, 4.9.4 … 4.9.12 (10 versions)`: long target lists stay one line. */
function targetsText(targets: readonly string[]): string {
  const sorted = [...targets].sort(compareVersions);
  if (sorted.length <= 4) return sorted.join(', ');
  return `${sorted[0]}, ${sorted[1]} … ${sorted.at(-1)} (${sorted.length} versions)`;
}

function counts(r: ReportUpdateRisks): Record<RiskRow['verdict'], number> {
  const out = { applies: 0, unknown: 0, 'does-not-apply': 0 };
  const seen = new Set<string>();
  // A risk counts once, under its strongest verdict.
  for (const row of r.current) {
    if (seen.has(row.name)) continue;
    seen.add(row.name);
    out[row.verdict]++;
  }
  return out;
}

/** One sentence on the section. */
export function updateRisksSummary(r: ReportUpdateRisks): string {
  if (!r.data) return r.hint ?? NO_DATA_HINT;
  const c = counts(r);
  const data = `${r.data.files} blocked-edges files (${r.data.names} named risks) from ${r.data.dir}`;
  if (!r.currentVersion) return `${data}; the cluster's current version is unknown, so no edge out of it could be chosen.`;
  const pre = r.preReleasesLeftOut;
  const blocked =
    (r.blockedTargets.length > 0 ? ` ${r.blockedTargets.length} of them blocked without conditions (not offered).` : '') +
    (pre ? ` ${pre.count} pre-release target(s) (ec, fc, rc) left out: channel ${pre.channel} does not serve them.` : '');
  const taken = r.taken.length > 0 ? `${r.taken.length} update(s) in the history have published risks.` : 'No update in the history has a published risk.';
  // A CI or nightly build: the graph holds no edge out of it, so there is nothing to count.
  if (['ci', 'nightly'].includes(parseVersion(r.currentVersion)?.kind ?? '') && r.targets === 0) {
    return `${data}. ${r.currentVersion} is a CI or nightly build: the update graph holds no edge out of it, so no published risk is checked for updates out of it. ${taken}`;
  }
  if (r.targets === 0) return `${data}. No published risk is on an edge out of ${r.currentVersion} (same or next minor version). ${taken} Verdicts read the archive as collected.`;
  const from = r.updatingFrom ? ` (the target of the update from ${r.updatingFrom} in progress: the running CVO asks the update service from it)` : '';
  return (
    `${data}. Out of ${r.currentVersion}${from}: ${r.targets} candidate target version(s) with published risks (same or next minor version).${blocked} ` +
    `${c.applies} risk(s) apply, ${c.unknown} could not be evaluated, ${c['does-not-apply']} do not apply. ` +
    `${taken} Verdicts read the archive as collected.`
  );
}

// ---------------------------------------------------------------------------------------------
// JSON

export function updateRisksJson(r: ReportUpdateRisks): JsonObject {
  const out: JsonObject = {};
  if (r.data) out.data = { dir: r.data.dir, files: r.data.files, names: r.data.names, problems: r.data.problems.map((p) => ({ file: p.file, reason: p.reason })) };
  if (r.hint !== undefined) out.hint = r.hint;
  if (r.currentVersion !== undefined) out.currentVersion = r.currentVersion;
  if (r.updatingFrom !== undefined) out.updatingFrom = r.updatingFrom;
  if (r.targets !== undefined) out.targets = r.targets;
  out.current = r.current.map(rowJson);
  if (r.preReleasesLeftOut) out.preReleasesLeftOut = { channel: r.preReleasesLeftOut.channel, count: r.preReleasesLeftOut.count };
  out.blockedTargets = [...r.blockedTargets];
  out.taken = r.taken.map((t) => {
    const row: JsonObject = { from: t.from, to: t.to };
    if (t.started !== undefined) row.started = t.started;
    if (t.completed !== undefined) row.completed = t.completed;
    row.state = t.state;
    row.inProgress = t.inProgress;
    row.unconditional = [...t.unconditional];
    row.risks = t.risks.map(rowJson);
    return row;
  });
  if (r.cluster) out.cluster = r.cluster.map((c) => ({ to: c.to, name: c.name, cluster: c.cluster, mgsift: c.mgsift, disagree: c.disagree, detail: c.detail }));
  return out;
}

function rowJson(row: RiskRow): JsonObject {
  const out: JsonObject = { name: row.name, verdict: row.verdict, reason: row.reason };
  if (row.url !== undefined) out.url = row.url;
  if (row.message !== undefined) out.message = row.message;
  if (row.promql !== undefined) out.promql = row.promql;
  out.file = row.file;
  out.targets = [...row.targets];
  out.inProgress = row.inProgress;
  out.evidence = row.evidence.map((e) => {
    const ev: JsonObject = { labels: e.labels };
    if (e.value !== undefined && Number.isFinite(e.value)) ev.value = e.value;
    ev.sources = [...e.sources];
    return ev;
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// HTML view (printed by templates/partials/update-risks.hbs with escaping only)

interface RowView {
  name: string;
  verdict: string;
  verdictClass: string;
  targets: string;
  inProgress: boolean;
  reason: string;
  message: string | null;
  href: string | null;
  promql: string | null;
  evidence: string[];
}

export interface UpdateRisksView {
  summary: string;
  rows: RowView[];
  hasRows: boolean;
  taken: { edge: string; when: string; state: string; rows: RowView[]; blocked: string | null }[];
  hasTaken: boolean;
  cluster: { to: string; name: string; cluster: string; mgsift: string; disagree: boolean; detail: string }[];
  hasCluster: boolean;
  problems: string[];
}

export function updateRisksView(r: ReportUpdateRisks): UpdateRisksView {
  const s = sanitizeText;
  const view = (row: RiskRow): RowView => ({
    name: s(row.name),
    verdict: verdictText(row.verdict),
    verdictClass: row.verdict,
    targets: s(targetsText(row.targets)),
    inProgress: row.inProgress,
    reason: s(row.reason),
    message: row.message ? s(row.message) : null,
    href: row.url ? (httpUrl(row.url) ?? null) : null,
    promql: row.promql ? s(row.promql) : null,
    evidence: row.evidence.flatMap((e) => e.sources.slice(0, 3).map((src) => s(`${e.labels} ← ${src}`))).slice(0, 5),
  });
  return {
    summary: s(updateRisksSummary(r)),
    rows: r.current.map(view),
    hasRows: r.current.length > 0,
    taken: r.taken.map((t) => ({
      edge: s(`${t.from} → ${t.to}`),
      when: t.started ? displayTime(t.started) : 'unknown',
      state: s(`${t.state}${t.inProgress ? ' (in progress)' : ''}`),
      rows: t.risks.map(view),
      blocked: t.unconditional.length > 0 ? s(`blocked without conditions by ${t.unconditional.join(', ')}`) : null,
    })),
    hasTaken: r.taken.length > 0,
    cluster: (r.cluster ?? []).map((c) => ({ to: s(c.to), name: s(c.name), cluster: verdictText(c.cluster), mgsift: c.mgsift === 'not-in-data' ? 'not in the data' : verdictText(c.mgsift), disagree: c.disagree, detail: s(c.detail) })),
    hasCluster: (r.cluster ?? []).length > 0,
    problems: (r.data?.problems ?? []).map((p) => s(`${p.file}: ${p.reason}`)),
  };
}

/** `[name](url)` for an http(s) URL, else the name. */
function mdLink(name: string, url: string | undefined): string {
  const href = url ? httpUrl(url) : undefined;
  return href ? `[${mdText(name)}](${mdUrl(href)})` : mdText(name);
}

function verdictText(v: RiskRow['verdict']): string {
  return v === 'applies' ? 'applies' : v === 'unknown' ? 'could not evaluate' : 'does not apply';
}

// ---------------------------------------------------------------------------------------------
// Markdown

export function updateRisksMarkdown(r: ReportUpdateRisks): string[] {
  const out: string[] = ['## Known update risks', '', mdText(updateRisksSummary(r)), ''];
  if (!r.data) return out;
  if (r.current.length > 0) {
    out.push(
      table(
        ['Risk', 'Verdict', `Targets from ${r.currentVersion ?? '?'}`, 'Why'],
        r.current.map((row) => [
          mdLink(row.name, row.url),
          `${verdictText(row.verdict)}${row.inProgress ? ' (update in progress)' : ''}`,
          targetsText(row.targets),
          row.reason,
        ]),
        new Set([0]),
      ),
    );
  }
  if (r.taken.length > 0) {
    out.push('### Updates the cluster already took', '');
    out.push(
      table(
        ['Update', 'Started (UTC)', 'State', 'Risk', 'Verdict', 'Why'],
        r.taken.flatMap((t) =>
          (t.risks.length > 0 ? t.risks : [undefined]).map((row) => [
            `${t.from} → ${t.to}`,
            t.started ? displayTime(t.started) : 'unknown',
            `${t.state}${t.inProgress ? ' (in progress)' : ''}`,
            row ? row.name : t.unconditional.length > 0 ? 'blocked without conditions' : '',
            row ? verdictText(row.verdict) : '',
            row ? row.reason : '',
          ]),
        ),
      ),
    );
  }
  const disagreements = (r.cluster ?? []).filter((c) => c.disagree);
  if (r.cluster) {
    out.push('### The cluster\'s own verdicts (conditionalUpdates)', '');
    out.push(disagreements.length === 0 ? `mgsift agrees with the cluster on all ${r.cluster.length} risk verdict(s) it can compare, or one side could not evaluate.` : `${disagreements.length} disagreement(s):`, '');
    if (r.cluster.length > 0) {
      out.push(table(['Target', 'Risk', 'Cluster', 'mgsift', 'Detail'], r.cluster.map((c) => [c.to, c.name, verdictText(c.cluster), c.mgsift === 'not-in-data' ? 'not in the data' : verdictText(c.mgsift), `${c.disagree ? 'DISAGREE: ' : ''}${c.detail}`])));
    }
  }
  return out;
}
