/**
 * A size budget for the Markdown report, shared by its sections in priority order: the report is
 * built as a list of parts (in reading order), each with a priority; the parts are taken by
 * priority until the budget is spent, then printed in reading order with a note where a group of
 * parts was cut. A section added later only has to say what its parts are worth: nothing here
 * knows the sections.
 *
 * When the parts the report cannot do without (priority up to `essential`) do not all fit, the
 * layout is tried again with their shorter forms (`tighter`), one level at a time, so a small
 * limit still holds and still lists what matters most.
 */

/** One piece of the report, kept or left out as a whole. */
export interface MdPart {
  /** Markdown, ending with a newline. */
  text: string;
  /**
   * Shorter forms of the same content, one per tightening level (level 1 first); a part with
   * fewer forms than the level keeps its shortest. They must hold as many Markdown blocks as
   * `text` (a table row stays a row of the same columns as its head at that level).
   */
  tighter?: readonly string[] | undefined;
  /** Lower is taken first; 0 is always kept (title, counts, the findings table's head). */
  priority: number;
  /**
   * Parts of a group are kept as a prefix of the group (in `rank` order): once one is left out,
   * the later ones are too, so a list never has holes.
   */
  group?: string | undefined;
  /** Order in the group, and among parts of one priority (default: reading order). */
  rank?: number | undefined;
  /**
   * What one part is, in the counts of what was left out (`timeline row`). A part without one
   * (a heading, a note) is structure and is not counted.
   */
  unit?: string | undefined;
  /** The section this part is in: it is kept only with the part that opens that section. */
  section?: string | undefined;
  /** The section this part opens: taken with the first part of the section if not already kept. */
  opens?: string | undefined;
  /** A heading: never taken for itself, only as the opener of a section whose part is taken. */
  heading?: true | undefined;
  /** Set on the (empty) part whose place the line saying what was left out takes. */
  leftOutLine?: true | undefined;
}

/** Where a group's note goes (after its last part) and what it says about the parts left out. */
export type GroupNote = (leftOut: number) => string;

/** The line saying what was left out, at a tightening level (0: the full wording). */
export type LeftOutSummary = (leftOut: Map<string, number>, level: number) => string;

export interface MdBudget {
  /** Characters at most; `Infinity` keeps everything. */
  limit: number;
  /** Share of the limit (0..1) a group may take at most, for extracts that must stay short. */
  shares?: Record<string, number> | undefined;
  /**
   * Notes printed after a group's last part when part of the group was kept and part left out;
   * a note returning '' is not printed.
   */
  notes?: Record<string, GroupNote> | undefined;
  /** Parts of this priority or lower are essential: shorter forms are used until they all fit. */
  essential?: number | undefined;
}

export interface MdLayout {
  text: string;
  /** Parts left out, by unit (singular). */
  leftOut: Map<string, number>;
  /** The tightening level used (0: every part in its full form). */
  level: number;
}

/**
 * The parts that fit in `budget`, in reading order, with each group's note after the group, and
 * `summary` (given what was left out) in the place of the part marked `leftOutLine`: at the
 * lowest tightening level that keeps every essential part, else at the tightest.
 */
export function layoutParts(parts: readonly MdPart[], budget: MdBudget, summary: LeftOutSummary): MdLayout {
  const levels = Math.max(0, ...parts.map((p) => p.tighter?.length ?? 0));
  const essential = budget.essential ?? 0;
  let layout = layoutAtLevel(parts, budget, summary, 0);
  for (let level = 1; level <= levels; level++) {
    const { kept } = layout;
    const allKept = parts.every((p, i) => p.priority > essential || p.heading === true || kept[i]);
    if (allKept && layout.text.length <= budget.limit) break;
    layout = layoutAtLevel(parts, budget, summary, level);
  }
  const { text, leftOut, level } = layout;
  return { text, leftOut, level };
}

type KeptLayout = MdLayout & { kept: boolean[] };

function layoutAtLevel(parts: readonly MdPart[], budget: MdBudget, summary: LeftOutSummary, level: number): KeptLayout {
  // Notes and the summary are written once the cut is known: when they overrun, cut again tighter.
  let layout = layoutOnce(parts, budget, summary, level);
  for (let tries = 0; tries < 5 && layout.text.length > budget.limit; tries++) {
    const limit = budget.limit - (layout.text.length - budget.limit) * (tries + 1) - 64;
    layout = layoutOnce(parts, { ...budget, limit, shares: scaled(budget.shares, budget.limit / Math.max(limit, 1)) }, summary, level);
  }
  return layout;
}

