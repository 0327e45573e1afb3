/**
 * The cluster at a glance in every format: the text headline (first lines of `--format text`),
 * JUnit properties and system-out, Markdown at the top, the HTML glance and update section, the
 * JSON `summary` — with archive text kept inert, and what cannot be told said so.
 */
import { describe, expect, it } from 'vitest';
import { renderDiagnosisText } from '../../src/report/diagnosis.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderHtml } from '../../src/report/html.js';
import { toJsonReport } from '../../src/report/json.js';
import { findAll, parseXml } from './xml.js';
import { healthyReport, IMG, rollbackReport, SCRIPT, seed000Report } from './fixtures.js';

describe('the summary headline', () => {
  it('mid-update: the version moving, how far, what it waits on, its worst insight; then the health counts', () => {
    const [update, health] = seed000Report().summary.headline;
    expect(update).toBe(
      'Updating 4.5.21 → 4.6.8: Progressing - Slow, 94% (29 of 31 operators), 6m13s, est. remaining <10m; waiting on machine-config — Error: Node worker-2 is degraded (+1 more)',
    );
    expect(health).toBe(
      'Operators 30/31 available (degraded ingress; unavailable monitoring) · nodes 5/6 ready (not ready: worker-2), 1 cordoned · pools master 3/3, worker 2/3 (1 degraded) on 4.6.8 · etcd 2/3 endpoints healthy, alarms NOSPACE · pods 2 not running, 1 container restarted (most: router ×41 Error in openshift-ingress)',
    );
  });

  it('not updating: the version and since when; unknown when the archive cannot tell', () => {
    expect(rollbackReport().summary.headline).toEqual(['Version 4.13.8, not updating', 'Operators 33/33 available · nodes 6/6 ready']);
    expect(healthyReport().summary.headline[0]).toBe('Version unknown; whether it is updating is unknown: the archive holds no ClusterVersion');
  });

  it('is the second and third line of the text output', () => {
    const lines = renderDiagnosisText(seed000Report()).split('\n');
    expect(lines[0]).toMatch(/^Diagnosis of /);
    expect(lines[1]).toMatch(/^Updating 4\.5\.21 → 4\.6\.8: /);
    expect(lines[2]).toMatch(/^Operators 30\/31 available/);
  });

  it('is in the JUnit suite properties and first in its system-out', () => {
    const suite = findAll(parseXml(renderJunit(seed000Report(), 'error')), 'testsuite')[0]!;
    const props = Object.fromEntries(findAll(suite, 'property').map((p) => [p.attrs.name, p.attrs.value]));
    expect(props['summary.update']).toMatch(/^Updating 4\.5\.21 → 4\.6\.8: Progressing - Slow, 94%/);
    expect(props['summary.health']).toMatch(/^Operators 30\/31 available/);
    expect(props['summary.update.assessment']).toBe('Progressing - Slow');
    expect(props['summary.update.target']).toBe('4.6.8');
    expect(props['summary.update.completionPercent']).toBe('94');
    const out = suite.children.find((c) => c.name === 'system-out');
    expect(out?.text.startsWith('Updating 4.5.21 → 4.6.8')).toBe(true);
  });
});

describe('the summary in the reports', () => {
  it('Markdown: at the top, with the pools and the update health, archive text escaped', () => {
    const md = renderMarkdown(seed000Report());
    expect(md.indexOf('## At a glance')).toBeLessThan(md.indexOf('## Diagnosis'));
    expect(md).toContain('*At the collection time, 2021-01-19 22:30:12Z.*');
    expect(md).toContain('| worker | Degraded | 67% (2/3) | 2 available, 0 progressing, 1 draining, 1 degraded |');
    expect(md).toContain('| \\- | Error | Update Stalled | Node worker-2 is degraded |');
    expect(md).toContain('| after the collection time | Warning | API Availability | Cluster Operator monitoring is unavailable (UpdatingPrometheusK8SFailed) |');
    // Archive text in the glance is escaped (evidence further down sits in fenced code, where it may stay raw).
    expect(md.slice(0, md.indexOf('## Diagnosis'))).not.toMatch(/<script|<img/);
  });

  it('HTML: the glance first, the update in its own section, archive text escaped', () => {
    const html = renderHtml(seed000Report());
    const main = html.slice(html.indexOf('<main>'));
    expect(main.indexOf('id="summary"')).toBeLessThan(main.indexOf('id="diagnosis"'));
    expect(main.indexOf('id="diagnosis"')).toBeLessThan(main.indexOf('id="update"'));
    expect(html).toContain('<dt><a href="#update">Update</a></dt><dd><span class="glance-value">4.5.21 → 4.6.8: Progressing - Slow, 94%</span> <span class="glance-detail">Error: Node worker-2 is degraded (and 1 more)</span></dd>');
    expect(html).toContain('<span class="glance-value">30/31 available</span>');
    expect(html).toContain('<td class="time" title="2021-01-19 22:30:42Z">after the collection time</td>');
    expect(html).not.toContain(SCRIPT);
    expect(html).not.toContain(IMG);
    expect(html).toContain('failed to drain node: &lt;node&gt; &lt;script&gt;');
    // Not updating: no update section, the glance says so.
    const healthy = renderHtml(rollbackReport());
    expect(healthy).not.toContain('id="update"');
    expect(healthy).toContain('<span class="glance-value">Not updating</span>');
  });

  it('JSON: summary after the banners, update null when not updating, the reason when it cannot be told', () => {
    const mid = toJsonReport(seed000Report());
    expect(Object.keys(mid).indexOf('summary')).toBe(Object.keys(mid).indexOf('banners') + 1);
    const update = (mid['summary'] as { update: Record<string, unknown> }).update;
    expect(update).toMatchObject({ assessment: 'Progressing - Slow', target: '4.6.8', from: '4.5.21', fromIncomplete: false, completionPercent: 94, operatorsUpdated: 29, operatorsUpdating: ['machine-config'], operatorsWaiting: 1, duration: '6m13s', durationSeconds: 373, startedAt: '2021-01-19T22:23:59.000Z' });
    expect((update['health'] as { afterCollection?: boolean }[])[1]?.afterCollection).toBe(true);
    expect((toJsonReport(rollbackReport())['summary'] as { update: unknown }).update).toBeNull();
    expect(toJsonReport(healthyReport())['summary']).toMatchObject({ update: null, updateUnknown: 'the archive holds no ClusterVersion', atSource: 'none' });
  });
});
