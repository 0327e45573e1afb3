import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/archives.js';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRules } from '../../src/engine/load.js';
import { buildReport } from '../../src/report/build.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { toJsonReport } from '../../src/report/json.js';

const RULES = fileURLToPath(new URL('../../rules/', import.meta.url));
const ALERTS = join(RULES, 'monitoring/cluster-alert-firing.fixtures/fires-three-alerting-rules/input');
const UPDATES = join(RULES, 'update/update-not-recommended.fixtures/fires-one-and-several-risks/input');
const INSIGHTS = join(RULES, 'insights/insights-recommendation.fixtures/fires-active-recommendations/input');

async function report(input: string) {
  const { rules } = await loadRules();
  return buildReport(await analyzeInput(input, { limits: DEFAULT_LIMITS, rules }));
}

describe('What the cluster itself reported', () => {
  it('lists firing alerts by severity with since and runbook, pending ones as context, in every format', async () => {
    const r = await report(ALERTS);
    const alertFindings = r.findings.filter((f) => f.ruleId === 'cluster-alert-firing');
    expect(alertFindings.map((f) => `${f.key}:${f.severity}`)).toEqual(['ClusterOperatorDown:critical', 'ClusterOperatorDegraded:warning', 'KubePodCrashLooping:warning']);
    const alerts = r.facts.verdicts.alerts!;
    expect(alerts.map((a) => `${a.state} ${a.severity} ${a.name}`)).toEqual([
      'firing critical ClusterOperatorDown',
      'firing warning ClusterOperatorDegraded',
      'firing warning AlertmanagerReceiversNotConfigured',
      'firing warning KubePodCrashLooping',
      'firing info UpdateAvailable',
      'firing none Watchdog',
      'pending warning CsvAbnormalOver30Min',
    ]);

    const md = renderMarkdown(r);
    expect(md).toContain('## What the cluster itself reported');
    expect(md).toContain('6 alerts firing (1 critical, 3 warning, 1 info, 1 none), 1 pending');
    expect(md).toContain('| firing | critical | ClusterOperatorDown | 2021-09-14 14:22:09.500Z | ClusterOperator authentication |');
    expect(md).toContain('### CRITICAL: The cluster\'s own monitoring fires an alert — ClusterOperatorDown');

    const html = renderHtml(r);
    expect(html).toContain('<section id="verdicts">');
    expect(html).toContain('<a href="https://runbooks.prometheus-operator.dev/runbooks/kubernetes/kubepodcrashlooping" rel="noreferrer">runbook</a>');
    expect(html).toContain('<tr class="pending">');

    const json = toJsonReport(r) as { facts: { verdicts: { alerts: unknown[] } }; findings: { key?: string }[] };
    expect(json.facts.verdicts.alerts).toHaveLength(7);
    expect(json.findings.map((f) => f.key).filter(Boolean)).toContain('KubePodCrashLooping');

    const junit = renderJunit(r, 'warning');
    expect(junit).toContain('name="cluster-alert-firing [ClusterOperatorDown]: The cluster&apos;s own monitoring fires an alert"');
    expect(junit).toContain('name="cluster-alert-firing [KubePodCrashLooping]: ');

    // Each alert is a span on the timeline, from activeAt to the collection time.
    const lane = r.facts.timeline.filter((t) => t.lane === 'alert');
    expect(lane).toHaveLength(7);
    expect(lane.find((t) => t.label === 'KubePodCrashLooping firing')).toMatchObject({ start: '2021-09-14T14:31:42.117Z', end: r.collectedAt, namespace: 'openshift-monitoring' });
  });

  it('shows update recommendations and each risk with its exposure, targets and URL', async () => {
    const r = await report(UPDATES);
    const u = r.facts.verdicts.updates!;
    expect(u.available).toEqual(['4.13.32', '4.13.31']);
    expect(r.facts.verdicts.alerts).toBeUndefined();
    const md = renderMarkdown(r);
    expect(md).toContain('| Conditional update | Recommended | Reason | Risks |');
    expect(md).toContain('| 4.14.20 | Unknown | EvaluationFailed | ARODNSWrongBootSequence |');
    expect(md).toContain('- **IngressDegradedOnRouterReloads** applies to this cluster; targets 4.14.22, 4.14.21, 4.14.17 ([https://issues.redhat.com/browse/NE-1689](https://issues.redhat.com/browse/NE-1689))');
    expect(md).toContain('The archive holds no alerts file');
    const html = renderHtml(r);
    expect(html).toContain('<li class="evaluation-failed"><strong>ARODNSWrongBootSequence</strong> could not be evaluated (invalid PromQL result length must be one, but is 0)');
    expect(r.findings.filter((f) => f.ruleId === 'update-not-recommended').map((f) => f.key)).toEqual(['IngressDegradedOnRouterReloads', 'OVNInterConnectTransitionIPsec']);
  });

  it('lists Insights Advisor recommendations by total risk with their state and link; the active ones are findings', async () => {
    const r = await report(INSIGHTS);
    expect(r.findings.filter((f) => f.ruleId === 'insights-recommendation').map((f) => f.severity)).toEqual(['error', 'warning']);
    expect(r.facts.verdicts.insights!.map((i) => `${i.totalRisk} ${i.state}`)).toEqual(['3 Enabled', '2 Enabled', '1 Disabled']);
    const md = renderMarkdown(r);
    expect(md).toContain('### Insights Advisor recommendations');
    expect(md).toContain('2 active recommendations (1 disabled by the user), in the report downloaded 2023-06-02 11:06:12Z.');
    expect(md).toContain("| moderate (2) | Enabled | OpenShift cluster can get damaged when an operator is configured to 'Unmanaged' state |");
    const html = renderHtml(r);
    expect(html).toContain('<h3>Insights Advisor recommendations</h3>');
    expect(html).toContain('<span class="badge sev-error">important (3)</span>');
    const json = toJsonReport(r) as { facts: { verdicts: { insights: { id?: string }[] } } };
    expect(json.facts.verdicts.insights[1]!.id).toBe('ccx_rules_ocp.external.rules.operator_unmanaged|OPERATOR_UNMANAGED');
  });
});

describe('an alert in the diagnosis', () => {
  it('is explained by the finding about the same object: ClusterOperatorDegraded for machine-config under clusteroperator-degraded', async () => {
    const dir = tempDir();
    try {
      // One gather holding the degraded operators and the alerts the cluster fired about them.
      cpSync(join(RULES, 'health/clusteroperator-degraded.fixtures/fires-two-degraded/input'), dir, { recursive: true });
      cpSync(ALERTS, dir, { recursive: true });
      const r = await report(dir);
      const alert = r.findings.find((f) => f.ruleId === 'cluster-alert-firing' && f.key === 'ClusterOperatorDegraded')!;
      expect(alert.about).toEqual([{ kind: 'ClusterOperator', name: 'machine-config' }]);
      expect(alert.explainedBy).toEqual(['clusteroperator-degraded']);
      expect(r.findings.find((f) => f.ruleId === 'clusteroperator-degraded')!.explains).toContain('cluster-alert-firing [ClusterOperatorDegraded]');
      // The alert about another operator stays a root of its own.
      expect(r.findings.find((f) => f.key === 'ClusterOperatorDown')!.explainedBy).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
