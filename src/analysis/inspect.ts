import type { Analysis } from './analyze.js';
import { channelText, fromClusterVersion } from '../facts/cluster.js';
import { historyNewestFirst, olderEntriesNote } from '../facts/history.js';

/** What `mgsift inspect` tells about an input: what it is and what it holds. */
export interface InspectResult {
  input: { path: string; container: string };
  layout: string;
  roots: string[];
  collectedAt?: string | undefined;
  cluster: {
    id?: string | undefined;
    version?: string | undefined;
    desiredVersion?: string | undefined;
    platform?: string | undefined;
    channel?: string | undefined;
  };
  history: { version: string; state: string; verified: boolean; started?: string | undefined; completed?: string | undefined }[];
  cvoPods: { pod: string; file: string; build?: string | undefined; firstSeen?: string | undefined; lastSeen?: string | undefined }[];
  namespaces: number;
  objectsByKind: Record<string, number>;
  podLogs: number;
  entries: number;
  files: number;
  bytesRead: number;
  problems: { severity: string; path: string; reason: string }[];
  truncatedAt?: string | undefined;
  /**
   * Known update risks of the edges out of the current version and of the history; without
   * `--update-risks` data, `evaluated: false` and why (never the empty lists of an evaluation
   * that found nothing).
   */
  risks: RisksSummary;
}

export type RisksSummary = { evaluated: false; reason: string } | EvaluatedRisks;

/** Risks evaluated with the data given (`dataDir`). */
export interface EvaluatedRisks {
  evaluated: true;
  dataDir?: string | undefined;
  currentVersion?: string | undefined;
  /** The last completed version, when currentVersion is the target of an update in progress. */
  updatingFrom?: string | undefined;
  applies: string[];
  unknown: string[];
  doesNotApply: number;
  /** `name (from → to)` of risks that apply to updates the cluster took. */
  taken: string[];
}

export function iso(ms: number | undefined): string | undefined {
  return ms === undefined || !Number.isFinite(ms) ? undefined : new Date(ms).toISOString();
}

export function inspectResult(analysis: Analysis): InspectResult {
  const { facts, summary } = analysis;
  const cluster = facts.cluster;
  return {
    input: { path: analysis.input, container: analysis.container },
    layout: summary.layout,
    roots: summary.roots,
    collectedAt: iso(facts.collectedAt),
    cluster: {
      id: cluster?.clusterID,
      version: cluster?.currentVersion,
      desiredVersion: cluster?.desiredVersion,
      platform: cluster?.platform,
      channel: cluster?.channel,
    },
    history: (facts.history?.entries ?? []).map((entry) => ({
      version: entry.version,
      state: entry.state,
      verified: entry.verified,
      started: iso(entry.startedTime),
      completed: iso(entry.completionTime),
    })),
    cvoPods: facts.cvo.pods.map((pod) => ({
      pod: pod.pod,
      file: pod.file,
      build: pod.build?.raw,
      firstSeen: iso(pod.firstTime),
      lastSeen: iso(pod.lastTime),
    })),
    namespaces: analysis.inventory?.namespaces ?? 0,
    objectsByKind: analysis.inventory?.objectsByKind ?? {},
    podLogs: summary.podLogs,
    entries: summary.entries,
    files: summary.files,
    bytesRead: summary.bytesRead,
    problems: analysis.problems.items.map((p) => ({ severity: p.severity, path: p.path, reason: p.reason })),
    truncatedAt: analysis.problems.stopped?.at,
    risks: risksSummary(analysis),
  };
}

/** Why risks were not evaluated, as `inspect` says it (text and JSON). */
export const RISKS_NOT_EVALUATED = 'no update-risk data given (--update-risks DIR or MGSIFT_UPDATE_RISKS: a cincinnati-graph-data checkout)';

