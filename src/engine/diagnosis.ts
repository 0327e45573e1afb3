/**
 * Links between findings and the diagnosis built from them: which finding explains which, and
 * the roots (findings nothing else explains) with the chains of what they explain.
 *
 * Pure: it sees only what rules declared (`about`, `mentions`, `windows`, `explains`) and the
 * findings' severities and times; it knows no single rule. A finding A explains B when one of
 * A's `explains` entries selects B and the entry's relation holds:
 *   - `rules` (B's rule is listed), by object: an object A is about is one B is about or one B's
 *     evidence names (`mentions`): a specific rule explains the generic findings on its objects;
 *   - `kinds` (B is about an object of a listed kind), by object: B's evidence names an object A
 *     is about (a pool's message names the node A reports): in its `mentions`, or in its text
 *     however phrased ({@link textNames}); a mention named `*` names every object of its kind;
 *   - by time: a time of B's log or event evidence falls inside one of A's windows.
 */
import { severityRank, type Severity } from './findings.js';
import { textNames } from './names-in-text.js';

export interface ObjectRef {
  kind: string;
  namespace?: string | undefined;
  name: string;
}

/** A span of time a finding stands for (e.g. an update), for time joins. */
export interface TimeWindow {
  /** Epoch ms. */
  from: number;
  /** Epoch ms; undefined: still open when the archive was collected. */
  to?: number | undefined;
  label: string;
}

export interface ExplainsEntry {
  /** Findings of these rules... */
  rules: string[];
  /** ...or findings about an object of these kinds. */
  kinds: string[];
  by: 'object' | 'time';
  /** Said instead of the computed reason, when the rule gives one. */
  because?: string | undefined;
}

/**
 * One of the problems a finding reports, when it reports several (two degraded operators): the
 * objects of one piece of evidence (pieces sharing an object make one part), what that evidence
 * names, and when it happened. A link explains the parts it touches, not the whole finding.
 */
export interface FindingPart {
  about: ObjectRef[];
  mentions: ObjectRef[];
  /** Its evidence's text: an object it names there is mentioned too, however phrased ({@link textNames}). */
  texts?: string[] | undefined;
  /** Epoch ms of its log and event evidence, for time joins. */
  times: number[];
  /** Epoch ms of its earliest timed evidence. */
  since?: number | undefined;
}

/** What the join needs of one finding. */
export interface LinkSubject {
  /** The finding's id ({@link findingId}: its rule id, with its key for a rule with `per`). */
  id: string;
  /** Its rule's id, which `explains: rules` selects. */
  rule: string;
  title: string;
  /** The finding's headline (see `Finding.headline`). */
  headline: string;
  severity: Severity;
  about: ObjectRef[];
  mentions: ObjectRef[];
  /** Its evidence's text, when it has no parts (see {@link FindingPart}). */
  texts?: string[] | undefined;
  /** Epoch ms of the finding's log and event evidence (when things happened), for time joins. */
  times: number[];
  /** Epoch ms of its earliest timed evidence of any kind (a fact's start too): since when. */
  since?: number | undefined;
  windows: TimeWindow[];
  explains: ExplainsEntry[];
  /** Its parts; absent or empty: one part, its `about`, `mentions` and `times`. */
  parts?: FindingPart[] | undefined;
}

export interface Link {
  cause: string;
  effect: string;
  /** Why, in a few words: the shared object, or the time and the window. */
  reason: string;
}

/** One finding in a chain, with what it explains in turn. */
export interface DiagnosisNode {
  ruleId: string;
  severity: Severity;
  title: string;
  /** One line on what happened: the finding's headline. */
  headline: string;
  /** Objects the finding is about. */
  about: ObjectRef[];
  /** Epoch ms of the finding's earliest timed evidence, when it has one. */
  since?: number | undefined;
  /**
   * The node stands for some of the finding's parts only (one of two degraded operators, the
   * other explained elsewhere): its `about` and `since` are those parts', while the headline
   * speaks of the whole finding.
   */
  partial?: boolean | undefined;
  /** Why the parent explains this finding; absent on a root. */
  reason?: string | undefined;
  explains: DiagnosisNode[];
}

