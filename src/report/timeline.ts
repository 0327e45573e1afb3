/**
 * Geometry of the HTML report's upgrade timeline: a pure function from the report's facts to
 * shapes (rectangles, polygons, lines, texts) that `templates/partials/timeline.svg.hbs`
 * draws. No markup is built here: every text goes through Handlebars' escaping there.
 *
 * Layout: one time axis for the whole figure, from the earliest time to the collection time
 * (or the latest time when the collection time is unknown), with a little padding; tick
 * labels in UTC at the top; a dashed vertical "collected" line. Then one lane per kind of
 * item: the update history first (one row per entry, a bar from started to completed, hatched
 * and open-ended to the collection time when the update did not complete), then the
 * timeline's lanes (`cvo`, `operator`, `node`, `event`, `finding`, others by name): spans are
 * packed into a few rows, moments are diamonds with labels placed only where they do not
 * collide (every shape keeps a tooltip with the full text).
 */
import type { Severity } from '../engine/findings.js';
import type { HistoryRow, Report, TimelineItem } from './model.js';
import {
  formatUtc,
  laneOrder,
  laneTitle,
  parseTime,
  sanitizeText,
  sortTimeline,
  verifiedLabel,
} from './common.js';

export interface SvgTextPart {
  text: string;
  cls: string;
}

export interface SvgText {
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
  cls: string;
  parts: SvgTextPart[];
}

export interface SvgRect {
  x: number;
  y: number;
  w: number;
  h: number;
  cls: string;
  title: string;
  /** The items table's row for this shape (`#…`), when the table has it. */
  href: string | null;
}

export interface SvgLine {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  cls: string;
}

export interface SvgPolygon {
  points: string;
  cls: string;
  title: string;
  href: string | null;
}

export interface TimelineSvg {
  /** Prefix of the figure's element ids (unique in the document). */
  id: string;
  width: number;
  height: number;
  /** Accessible name and description. */
  title: string;
  desc: string;
  /** Text before the legend under the figure. */
  caption: string;
  bands: SvgRect[];
  grid: SvgLine[];
  texts: SvgText[];
  bars: SvgRect[];
  polygons: SvgPolygon[];
  lines: SvgLine[];
  /** History bars drawn (one per entry with a start time). */
  historyBars: number;
  /** Items not drawn: unparsable times, or past the cap. */
  notDrawn: number;
}

export interface TimelineOptions {
  /** Timeline items drawn at most, by lane priority ({@link keepByLanePriority}). */
  maxItems?: number;
  /** Labels drawn at most on the whole figure. */
  maxLabels?: number;
  /**
   * Draw only this window (epoch ms): shapes outside it are left out, shapes across its edges
   * are cut. Without it the axis spans everything (see the module comment).
   */
  window?: { start: number; end: number } | undefined;
  /** Accessible name of the figure. */
  title?: string;
  /** Prefix of the figure's element ids; default `tl`. */
  id?: string;
  /** Text before the legend under the figure. */
  caption?: string;
  /** Id of the items table's row for an item, if the table has one: its shapes link there. */
  rowId?: ((item: TimelineItem) => string | undefined) | undefined;
}

const WIDTH = 1100;
const PLOT_LEFT = 190;
const PLOT_RIGHT = WIDTH - 16;
const AXIS_TOP = 46;
const LANE_HEADER = 20;
const ROW = 22;
const BAR_H = 12;
const CHAR_W = 6.4;
const MAX_SPAN_ROWS = 8;
const MAX_MOMENT_ROWS = 4;
const LABEL_CHARS = 52;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const FIXED_STEPS = [
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
];
const MONTH_STEPS = [1, 2, 3, 6, 12, 24, 60, 120];
const MAX_TICKS = 8;
const DRAW_PRIORITY = ['finding', 'alert', 'cvo', 'node', 'operator', 'event'];

