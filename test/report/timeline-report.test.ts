/**
 * The cross-source timeline in the reports: items built from a real trimmed must-gather
 * (test/fixtures/mg-mini plus two real Node objects), times relative to the collection time,
 * the report's caps and what they leave out, and the HTML, Markdown and JSON renderings.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { analyzeInput, type Analysis } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRules } from '../../src/engine/load.js';
import { buildReport } from '../../src/report/build.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJson } from '../../src/report/json.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { Report, TimelineItem } from '../../src/report/model.js';
import { collectTimeline, filterTimeline, FULL_SCOPE, relativeTime, REPORT_SCOPE } from '../../src/report/timeline-items.js';
import { mgMiniWithNodes } from '../helpers/timeline.js';
import { HOSTILE, SCRIPT, seed000Report } from './fixtures.js';

const COLLECTED = Date.parse('2021-08-03T10:14:13.632Z');
let analysis: Analysis;

beforeAll(async () => {
  const { rules } = await loadRules();
  analysis = await analyzeInput(mgMiniWithNodes(), { limits: DEFAULT_LIMITS, rules });
});

afterEach(() => {
  vi.useRealTimers();
});

const find = (items: TimelineItem[], lane: string, label: string): TimelineItem | undefined =>
  items.find((i) => i.lane === lane && i.label === label);

describe('relativeTime', () => {
  it.each([
    [-(2 * 3600 + 13 * 60) * 1000, '-2h13m'],
    [-(2 * 3600 + 13 * 60 + 59) * 1000, '-2h13m'],
    [-2 * 3600 * 1000, '-2h'],
    [-45_000, '-45s'],
    [-(46 * 60 + 50) * 1000, '-46m50s'],
    [-(3 * 86_400 + 4 * 3600) * 1000, '-3d4h'],
    [(5 * 60 + 10) * 1000, '+5m10s'],
    [0, '0s'],
    [-400, '0s'],
  ])('%d ms → %s', (delta, text) => {
    expect(relativeTime(COLLECTED + delta, COLLECTED)).toBe(text);
  });
});

describe('collectTimeline', () => {
  it('puts every source on one axis, each item relative to the collection time', () => {
    const { items } = collectTimeline(analysis, FULL_SCOPE);
    expect(analysis.facts.collectedAt).toBe(COLLECTED);
    expect(new Set(items.map((i) => i.lane))).toEqual(new Set(['history', 'cvo', 'operator', 'node', 'event', 'finding']));
    expect(find(items, 'history', '4.8.0-0.nightly-2021-07-31-065602 install Completed')).toMatchObject({
      start: '2021-08-03T09:14:59.000Z',
      end: '2021-08-03T09:45:28.000Z',
      relative: '-59m15s',
    });
    expect(find(items, 'operator', 'ingress Available=True')).toMatchObject({ start: '2021-08-03T09:27:24.000Z', relative: '-46m50s' });
    expect(find(items, 'node', 'ip-10-0-195-177.ec2.internal Ready=True')).toMatchObject({
      start: '2021-08-03T09:18:34.000Z',
      relative: '-55m40s',
      detail: 'KubeletReady: kubelet is posting ready status',
    });
    expect(find(items, 'cvo', 'CVO cluster-version-operator-849b4dcf9c-dl6zb (previous log)')).toMatchObject({
      start: '2021-08-03T09:20:35.492Z',
      namespace: 'openshift-cluster-version',
    });
    expect(items.filter((i) => i.lane === 'cvo').map((i) => i.label)).toEqual(expect.arrayContaining(['loading-payload', 'payload-loaded']));
    expect(find(items, 'event', 'FailedScheduling Pod/cluster-version-operator-849b4dcf9c-dl6zb ×2')).toMatchObject({
      start: '2021-08-03T09:14:55.140Z',
      end: '2021-08-03T09:15:09.849Z',
      namespace: 'openshift-cluster-version',
      count: 2,
    });
    const finding = items.find((i) => i.lane === 'finding');
    expect(finding).toMatchObject({ ruleId: 'events-failed-scheduling', namespace: 'openshift-cluster-version', relative: '-59m18s' });
    // Sorted by time.
    const starts = items.map((i) => Date.parse(i.start));
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
  });

  it('does not depend on the reader’s clock', () => {
    const before = collectTimeline(analysis, FULL_SCOPE);
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2035-06-01T00:00:00Z'));
    expect(collectTimeline(analysis, FULL_SCOPE)).toEqual(before);
  });

  it('has no relative times when the collection time is unknown', () => {
    const undated: Analysis = { ...analysis, facts: { ...analysis.facts, collectedAt: undefined } };
    expect(collectTimeline(undated, FULL_SCOPE).items.every((i) => i.relative === undefined)).toBe(true);
  });

  it('keeps only Warning event groups in the report, and says how many it left out', () => {
    const full = collectTimeline(analysis, FULL_SCOPE);
    const report = collectTimeline(analysis, REPORT_SCOPE);
    const events = report.items.filter((i) => i.lane === 'event');
    expect(events.map((i) => i.label).sort()).toEqual([
      'FailedMount Pod/cluster-version-operator-849b4dcf9c-dl6zb ×9',
      'FailedScheduling Pod/cluster-version-operator-849b4dcf9c-dl6zb ×2',
    ]);
    const normal = full.items.filter((i) => i.lane === 'event').length - events.length;
    expect(report.omitted).toEqual([{ lane: 'event', count: normal, reason: 'groups of Normal (not Warning) events' }]);
    expect(report.items.length + normal).toBe(full.items.length);
  });

  it('caps event groups, the most frequent first', () => {
    const capped = collectTimeline(analysis, { events: 'warning', maxEventGroups: 1 });
    expect(capped.items.filter((i) => i.lane === 'event').map((i) => i.count)).toEqual([9]);
    expect(capped.omitted).toContainEqual({ lane: 'event', count: 1, reason: 'event groups past the report’s cap of 1 (the least frequent)' });
  });
});

describe('filterTimeline', () => {
  const items: TimelineItem[] = [
    { lane: 'history', start: '2021-08-03T09:00:00Z', open: true, label: 'update' },
    { lane: 'event', start: '2021-08-03T09:10:00Z', end: '2021-08-03T09:20:00Z', label: 'span', namespace: 'a' },
    { lane: 'operator', start: '2021-08-03T09:30:00Z', label: 'moment' },
    { lane: 'event', start: '2021-08-03T09:40:00Z', label: 'late', namespace: 'b' },
  ];
  const labels = (list: TimelineItem[]): string[] => list.map((i) => i.label);

  it('keeps what crosses the window: spans by their end, open spans up to the collection time', () => {
    const since = Date.parse('2021-08-03T09:15:00Z');
    expect(labels(filterTimeline(items, { since }, COLLECTED))).toEqual(['update', 'span', 'moment', 'late']);
    expect(labels(filterTimeline(items, { since: Date.parse('2021-08-03T09:25:00Z') }, COLLECTED))).toEqual(['update', 'moment', 'late']);
    expect(labels(filterTimeline(items, { until: Date.parse('2021-08-03T09:30:00Z') }))).toEqual(['update', 'span', 'moment']);
    expect(labels(filterTimeline(items, { since: Date.parse('2021-08-03T11:00:00Z') }, COLLECTED))).toEqual([]);
  });

  it('filters by namespace and lane', () => {
    expect(labels(filterTimeline(items, { namespace: 'a' }))).toEqual(['span']);
    expect(labels(filterTimeline(items, { lanes: ['event', 'history'] }))).toEqual(['update', 'span', 'late']);
  });
});

describe('the timeline in the reports', () => {
  const schema = JSON.parse(readFileSync(new URL('../../schema/report.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
  const report = (): Report => buildReport(analysis, new Date('2030-01-01T00:00:00Z'));

  it('JSON: every item with its relative time, namespace and count; omissions counted; valid against the schema', () => {
    const json = JSON.parse(renderJson(report())) as { facts: { timeline: TimelineItem[]; timelineOmitted: unknown[] } };
    expect(validate(json)).toBe(true);
    expect(json.facts.timeline.find((i) => i.lane === 'event' && i.count === 9)).toMatchObject({
      relative: '-56m18s',
      namespace: 'openshift-cluster-version',
    });
    expect(json.facts.timelineOmitted).toEqual([{ lane: 'event', count: 12, reason: 'groups of Normal (not Warning) events' }]);
  });

  it('HTML: one lane per source in the figure, the table with relative times, what is left out', () => {
    const html = renderHtml(report());
    const svg = /<svg [^>]*class="timeline-svg"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';
    for (const lane of ['Update history', 'CVO pods', 'Operators', 'Nodes', 'Events', 'Findings']) expect(svg).toContain(`>${lane}<`);
    expect(html).toContain('<th>Rel.</th>');
    expect(html).toContain('<td class="time">-55m40s</td>');
    expect(html).toContain('Events: 12 left out (groups of Normal (not Warning) events).');
    expect(html).toContain('lists everything left out here');
  });

  it('HTML and Markdown: the table is capped and says how many rows are elsewhere', () => {
    const r = report();
    const rows = r.facts.timeline.length;
    const html = renderHtml(r, { maxTimelineRows: 10 });
    expect(html).toContain(`Timeline items (${rows})`);
    expect(html).toContain(`${rows - 10} more rows are not shown here (events are left out first, then operators)`);
    const md = renderMarkdown(r, { maxTimelineRows: 10 });
    expect(md).toContain(`### Timeline items (${rows})`);
    expect(md).toContain(`${rows - 10} more rows are not shown here`);
    // Past the cap, findings and nodes stay; events go first.
    expect(md).toContain('ip-10-0-195-177.ec2.internal Ready=True');
    expect(md).not.toContain('FailedMount Pod/');
  });

  it('Markdown: the table with relative times, anchored at the collection time', () => {
    const md = renderMarkdown(report());
    expect(md).toContain('| Start (UTC) | Rel. | End (UTC) | Lane | What | Severity | Rule | Detail |');
    expect(md).toContain('| 2021-08-03 09:18:34Z | -55m40s |  | Nodes | ip-10-0-195-177.ec2.internal Ready=True |  |  | KubeletReady: kubelet is posting ready status |');
    expect(md).toContain('Collected 2021-08-03 10:14:13.632Z; relative times are from it.');
  });

  it('keeps hostile labels as text', () => {
    const r = seed000Report();
    r.facts.timeline.push({ lane: 'event', start: '2021-01-19T22:00:00Z', relative: HOSTILE, label: HOSTILE, detail: HOSTILE, namespace: HOSTILE, count: 3 });
    r.facts.timelineOmitted.push({ lane: 'event', count: 1, reason: HOSTILE });
    expect(renderHtml(r)).not.toContain(SCRIPT);
    // Evidence sits in fenced blocks; table rows and notes must carry no tag.
    const mdLines = renderMarkdown(r).split('\n').filter((line) => line.startsWith('|') || line.startsWith('- '));
    expect(mdLines.some((line) => line.includes('&lt;script&gt;'))).toBe(true);
    expect(mdLines.filter((line) => line.includes(SCRIPT))).toEqual([]);
  });
});
