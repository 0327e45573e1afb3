/**
 * Reports that agree with themselves and each other: one wording for an update channel that is
 * not set (Markdown, HTML, JUnit, inspect; `unknown` only without a ClusterVersion), timeline
 * counts that add up to the items, and the update history newest first, the older entries past
 * the first ten folded (HTML) or cut with a count (Markdown, inspect).
 */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { formatInspect, RISKS_NOT_EVALUATED, type InspectResult } from '../../src/analysis/inspect.js';
import type { HistoryRow, Report } from '../../src/report/model.js';
import { healthyReport, manyEntriesReport, rollbackReport } from './fixtures.js';

/** rollbackReport's ClusterVersion has an empty channel; its verdicts get the Updates table too. */
function noChannel(): Report {
  const report = rollbackReport();
  report.facts.verdicts = { updates: { available: [], conditional: [], risks: [] } };
  return report;
}

function inspectResult(history: InspectResult['history'], cluster: InspectResult['cluster']): InspectResult {
  return {
    input: { path: 'mg.tar.gz', container: 'tar.gz' },
    layout: 'must-gather',
    roots: ['.'],
    cluster,
    history,
    cvoPods: [],
    namespaces: 0,
    objectsByKind: {},
    podLogs: 0,
    entries: 0,
    files: 0,
    bytesRead: 0,
    problems: [],
    risks: { evaluated: false, reason: RISKS_NOT_EVALUATED },
  };
}

describe('a channel that is not set', () => {
  it('is "not set" in every report and in inspect', () => {
    const report = noChannel();
    const md = renderMarkdown(report, { full: true });
    expect(md).toContain('| Channel | not set |');
    expect(md).not.toMatch(/\| Channel \| (unknown|\(none\)|-) \|/);
    expect(md.match(/\| Channel \| not set \|/g)).toHaveLength(2);

    const html = renderHtml(report);
    expect(html).toContain('<dt>Channel</dt><dd>not set</dd>');
    expect(html).not.toMatch(/Channel<\/(dt|th|td)>\s*<(dd|td)>(unknown|\(none\)|-)</);

    expect(renderJunit(report, 'error')).toContain('<property name="cluster.channel" value="not set"/>');

    const text = formatInspect(inspectResult([], { id: report.cluster.id, version: report.cluster.version, channel: '' }));
    expect(text).toMatch(/^Channel: +not set$/m);
  });

  it('is "unknown" only when no ClusterVersion was read', () => {
    const report = healthyReport();
    expect(renderMarkdown(report, { full: true })).toContain('| Channel | unknown |');
    expect(renderHtml(report)).toContain('<dt>Channel</dt><dd>unknown</dd>');
    expect(renderJunit(report, 'error')).not.toContain('cluster.channel');
    expect(formatInspect(inspectResult([], {}))).toMatch(/^Channel: +unknown$/m);
  });
});

describe('timeline counts in the Markdown report', () => {
  it.each([15_000, 20_000, 40_000])('rows shown and "N more rows" add up to the items (--md-limit %i)', (limit) => {
    const report = manyEntriesReport();
    const md = renderMarkdown(report, { limit });
    const items = report.facts.timeline.length;
    const section = md.slice(md.indexOf('### Timeline items'));
    expect(section).toContain(`### Timeline items (${items})`);
    const rows = section.split('\n').filter((line) => /^\| \d{4}-/.test(line)).length;
    const more = Number(/\*(\d+) more rows? (is|are) not shown/.exec(section)?.[1] ?? 0);
    expect(rows).toBeGreaterThan(0);
    expect(more).toBeGreaterThan(0);
    expect(rows + more).toBe(items);
  });
});

describe('update history', () => {
  /** 25 entries, oldest first (as facts hold them): 4.10.0 … 4.10.24. */
  function longHistory(): Report {
    const report = manyEntriesReport();
    report.facts.history = Array.from({ length: 25 }, (_, i): HistoryRow => ({
      version: `4.10.${i}`,
      state: 'Completed',
      verified: true,
      started: new Date(Date.UTC(2022, 0, 1 + i)).toISOString(),
      completed: new Date(Date.UTC(2022, 0, 1 + i, 2)).toISOString(),
      install: i === 0,
      forced: false,
    }));
    return report;
  }
  const versionsIn = (text: string): string[] => [...text.matchAll(/4\.10\.(\d+)\b/g)].map((m) => m[0]);

  it('Markdown: newest first, the first ten, then how many older entries are not shown (all with --md-full)', () => {
    const md = renderMarkdown(longHistory());
    const table = md.slice(md.indexOf('| Version | State |'), md.indexOf('older entries not shown'));
    expect(versionsIn(table)).toEqual(['4.10.24', '4.10.23', '4.10.22', '4.10.21', '4.10.20', '4.10.19', '4.10.18', '4.10.17', '4.10.16', '4.10.15']);
    expect(md).toContain('*15 older entries not shown; the HTML and JSON reports hold them.*');
    const full = renderMarkdown(longHistory(), { full: true });
    expect(full).not.toContain('older entries not shown');
    expect(versionsIn(full.slice(full.indexOf('| Version | State |')))).toContain('4.10.0');
  });

  it('HTML: the ten newest, the fifteen older folded in a <details>', () => {
    const html = renderHtml(longHistory());
    const open = html.slice(html.indexOf('<table class="history">'), html.indexOf('<details class="history-older">'));
    expect(open).toContain('newest first');
    expect(versionsIn(open)[0]).toBe('4.10.24');
    expect(open.match(/<tr[ >]/g)).toHaveLength(11);
    const folded = html.slice(html.indexOf('<details class="history-older">'));
    expect(folded).toMatch(/^<details class="history-older">\s*<summary>15 older entries<\/summary>/);
    expect(folded.slice(0, folded.indexOf('</details>')).match(/<tr[ >]/g)).toHaveLength(16);
  });

  it('inspect: newest first, ten entries, then a line for the older ones', () => {
    const history = longHistory().facts.history.map((h) => ({ version: h.version, state: h.state, verified: h.verified, started: h.started, completed: h.completed }));
    const text = formatInspect(inspectResult(history, { id: 'x', version: '4.10.24', channel: 'stable-4.10' }));
    expect(text).toContain('Update history (25, newest first):');
    expect(versionsIn(text)).toEqual(['4.10.24', '4.10.24', '4.10.23', '4.10.22', '4.10.21', '4.10.20', '4.10.19', '4.10.18', '4.10.17', '4.10.16', '4.10.15']);
    expect(text).toContain('  15 older entries not shown; `mgsift inspect --json` lists them.');
  });
});
