/**
 * The report section "What the cluster itself reported": the alerts the cluster's monitoring
 * was firing (by severity, with since and runbook) and pending, Insights Advisor's
 * recommendations, and the cluster-version operator's update recommendations, their risks and
 * the update gates. JSON, Markdown and the
 * HTML view model, each from the {@link ClusterVerdicts} of the report.
 */
import { describeObject } from '../engine/diagnosis.js';
import type { AlertRow, ClusterVerdicts, ConditionRow, InsightsRow, UpdateRiskRow } from './model.js';
import { displayTime, httpUrl, sanitizeText } from './common.js';
import { put, type JsonObject } from './json.js';
import { mdText, mdUrl, table } from './md.js';

/** Alert rows shown in the HTML and Markdown reports at most; the JSON report holds them all. */
const ALERTS_SHOWN = 100;

/** The report's severity badge for each Insights total risk (the finding's severity). */
const INSIGHTS_BADGE: Record<InsightsRow['risk'], string> = { low: 'info', moderate: 'warning', important: 'error', critical: 'critical', unknown: 'info' };

const EXPOSURE_TEXT: Record<UpdateRiskRow['exposure'], string> = {
  applies: 'applies to this cluster',
  'does-not-apply': 'does not apply',
  'evaluation-failed': 'could not be evaluated',
  unknown: 'not evaluated',
};

export function verdictsJson(v: ClusterVerdicts): JsonObject {
  const out: JsonObject = {};
  if (v.alerts !== undefined) out.alerts = v.alerts.map(alertJson);
  if (v.insights !== undefined) out.insights = v.insights.map(insightsJson);
  if (v.updates !== undefined) {
    const u = v.updates;
    const updates: JsonObject = {};
    put(updates, 'channel', u.channel);
    updates.available = [...u.available];
    updates.conditional = u.conditional.map((c) => {
      const row: JsonObject = { version: c.version, recommended: c.recommended };
      put(row, 'reason', c.reason);
      row.risks = [...c.risks];
      return row;
    });
    updates.risks = u.risks.map((r) => {
      const row: JsonObject = { name: r.name };
      put(row, 'url', r.url);
      put(row, 'message', r.message);
      row.exposure = r.exposure;
      put(row, 'exposureMessage', r.exposureMessage);
      row.accepted = r.accepted;
      row.targets = [...r.targets];
      return row;
    });
    for (const key of ['retrievedUpdates', 'upgradeable', 'releaseAccepted'] as const) {
      const c = u[key];
      if (c !== undefined) updates[key] = conditionJson(c);
    }
    out.updates = updates;
  }
  return out;
}

function alertJson(a: AlertRow): JsonObject {
  const out: JsonObject = { name: a.name, severity: a.severity, state: a.state };
  put(out, 'since', a.since);
  out.labels = a.labels;
  put(out, 'summary', a.summary);
  put(out, 'description', a.description);
  put(out, 'runbookUrl', a.runbookUrl);
  put(out, 'silenced', a.silenced);
  if (a.object !== undefined) {
    const object: JsonObject = { kind: a.object.kind };
    put(object, 'namespace', a.object.namespace);
    object.name = a.object.name;
    out.object = object;
  }
  out.file = a.file;
  return out;
}

function insightsJson(r: InsightsRow): JsonObject {
  const out: JsonObject = { description: r.description, totalRisk: r.totalRisk, risk: r.risk, state: r.state };
  put(out, 'id', r.id);
  put(out, 'advisorUri', r.advisorUri);
  put(out, 'downloadedAt', r.downloadedAt);
  out.file = r.file;
  return out;
}

function conditionJson(c: ConditionRow): JsonObject {
  const out: JsonObject = { status: c.status };
  put(out, 'reason', c.reason);
  put(out, 'message', c.message);
  put(out, 'since', c.since);
  return out;
}

/** Whether the section has anything to say (the archive held alerts, an Insights report or a ClusterVersion). */
function hasVerdicts(v: ClusterVerdicts): boolean {
  return v.alerts !== undefined || v.insights !== undefined || v.updates !== undefined;
}

function insightsSummary(rows: readonly InsightsRow[]): string {
  const active = rows.filter((r) => r.state !== 'Disabled').length;
  const downloaded = rows.find((r) => r.downloadedAt !== undefined)?.downloadedAt;
  const when = downloaded !== undefined ? `, in the report downloaded ${displayTime(downloaded)}` : '';
  return `${active} active recommendation${active === 1 ? '' : 's'} (${rows.length - active} disabled by the user)${when}. Each active one is a finding (rule insights-recommendation) at a severity from its total risk: low info, moderate warning, important error, critical critical.`;
}

