import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseBlockedEdge, type BlockedEdge, type RiskData } from '../../src/risks/load.js';
import { RiskEvaluator } from '../../src/risks/evaluate.js';
import { updateRisks } from '../../src/risks/update-risks.js';
import { analyzeHistory } from '../../src/facts/history.js';
import { clusterIdentity } from '../../src/facts/cluster.js';
import { updateRecommendations } from '../../src/facts/updates.js';
import type { Facts } from '../../src/facts/collector.js';
import type { MetricSource } from '../../src/promql/index.js';
import { reportUpdateRisks, NO_DATA_HINT, updateRisksSummary as updateRisksSummaryText } from '../../src/report/update-risks.js';
import { renderJson } from '../../src/report/json.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJunit } from '../../src/report/junit.js';
import { archiveRow } from '../../src/report/index.js';
import { healthyReport } from '../report/fixtures.js';

const schema = JSON.parse(readFileSync(new URL('../../schema/report.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

function edge(file: string, text: string): BlockedEdge {
  const parsed = parseBlockedEdge(file, text);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

const ALWAYS = edge('4.16.21-RiskA.yaml', 'to: 4.16.21\nfrom: 4[.]16[.].*\nurl: https://issues.redhat.com/browse/OCPBUGS-1\nname: RiskA\nmessage: A.\nmatchingRules:\n- type: Always\n');
const AWS = edge(
  '4.16.21-RiskB.yaml',
  'to: 4.16.21\nfrom: 4[.]16[.].*\nurl: https://issues.redhat.com/browse/OCPBUGS-2\nname: RiskB\nmessage: B.\nmatchingRules:\n- type: PromQL\n  promql:\n    promql: |\n      group(cluster_infrastructure_provider{type="AWS"}) or 0 * group(cluster_infrastructure_provider)\n',
);
const LACKING = edge(
  '4.17.0-RiskC.yaml',
  'to: 4.17.0\nfrom: 4[.]16[.].*\nurl: https://issues.redhat.com/browse/OCPBUGS-3\nname: RiskC\nmessage: C.\nmatchingRules:\n- type: PromQL\n  promql:\n    promql: group(node_cpu_info{vendor="AuthenticAMD"}) or 0 * group(node_cpu_info)\n',
);
const UNCONDITIONAL = edge('4.16.22.yaml', 'to: 4.16.22\nfrom: .*\n');
const TAKEN = edge('4.16.20-RiskD.yaml', 'to: 4.16.20\nfrom: 4[.]15[.].*\nname: RiskD\nurl: https://issues.redhat.com/browse/OCPBUGS-4\nmessage: D.\nmatchingRules:\n- type: Always\n');
const TOO_FAR = edge('4.18.0-RiskE.yaml', 'to: 4.18.0\nfrom: .*\nname: RiskE\nurl: https://x\nmessage: E.\nmatchingRules:\n- type: Always\n');
const DATA: RiskData = { dir: '/data/blocked-edges', edges: [ALWAYS, AWS, LACKING, UNCONDITIONAL, TAKEN, TOO_FAR], problems: [], queries: new Map(), metrics: [] };

const METRICS: MetricSource = {
  series: (name) =>
    name === 'cluster_infrastructure_provider'
      ? { samples: [{ labels: { type: 'AWS' }, value: 1, sources: ['infrastructures/cluster.yaml'] }] }
      : { samples: [], gap: () => `${name} is not in an archive` },
};

function clusterVersion(history: object[], conditionalUpdates?: object[]): object {
  return { kind: 'ClusterVersion', metadata: { name: 'version' }, status: { desired: { version: (history[0] as { version: string }).version }, history, conditionalUpdates } };
}

function factsOf(cv: object): Facts {
  const cluster = clusterIdentity(cv);
  return { layout: 'must-gather', clusterVersionFile: 'clusterversions/version.yaml', cluster, history: analyzeHistory(cv), cvo: { pods: [] }, updates: updateRecommendations(cv, 'clusterversions/version.yaml', cluster.currentVersion) };
}

const H = [
  { version: '4.16.20', state: 'Completed', startedTime: '2025-01-10T09:00:00Z', completionTime: '2025-01-10T10:00:00Z' },
  { version: '4.15.30', state: 'Completed', startedTime: '2024-10-01T09:00:00Z', completionTime: '2024-10-01T10:00:00Z' },
];

describe('edges out of the current version and the channel', () => {
  const RC = edge('4.17.0-rc.1-RiskRC.yaml', 'to: 4.17.0-rc.1\nfrom: 4[.]16[.].*\nname: RiskRC\nurl: https://x\nmessage: RC.\nmatchingRules:\n- type: Always\n');
  const withRc: RiskData = { ...DATA, edges: [...DATA.edges, RC] };
  const facts = (channel: string | undefined): Facts => {
    const cv = clusterVersion(H) as { spec?: object };
    cv.spec = channel ? { channel } : {};
    return factsOf(cv);
  };
  it('leaves out pre-release targets when the channel (stable, fast, eus) does not serve them, and says so', () => {
    const stable = updateRisks(withRc, facts('stable-4.16'), METRICS);
    expect(stable.current?.targets.map((t) => t.to)).not.toContain('4.17.0-rc.1');
    expect(stable.current?.preReleasesLeftOut).toEqual({ channel: 'stable-4.16', count: 1 });
    const candidate = updateRisks(withRc, facts('candidate-4.17'), METRICS);
    expect(candidate.current?.targets.map((t) => t.to)).toContain('4.17.0-rc.1');
    expect(updateRisks(withRc, facts(undefined), METRICS).current?.targets.map((t) => t.to)).toContain('4.17.0-rc.1');
  });
});

describe('RiskEvaluator (the CVO\'s matching semantics)', () => {
  const evaluator = new RiskEvaluator(METRICS);
  it('Always applies; PromQL applies at 1, not at 0', () => {
    expect(evaluator.match([{ type: 'Always' }]).verdict).toBe('applies');
    expect(evaluator.match([{ type: 'PromQL', promql: 'group(cluster_infrastructure_provider{type="GCP"}) or 0 * group(cluster_infrastructure_provider)' }]).verdict).toBe('does-not-apply');
  });
  it('a rule the cluster would fail to evaluate (no sample, a value other than 0 or 1) falls through to the next, as the CVO does', () => {
    const empty = { type: 'PromQL' as const, promql: 'group(cluster_infrastructure_provider{type="GCP"})' };
    expect(evaluator.match([empty, { type: 'Always' }])).toMatchObject({ verdict: 'applies' });
    expect(evaluator.match([empty])).toMatchObject({ verdict: 'unknown', reason: 'the cluster could not evaluate it either: invalid PromQL result length must be one, but is 0' });
    expect(evaluator.match([{ type: 'PromQL', promql: '2 * group(cluster_infrastructure_provider)' }]).reason).toContain('must be 0 or 1): 2');
  });
  it('a rule the archive cannot decide stops the walk (in the cluster it might have decided)', () => {
    const lacking = { type: 'PromQL' as const, promql: 'group(node_cpu_info) or 0 * group(node_cpu_info)' };
    expect(evaluator.match([lacking, { type: 'Always' }])).toMatchObject({ verdict: 'unknown', reason: 'the archive cannot tell: node_cpu_info is not in an archive' });
  });
  it('an unrecognised rule type is skipped; a construct outside the subset is named', () => {
    expect(evaluator.match([{ type: 'unknown', name: 'Future' }, { type: 'Always' }]).verdict).toBe('applies');
    expect(evaluator.match([{ type: 'PromQL', promql: 'rate(x[5m])' }]).reason).toBe('mgsift cannot evaluate this query: unsupported PromQL function: rate()');
  });
});

describe('updateRisks', () => {
  it('edges out of the current version: newer targets of the same or next minor whose from matches; verdicts with why', () => {
    const result = updateRisks(DATA, factsOf(clusterVersion(H)), METRICS);
    expect(result.current?.version).toBe('4.16.20');
    expect(result.current?.targets.map((t) => t.to)).toEqual(['4.16.21', '4.16.22', '4.17.0']);
    const t21 = result.current!.targets[0]!;
    expect(t21.risks.map((r) => `${r.name} ${r.verdict}`)).toEqual(['RiskA applies', 'RiskB applies']);
    expect(t21.risks[1]?.evidence).toEqual([{ labels: '{}', value: 1, sources: ['infrastructures/cluster.yaml'] }]);
    expect(result.current!.targets[1]).toMatchObject({ to: '4.16.22', risks: [], unconditional: ['4.16.22.yaml'] });
    expect(result.current!.targets[2]?.risks[0]).toMatchObject({ name: 'RiskC', verdict: 'unknown', reason: 'the archive cannot tell: node_cpu_info is not in an archive' });
  });

  it('edges the cluster took: each history transition with published risks, with its times; the in-progress edge is marked', () => {
    const done = updateRisks(DATA, factsOf(clusterVersion(H)), METRICS);
    expect(done.taken).toHaveLength(1);
    expect(done.taken[0]).toMatchObject({ from: '4.15.30', to: '4.16.20', state: 'Completed', inProgress: false, started: Date.parse('2025-01-10T09:00:00Z') });
    const moving = updateRisks(DATA, factsOf(clusterVersion([{ version: '4.16.21', state: 'Partial', startedTime: '2025-01-15T07:00:00Z', completionTime: null }, ...H])), METRICS);
    // The taken edge keeps its risks and is marked in progress.
    expect(moving.taken.find((t) => t.to === '4.16.21')).toMatchObject({ from: '4.16.20', inProgress: true, state: 'Partial' });
    expect(moving.taken.find((t) => t.to === '4.16.21')?.risks.map((r) => r.name)).toEqual(['RiskA', 'RiskB']);
  });

  it('mid-update, the next update\'s edges start from the desired version, as the running (target\'s) CVO asks the update service', () => {
    const moving = updateRisks(DATA, factsOf(clusterVersion([{ version: '4.16.21', state: 'Partial', startedTime: '2025-01-15T07:00:00Z', completionTime: null }, ...H])), METRICS);
    expect(moving.current).toMatchObject({ version: '4.16.21', updatingFrom: '4.16.20' });
    expect(moving.current?.targets.map((t) => t.to)).toEqual(['4.16.22', '4.17.0']);
    // The cluster's own conditionalUpdates mid-update are the target's CVO's: compared from 4.16.21.
    const conditional = [{ release: { version: '4.17.0' }, risks: [{ name: 'RiskC' }], conditions: [{ type: 'Recommended', status: 'False', reason: 'RiskC' }] }];
    const withConditional = updateRisks(DATA, factsOf(clusterVersion([{ version: '4.16.21', state: 'Partial', startedTime: '2025-01-15T07:00:00Z', completionTime: null }, ...H], conditional)), METRICS);
    expect(withConditional.cluster?.map((c) => `${c.to} ${c.name} cluster=${c.cluster} mgsift=${c.mgsift}`)).toEqual(['4.17.0 RiskC cluster=applies mgsift=unknown']);
    const rows = reportUpdateRisks(moving);
    expect(rows).toMatchObject({ currentVersion: '4.16.21', updatingFrom: '4.16.20' });
    expect(updateRisksSummaryText(rows)).toContain('Out of 4.16.21 (the target of the update from 4.16.20 in progress');
    expect(validate(JSON.parse(renderJson({ ...healthyReport(), updateRisks: rows })))).toBe(true);
  });

  it('compares with the cluster\'s own conditionalUpdates and names a disagreement', () => {
    const conditional = [
      {
        release: { version: '4.16.21' },
        risks: [{ name: 'RiskA', url: 'https://issues.redhat.com/browse/OCPBUGS-1' }, { name: 'RiskB', url: 'https://issues.redhat.com/browse/OCPBUGS-2' }],
        conditions: [{ type: 'Recommended', status: 'False', reason: 'RiskB', message: 'B. https://issues.redhat.com/browse/OCPBUGS-2' }],
      },
      { release: { version: '4.16.23' }, risks: [{ name: 'RiskZ' }], conditions: [{ type: 'Recommended', status: 'Unknown', reason: 'EvaluationFailed' }] },
    ];
    const result = updateRisks(DATA, factsOf(clusterVersion(H, conditional)), METRICS);
    expect(result.cluster?.map((c) => `${c.to} ${c.name} cluster=${c.cluster} mgsift=${c.mgsift} disagree=${c.disagree}`)).toEqual([
      '4.16.21 RiskA cluster=does-not-apply mgsift=applies disagree=true',
      '4.16.21 RiskB cluster=applies mgsift=applies disagree=false',
      '4.16.23 RiskZ cluster=unknown mgsift=not-in-data disagree=false',
    ]);
  });

  it('reads the cluster\'s verdicts as the facts do: a newer CVO\'s per-risk Applies condition decides', () => {
    const cv = clusterVersion(H, [{ release: { version: '4.16.21' }, riskNames: ['RiskA'], conditions: [{ type: 'Recommended', status: 'True', reason: 'AllExposedRisksAccepted' }] }]);
    (cv as { status: Record<string, unknown> }).status['conditionalUpdateRisks'] = [{ name: 'RiskA', url: 'https://issues.redhat.com/browse/OCPBUGS-1', conditions: [{ type: 'Applies', status: 'True', reason: 'Match' }] }];
    const result = updateRisks(DATA, factsOf(cv), METRICS);
    expect(result.cluster?.map((c) => `${c.to} ${c.name} cluster=${c.cluster} mgsift=${c.mgsift} disagree=${c.disagree}`)).toEqual(['4.16.21 RiskA cluster=applies mgsift=applies disagree=false']);
  });
});

describe('the Known update risks section', () => {
  const risks = updateRisks(DATA, factsOf(clusterVersion(H)), METRICS);
  const report = { ...healthyReport(), updateRisks: reportUpdateRisks(risks) };

  it('JSON: validates against the schema; one row per risk and verdict with its targets', () => {
    const value = JSON.parse(renderJson(report)) as { updateRisks: { current: { name: string; targets: string[] }[]; taken: unknown[] } };
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
    expect(value.updateRisks.current.map((r) => `${r.name}:${r.targets.join(',')}`)).toEqual(['RiskA:4.16.21', 'RiskB:4.16.21', 'RiskC:4.17.0']);
    expect(value.updateRisks.taken).toHaveLength(1);
  });

  it('Markdown and HTML show verdicts, why, and the edges taken', () => {
    const md = renderMarkdown(report);
    expect(md).toContain('## Known update risks');
    expect(md).toContain('| [RiskB](https://issues.redhat.com/browse/OCPBUGS-2) | applies | 4.16.21 | PromQL returned 1 {} |');
    expect(md).toContain('| [RiskC](https://issues.redhat.com/browse/OCPBUGS-3) | could not evaluate | 4.17.0 | the archive cannot tell: node\\_cpu\\_info is not in an archive |');
    expect(md).toContain('| 4.15.30 → 4.16.20 | 2025-01-10 09:00:00Z | Completed | RiskD | applies | matching rule Always |');
    const html = renderHtml(report);
    expect(html).toContain('<section id="update-risks">');
    expect(html).toContain('<span class="verdict verdict-unknown">could not evaluate</span>');
  });

  it('without data, every format says how to point at it', () => {
    const none = healthyReport();
    expect(renderMarkdown(none)).toContain(NO_DATA_HINT.slice(0, 60));
    expect(renderHtml(none)).toContain('Pass --update-risks DIR (or set MGSIFT_UPDATE_RISKS)');
    const json = JSON.parse(renderJson(none)) as { updateRisks: { hint: string } };
    expect(validate(json)).toBe(true);
    expect(json.updateRisks.hint).toBe(NO_DATA_HINT);
  });

  it('without data, the rules that read it are said once as not run: not counted as not checked, never a pass', () => {
    const rules = [
      { ruleId: 'update-risk-applies', title: 'A known update risk applies', component: 'cluster-version-operator' },
      { ruleId: 'update-risk-taken', title: 'The cluster took a risky update', component: 'cluster-version-operator' },
    ];
    const note = 'update-risk data not given: 2 rules not run (update-risk-applies, update-risk-taken); use --update-risks DIR.';
    const report = { ...healthyReport(), notRun: [{ data: 'update-risk data', how: '--update-risks DIR', rules, note }] };
    const json = JSON.parse(renderJson(report)) as { notRun: { note: string }[]; notChecked: unknown[]; banners: string[] };
    expect(validate(json)).toBe(true);
    expect(json.notRun[0]?.note).toBe(note);
    expect(json.notChecked).toEqual([]);
    expect(json.banners).toEqual([]);
    expect(renderMarkdown(report)).toContain('Update-risk data not given: 2 rules not run (update-risk-applies, update-risk-taken); use --update-risks DIR.\n\nEvery other rule could be evaluated.');
    expect(renderHtml(report)).toContain('<p>Update-risk data not given: 2 rules not run');
    const junit = renderJunit(report, 'error');
    expect(junit).toContain('name="update-risk-applies: A known update risk applies" time="0">\n      <skipped message="update-risk data not given');
    // Nothing else ran: the batch index row says nothing was checked, never a green row.
    const only = { ...report, passed: [] };
    expect(archiveRow('x.tar.gz', only, []).status).toBe('nothing-checked');
    expect(archiveRow('x.tar.gz', report, []).notChecked).toBe(0);
  });
});