/** The figure for `report`, or undefined when there is nothing with a time to draw. */
export function buildTimeline(report: Report, options: TimelineOptions = {}): TimelineSvg | undefined {
  const maxItems = options.maxItems ?? 400;
  const href = (item: TimelineItem): string | null => {
    const id = options.rowId?.(item);
    return id === undefined ? null : `#${id}`;
  };
  let labelsLeft = options.maxLabels ?? 120;
  const win = options.window;
  const inWindow = (start: number, end: number): boolean => win === undefined || (end >= win.start && start <= win.end);

  const history = report.facts.history;
  // The history lane is drawn from `facts.history` (one row per entry), not from its items.
  const sorted = sortTimeline(report.facts.timeline).filter((item) => item.lane !== 'history');
  let drawable: { item: TimelineItem; start: number; end?: number | undefined }[] = [];
  let notDrawn = 0;
  const collectedAt = parseTime(report.collectedAt);
  /** Past the collection time nothing is drawn: what is dated later (marked `afterCollection`) sits at it. */
  const upToCollection = (t: number): number => (collectedAt !== undefined && t > collectedAt ? collectedAt : t);
  for (const item of sorted) {
    const rawStart = parseTime(item.start);
    if (rawStart === undefined) {
      notDrawn++;
      continue;
    }
    const start = upToCollection(rawStart);
    const rawEnd = parseTime(item.end);
    const end = rawEnd === undefined ? undefined : upToCollection(rawEnd);
    const d = { item, start, end: end !== undefined && end > start ? end : undefined };
    if (!inWindow(start, d.end ?? (item.open === true ? Number.POSITIVE_INFINITY : start))) continue;
    drawable.push(d);
  }
  if (drawable.length > maxItems) {
    const kept = keepByLanePriority(drawable, (d) => d.item.lane, maxItems);
    notDrawn += drawable.length - kept.length;
    drawable = kept;
  }

  const times: number[] = [];
  for (const row of history) {
    for (const t of [parseTime(row.started), parseTime(row.completed)]) if (t !== undefined) times.push(upToCollection(t));
  }
  for (const d of drawable) {
    times.push(d.start);
    if (d.end !== undefined) times.push(d.end);
  }
  if (times.length === 0) return undefined;
  const collected = collectedAt;
  const latest = Math.max(...times);
  const earliest = Math.min(...times, ...(collected !== undefined ? [collected] : []));
  const axisEnd = collected !== undefined ? Math.max(collected, latest) : latest;
  /** Where a span still open ends: the collection time, else the latest time known. */
  const openEnd = collected ?? latest;

  let d0 = win?.start ?? earliest;
  let d1 = win?.end ?? axisEnd;
  if (d1 - d0 < HOUR) {
    const mid = (d0 + d1) / 2;
    d0 = mid - HOUR / 2;
    d1 = mid + HOUR / 2;
  }
  const pad = (d1 - d0) * 0.02;
  d0 -= pad;
  d1 += pad;
  const x = (t: number): number => {
    const clamped = Math.min(Math.max(t, d0), d1);
    return r(PLOT_LEFT + ((clamped - d0) / (d1 - d0)) * (PLOT_RIGHT - PLOT_LEFT));
  };

  const svg: TimelineSvg = {
    id: options.id ?? 'tl',
    width: WIDTH,
    height: 0,
    title: options.title ?? 'Timeline',
    desc: '',
    caption: options.caption ?? '',
    bands: [],
    grid: [],
    texts: [],
    bars: [],
    polygons: [],
    lines: [],
    historyBars: 0,
    notDrawn,
  };
  const text = (x0: number, y: number, anchor: SvgText['anchor'], cls: string, ...parts: SvgTextPart[]): void => {
    svg.texts.push({ x: r(x0), y: r(y), anchor, cls, parts });
  };

  let y = AXIS_TOP;
  let laneIndex = 0;
  const laneHeader = (title: string): void => {
    text(8, y + 14, 'start', 'lane-title', { text: title, cls: '' });
    y += LANE_HEADER;
  };
  const band = (top: number): void => {
    svg.bands.push({ x: 0, y: r(top), w: WIDTH, h: r(y - top + 4), cls: laneIndex % 2 === 0 ? 'band' : 'band alt', title: '', href: null });
    laneIndex++;
  };

  // Update history: one row per entry (in a window: the entries that cross it).
  const rows = history.filter((row) => {
    const started = parseTime(row.started);
    if (started === undefined) return win === undefined;
    return inWindow(started, parseTime(row.completed) ?? Number.POSITIVE_INFINITY);
  });
  if (rows.length > 0) {
    const top = y - 2;
    laneHeader(laneTitle('history'));
    for (const row of rows) {
      drawHistoryRow(row, y);
      y += ROW;
    }
    band(top);
  }

  function drawHistoryRow(row: HistoryRow, rowY: number): void {
    const version = row.version === '' ? '(no version)' : truncateMiddle(row.version, 24);
    text(PLOT_LEFT - 8, rowY + 15, 'end', 'version', { text: version, cls: '' });
    const started = parseTime(row.started);
    const completed = parseTime(row.completed);
    const open = completed === undefined || row.state !== 'Completed';
    const parts: SvgTextPart[] = [
      { text: `${truncate(row.state, 20)} · ${verifiedLabel(row)}${row.forced ? ' · forced' : ''}`, cls: '' },
    ];
    if (row.rollback !== undefined) parts.push({ text: ` · rollback (${row.rollback})`, cls: 'rollback-label' });
    if (open) parts.push({ text: ' · not completed', cls: '' });
    const labelWidth = estimate(parts.map((p) => p.text).join(''));
    if (started === undefined) {
      text(PLOT_LEFT + 4, rowY + 15, 'start', 'hist-label', { text: 'no start time · ', cls: '' }, ...parts);
      return;
    }
    const x1 = x(started);
    const end = completed !== undefined ? completed : openEnd;
    const x2 = Math.max(x(Math.max(end, started)), x1 + 3);
    const cls = [
      'bar',
      'hist',
      row.install ? 'install' : '',
      row.rollback !== undefined ? 'rollback' : '',
      open ? 'open' : '',
      row.verified || row.install ? '' : 'unverified',
    ]
      .filter((c) => c !== '')
      .join(' ');
    const title = [
      `${row.version || '(no version)'} — ${row.state}, ${verifiedLabel(row)}`,
      row.rollback !== undefined ? `rollback (${row.rollback})` : '',
      row.forced ? 'forced' : '',
      `started ${row.started !== undefined ? formatUtc(started) : '?'}`,
      completed !== undefined ? `completed ${formatUtc(completed)}` : 'not completed',
      row.image !== undefined && row.image !== '' ? `image ${row.image}` : '',
    ]
      .filter((s) => s !== '')
      .join('\n');
    svg.bars.push({ x: x1, y: rowY + 5, w: r(x2 - x1), h: BAR_H, cls, title: sanitizeText(title), href: null });
    svg.historyBars++;
    if (open) svg.polygons.push({ points: arrow(x2, rowY + 5 + BAR_H / 2), cls: 'open-end', title: '', href: null });
    if (x2 + 8 + labelWidth <= PLOT_RIGHT) text(x2 + (open ? 12 : 6), rowY + 15, 'start', 'hist-label halo', ...parts);
    else if (x1 - 6 - labelWidth >= PLOT_LEFT) text(x1 - 6, rowY + 15, 'end', 'hist-label halo', ...parts);
    else if (x2 - x1 >= labelWidth + 12) text(x1 + 6, rowY + 15, 'start', 'hist-label halo', ...parts);
    else text(PLOT_RIGHT, rowY + 3, 'end', 'hist-label halo', ...parts);
  }

  // Timeline lanes.
  const byLane = new Map<string, typeof drawable>();
  for (const d of drawable) {
    const list = byLane.get(d.item.lane) ?? [];
    list.push(d);
    byLane.set(d.item.lane, list);
  }
  for (const lane of laneOrder(byLane.keys())) {
    const items = byLane.get(lane) ?? [];
    const top = y - 2;
    laneHeader(laneTitle(lane));
    const spans = items.filter((d) => d.end !== undefined || d.item.open === true);
    const moments = items.filter((d) => !(d.end !== undefined || d.item.open === true));

    // Spans, packed greedily into rows; the label goes inside the bar, after it or before it.
    const rowEnds: number[] = [];
    const placed: { d: (typeof drawable)[number]; row: number; x1: number; x2: number; label?: SvgText }[] = [];
    for (const d of spans) {
      const x1 = x(d.start);
      const x2 = Math.max(x(d.end ?? Math.max(openEnd, d.start)), x1 + 3);
      const label = truncateMiddle(d.item.label, LABEL_CHARS);
      const w = estimate(label);
      const candidates: { anchor: SvgText['anchor']; lx: number; from: number; to: number; cls: string }[] = [];
      const openSpan = d.end === undefined;
      if (x2 - x1 >= w + 10) {
        candidates.push({ anchor: 'start', lx: x1 + 5, from: x1, to: x2, cls: openSpan ? 'span-label halo' : 'span-label inside' });
      }
      if (x2 + 6 + w <= PLOT_RIGHT) candidates.push({ anchor: 'start', lx: x2 + (openSpan ? 12 : 5), from: x1, to: x2 + 12 + w, cls: 'span-label halo' });
      if (x1 - 5 - w >= PLOT_LEFT) candidates.push({ anchor: 'end', lx: x1 - 5, from: x1 - 5 - w, to: x2, cls: 'span-label halo' });
      let done = false;
      if (labelsLeft > 0) {
        for (const c of candidates) {
          let row = rowEnds.findIndex((end) => end + 6 <= c.from);
          if (row === -1 && rowEnds.length < MAX_SPAN_ROWS) row = rowEnds.push(-Infinity) - 1;
          if (row === -1) continue;
          rowEnds[row] = c.to;
          placed.push({ d, row, x1, x2, label: { x: r(c.lx), y: 0, anchor: c.anchor, cls: c.cls, parts: [{ text: label, cls: '' }] } });
          labelsLeft--;
          done = true;
          break;
        }
      }
      if (!done) {
        let row = rowEnds.findIndex((end) => end + 2 <= x1);
        if (row === -1 && rowEnds.length < MAX_SPAN_ROWS) row = rowEnds.push(-Infinity) - 1;
        if (row === -1) {
          // No row without overlap: left to the table rather than drawn over another label.
          svg.notDrawn++;
          continue;
        }
        rowEnds[row] = Math.max(rowEnds[row] ?? -Infinity, x2);
        placed.push({ d, row, x1, x2 });
      }
    }
    for (const p of placed) {
      const rowY = y + p.row * ROW;
      const open = p.d.end === undefined;
      const cls = ['bar', 'span', `lane-${cssName(lane)}`, open ? 'open' : '', sevClass(p.d.item.severity), p.d.item.afterCollection === true ? 'after' : '']
        .filter((c) => c !== '')
        .join(' ');
      svg.bars.push({ x: p.x1, y: rowY + 5, w: r(p.x2 - p.x1), h: BAR_H, cls, title: itemTitle(p.d.item), href: href(p.d.item) });
      if (open) svg.polygons.push({ points: arrow(p.x2, rowY + 5 + BAR_H / 2), cls: 'open-end', title: '', href: null });
      if (p.label !== undefined) svg.texts.push({ ...p.label, y: rowY + 15 });
    }
    y += rowEnds.length * ROW;

    // Moments: diamonds, labelled where a label fits in one of a few rows; the others are
    // gathered on a row below into clusters, each one diamond labelled with what it holds.
    const momentEnds: number[] = [];
    const marks: { d: (typeof drawable)[number]; row: number; cx: number; label: SvgText }[] = [];
    const unlabeled: (typeof drawable)[number][] = [];
    for (const d of moments) {
      const cx = x(d.start);
      const label = truncateMiddle(d.item.label, LABEL_CHARS);
      const w = estimate(label);
      if (labelsLeft > 0) {
        const right = cx + 8 + w <= PLOT_RIGHT;
        const from = right ? cx - 6 : cx - 8 - w;
        const to = right ? cx + 8 + w : cx + 6;
        let row = momentEnds.findIndex((end) => end + 6 <= from);
        if (row === -1 && momentEnds.length < MAX_MOMENT_ROWS) row = momentEnds.push(-Infinity) - 1;
        if (row !== -1) {
          momentEnds[row] = to;
          labelsLeft--;
          marks.push({
            d,
            row,
            cx,
            label: { x: r(right ? cx + 8 : cx - 8), y: 0, anchor: right ? 'start' : 'end', cls: 'moment-label halo', parts: [{ text: label, cls: '' }] },
          });
          continue;
        }
      }
      unlabeled.push(d);
    }
    for (const m of marks) {
      const cy = y + m.row * ROW + 11;
      const cls = ['moment', `lane-${cssName(lane)}`, sevClass(m.d.item.severity), m.d.item.afterCollection === true ? 'after' : ''].filter((c) => c !== '').join(' ');
      svg.polygons.push({ points: diamond(m.cx, cy), cls, title: itemTitle(m.d.item), href: href(m.d.item) });
      svg.texts.push({ ...m.label, y: cy + 4 });
    }
    const clusters = clusterMoments(unlabeled.map((d) => ({ d, cx: x(d.start) })));
    const clusterY = y + momentEnds.length * ROW + 11;
    clusters.forEach((c, i) => {
      const next = clusters[i + 1]?.cx ?? PLOT_RIGHT + 8;
      const [first] = c.members;
      if (first === undefined) return;
      const one = c.members.length === 1;
      const room = Math.floor((next - c.cx - 16) / CHAR_W);
      const own = one && room >= 8 && labelsLeft > 0;
      if (own) labelsLeft--;
      const label = own ? truncateMiddle(first.d.item.label, Math.min(room, LABEL_CHARS)) : `${c.members.length} more`;
      const severity = worstSeverity(c.members.map((m) => m.d.item.severity));
      const cls = ['moment', `lane-${cssName(lane)}`, one ? '' : 'cluster', sevClass(severity)].filter((k) => k !== '').join(' ');
      const title = one ? itemTitle(first.d.item) : clusterTitle(c.members.map((m) => m.d.item));
      svg.polygons.push({ points: diamond(c.cx, clusterY), cls, title, href: href(first.d.item) });
      const right = c.cx + 8 + estimate(label) <= WIDTH - 4;
      text(right ? c.cx + 8 : c.cx - 8, clusterY + 4, right ? 'start' : 'end', 'moment-label halo', { text: label, cls: '' });
    });
    const overflow = clusters.length > 0;
    y += (momentEnds.length + (overflow ? 1 : 0)) * ROW;
    band(top);
  }

  const bottom = y + 6;
  // Ticks and grid.
  for (const tick of ticks(d0, d1)) {
    const tx = x(tick.t);
    if (tx < PLOT_LEFT || tx > PLOT_RIGHT) continue;
    svg.grid.push({ x1: tx, y1: AXIS_TOP - 8, x2: tx, y2: bottom, cls: 'grid' });
    text(tx, 34, 'middle', 'tick', { text: tick.label, cls: '' });
    if (tick.date !== undefined) text(tx, 18, 'middle', 'tick date', { text: tick.date, cls: '' });
  }
  text(8, 34, 'start', 'tick axis-name', { text: 'time (UTC)', cls: '' });

  // Collection time.
  const height = bottom + 22;
  if (collected !== undefined) {
    const cx = x(collected);
    svg.lines.push({ x1: cx, y1: AXIS_TOP - 8, x2: cx, y2: bottom, cls: 'collected' });
    const label = `collected ${formatUtc(collected)}`;
    const right = cx + 6 + estimate(label) <= WIDTH - 4;
    text(right ? cx + 4 : cx - 4, bottom + 15, right ? 'start' : 'end', 'collected-label', { text: label, cls: '' });
  } else {
    text(PLOT_RIGHT, bottom + 15, 'end', 'collected-label', {
      text: 'collection time unknown: the axis ends at the latest time seen',
      cls: '',
    });
  }
  svg.height = r(height);
  svg.desc = describe(rows, drawable.length, collected);
  return svg;
}