function insightsRiskText(r: InsightsRow): string {
  return r.totalRisk > 0 ? `${r.risk} (${r.totalRisk})` : r.risk;
}

function firing(v: ClusterVerdicts): AlertRow[] {
  return (v.alerts ?? []).filter((a) => a.state === 'firing');
}

function pending(v: ClusterVerdicts): AlertRow[] {
  return (v.alerts ?? []).filter((a) => a.state === 'pending');
}

function alertsSummary(v: ClusterVerdicts): string {
  if (v.alerts === undefined) return 'The archive holds no alerts file (monitoring/prometheus/rules.json, monitoring/alerts.json or an Insights config/alerts.json).';
  const bySeverity = new Map<string, number>();
  for (const a of firing(v)) bySeverity.set(a.severity, (bySeverity.get(a.severity) ?? 0) + 1);
  const counts = [...bySeverity.entries()].map(([s, n]) => `${n} ${s}`).join(', ');
  const f = firing(v).length;
  const p = pending(v).length;
  return `${f} alert${f === 1 ? '' : 's'} firing${f > 0 ? ` (${counts})` : ''}, ${p} pending, as Prometheus saw them at the gather. Firing warning and critical alerts are findings (rule cluster-alert-firing, which leaves out heartbeat and informational alerts by name); pending alerts and info or none severities are context only.`;
}

function objectText(a: AlertRow): string {
  return a.object === undefined ? '' : describeObject(a.object);
}

function alertText(a: AlertRow): string {
  const text = a.description ?? a.summary ?? '';
  return `${a.silenced ? '(silenced) ' : ''}${text}`;
}

function conditionText(c: ConditionRow | undefined): string {
  if (c === undefined) return 'not reported';
  return `${c.status}${c.reason !== undefined ? ` (${c.reason})` : ''}${c.message !== undefined ? `: ${c.message}` : ''}${c.since !== undefined ? ` — since ${displayTime(c.since)}` : ''}`;
}

function riskTargets(r: UpdateRiskRow): string {
  return r.targets.length > 0 ? r.targets.join(', ') : '(no target listed)';
}

export function verdictsMarkdown(v: ClusterVerdicts): string[] {
  if (!hasVerdicts(v)) return [];
  const out: string[] = ['## What the cluster itself reported', ''];
  out.push('### Alerts', '', mdText(alertsSummary(v)), '');
  const rows = [...firing(v), ...pending(v)];
  if (rows.length > 0) {
    const shown = rows.slice(0, ALERTS_SHOWN);
    out.push(
      table(
        ['State', 'Severity', 'Alert', 'Since (UTC)', 'About', 'Labels', 'Message', 'Runbook'],
        shown.map((a) => [a.state, a.severity, a.name, displayTime(a.since), objectText(a), a.labels, sanitizeText(alertText(a)), a.runbookUrl ?? '']),
      ),
    );
    if (rows.length > shown.length) out.push(`*${rows.length - shown.length} more alerts; see the JSON report.*`, '');
  }
  if (v.insights !== undefined) {
    out.push('### Insights Advisor recommendations', '', mdText(insightsSummary(v.insights)), '');
    if (v.insights.length > 0) {
      out.push(table(['Total risk', 'State', 'Recommendation', 'Advisor'], v.insights.map((r) => [insightsRiskText(r), r.state, sanitizeText(r.description), r.advisorUri ?? ''])));
    }
  }
  const u = v.updates;
  if (u !== undefined) {
    out.push('### Updates', '');
    out.push(
      table(
        ['What', 'Value'],
        [
          ['Channel', u.channel ?? '(none)'],
          ['Recommended updates', u.available.length > 0 ? u.available.join(', ') : '(none)'],
          ['RetrievedUpdates', conditionText(u.retrievedUpdates)],
          ['Upgradeable', conditionText(u.upgradeable)],
          ['ReleaseAccepted', conditionText(u.releaseAccepted)],
        ],
      ),
    );
    if (u.conditional.length > 0) {
      out.push(
        table(
          ['Conditional update', 'Recommended', 'Reason', 'Risks'],
          u.conditional.map((c) => [c.version, c.recommended, c.reason ?? '', c.risks.join(', ')]),
        ),
      );
    }
    for (const r of u.risks) {
      const url = r.url !== undefined ? httpUrl(r.url) : undefined;
      const link = url !== undefined ? ` ([${mdText(r.url ?? '')}](${mdUrl(url)}))` : '';
      const accepted = r.accepted ? ' — accepted by the administrator' : '';
      const why = r.exposure === 'evaluation-failed' && r.exposureMessage !== undefined ? ` (${r.exposureMessage})` : '';
      out.push(`- **${mdText(r.name)}** ${mdText(EXPOSURE_TEXT[r.exposure] + why + accepted)}; targets ${mdText(riskTargets(r))}${link}: ${mdText(r.message ?? '')}`);
    }
    if (u.risks.length > 0) out.push('');
  }
  return out;
}