export interface Diagnosis {
  /** Root causes, most severe first; empty when no problem was found. */
  roots: DiagnosisNode[];
  /** Links dropped to break cycles, each said in a sentence. */
  cyclesBroken: string[];
}

export interface Joined {
  /** Links kept (no cycles, no link implied by a longer chain), in a stable order. */
  links: Link[];
  diagnosis: Diagnosis;
}

/**
 * Findings below this severity are context: they take part in links, but are a root of the
 * diagnosis only when they explain a problem at or above it (a healthy archive's info findings
 * are no problem).
 */
export const PROBLEM_SEVERITY: Severity = 'warning';

export function objectKey(ref: ObjectRef): string {
  return `${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}

export function describeObject(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

/** A finding as the join reads it: always with its parts. */
interface Subject extends LinkSubject {
  parts: FindingPart[];
}

/** A link, with the parts of each side it rests on. */
interface PartLink extends Link {
  /** Parts of the cause whose objects or windows made the link. */
  causeParts: number[];
  /** Parts of the effect it explains. */
  effectParts: number[];
}

/** Joins the findings, breaks cycles, keeps the longest chains, and finds the roots. */
export function joinFindings(input: readonly LinkSubject[]): Joined {
  const ordered = input.map(withParts).sort(bySeverityThenId);
  const byId = new Map(ordered.map((s) => [s.id, s]));
  const candidates: PartLink[] = [];
  for (const cause of ordered) {
    for (const effect of ordered) {
      if (cause.id === effect.id) continue;
      const link = linkOf(cause, effect);
      if (link !== undefined) candidates.push(link);
    }
  }
  const { links: acyclic, broken } = breakCycles(ordered, candidates);
  const kept = reduceTransitive(acyclic, byId);
  const diagnosis: Diagnosis = { roots: roots(ordered, kept, byId), cyclesBroken: broken };
  return { links: kept.map(({ cause, effect, reason }) => ({ cause, effect, reason })), diagnosis };
}

function withParts(subject: LinkSubject): Subject {
  const parts =
    subject.parts && subject.parts.length > 0
      ? subject.parts
      : [{ about: subject.about, mentions: subject.mentions, texts: subject.texts, times: subject.times, since: subject.since }];
  return { ...subject, parts };
}

function allParts(subject: Subject): number[] {
  return subject.parts.map((_, i) => i);
}

function linkOf(cause: Subject, effect: Subject): PartLink | undefined {
  // A finding whose rule declares that it explains the cause's rule (a specific rule over the
  // generic ones) is not explained back by a kind-wide entry: the declaration wins over a name
  // found in its text.
  const declaredOver = effect.explains.some((e) => e.rules.includes(cause.rule));
  for (const entry of cause.explains) {
    const byRule = entry.rules.includes(effect.rule);
    if (!byRule && declaredOver) continue;
    const selected = byRule ? allParts(effect) : allParts(effect).filter((j) => effect.parts[j]!.about.some((o) => entry.kinds.includes(o.kind)));
    if (selected.length === 0) continue;
    if (entry.by === 'time') {
      // A time join reads the finding as one event: it explains all of it.
      const found = timeInWindow(cause.windows, effect.times);
      if (found) return { cause: cause.id, effect: effect.id, reason: entry.because ?? found, causeParts: allParts(cause), effectParts: selected };
      continue;
    }
    const found = sharedObjects(cause, effect, selected, byRule);
    if (found) return { cause: cause.id, effect: effect.id, ...found, reason: entry.because ?? found.reason };
  }
  return undefined;
}

/**
 * The parts of the effect whose objects (for rules listed by id) or mentions name an object a
 * part of the cause is about, and the objects that made the link, for its reason.
 */
function sharedObjects(
  cause: Subject,
  effect: Subject,
  selected: readonly number[],
  sameObject: boolean,
): { reason: string; causeParts: number[]; effectParts: number[] } | undefined {
  const causeParts = new Set<number>();
  const effectParts = new Set<number>();
  const same = new Map<string, ObjectRef>();
  const named = new Map<string, ObjectRef>();
  cause.parts.forEach((causePart, i) => {
    for (const j of selected) {
      const part = effect.parts[j]!;
      const about = new Set(part.about.map(objectKey));
      const mentioned = new Set(part.mentions.map(objectKey));
      // A message may name the kind and no object (`One or more machine config pools are degraded`): any of that kind.
      const anyOf = new Set(part.mentions.filter((m) => m.name === '*').map((m) => m.kind));
      // What a part is about is its subject, not a cause its text names.
      const names = (ref: ObjectRef): boolean =>
        mentioned.has(objectKey(ref)) || anyOf.has(ref.kind) || (!about.has(objectKey(ref)) && (part.texts ?? []).some((t) => textNames(t, ref)));
      for (const ref of causePart.about) {
        const key = objectKey(ref);
        const holds = sameObject && about.has(key) ? same : names(ref) ? named : undefined;
        if (holds === undefined) continue;
        holds.set(key, ref);
        causeParts.add(i);
        effectParts.add(j);
      }
    }
  });
  if (effectParts.size === 0) return undefined;
  const reason = same.size > 0 ? `both about ${describeObjects([...same.values()])}` : `names ${describeObjects([...named.values()])}`;
  return { reason, causeParts: [...causeParts].sort((a, b) => a - b), effectParts: [...effectParts].sort((a, b) => a - b) };
}

/** Objects in a few words: `MachineConfigPool master, worker and Node n1`; past five names, how many more. */
export function describeObjects(refs: readonly ObjectRef[], limit = 5): string {
  const groups = new Map<string, string[]>();
  for (const ref of refs.slice(0, limit)) {
    const group = `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}`;
    groups.set(group, [...(groups.get(group) ?? []), ref.name]);
  }
  const text = [...groups].map(([group, names]) => `${group}${names.join(', ')}`).join(' and ');
  return refs.length > limit ? `${text} and ${refs.length - limit} more` : text;
}

function timeInWindow(windows: readonly TimeWindow[], times: readonly number[]): string | undefined {
  const sorted = [...times].sort((a, b) => a - b);
  for (const window of windows) {
    const inside = sorted.find((t) => t >= window.from && (window.to === undefined || t <= window.to));
    if (inside !== undefined) {
      const span = window.to === undefined ? `since ${isoMinute(window.from)}, still open when collected` : `${isoMinute(window.from)} – ${isoMinute(window.to)}`;
      return `at ${isoMinute(inside)}, inside ${window.label} (${span})`;
    }
  }
  return undefined;
}

function isoMinute(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ') + 'Z';
}

/**
 * Depth-first from the findings nothing explains, then the others, each in severity-then-id
 * order; a link back to a finding on the current path closes a cycle and is dropped (and said).
 */
function breakCycles(ordered: readonly Subject[], candidates: readonly PartLink[]): { links: PartLink[]; broken: string[] } {
  const out = new Map<string, PartLink[]>();
  for (const link of candidates) out.set(link.cause, [...(out.get(link.cause) ?? []), link]);
  const explained = new Set(candidates.map((l) => l.effect));
  const starts = [...ordered.filter((s) => !explained.has(s.id)), ...ordered.filter((s) => explained.has(s.id))];
  const state = new Map<string, 'open' | 'done'>();
  const kept: PartLink[] = [];
  const broken: string[] = [];
  const visit = (id: string): void => {
    state.set(id, 'open');
    for (const link of out.get(id) ?? []) {
      const target = state.get(link.effect);
      if (target === 'open') {
        broken.push(`${link.cause} and ${link.effect} explain each other; kept ${link.effect} → ${link.cause} (found first), dropped ${link.cause} → ${link.effect}`);
        continue;
      }
      kept.push(link);
      if (target === undefined) visit(link.effect);
    }
    state.set(id, 'done');
  };
  for (const start of starts) if (!state.has(start.id)) visit(start.id);
  return { links: sortLinks(kept), broken };
}

/**
 * Drops A → C when every part of C it explains is reached from A through other findings, part
 * by part (A → B → C, where B → C rests on a part of B that A explains): the chain shows it.
 */
function reduceTransitive(links: readonly PartLink[], byId: Map<string, Subject>): PartLink[] {
  const out = new Map<string, PartLink[]>();
  for (const link of links) out.set(link.cause, [...(out.get(link.cause) ?? []), link]);
  const implied = (skip: PartLink): boolean => {
    const reached = new Set<number>();
    const seen = new Set<string>();
    const stack = allParts(byId.get(skip.cause)!).map((part) => ({ id: skip.cause, part }));
    while (stack.length > 0) {
      const { id, part } = stack.pop()!;
      for (const link of out.get(id) ?? []) {
        if (link === skip || !link.causeParts.includes(part)) continue;
        for (const next of link.effectParts) {
          const key = `${link.effect}#${next}`;
          if (seen.has(key)) continue;
          seen.add(key);
          if (link.effect === skip.effect) reached.add(next);
          stack.push({ id: link.effect, part: next });
        }
      }
    }
    return skip.effectParts.every((part) => reached.has(part));
  };
  return links.filter((link) => !implied(link));
}