/**
 * The window worth a second, zoomed figure: the newest update (from its start, with a margin,
 * to the collection time or the latest time seen), when it is a small part of the whole axis
 * (an install months ago squeezes the update being diagnosed into a few pixels).
 */
export function focusWindow(report: Report, maxShare = 0.15): { start: number; end: number } | undefined {
  const starts = report.facts.history.map((h) => parseTime(h.started)).filter((t): t is number => t !== undefined);
  if (starts.length === 0) return undefined;
  const all: number[] = [...starts];
  for (const h of report.facts.history) {
    const t = parseTime(h.completed);
    if (t !== undefined) all.push(t);
  }
  for (const item of report.facts.timeline) {
    for (const t of [parseTime(item.start), parseTime(item.end)]) if (t !== undefined) all.push(t);
  }
  const collected = parseTime(report.collectedAt);
  if (collected !== undefined) all.push(collected);
  const first = Math.min(...all);
  const last = Math.max(...all);
  const newest = Math.max(...starts);
  const end = collected !== undefined ? Math.max(collected, newest) : last;
  const margin = Math.max((end - newest) * 0.15, 30 * MINUTE);
  const start = newest - margin;
  if (last - first <= 0 || (end - start) / (last - first) > maxShare) return undefined;
  return { start, end };
}

