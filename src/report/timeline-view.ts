/**
 * The HTML report's timeline section as a view model of sanitized plain strings
 * (`templates/partials/timeline-section.hbs` prints it, escaped): the SVG figure with a lane
 * per source, the update history table and the items table, capped so the page stays light.
 */
import type { Severity } from '../engine/findings.js';
import { historyNewestFirst } from '../facts/history.js';
import type { HistoryRow, Report, TimelineItem } from './model.js';
import { displayTime, formatUtc, inlineParts, laneTitle, sanitizeText, sortTimeline, verifiedLabel, type InlinePart } from './common.js';
import { buildTimeline, focusWindow, keepByLanePriority, type TimelineSvg } from './timeline.js';
import { moreRowsNote, omissionNote, relativeText } from './timeline-table.js';

export interface TimelineViewOptions {
  /** Items drawn at most in the figure (default 400). */
  maxItems?: number | undefined;
  /** Rows of the items table at most (default 400). */
  maxRows?: number | undefined;
}

interface HistoryView {
  version: string;
  state: string;
  verified: string;
  verifiedClass: string;
  started: string;
  completed: string;
  image: string;
  rollback: string | null;
  forced: boolean;
  install: boolean;
}

interface TimelineItemView {
  /** Row id the figure's shapes link to. */
  id: string;
  lane: string;
  start: string;
  relative: string;
  end: string;
  label: string;
  detail: string;
  severity: Severity | null;
}

export interface TimelineView {
  svg: TimelineSvg | null;
  detail: TimelineSvg | null;
  hasFigure: boolean;
  notDrawn: string | null;
  emptyHistory: boolean;
  /** The newest entries, newest first; the older ones fold under them. */
  history: HistoryView[];
  hasHistory: boolean;
  olderHistory: HistoryView[];
  /** `64 older entries` (the fold's summary), or null when none is folded. */
  olderSummary: string | null;
  items: TimelineItemView[];
  hasItems: boolean;
  itemsSummary: string;
  /** Rows past the table's cap, and where to see them (text and inline code). */
  more: InlinePart[] | null;
  /** What the report's timeline leaves out, one line per reason. */
  omitted: string[];
  hasOmitted: boolean;
}

const s = sanitizeText;

export function timelineView(report: Report, options: TimelineViewOptions = {}): TimelineView {
  const maxItems = options.maxItems ?? 400;
  const maxRows = options.maxRows ?? 400;
  const all = sortTimeline(report.facts.timeline);
  const tableItems = keepByLanePriority(all, (t) => t.lane, maxRows);
  const rowIds = new Map(tableItems.map((t, i) => [t, `tl-row-${i + 1}`]));
  const rowId = (item: TimelineItem): string | undefined => rowIds.get(item);
  const svg = buildTimeline(report, { maxItems, rowId, id: 'tl', caption: 'Everything with a time, up to the collection time.' }) ?? null;
  const focus = focusWindow(report);
  const detail =
    svg !== null && focus !== undefined
      ? (buildTimeline(report, {
          maxItems,
          rowId,
          window: focus,
          id: 'tl-detail',
          title: 'Newest update in detail',
          caption: `Zoom on the newest update: ${formatUtc(focus.start)} to ${formatUtc(focus.end)}.`,
        }) ?? null)
      : null;
  const items = tableItems.map(
    (t): TimelineItemView => ({
      id: rowIds.get(t) ?? '',
      lane: laneTitle(t.lane),
      start: displayTime(t.start),
      relative: s(relativeText(t)),
      end: t.end !== undefined ? displayTime(t.end) : t.open === true ? 'open at collection' : '',
      label: s(t.label),
      detail: s(t.detail ?? ''),
      severity: t.severity ?? null,
    }),
  );
  const notShown = all.length - items.length;
  const history = historyNewestFirst(report.facts.history);
  const omitted = report.facts.timelineOmitted.map((o) => s(omissionNote(o)));
  return {
    svg,
    detail,
    hasFigure: svg !== null,
    notDrawn:
      svg !== null && svg.notDrawn > 0
        ? `${svg.notDrawn} timeline item${svg.notDrawn === 1 ? ' is' : 's are'} not drawn (no usable time, no free row in their lane, or past the figure's cap of ${maxItems}); the items table lists them.`
        : null,
    emptyHistory: report.facts.history.length === 0,
    history: history.shown.map(historyView),
    hasHistory: history.shown.length > 0,
    olderHistory: history.older.map(historyView),
    olderSummary: history.older.length > 0 ? `${history.older.length} older entr${history.older.length === 1 ? 'y' : 'ies'}` : null,
    items,
    hasItems: items.length > 0,
    itemsSummary: `Timeline items (${all.length})`,
    more: notShown > 0 ? inlineParts(s(moreRowsNote(notShown))) : null,
    omitted,
    hasOmitted: omitted.length > 0,
  };
}

function historyView(h: HistoryRow): HistoryView {
  return {
    version: h.version === '' ? '(no version)' : s(h.version),
    state: s(h.state),
    verified: verifiedLabel(h),
    verifiedClass: h.verified ? 'ok' : h.install ? 'muted' : 'warn',
    started: displayTime(h.started),
    completed: h.completed !== undefined ? displayTime(h.completed) : 'not completed',
    image: s(h.image ?? ''),
    rollback: h.rollback !== undefined ? `rollback (${h.rollback})` : null,
    forced: h.forced,
    install: h.install,
  };
}
