/**
 * An empty capture (the `namespace` a rule captures for a cluster-scoped object) says nothing and
 * is printed by no renderer: no `namespace=` with nothing after it, no empty `<dd>`, no `""`.
 */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderJson } from '../../src/report/json.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderDiagnosisText } from '../../src/report/diagnosis.js';
import type { Report } from '../../src/report/model.js';
import { seed000Report } from './fixtures.js';

function withClusterScopedEvidence(): Report {
  const report = seed000Report();
  const finding = report.findings[0]!;
  finding.evidence.unshift({
    signal: 'co',
    file: 'cluster-scoped-resources/config.openshift.io/clusteroperators/machine-config.yaml',
    text: 'Degraded=True RequiredPoolsFailed',
    object: { kind: 'ClusterOperator', name: 'machine-config' },
    captures: { namespace: '', name: 'machine-config', reason: 'RequiredPoolsFailed' },
  });
  return report;
}

describe('empty captures', () => {
  const report = withClusterScopedEvidence();

  it('are left out of the Markdown, HTML, JSON, JUnit and text reports; the others stay', () => {
    const md = renderMarkdown(report, { full: true });
    expect(md).toContain('reason=RequiredPoolsFailed');
    expect(md).not.toMatch(/namespace=(,|\s|$)/m);

    const html = renderHtml(report);
    expect(html).toContain('<dt>reason</dt><dd>RequiredPoolsFailed</dd>');
    expect(html).not.toContain('<dt>namespace</dt>');
    expect(html).not.toMatch(/<dd>\s*<\/dd>/);

    const json = JSON.parse(renderJson(report)) as { findings: { evidence: { captures?: Record<string, string> }[] }[] };
    expect(json.findings.flatMap((f) => f.evidence).find((e) => e.captures?.reason === 'RequiredPoolsFailed')?.captures).toEqual({
      name: 'machine-config',
      reason: 'RequiredPoolsFailed',
    });

    for (const text of [renderJunit(report, 'error'), renderDiagnosisText(report)]) expect(text).not.toMatch(/namespace=(,|\s|$|")/m);
  });
});