/**
 * At most `max` of `list`, in their order: past the cap, the lanes that explain most go first
 * (findings, CVO, nodes, operators, events, then the others).
 */
export function keepByLanePriority<T>(list: readonly T[], laneOf: (t: T) => string, max: number): T[] {
  if (list.length <= max) return [...list];
  const rank = lanePriority;
  const kept = new Set(
    list
      .map((t, index) => ({ t, index }))
      .sort((a, b) => rank(laneOf(a.t)) - rank(laneOf(b.t)) || a.index - b.index)
      .slice(0, Math.max(0, max))
      .map((x) => x.index),
  );
  return list.filter((_, index) => kept.has(index));
}

/** A lane's place when items must be left out: findings, CVO, nodes, operators, events, then the others. */
export function lanePriority(lane: string): number {
  const i = DRAW_PRIORITY.indexOf(lane);
  return i === -1 ? DRAW_PRIORITY.length : i;
}

function describe(history: HistoryRow[], items: number, collected: number | undefined): string {
  const versions = history.map((h) => h.version || '(no version)').join(' → ');
  const parts = [
    history.length > 0 ? `Update history: ${versions}.` : 'No update history.',
    `${items} other timeline item${items === 1 ? '' : 's'}.`,
    collected !== undefined ? `Collected ${formatUtc(collected)}.` : 'Collection time unknown.',
  ];
  return sanitizeText(parts.join(' '));
}

