import { describe, expect, it } from 'vitest';
import { HTML_CSP, renderHtml } from '../../src/report/html.js';
import { buildTimeline, focusWindow, ticks } from '../../src/report/timeline.js';
import { healthyReport, manyEntriesReport, rollbackReport, seed000Report } from './fixtures.js';

/** Every tag the templates may write; anything else came from the archive. */
const ALLOWED_TAGS = new Set(
  (
    'html head meta title style body header h1 h2 h3 h4 div dl dt dd ul ol li span strong p nav a main section ' +
    'article pre code mark time table caption thead tbody tr th td details summary footer figure figcaption ' +
    'svg defs pattern rect g line polygon text tspan desc'
  ).split(' '),
);

function tagsOf(html: string): string[] {
  return [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => (m[1] ?? '').toLowerCase());
}

function svgOf(html: string, index = 0): string {
  const all = [...html.matchAll(/<svg [^>]*class="timeline-svg"[\s\S]*?<\/svg>/g)].map((m) => m[0]);
  return all[index] ?? '';
}

describe('renderHtml', () => {
  const seed = renderHtml(seed000Report());
  const rollback = renderHtml(rollbackReport());
  const healthy = renderHtml(healthyReport());
  const many = renderHtml(manyEntriesReport());
  const all = [seed, rollback, healthy, many];

  it('is one self-contained document: CSP, no script, no external reference', () => {
    for (const html of all) {
      expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
      expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${HTML_CSP.replace(/'/g, '&#x27;')}">`);
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/\ssrc\s*=/i);
      expect(html).not.toMatch(/<link|@import|url\(\s*['"]?(?!#)/i);
      expect(html).not.toMatch(/<(iframe|object|embed|img|form|base)\b/i);
      for (const tag of tagsOf(html)) expect(ALLOWED_TAGS.has(tag), `unexpected tag <${tag}>`).toBe(true);
      // Only links to http(s) and to fragments of this document.
      for (const m of html.matchAll(/href="([^"]*)"/g)) expect(m[1]).toMatch(/^(https?:\/\/|#)/);
      expect(html).not.toContain('\u0000');
    }
  });

  it('the CSP is the one asked for', () => {
    expect(HTML_CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'");
  });

  it('escapes every archive string (cluster fields, input path, banners, evidence, labels)', () => {
    expect(seed).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(seed).toContain('&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;');
    expect(seed).toContain('AWS &lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;'); // cluster platform
    expect(seed).toContain('must-gather&lt;script&gt;'); // input path
    expect(seed).toContain('Banner from the archive: &lt;script&gt;');
    // Payloads inside the SVG text nodes are escaped too.
    expect(svgOf(seed)).toContain('Created pod: &lt;img src&#x3D;x');
    // NUL shows as a visible stand-in.
    expect(seed).toContain('\u2400 nul');
    // javascript: references stay text.
    expect(seed).toContain('javascript:alert(1)');
    expect(seed).not.toMatch(/href="javascript/i);
  });

  it('shows the header: identity, input, collection time, counts, banners', () => {
    expect(seed).toContain('c2d5e0f8-6b1a-4c1e-9f3e-7a2b3c4d5e6f');
    expect(seed).toContain('4.5.21 (desired 4.6.8)');
    expect(seed).toContain('stable-4.6');
    expect(seed).toContain('tar.gz');
    expect(seed).toContain('must-gather');
    expect(seed).toContain('2021-01-19 22:30:12Z');
    expect(seed).toMatch(/<span class="n">1<\/span> <span class="badge sev-warning">warning<\/span>/);
    expect(seed).toContain('class="banner"');
    expect(healthy).toContain('Collected</dt><dd>unknown');
    expect(healthy).not.toContain('class="banner"');
  });

  it('lists findings most severe first, with highlighted evidence, remediation and references', () => {
    const order = [...rollback.matchAll(/<article class="finding sev-(\w+)"/g)].map((m) => m[1]);
    expect(order).toEqual(['critical', 'error', 'warning']);
    expect(seed.indexOf('cvo-final-sync-lost')).toBeLessThan(seed.indexOf('cvo-pod-churn'));
    expect(seed).toContain('E0119 22:24:15.924216       1 cvo.go:344] <mark>unable to perform final sync: context canceled</mark></code>');
    expect(seed).toContain('<mark>&lt;script&gt;alert(1)&lt;/script&gt;</mark>');
    expect(seed).toContain('previous.log</code><span class="line-no">:10234</span>');
    expect(seed).toContain('<time>2021-01-19 22:24:15.924Z</time>');
    // 13 kept + 2 dropped, 10 shown: 5 more.
    const churn = seed.slice(seed.lastIndexOf('<article', seed.indexOf('<p class="meta"><span class="rule">cvo-pod-churn</span>')));
    expect([...churn.slice(0, churn.indexOf('</article>')).matchAll(/<li>/g)]).toHaveLength(10);
    expect(seed).toContain('5 more evidence items (2 not kept by the per-signal cap');
    expect(seed).toContain('<pre class="command"><code>oc adm release info --pullspecs quay.io/openshift-release-dev/ocp-release@sha256:');
    expect(seed).toContain('<a href="https://bugzilla.redhat.com/show_bug.cgi?id&#x3D;1916384" rel="noreferrer">');
    // Messages keep their line breaks (pre-wrap).
    expect(seed).toContain('exited before it synced ClusterVersion status.\nThis is BZ 1916384');
    expect(healthy).toContain('No rule found a problem');
  });

  it('opens with the cluster at a glance, then the diagnosis section, linking each finding of a chain to its article', () => {
    const html = renderHtml(rollbackReport());
    const main = html.slice(html.indexOf('<main>'));
    expect(main.indexOf('<section id="diagnosis">')).toBeLessThan(main.indexOf('<section id="findings">'));
    expect(main.slice(0, 200)).toMatch(/^<main>\s*<section id="summary" class="glance"/);
    // Nothing but the glance before the diagnosis.
    expect(main.slice(main.indexOf('</section>') + '</section>'.length).trimStart()).toMatch(/^<section id="diagnosis">/);
    for (const id of ['unsupported-y-stream-rollback', 'ovnkube-leader-lost', 'cvo-capability-enum-rejected']) {
      expect(html).toContain(`<a class="diagnosis-link" href="#finding-${id}" title="rule ${id}">`);
      expect(html).toContain(`<article class="finding sev-`);
      expect(html).toMatch(new RegExp(`<article class="finding sev-[a-z]+" id="finding-${id}">`));
    }
    expect(html).toContain('Explained by <a href="#finding-unsupported-y-stream-rollback" class="rule">unsupported-y-stream-rollback</a>.');
    // A node leads with its headline, the link; its rule's title follows in smaller type, as the class.
    expect(html).toContain(
      '<a class="diagnosis-link" href="#finding-unsupported-y-stream-rollback" title="rule unsupported-y-stream-rollback">ClusterVersion history records a rollback from 4.14.0-ec.4 to 4.13.8</a> <span class="rule-class">Unsupported y-stream rollback 4.14.0-ec.4 → 4.13.8 · <code>unsupported-y-stream-rollback</code></span>',
    );
    expect(html).toContain('<p class="headline">ovnkube-master exited 2 times with &quot;No longer leader&quot; since 2023-08-16T08:05:42Z</p>');
    expect(renderHtml(healthyReport())).toContain('<p class="diagnosis-summary none">No problem found: no rule found anything at warning or above.</p>');
  });

  it('draws the timeline: one bar per history entry, open bar, collected line, UTC ticks', () => {
    const svg = svgOf(seed);
    expect(svg).not.toBe('');
    expect([...svg.matchAll(/<rect class="bar hist/g)]).toHaveLength(2);
    expect(svg).toMatch(/<rect class="bar hist open[^"]*"/); // 4.6.8, Partial
    expect(svg).toContain('unverified');
    expect(svg).toContain('install (unverified by design)');
    expect(svg).toContain('class="collected"');
    expect(svg).toContain('collected 2021-01-19 22:30:12Z');
    expect(svg).toContain('time (UTC)');
    expect(svg).toContain('>22:20<');
    expect(svg).toMatch(/<polygon class="moment lane-finding sev-warning"/);
    // Table under the figure holds the same data.
    expect(seed).toMatch(/<td class="version">4\.6\.8<\/td><td>Partial<\/td><td class="warn">unverified<\/td>/);
  });

  it('marks the rollback in the figure and the table', () => {
    const svg = svgOf(rollback);
    expect([...svg.matchAll(/<rect class="bar hist/g)]).toHaveLength(3);
    expect(svg).toMatch(/<rect class="bar hist rollback open[ "]/);
    expect(svg).toContain('rollback (y-stream)');
    expect(rollback).toContain('<span class="rollback-label">rollback (y-stream)</span>');
    // The newest update is a small part of the axis: a zoomed figure follows.
    const detail = svgOf(rollback, 1);
    expect(detail).toContain('Newest update in detail');
    expect(detail).toContain('rollback (y-stream)');
  });

  it('handles an empty history with a sentence and no figure', () => {
    expect(healthy).not.toContain('<svg');
    expect(healthy).toContain('The archive holds no ClusterVersion update history');
  });

  it('stays readable with 20 history entries and 200 timeline items', () => {
    const svg = svgOf(many);
    expect([...svg.matchAll(/<rect class="bar hist/g)]).toHaveLength(20);
    expect(svg).toContain('rollback (y-stream)');
    // Item labels are capped; the labels of clusters ("12 more") come on top, one per cluster.
    const clusterLabels = [...svg.matchAll(/<text class="moment-label[^>]*><tspan class="">\d+ more<\/tspan>/g)].length;
    const labels = [...svg.matchAll(/<text class="(?:span|moment)-label/g)].length - clusterLabels;
    expect(labels).toBeGreaterThan(20);
    expect(labels).toBeLessThanOrEqual(120);
    // Every timeline item is drawn with a tooltip, alone or in a labelled cluster of moments, or
    // counted as not drawn (a span with no free row).
    const shapes = [...svg.matchAll(/<polygon class="moment/g)].length + [...svg.matchAll(/<rect class="bar span/g)].length;
    const clustered = [...svg.matchAll(/<polygon class="moment[^"]* cluster[^"]*" points="[^"]*"><title>(\d+) moments:/g)].reduce((n, m) => n + Number(m[1]) - 1, 0);
    const notDrawn = Number(/(\d+) timeline items? (?:is|are) not drawn/.exec(many)?.[1] ?? 0);
    expect(shapes + clustered + notDrawn).toBe(200);
    expect(clustered).toBeGreaterThan(0);
    expect(many).toContain('Timeline items (200)');
    const height = Number(/viewBox="0 0 1100 ([0-9.]+)"/.exec(svg)?.[1]);
    expect(height).toBeLessThan(2000);
  });

  it('has the other sections: not checked, passed (folded), problems, limits', () => {
    expect(seed).toContain('id="not-checked"');
    expect(seed).toContain('boot-image-ignition-stub');
    expect(seed).toContain('No InstallPlan objects in the archive | &lt;img');
    expect(seed).toMatch(/<details class="section">\s*<summary><h2>Rules that passed<\/h2> <span class="section-note">2 rules evaluated without finding anything<\/span><\/summary>/);
    expect(seed).toContain('line 88123 cut at 65536 bytes');
    expect(seed).toContain('(the input as a whole)');
    expect(seed).toContain('Longest log line kept whole');
    expect(seed).toContain('64 KiB (65536 bytes)');
    expect(seed).toContain('@media print');
  });

  it('is deterministic', () => {
    expect(renderHtml(seed000Report())).toBe(seed);
  });
});

describe('timeline geometry', () => {
  it('ticks are round UTC times', () => {
    const t0 = Date.parse('2021-01-19T21:50:00Z');
    const out = ticks(t0 - 60_000, t0 + 45 * 60_000);
    expect(out.map((t) => t.label)).toEqual(['21:50', '22:00', '22:10', '22:20', '22:30']);
    expect(out[0]?.date).toBe('2021-01-19');
    expect(out[1]?.date).toBeUndefined();
    const months = ticks(Date.parse('2022-01-03T00:00:00Z'), Date.parse('2023-12-24T00:00:00Z'));
    expect(months.every((t) => /^\d{4}-\d{2}$/.test(t.label))).toBe(true);
    expect(months.length).toBeLessThanOrEqual(8);
  });

  it('skips items without a usable time and counts them', () => {
    const report = seed000Report();
    report.facts.timeline.push({ lane: 'node', start: 'not a time', label: 'x' });
    const svg = buildTimeline(report);
    expect(svg?.notDrawn).toBe(1);
    expect(renderHtml(report)).toContain('1 timeline item is not drawn');
  });

  it('without a collection time the axis ends at the latest time and says so', () => {
    const report = seed000Report();
    report.collectedAt = undefined;
    const html = renderHtml(report);
    expect(svgOf(html)).toContain('collection time unknown');
    expect(svgOf(html)).not.toContain('class="collected"');
  });

  it('zooms only when the newest update is a small part of the axis', () => {
    expect(focusWindow(seed000Report())).toBeUndefined();
    expect(focusWindow(rollbackReport())).toBeDefined();
    expect(focusWindow(healthyReport())).toBeUndefined();
  });

  it('draws a single install entry', () => {
    const report = seed000Report();
    report.facts.history = report.facts.history.slice(0, 1);
    report.facts.timeline = [];
    report.collectedAt = '2021-06-01T00:00:00Z';
    const svg = buildTimeline(report);
    expect(svg?.historyBars).toBe(1);
    expect(svg?.bars[0]?.w).toBeGreaterThanOrEqual(3);
    expect(renderHtml(report)).toContain('collected 2021-06-01 00:00:00Z');
  });

  it('draws what is dated after the collection time at it, marked, never as a future', () => {
    const report = seed000Report();
    const collected = Date.parse(report.collectedAt!);
    const day = 86_400_000;
    report.facts.timeline.push({ lane: 'event', start: new Date(collected + 90 * day).toISOString(), end: new Date(collected + 91 * day).toISOString(), relative: '+90d', afterCollection: true, label: 'FailedMount Pod/x' });
    const svg = buildTimeline(report)!;
    const line = svg.lines.find((l) => l.cls === 'collected')!;
    const after = [...svg.bars, ...svg.polygons].filter((shape) => shape.cls.split(' ').includes('after'));
    expect(after).toHaveLength(1);
    // At the collection line, not 90 days to its right (the axis still ends at the collection): a
    // span wholly after it shrinks to a moment there.
    const xs = (after[0] as { points: string }).points.split(' ').map((p) => Number(p.split(',')[0]));
    expect(Math.abs((Math.min(...xs) + Math.max(...xs)) / 2 - line.x1)).toBeLessThan(1);
    expect(after[0]!.title).toContain('dated after the collection time');
  });

  it('draws nothing for a report with no dated item', () => {
    expect(buildTimeline(healthyReport())).toBeUndefined();
  });
});
