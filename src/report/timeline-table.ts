/**
 * The timeline as a table: the cells every rendering shares (HTML and Markdown reports,
 * `mgsift timeline`), and the timeline on its own as text (an aligned table for a terminal)
 * and JSON (every item, in the report's item shape). Its Markdown form is
 * `renderTimelineMarkdown` in markdown.ts, with the report's escaping. Archive text goes
 * through {@link sanitizeText}; text output flattens line breaks.
 */
import type { TimelineItem, TimelineOmission } from './model.js';
import { cut, displayTime, flat, laneTitle, sanitizeText } from './common.js';
import { timelineItemJson } from './json.js';

/** A timeline as `mgsift timeline` prints it. */
export interface TimelineDoc {
  input: string;
  /** ISO 8601; the anchor of relative times. */
  collectedAt?: string | undefined;
  items: TimelineItem[];
  omitted: TimelineOmission[];
  /** Filters applied, as the user gave them (`since 2h`, `namespace openshift-etcd`). */
  filters: string[];
  /** Sentences about the whole (`No problem after the install completed at …`). */
  notes: string[];
}

export const TIMELINE_HEAD = ['Start (UTC)', 'Rel.', 'End (UTC)', 'Lane', 'What', 'Severity', 'Rule', 'Detail'];

/** The time from the collection time, and whether it lies after it (`+3m (after collection)`). */
export function relativeText(item: TimelineItem): string {
  return `${item.relative ?? ''}${item.afterCollection === true ? ' (after collection)' : ''}`;
}

/** One row of plain (unescaped) cells per item, in {@link TIMELINE_HEAD} order. */
export function timelineCells(item: TimelineItem): string[] {
  return [
    displayTime(item.start),
    relativeText(item),
    item.end !== undefined ? displayTime(item.end) : item.open === true ? 'open at collection' : '',
    laneTitle(item.lane),
    item.label,
    item.severity ?? '',
    item.ruleId ?? '',
    item.detail ?? '',
  ];
}

/** `Events: 2041 left out (groups of Normal (not Warning) events).` */
export function omissionNote(o: TimelineOmission): string {
  return `${laneTitle(o.lane)}: ${o.count} left out (${o.reason}).`;
}

/** Rows of a capped table not shown, and where they are. */
export function moreRowsNote(notShown: number, why = '(events are left out first, then operators)'): string {
  return `${notShown} more row${notShown === 1 ? ' is' : 's are'} not shown here ${why}; the JSON report holds them, and \`mgsift timeline <input>\` lists the whole timeline.`;
}

/** One line about what the relative times are measured from. */
export function anchorNote(collectedAt: string | undefined): string {
  return collectedAt !== undefined && collectedAt !== ''
    ? `Collected ${displayTime(collectedAt)}; relative times are from it.`
    : 'Collection time unknown: no relative times.';
}

const LANE_COLUMN = TIMELINE_HEAD.indexOf('Lane');
const WHAT_COLUMN = TIMELINE_HEAD.indexOf('What');
const TEXT_WHAT_WIDTH = 70;
const TEXT_DETAIL_WIDTH = 200;

/** An aligned table for a terminal; empty columns are left out, long text is cut. */
export function renderTimelineText(doc: TimelineDoc): string {
  const lines = [`Timeline of ${flat(doc.input)} — ${anchorNote(doc.collectedAt)}`];
  if (doc.filters.length > 0) lines.push(`Filters: ${flat(doc.filters.join(', '))}`);
  // The lane as `--lane` names it, shorter than its title.
  const rows = doc.items.map((item) =>
    timelineCells(item).map((cell, i) => (i === LANE_COLUMN ? item.lane : cut(flat(cell), i === WHAT_COLUMN ? TEXT_WHAT_WIDTH : TEXT_DETAIL_WIDTH))),
  );
  const head = TIMELINE_HEAD.map((h) => h.toUpperCase());
  const columns = head.map((_, i) => i).filter((i) => rows.some((row) => row[i] !== ''));
  const widths = columns.map((i) => Math.max(head[i]!.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]): string =>
    columns
      .map((i, c) => (c === columns.length - 1 ? cells[i]! : cells[i]!.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd();
  lines.push('');
  if (rows.length === 0) lines.push('(no item)');
  else lines.push(line(head), ...rows.map(line));
  lines.push('', `${doc.items.length} item${doc.items.length === 1 ? '' : 's'}.`);
  for (const note of doc.notes) lines.push(flat(note));
  for (const o of doc.omitted) lines.push(flat(omissionNote(o)));
  return `${lines.join('\n')}\n`;
}

/** Every item, in the JSON report's item shape. */
export function renderTimelineJson(doc: TimelineDoc): string {
  const out: Record<string, unknown> = { input: doc.input };
  if (doc.collectedAt !== undefined) out['collectedAt'] = doc.collectedAt;
  out['filters'] = [...doc.filters];
  out['notes'] = [...doc.notes];
  out['items'] = doc.items.map(timelineItemJson);
  out['omitted'] = doc.omitted.map((o) => ({ lane: o.lane, count: o.count, reason: o.reason }));
  return `${JSON.stringify(out, null, 2)}\n`;
}