/** Shares of a smaller limit that keep the same number of characters. */
function scaled(shares: Record<string, number> | undefined, factor: number): Record<string, number> | undefined {
  return shares === undefined ? undefined : Object.fromEntries(Object.entries(shares).map(([k, v]) => [k, v * factor]));
}

/** A part's text at a tightening level. */
function formAt(p: MdPart, level: number): string {
  const tighter = p.tighter ?? [];
  return level === 0 || tighter.length === 0 ? p.text : tighter[Math.min(level, tighter.length) - 1]!;
}

function layoutOnce(parts: readonly MdPart[], budget: MdBudget, summary: LeftOutSummary, level: number): KeptLayout {
  const notes = budget.notes ?? {};
  const text = parts.map((p) => formAt(p, level));
  const opener = new Map<string, number>();
  parts.forEach((p, i) => {
    if (p.opens !== undefined) opener.set(p.opens, i);
  });
  const kept = new Array<boolean>(parts.length).fill(false);
  // Room for the line saying what was left out, as long as it can get (every unit, large counts).
  const everyUnit = new Map(parts.filter((p) => p.unit !== undefined).map((p) => [p.unit!, parts.length]));
  let used = summary(everyUnit, level).length;

  /** The part and the openers of its sections that are not kept yet. */
  const withOpeners = (i: number): number[] => {
    const take = [i];
    for (let s = parts[i]!.section; s !== undefined; ) {
      const j = opener.get(s);
      if (j === undefined || kept[j] || take.includes(j)) break;
      take.push(j);
      s = parts[j]!.section;
    }
    return take;
  };
  const keep = (take: readonly number[]): void => {
    for (const j of take) {
      kept[j] = true;
      used += text[j]!.length;
    }
  };

  parts.forEach((p, i) => {
    if (p.priority === 0 && p.heading !== true) keep(withOpeners(i));
  });
  const closed = new Set<string>();
  const groupUse = new Map<string, number>();
  const order = parts
    .map((p, i) => ({ p, i }))
    .filter(({ p, i }) => !kept[i] && p.heading !== true && p.leftOutLine !== true)
    .sort((a, b) => a.p.priority - b.p.priority || (a.p.rank ?? a.i) - (b.p.rank ?? b.i) || a.i - b.i);
  for (const { p, i } of order) {
    const group = p.group;
    if (kept[i] || (group !== undefined && closed.has(group))) continue;
    const take = withOpeners(i);
    const size = take.reduce((n, j) => n + text[j]!.length, 0);
    const share = group !== undefined ? budget.shares?.[group] : undefined;
    const inGroup = group !== undefined ? (groupUse.get(group) ?? 0) : 0;
    const fits = used + size <= budget.limit && (share === undefined || inGroup + size <= share * budget.limit);
    if (fits) {
      keep(take);
      if (group !== undefined) groupUse.set(group, inGroup + size);
    } else if (group !== undefined) {
      closed.add(group);
      // The note this cut will print, when part of the group is in (its count is not known yet: allow for a longer number).
      if (groupUse.has(group)) used += (notes[group]?.(parts.length) ?? '').length + 8;
    }
  }

  const leftOut = new Map<string, number>();
  const droppedInGroup = new Map<string, number>();
  const keptInGroup = new Set<string>();
  const lastOfGroup = new Map<string, number>();
  parts.forEach((p, i) => {
    if (p.group !== undefined) lastOfGroup.set(p.group, i);
    if (kept[i]) {
      if (p.group !== undefined) keptInGroup.add(p.group);
      return;
    }
    if (p.unit === undefined) return;
    if (p.group !== undefined) droppedInGroup.set(p.group, (droppedInGroup.get(p.group) ?? 0) + 1);
    leftOut.set(p.unit, (leftOut.get(p.unit) ?? 0) + 1);
  });
  const out: string[] = [];
  parts.forEach((p, i) => {
    if (p.leftOutLine === true) {
      const line = summary(leftOut, level);
      if (line !== '') out.push(line.endsWith('\n') ? line : `${line}\n`);
    } else if (kept[i]) out.push(text[i]!);
    if (p.group !== undefined && lastOfGroup.get(p.group) === i && keptInGroup.has(p.group)) {
      const note = notes[p.group]?.(droppedInGroup.get(p.group) ?? 0) ?? '';
      if (note !== '') out.push(`\n${note}\n\n`);
    }
  });
  return { text: `${out.join('').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`, leftOut, level, kept };
}

/** `3 timeline rows, 1 evidence item and 12 digest templates`. */
export function countList(counts: Map<string, number>): string {
  const items = [...counts].filter(([, n]) => n > 0).map(([unit, n]) => `${n} ${n === 1 ? unit : `${unit}s`}`);
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