function risksSummary(analysis: Analysis): RisksSummary {
  const risks = analysis.updateRisks;
  if (!risks) return { evaluated: false, reason: RISKS_NOT_EVALUATED };
  const verdicts = new Map<string, string>();
  for (const target of risks.current?.targets ?? []) {
    for (const risk of target.risks) if (verdicts.get(risk.name) !== 'applies') verdicts.set(risk.name, risk.verdict);
  }
  const named = (verdict: string): string[] => [...verdicts].filter(([, v]) => v === verdict).map(([name]) => name).sort();
  return {
    evaluated: true,
    dataDir: risks.dataDir,
    currentVersion: risks.current?.version,
    updatingFrom: risks.current?.updatingFrom,
    applies: named('applies'),
    unknown: named('unknown'),
    doesNotApply: named('does-not-apply').length,
    taken: risks.taken.flatMap((t) => t.risks.filter((r) => r.verdict === 'applies').map((r) => `${r.name} (${t.from} → ${t.to})`)),
  };
}

/** The same, for a person. */
export function formatInspect(result: InspectResult): string {
  const lines: string[] = [];
  const row = (label: string, value: string | number | undefined): void => {
    lines.push(`${`${label}:`.padEnd(16)}${value === undefined || value === '' ? '-' : value}`);
  };
  row('Input', `${result.input.path} (${result.input.container})`);
  row('Layout', result.layout);
  for (const root of result.roots) row('  root', root || '.');
  row('Collected', result.collectedAt);
  row('Cluster ID', result.cluster.id);
  row('Version', result.cluster.version);
  if (result.cluster.desiredVersion && result.cluster.desiredVersion !== result.cluster.version) row('Desired', result.cluster.desiredVersion);
  row('Platform', result.cluster.platform);
  row('Channel', channelText(result.cluster.channel, fromClusterVersion(result.cluster)));
  const { shown, older } = historyNewestFirst(result.history);
  lines.push('', `Update history (${result.history.length}, newest first):`);
  for (const h of shown) {
    lines.push(`  ${h.version.padEnd(40)} ${h.state.padEnd(10)} ${h.verified ? 'verified  ' : 'unverified'} ${h.started ?? '?'} → ${h.completed ?? '(not completed)'}`);
  }
  if (older.length > 0) lines.push(`  ${olderEntriesNote(older.length, '`mgsift inspect --json` lists them.')}`);
  if (result.cvoPods.length > 0) {
    lines.push('', 'CVO logs:');
    for (const pod of result.cvoPods) lines.push(`  ${pod.file}\n    build ${pod.build ?? '?'}, ${pod.firstSeen ?? '?'} → ${pod.lastSeen ?? '?'}`);
  }
  lines.push('');
  row('Namespaces', result.namespaces);
  row('Pod logs', result.podLogs);
  row('Entries', `${result.entries} (${result.files} files, ${result.bytesRead} bytes read)`);
  const kinds = Object.entries(result.objectsByKind).sort((a, b) => b[1] - a[1]);
  if (kinds.length > 0) {
    lines.push('', `Objects by kind (${kinds.reduce((n, [, c]) => n + c, 0)}):`);
    for (const [kind, count] of kinds) lines.push(`  ${String(count).padStart(6)}  ${kind}`);
  }
  if (result.problems.length > 0) {
    lines.push('', `Could not read (${result.problems.length}):`);
    for (const p of result.problems.slice(0, 50)) lines.push(`  ${p.severity}: ${p.path || '(input)'}: ${p.reason}`);
  }
  if (result.truncatedAt) lines.push('', `Input broken: read up to ${result.truncatedAt}`);
  lines.push('');
  const r = result.risks;
  if (!r.evaluated) row('Risks', `not evaluated: ${r.reason}`);
  else {
    const list = (names: string[]): string => (names.length > 0 ? `: ${names.join(', ')}` : '');
    row('Risks', `out of ${r.currentVersion ?? 'an unknown version'}${r.updatingFrom ? ` (the target of the update from ${r.updatingFrom})` : ''}: ${r.applies.length} apply${list(r.applies)}; ${r.unknown.length} could not be evaluated${list(r.unknown)}; ${r.doesNotApply} do not apply (${r.dataDir})`);
    if (r.taken.length > 0) row('  taken', r.taken.join(', '));
  }
  return `${lines.join('\n')}\n`;
}
