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
 *     is about (a pool's message names the node A reports);
 *   - by time: a time of B's log or event evidence falls inside one of A's windows.
 */
import { severityRank, type Severity } from './findings.js';

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

/** What the join needs of one finding. */
export interface LinkSubject {
  /** The finding's id ({@link findingId}: its rule id, with its key for a rule with `per`). */
  id: string;
  /** Its rule's id, which `explains: rules` selects. */
  rule: string;
  title: string;
  severity: Severity;
  about: ObjectRef[];
  mentions: ObjectRef[];
  /** Epoch ms of the finding's log and event evidence (when things happened), for time joins. */
  times: number[];
  /** Epoch ms of its earliest timed evidence of any kind (a fact's start too): since when. */
  since?: number | undefined;
  windows: TimeWindow[];
  explains: ExplainsEntry[];
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
  /** Objects the finding is about. */
  about: ObjectRef[];
  /** Epoch ms of the finding's earliest timed evidence, when it has one. */
  since?: number | undefined;
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

/** Joins the findings, breaks cycles, keeps the longest chains, and finds the roots. */
export function joinFindings(subjects: readonly LinkSubject[]): Joined {
  const ordered = [...subjects].sort(bySeverityThenId);
  const byId = new Map(ordered.map((s) => [s.id, s]));
  const candidates: Link[] = [];
  for (const cause of ordered) {
    for (const effect of ordered) {
      if (cause.id === effect.id) continue;
      const reason = linkReason(cause, effect);
      if (reason !== undefined) candidates.push({ cause: cause.id, effect: effect.id, reason });
    }
  }
  const { links: acyclic, broken } = breakCycles(ordered, candidates);
  const links = reduceTransitive(acyclic);
  const diagnosis: Diagnosis = { roots: roots(ordered, links, byId), cyclesBroken: broken };
  return { links, diagnosis };
}

function linkReason(cause: LinkSubject, effect: LinkSubject): string | undefined {
  for (const entry of cause.explains) {
    const byRule = entry.rules.includes(effect.rule);
    const byKind = effect.about.some((o) => entry.kinds.includes(o.kind));
    if (!byRule && !byKind) continue;
    const found =
      entry.by === 'time' ? timeInWindow(cause.windows, effect.times) : sharedObject(cause.about, effect, byRule);
    if (found) return entry.because ?? found;
  }
  return undefined;
}

function sharedObject(causeAbout: readonly ObjectRef[], effect: LinkSubject, sameObject: boolean): string | undefined {
  const about = new Set(effect.about.map(objectKey));
  const mentioned = new Set(effect.mentions.map(objectKey));
  for (const ref of causeAbout) {
    if (sameObject && about.has(objectKey(ref))) return `both about ${describeObject(ref)}`;
  }
  for (const ref of causeAbout) {
    if (mentioned.has(objectKey(ref))) return `names ${describeObject(ref)}`;
  }
  return undefined;
}

function timeInWindow(windows: readonly TimeWindow[], times: readonly number[]): string | undefined {
  const sorted = [...times].sort((a, b) => a - b);
  for (const window of windows) {
    const inside = sorted.find((t) => t >= window.from && (window.to === undefined || t <= window.to));
    if (inside !== undefined) {
      const to = window.to === undefined ? 'collection' : isoMinute(window.to);
      return `at ${isoMinute(inside)}, inside ${window.label} (${isoMinute(window.from)} – ${to})`;
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
function breakCycles(ordered: readonly LinkSubject[], candidates: readonly Link[]): { links: Link[]; broken: string[] } {
  const out = new Map<string, Link[]>();
  for (const link of candidates) out.set(link.cause, [...(out.get(link.cause) ?? []), link]);
  const explained = new Set(candidates.map((l) => l.effect));
  const starts = [...ordered.filter((s) => !explained.has(s.id)), ...ordered.filter((s) => explained.has(s.id))];
  const state = new Map<string, 'open' | 'done'>();
  const kept: Link[] = [];
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

/** Drops A → C when A reaches C through another finding: the chain shows it A → B → C. */
function reduceTransitive(links: readonly Link[]): Link[] {
  const out = new Map<string, string[]>();
  for (const link of links) out.set(link.cause, [...(out.get(link.cause) ?? []), link.effect]);
  const reaches = (from: string, to: string, skip: Link): boolean => {
    const seen = new Set<string>();
    const stack = (out.get(from) ?? []).filter((next) => !(from === skip.cause && next === skip.effect));
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (id === to) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(out.get(id) ?? []));
    }
    return false;
  };
  return links.filter((link) => !reaches(link.cause, link.effect, link));
}

function roots(ordered: readonly LinkSubject[], links: readonly Link[], byId: Map<string, LinkSubject>): DiagnosisNode[] {
  const explained = new Set(links.map((l) => l.effect));
  const children = (id: string): Link[] =>
    links.filter((l) => l.cause === id).sort((a, b) => bySeverityThenId(byId.get(a.effect)!, byId.get(b.effect)!));
  const build = (subject: LinkSubject, reason: string | undefined, path: Set<string>): DiagnosisNode => {
    path.add(subject.id);
    const node: DiagnosisNode = {
      ruleId: subject.id,
      severity: subject.severity,
      title: subject.title,
      about: subject.about,
      since: subject.since,
      reason,
      explains: children(subject.id)
        .filter((l) => !path.has(l.effect))
        .map((l) => build(byId.get(l.effect)!, l.reason, path)),
    };
    return node;
  };
  const isProblem = (severity: Severity): boolean => severityRank(severity) >= severityRank(PROBLEM_SEVERITY);
  const worst = (node: DiagnosisNode): number => Math.max(severityRank(node.severity), ...node.explains.map(worst));
  return ordered
    .filter((s) => !explained.has(s.id))
    .map((s) => build(s, undefined, new Set()))
    .filter((node) => isProblem(node.severity) || worst(node) >= severityRank(PROBLEM_SEVERITY))
    .sort((a, b) => worst(b) - worst(a) || severityRank(b.severity) - severityRank(a.severity) || compare(a.ruleId, b.ruleId));
}

function bySeverityThenId(a: { severity: Severity; id: string }, b: { severity: Severity; id: string }): number {
  return severityRank(b.severity) - severityRank(a.severity) || compare(a.id, b.id);
}

function sortLinks(links: Link[]): Link[] {
  return links.sort((a, b) => compare(a.cause, b.cause) || compare(a.effect, b.effect));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