function itemTitle(item: TimelineItem): string {
  const lines = [
    item.label,
    item.end !== undefined ? `${formatTime(item.start)} → ${formatTime(item.end)}` : formatTime(item.start),
    item.open === true ? 'still open at collection time' : '',
    item.relative !== undefined ? `${item.relative} from collection` : '',
    item.afterCollection === true ? 'dated after the collection time (the archive was gathered over some time, or a clock drifts): drawn at the collection time' : '',
    item.severity !== undefined ? `severity ${item.severity}` : '',
    item.ruleId !== undefined ? `rule ${item.ruleId}` : '',
    item.detail ?? '',
  ].filter((s) => s !== '');
  return sanitizeText(lines.join('\n'));
}

function formatTime(iso: string): string {
  const ms = parseTime(iso);
  return ms === undefined ? iso : formatUtc(ms);
}

function sevClass(severity: Severity | undefined): string {
  return severity === undefined ? '' : `sev-${severity}`;
}

/** Lane names come from the facts; keep only safe characters in a class name. */
function cssName(lane: string): string {
  return lane.replace(/[^a-z0-9-]/gi, '_').slice(0, 32);
}

/** Space a cluster's label takes on its row: `12 more` and a margin. */
const CLUSTER_WIDTH = 64;

/** Moments (by x) gathered left to right: each cluster holds the ones within its label's width. */
function clusterMoments<T extends { cx: number }>(moments: T[]): { cx: number; members: T[] }[] {
  const out: { cx: number; members: T[] }[] = [];
  for (const m of [...moments].sort((a, b) => a.cx - b.cx)) {
    const last = out[out.length - 1];
    if (last !== undefined && m.cx - last.cx < CLUSTER_WIDTH) last.members.push(m);
    else out.push({ cx: m.cx, members: [m] });
  }
  return out;
}

