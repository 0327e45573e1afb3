/**
 * The present wins: a log line or an event records that something failed at some moment; the
 * archive may show that the failure is over by the collection time (a later success of the same
 * object, the object's state now, or silence for long enough). Each rule says what resolves
 * its signals (`resolvedBy`); this module finds, for each piece of evidence, what resolved it.
 */
import type { Evidence } from './findings.js';
import type { EventSignal, LogSignal, Rule, Signal, SignalResolver } from './rule.js';
import { evaluateCondition, signalNames } from './condition.js';
import type { Template } from './templates.js';
import { formatDuration } from '../core/duration.js';
import { objectKey } from './diagnosis.js';

/** How a piece of evidence was shown over: when (epoch ms, when known) and by what (a line of evidence, or silence). */
export interface ItemResolution {
  at?: number | undefined;
  by: string;
}

interface ResolvableState<T extends Evidence> {
  signal: Signal;
  items: readonly T[];
  /** The latest time among the signal's items dropped past its evidence cap (objects unknown). */
  droppedLatest?: number | undefined;
}

export interface ResolutionContext<T extends Evidence> {
  collectedAt: number | undefined;
  /** Renders one of a resolver's object templates over the resolved item. */
  render: (template: Template, item: T) => string;
  /** The object a piece of evidence is about (an event's involved object, a log line's pod). */
  objectOf: (item: T) => Evidence['object'];
}

/** The items of `states` that some resolver of their signal shows over, each with how. */
export function resolvedItems<T extends Evidence>(states: readonly ResolvableState<T>[], context: ResolutionContext<T>): Map<T, ItemResolution> {
  const resolved = new Map<T, ItemResolution>();
  const itemsOf = (name: string): readonly T[] => states.find((s) => s.signal.name === name)?.items ?? [];
  for (const { signal, items, droppedLatest } of states) {
    if (signal.type !== 'log' && signal.type !== 'event') continue;
    let latest: Map<string, number> | undefined;
    for (const item of items) {
      // The earliest dated resolution says best since when the failure is over.
      let best: ItemResolution | undefined;
      for (const resolver of signal.resolution.resolvers) {
        const found =
          resolver.type === 'quiet'
            ? quietResolution(resolver.quietForMs, lastSeen(item, (latest ??= latestByObject(items, context)), droppedLatest, context), context.collectedAt)
            : signalResolution(resolver, item, itemsOf(resolver.signal), context);
        if (found && (!best || (found.at ?? Infinity) < (best.at ?? Infinity))) best = found;
      }
      // A failure dropped past the cap after the resolution may be this one again: not over.
      if (best && !(best.at !== undefined && droppedLatest !== undefined && droppedLatest > best.at)) resolved.set(item, best);
    }
  }
  return resolved;
}

/**
 * When the signal last showed the item's failure: the latest of its items about the same object
 * (a log line is one occurrence; a later line of the same pod means the failure was seen again;
 * `latest`: {@link latestByObject} of the signal's items), and of the items dropped past the
 * evidence cap, whose objects are not kept: a failure still repeating there is not quiet.
 */
function lastSeen<T extends Evidence>(item: T, latest: ReadonlyMap<string, number>, droppedLatest: number | undefined, context: ResolutionContext<T>): number | undefined {
  if (item.time === undefined) return undefined;
  const own = context.objectOf(item);
  return Math.max(item.time, droppedLatest ?? -Infinity, (own && latest.get(objectKey(own))) ?? -Infinity);
}

/** The latest time of the dated items about each object, by {@link objectKey}: one pass, not one per item. */
function latestByObject<T extends Evidence>(items: readonly T[], context: ResolutionContext<T>): Map<string, number> {
  const latest = new Map<string, number>();
  for (const item of items) {
    const object = context.objectOf(item);
    if (item.time === undefined || !object) continue;
    const key = objectKey(object);
    if (item.time > (latest.get(key) ?? -Infinity)) latest.set(key, item.time);
  }
  return latest;
}