export interface VerdictsView {
  summary: string;
  alerts: {
    state: string;
    severity: string;
    name: string;
    since: string;
    about: string;
    labels: string;
    text: string;
    runbook: string | null;
  }[];
  hasAlerts: boolean;
  /** Columns no shown alert fills are left out (their width goes to the message). */
  hasAbout: boolean;
  hasLabels: boolean;
  hasRunbook: boolean;
  moreAlerts: string | null;
  insights: {
    summary: string;
    rows: { risk: string; riskClass: string; state: string; text: string; advisor: string | null }[];
    hasRows: boolean;
  } | null;
  updates: {
    facts: { label: string; value: string }[];
    conditional: { version: string; recommended: string; reason: string; risks: string }[];
    hasConditional: boolean;
    risks: { name: string; exposure: string; exposureClass: string; targets: string; message: string; url: string | null; urlText: string }[];
    hasRisks: boolean;
  } | null;
}

export function verdictsView(v: ClusterVerdicts): VerdictsView | null {
  if (!hasVerdicts(v)) return null;
  const rows = [...firing(v), ...pending(v)];
  const shown = rows.slice(0, ALERTS_SHOWN);
  const u = v.updates;
  const alerts = shown.map((a) => ({
      state: a.state,
      severity: sanitizeText(a.severity),
      name: sanitizeText(a.name),
      since: displayTime(a.since),
      about: sanitizeText(objectText(a)),
      labels: sanitizeText(a.labels),
      text: sanitizeText(alertText(a)),
      runbook: a.runbookUrl !== undefined ? (httpUrl(a.runbookUrl) ?? null) : null,
    }));
  return {
    summary: alertsSummary(v),
    alerts,
    hasAlerts: shown.length > 0,
    hasAbout: alerts.some((a) => a.about !== ''),
    hasLabels: alerts.some((a) => a.labels !== ''),
    hasRunbook: alerts.some((a) => a.runbook !== null),
    moreAlerts: rows.length > shown.length ? `${rows.length - shown.length} more alerts; see the JSON report.` : null,
    insights:
      v.insights === undefined
        ? null
        : {
            summary: insightsSummary(v.insights),
            rows: v.insights.map((r) => ({
              risk: sanitizeText(insightsRiskText(r)),
              riskClass: INSIGHTS_BADGE[r.risk],
              state: sanitizeText(r.state),
              text: sanitizeText(r.description),
              advisor: r.advisorUri !== undefined ? (httpUrl(r.advisorUri) ?? null) : null,
            })),
            hasRows: v.insights.length > 0,
          },
    updates:
      u === undefined
        ? null
        : {
            facts: [
              { label: 'Channel', value: sanitizeText(u.channel ?? '(none)') },
              { label: 'Recommended updates', value: sanitizeText(u.available.length > 0 ? u.available.join(', ') : '(none)') },
              { label: 'RetrievedUpdates', value: sanitizeText(conditionText(u.retrievedUpdates)) },
              { label: 'Upgradeable', value: sanitizeText(conditionText(u.upgradeable)) },
              { label: 'ReleaseAccepted', value: sanitizeText(conditionText(u.releaseAccepted)) },
            ],
            conditional: u.conditional.map((c) => ({
              version: sanitizeText(c.version),
              recommended: sanitizeText(c.recommended),
              reason: sanitizeText(c.reason ?? ''),
              risks: sanitizeText(c.risks.join(', ')),
            })),
            hasConditional: u.conditional.length > 0,
            risks: u.risks.map((r) => ({
              name: sanitizeText(r.name),
              exposure: sanitizeText(
                EXPOSURE_TEXT[r.exposure] + (r.exposure === 'evaluation-failed' && r.exposureMessage !== undefined ? ` (${r.exposureMessage})` : '') + (r.accepted ? ' — accepted' : ''),
              ),
              exposureClass: r.exposure,
              targets: sanitizeText(riskTargets(r)),
              message: sanitizeText(r.message ?? ''),
              url: r.url !== undefined ? (httpUrl(r.url) ?? null) : null,
              urlText: sanitizeText(r.url ?? ''),
            })),
            hasRisks: u.risks.length > 0,
          },
  };
}