function worstSeverity(list: (Severity | undefined)[]): Severity | undefined {
  const order: Severity[] = ['critical', 'error', 'warning', 'info'];
  return order.find((s) => list.includes(s));
}

function clusterTitle(items: TimelineItem[]): string {
  const shown = items.slice(0, 12).map((item) => `${formatTime(item.start)} ${item.label}`);
  const more = items.length - shown.length;
  return sanitizeText([`${items.length} moments:`, ...shown, ...(more > 0 ? [`and ${more} more (see the items table)`] : [])].join('\n'));
}

/** Cut in the middle, so both the start and the end (a pod's suffix, `Ready=True`) stay readable. */
function truncateMiddle(text: string, max: number): string {
  const flat = sanitizeText(text).replace(/[\r\n\t]+/g, ' ');
  if (flat.length <= max) return flat;
  const tail = Math.floor((max - 1) / 2);
  return `${flat.slice(0, max - 1 - tail)}…${flat.slice(flat.length - tail)}`;
}

function truncate(text: string, max: number): string {
  const flat = sanitizeText(text).replace(/[\r\n\t]+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function estimate(text: string): number {
  return text.length * CHAR_W;
}

function r(n: number): number {
  return Math.round(n * 10) / 10;
}

function diamond(cx: number, cy: number): string {
  const s = 6;
  return `${r(cx)},${r(cy - s)} ${r(cx + s)},${r(cy)} ${r(cx)},${r(cy + s)} ${r(cx - s)},${r(cy)}`;
}

function arrow(xEnd: number, cy: number): string {
  return `${r(xEnd)},${r(cy - 6)} ${r(xEnd + 8)},${r(cy)} ${r(xEnd)},${r(cy + 6)}`;
}

interface Tick {
  t: number;
  label: string;
  /** The date, on the first tick and where it changes (sub-day steps only). */
  date?: string | undefined;
}

/** Round UTC ticks across [d0, d1], at most {@link MAX_TICKS}. */
export function ticks(d0: number, d1: number): Tick[] {
  const span = d1 - d0;
  const step = FIXED_STEPS.find((s) => span / s <= MAX_TICKS);
  const out: Tick[] = [];
  if (step !== undefined) {
    let previousDate = '';
    for (let t = Math.ceil(d0 / step) * step; t <= d1; t += step) {
      const iso = new Date(t).toISOString();
      const date = iso.slice(0, 10);
      if (step < DAY) {
        out.push({ t, label: iso.slice(11, 16), date: date !== previousDate ? date : undefined });
        previousDate = date;
      } else {
        out.push({ t, label: date });
      }
    }
    return out;
  }
  const months = span / (30 * DAY);
  const monthStep = MONTH_STEPS.find((m) => months / m <= MAX_TICKS) ?? Math.ceil(months / MAX_TICKS);
  const start = new Date(d0);
  let year = start.getUTCFullYear();
  let month = start.getUTCMonth() + 1; // first month boundary after d0
  month = Math.ceil(month / monthStep) * monthStep;
  for (;;) {
    year += Math.floor(month / 12);
    month %= 12;
    const t = Date.UTC(year, month, 1);
    if (t > d1) break;
    if (t >= d0) out.push({ t, label: new Date(t).toISOString().slice(0, 7) });
    month += monthStep;
  }
  return out;
}