/** Resolved when the last occurrence is at least `quietForMs` before the collection time (both times known). */
function quietResolution(quietForMs: number, lastTime: number | undefined, collectedAt: number | undefined): ItemResolution | undefined {
  if (lastTime === undefined || collectedAt === undefined || lastTime > collectedAt) return undefined;
  if (collectedAt - lastTime < quietForMs) return undefined;
  return { by: `not seen again in the ${formatDuration(collectedAt - lastTime)} before the collection (quiet for ${formatDuration(quietForMs)} or more counts as over)` };
}

/** The earliest piece of the resolver signal's evidence about the item's object (dated after it, when `later`). */
function signalResolution<T extends Evidence>(resolver: SignalResolver, item: T, candidates: readonly T[], context: ResolutionContext<T>): ItemResolution | undefined {
  const target = targetOf(resolver, item, context);
  if (!target) return undefined;
  let best: T | undefined;
  for (const candidate of candidates) {
    if (!sameObject(target, context.objectOf(candidate))) continue;
    if (resolver.later && (item.time === undefined || candidate.time === undefined || candidate.time <= item.time)) continue;
    if (!best || (candidate.time ?? Infinity) < (best.time ?? Infinity)) best = candidate;
  }
  if (!best) return undefined;
  // A state dated before the failure (`later: false`) says it is over now, not since when.
  const dated = best.time !== undefined && (item.time === undefined || best.time > item.time);
  return { at: dated ? best.time : undefined, by: best.text };
}

interface ObjectPattern {
  kind?: string | undefined;
  namespace?: string | undefined;
  name?: string | undefined;
}

/** What the resolving evidence must be about; undefined when a part renders empty (nothing to join on). */
function targetOf<T extends Evidence>(resolver: SignalResolver, item: T, context: ResolutionContext<T>): ObjectPattern | undefined {
  if (!resolver.object) {
    const own = context.objectOf(item);
    return own && exactly(own);
  }
  const pattern: ObjectPattern = {};
  for (const part of ['kind', 'namespace', 'name'] as const) {
    const template = resolver.object[part];
    if (!template) continue;
    const value = context.render(template, item).trim();
    if (value === '' || value.startsWith('(template error')) return undefined;
    pattern[part] = value;
  }
  return pattern;
}

/** A pattern only this object matches (a cluster-scoped one: only objects without a namespace). */
function exactly(object: NonNullable<Evidence['object']>): ObjectPattern {
  return { kind: object.kind, namespace: object.namespace ?? '', name: object.name };
}

function sameObject(pattern: ObjectPattern, object: Evidence['object']): boolean {
  if (!object) return false;
  if (pattern.kind !== undefined && pattern.kind !== object.kind) return false;
  if (pattern.namespace !== undefined && pattern.namespace !== (object.namespace ?? '')) return false;
  return pattern.name === undefined || pattern.name === object.name;
}

/**
 * The log and event signals that alone make the rule fire (every other signal read and
 * unmatched): what they record may be over by the collection time, so each must say what
 * resolves it (`resolvedBy`) or why it persists (`persists`).
 */
export function signalsFiringAlone(rule: Rule): (LogSignal | EventSignal)[] {
  return rule.signals.filter((signal): signal is LogSignal | EventSignal => {
    if (signal.type !== 'log' && signal.type !== 'event') return false;
    const only = (name: string): boolean => name === signal.name;
    return evaluateCondition(rule.condition, { truth: only, count: (name) => (only(name) ? Number.MAX_SAFE_INTEGER : 0) }) === true;
  });
}

/**
 * Signals a rule reads only to resolve others (named by a `resolvedBy`, in no condition): what
 * they match shows a failure over, it is not evidence of one. Derived once per rule.
 */
export function resolverOnlySignals(rule: Rule): ReadonlySet<string> {
  let names = resolverOnly.get(rule);
  if (!names) {
    const resolvers = rule.signals.flatMap((s) => (s.type === 'log' || s.type === 'event' ? s.resolution.resolvers : [])).flatMap((r) => (r.type === 'signal' ? [r.signal] : []));
    const decided = new Set([rule.condition, ...rule.severityWhen.flatMap((w) => (w.condition ? [w.condition] : []))].flatMap(signalNames));
    resolverOnly.set(rule, (names = new Set(resolvers.filter((name) => !decided.has(name)))));
  }
  return names;
}

const resolverOnly = new WeakMap<Rule, ReadonlySet<string>>();