/**
 * A root per finding with parts no kept link explains (only those parts: a degraded operator
 * nothing explains stays a root while another, explained, sits in a chain); under each node,
 * the links that rest on its parts.
 */
function roots(ordered: readonly Subject[], links: readonly PartLink[], byId: Map<string, Subject>): DiagnosisNode[] {
  const covered = new Map<string, Set<number>>();
  for (const link of links) for (const part of link.effectParts) covered.set(link.effect, (covered.get(link.effect) ?? new Set()).add(part));
  const children = (id: string, parts: readonly number[]): PartLink[] =>
    links
      .filter((l) => l.cause === id && l.causeParts.some((p) => parts.includes(p)))
      .sort((a, b) => bySeverityThenId(byId.get(a.effect)!, byId.get(b.effect)!));
  const build = (subject: Subject, parts: readonly number[], reason: string | undefined, path: Set<string>): DiagnosisNode => {
    path.add(subject.id);
    const whole = parts.length === subject.parts.length;
    const keys = new Set(parts.flatMap((p) => subject.parts[p]!.about.map(objectKey)));
    const since = whole ? subject.since : earliest(parts.map((p) => subject.parts[p]!.since)) ?? subject.since;
    const node: DiagnosisNode = {
      ruleId: subject.id,
      severity: subject.severity,
      title: subject.title,
      headline: subject.headline,
      about: whole ? subject.about : subject.about.filter((o) => keys.has(objectKey(o))),
      since,
      ...(whole ? {} : { partial: true }),
      reason,
      explains: children(subject.id, parts)
        .filter((l) => !path.has(l.effect))
        .map((l) => build(byId.get(l.effect)!, l.effectParts, l.reason, path)),
    };
    return node;
  };
  const isProblem = (severity: Severity): boolean => severityRank(severity) >= severityRank(PROBLEM_SEVERITY);
  const worst = (node: DiagnosisNode): number => Math.max(severityRank(node.severity), ...node.explains.map(worst));
  return ordered
    .flatMap((s) => {
      const open = allParts(s).filter((p) => !covered.get(s.id)?.has(p));
      return open.length > 0 ? [build(s, open, undefined, new Set())] : [];
    })
    .filter((node) => isProblem(node.severity) || worst(node) >= severityRank(PROBLEM_SEVERITY))
    .sort((a, b) => worst(b) - worst(a) || severityRank(b.severity) - severityRank(a.severity) || compare(a.ruleId, b.ruleId));
}

function earliest(times: readonly (number | undefined)[]): number | undefined {
  const known = times.filter((t): t is number => t !== undefined);
  return known.length > 0 ? Math.min(...known) : undefined;
}

function bySeverityThenId(a: { severity: Severity; id: string }, b: { severity: Severity; id: string }): number {
  return severityRank(b.severity) - severityRank(a.severity) || compare(a.id, b.id);
}

function sortLinks<T extends Link>(links: T[]): T[] {
  return links.sort((a, b) => compare(a.cause, b.cause) || compare(a.effect, b.effect));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
