/**
 * A size budget for the Markdown report, shared by its sections in priority order: the report is
 * built as a list of parts (in reading order), each with a priority; the parts are taken by
 * priority until the budget is spent, then printed in reading order with a note where a group of
 * parts was cut. A section added later only has to say what its parts are worth: nothing here
 * knows the sections.
 */

/** One piece of the report, kept or left out as a whole. */
export interface MdPart {
  /** Markdown, ending with a newline. */
  text: string;
  /** Lower is taken first; 0 is always kept (title, identity, section headings). */
  priority: number;
  /**
   * Parts of a group are kept as a prefix of the group (in `rank` order): once one is left out,
   * the later ones are too, so a list never has holes.
   */
  group?: string | undefined;
  /** Order in the group, and among parts of one priority (default: reading order). */
  rank?: number | undefined;
  /** What one part is, in the closing count of what was left out (`timeline row`). */
  unit?: string | undefined;
  /** Set on the (empty) part whose place the line saying what was left out takes. */
  leftOutLine?: true | undefined;
}

/** Where a group's note goes (after its last part) and what it says about the parts left out. */
export type GroupNote = (leftOut: number) => string;

export interface MdBudget {
  /** Characters at most; `Infinity` keeps everything. */
  limit: number;
  /** Share of the limit (0..1) a group may take at most, for extracts that must stay short. */
  shares?: Record<string, number> | undefined;
  /** Notes printed after a group's last part; a note returning '' is not printed. */
  notes?: Record<string, GroupNote> | undefined;
}

export interface MdLayout {
  text: string;
  /** Parts left out, by unit (singular). */
  leftOut: Map<string, number>;
}

/** Room kept for the line that says what was left out (it is written once the cut is known). */
const SUMMARY_RESERVE = 600;

/**
 * The parts that fit in `budget`, in reading order, with each group's note after the group, and
 * `summary` (given what was left out) in the place of the part marked `leftOutLine`.
 */
export function layoutParts(parts: readonly MdPart[], budget: MdBudget, summary: (leftOut: Map<string, number>) => string): MdLayout {
  // Notes and the summary are written once the cut is known: when they overrun, cut again tighter.
  let layout = layoutOnce(parts, budget, summary);
  for (let tries = 0; tries < 5 && layout.text.length > budget.limit; tries++) {
    const limit = budget.limit - (layout.text.length - budget.limit) * (tries + 1) - 64;
    layout = layoutOnce(parts, { ...budget, limit, shares: scaled(budget.shares, budget.limit / Math.max(limit, 1)) }, summary);
  }
  return layout;
}

/** Shares of a smaller limit that keep the same number of characters. */
function scaled(shares: Record<string, number> | undefined, factor: number): Record<string, number> | undefined {
  return shares === undefined ? undefined : Object.fromEntries(Object.entries(shares).map(([k, v]) => [k, v * factor]));
}

function layoutOnce(parts: readonly MdPart[], budget: MdBudget, summary: (leftOut: Map<string, number>) => string): MdLayout {
  const notes = budget.notes ?? {};
  const kept = new Array<boolean>(parts.length).fill(false);
  let used = SUMMARY_RESERVE;
  parts.forEach((p, i) => {
    if (p.priority === 0) {
      kept[i] = true;
      used += p.text.length;
    }
  });
  const closed = new Set<string>();
  const groupUse = new Map<string, number>();
  const order = parts
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => p.priority !== 0)
    .sort((a, b) => a.p.priority - b.p.priority || (a.p.rank ?? a.i) - (b.p.rank ?? b.i) || a.i - b.i);
  for (const { p, i } of order) {
    const group = p.group;
    if (group !== undefined && closed.has(group)) continue;
    const share = group !== undefined ? budget.shares?.[group] : undefined;
    const inGroup = group !== undefined ? (groupUse.get(group) ?? 0) : 0;
    const fits = used + p.text.length <= budget.limit && (share === undefined || inGroup + p.text.length <= share * budget.limit);
    if (fits) {
      kept[i] = true;
      used += p.text.length;
      if (group !== undefined) groupUse.set(group, inGroup + p.text.length);
    } else if (group !== undefined) {
      closed.add(group);
      // The note this cut will print (its count is not known yet: allow for a longer number).
      used += (notes[group]?.(parts.length) ?? '').length + 8;
    }
  }

  const leftOut = new Map<string, number>();
  const droppedInGroup = new Map<string, number>();
  const lastOfGroup = new Map<string, number>();
  parts.forEach((p, i) => {
    if (p.group !== undefined) lastOfGroup.set(p.group, i);
    if (kept[i]) return;
    if (p.group !== undefined) droppedInGroup.set(p.group, (droppedInGroup.get(p.group) ?? 0) + 1);
    const unit = p.unit ?? 'part';
    leftOut.set(unit, (leftOut.get(unit) ?? 0) + 1);
  });
  const out: string[] = [];
  parts.forEach((p, i) => {
    if (p.leftOutLine === true) {
      const line = summary(leftOut);
      if (line !== '') out.push(line.endsWith('\n') ? line : `${line}\n`);
    } else if (kept[i]) out.push(p.text);
    if (p.group !== undefined && lastOfGroup.get(p.group) === i) {
      const note = notes[p.group]?.(droppedInGroup.get(p.group) ?? 0) ?? '';
      if (note !== '') out.push(`\n${note}\n\n`);
    }
  });
  return { text: `${out.join('').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`, leftOut };
}

/** `3 timeline rows, 1 evidence item and 12 digest templates`. */
export function countList(counts: Map<string, number>): string {
  const items = [...counts].filter(([, n]) => n > 0).map(([unit, n]) => `${n} ${n === 1 ? unit : `${unit}s`}`);
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
