import { detachData, detachString } from '../core/detach.js';
import type { Need, ObjectPlace, ParallelConsumer } from '../ingest/consumer.js';
import type { ClassifiedEntry } from '../layout/types.js';
import { groupOf, identityKey, type K8sObject } from '../parsers/k8s.js';
import { parseLogLine } from '../parsers/logline.js';
import type { Facts } from '../facts/collector.js';
import { eventCount, eventTimes } from '../facts/events.js';
import { duringInstall } from '../facts/history.js';
import { factValue, factFile, describeMissingFact, MOMENT_FACTS, notGivenFor, type EngineFacts } from './facts-view.js';
import { evaluateCondition, type SignalValues } from './condition.js';
import { LogScanner, type CandidateLine } from './scan.js';
import type { EventSignal, EvidenceAge, FactSignal, LogSelector, LogSignal, ResourceSignal, Rule, Signal } from './rule.js';
import { findingId, type CheckedInPart, type DataNotGiven, type Evidence, type Finding, type NotApplicable, type NotChecked, type Passed } from './findings.js';
import { scopeOf } from './applies.js';
import { fieldValues, type FieldPath } from './field-path.js';
import { joinFindings, objectKey, type Diagnosis, type FindingPart, type LinkSubject, type ObjectRef, type TimeWindow } from './diagnosis.js';
import type { ObjectTemplate, WindowTemplate } from './rule.js';
import type { Template } from './templates.js';
import type { CelProgram } from './cel.js';
import { isVerbatimWord, literalsRequiredBy } from './cel-literals.js';
import { resolvedItems, resolverOnlySignals } from './resolution.js';
import { isoTime } from '../core/duration.js';
import { generatedHeadline, historyHeadline, oneLineHeadline } from './headline.js';
import type { RuleCosts } from './rule-costs.js';

/** What the signals matching one log line share: each regex's run, the line's parse. */
interface LineShared {
  runs: Map<RegExp, RegExpExecArray | null>;
  parsed: ReturnType<typeof parseLogLine> | undefined;
}

/** Detached copies of the objects held, by the parsed original: several signals often hold one object. */
const detachedObjects = new WeakMap<object, unknown>();

/** An item to keep: its own fields copied, its object copied once for every signal that holds it. */
function detached(item: Held): Held {
  const { data, ...own } = item;
  const copy: Held = detachData(own);
  if (data === undefined) return copy;
  if (typeof data !== 'object' || data === null) return { ...copy, data };
  let object = detachedObjects.get(data);
  if (object === undefined) detachedObjects.set(data, (object = detachData(data)));
  return { ...copy, data: object };
}

/** An event's fields the event signals read, taken once for all of them; its evidence text made when one holds it. */
class EventView {
  readonly reason: string;
  readonly message: string;
  readonly involved: Record<string, unknown>;
  readonly namespace: string | undefined;
  readonly kind: string;
  readonly objectName: string;
  private held: { key: string; time: number | undefined; prefix: string; text: string } | undefined;

  constructor(readonly event: K8sObject) {
    this.reason = stringField(event, 'reason');
    this.message = stringField(event, 'message') || stringField(event, 'note');
    this.involved = (event['involvedObject'] ?? event['regarding'] ?? {}) as Record<string, unknown>;
    this.namespace = event.metadata?.namespace ?? (this.involved['namespace'] as string | undefined);
    this.kind = String(this.involved['kind'] ?? '');
    this.objectName = String(this.involved['name'] ?? '');
  }

  evidence(): { key: string; time: number | undefined; prefix: string; text: string } {
    if (this.held) return this.held;
    const count = typeof this.event['count'] === 'number' ? ` (x${this.event['count']})` : '';
    const prefix = `${this.reason} ${this.kind}/${this.objectName}${count}: `;
    return (this.held = { key: identityKey(this.event), time: eventTimes(this.event).last, prefix, text: clip(prefix + this.message) });
  }
}

/**
 * What fact signals that share a `where` program or a summary template share for each fact item
 * (every signal sees the same facts): its verdict, its text.
 */
interface FactItemViews {
  verdicts: PairMemo<CelProgram, unknown, boolean>;
  texts: PairMemo<Template, unknown, string>;
}

/** Values made once per pair of keys. */
class PairMemo<A, B, V> {
  private readonly byFirst = new Map<A, Map<B, V>>();

  of(first: A, second: B, make: () => V): V {
    let inner = this.byFirst.get(first);
    if (!inner) this.byFirst.set(first, (inner = new Map()));
    if (inner.has(second)) return inner.get(second)!;
    const value = make();
    inner.set(second, value);
    return value;
  }
}

/** Longest evidence text kept (a log line can be much longer). */
const MAX_EVIDENCE_TEXT = 2000;

/** Evidence plus the matched object or fact item, for templates only (never in reports). */
interface Held extends Evidence {
  data?: unknown;
}

interface SignalState {
  /** Position in the engine's states (the same in every thread: the same rules in the same order). */
  index: number;
  rule: Rule;
  signal: Signal;
  /** The archive held data this signal could look at. */
  seen: boolean;
  items: Held[];
  dropped: number;
  /** The latest time among the items dropped past the cap: a failure still repeating there is not quiet. */
  droppedLatest?: number | undefined;
  /**
   * Keys of objects already taken (an object appears in a List file and its own file); in a worker
   * thread, already sent to the main thread, which keeps the first copy in archive order.
   */
  keys: Set<string>;
  /** A part of this signal's scope that could not be read: the rule cannot pass. */
  unread?: string | undefined;
  /** Namespaces (`''` for cluster-scoped files) where the input held data in this signal's scope. */
  gathered: Set<string>;
  /** Items whose failure was over by the collection time (`resolvedBy`): out of `items`, kept for history. */
  resolved: Held[];
}

/**
 * What one entry yields (see {@link ParallelConsumer}): the states it showed data for, and its
 * evidence in the order held. Past a rule's `maxEvidence` within the entry, log lines (never
 * de-duplicated) are only counted: the main thread would drop them all the same.
 */
export interface EngineTaken {
  seen: number[];
  held: ({ state: number; key: string | undefined; item: Held } | { state: number; dropped: number; latest?: number | undefined })[];
}

export interface EngineResult {
  findings: Finding[];
  notChecked: NotChecked[];
  /** Rules whose `applies` excludes this input or cluster: nothing of theirs can exist here. */
  notApplicable: NotApplicable[];
  checkedInPart: CheckedInPart[];
  passed: Passed[];
  diagnosis: Diagnosis;
}

/**
 * Evaluates rules in one streaming pass: each entry goes only to the signals whose scope
 * can match it; log bytes pass a literal prefilter before any regex runs; only evidence is
 * kept, capped per signal. Conditions, version scopes and templates are evaluated at the end.
 * The engine knows no single rule.
 */
export class RuleEngine implements ParallelConsumer<EngineTaken> {
  private readonly states: SignalState[] = [];
  private readonly logStates: SignalState[];
  /**
   * Log signals grouped by the files they read (rules often name the same containers): an
   * entry is tested once per group, so a rule added to a group adds nothing to the test.
   */
  private readonly logGroups: LogGroup[] = [];
  /** The groups whose selectors may take a log of a namespace (most name one), in order, made at the namespace's first log. */
  private readonly logGroupsOfNamespace = new Map<string | undefined, LogGroup[]>();
  /** The groups of the entry asked last: `text` reads the entry `need` was asked of. */
  private selected: { entry: ClassifiedEntry; groups: LogGroup[] } | undefined;
  /** The `gathered` set of every event signal: they share their scope, every event file. */
  private readonly eventsGathered = new Set<string>();
  /** Resource signals by the file (group and resource) that holds their objects. */
  private readonly resourcePlaces = new Map<string, ResourcePlace>();
  private readonly resourceStates: SignalState[];
  /** Resource signals by the kind of object they match. */
  private readonly resourceStatesByKind = new Map<string, SignalState[]>();
  private readonly eventStates: SignalState[];
  /**
   * The event signals an event of a reason meets, in rule order: those whose `reason` regex names
   * it exactly (`^(A|B)$`) and those that take any reason (the only ones for a reason none names).
   */
  private readonly eventStatesByReason = new Map<string, SignalState[]>();
  private readonly eventStatesAnyReason: SignalState[];
  private readonly stateOf = new Map<Signal, SignalState>();
  /** Signals written as one of an earlier rule's (see the constructor), each with that one, which matches for both. */
  private readonly twins: { twin: SignalState; first: SignalState }[] = [];
  /** Presence probes of log signals, and the state each one vouches for. */
  private readonly presenceOf = new Map<LogSignal, SignalState>();
  private scanner: { entry: ClassifiedEntry; scanner: LogScanner } | undefined;
  /** The file being read's last lines, per `tail` signal. */
  private readonly tails = new Map<SignalState, CandidateLine[]>();
  /** In a worker: what the current entry yields, with its unkeyed items per state. */
  private taken: { held: EngineTaken['held']; unkeyed: Map<number, number> } | undefined;

  constructor(
    private readonly rules: readonly Rule[],
    private readonly options: { maxLineBytes: number; bareInput: boolean; costs?: RuleCosts | undefined },
  ) {
    // Signals of one scope share one `gathered` set: an entry adds its namespace once however many rules read it.
    const gatheredOf = new Map<string, Set<string>>([['event', this.eventsGathered]]);
    for (const rule of rules) {
      for (const signal of rule.signals) {
        const scope = scopeKey(signal);
        const gathered = scope === undefined ? new Set<string>() : (gatheredOf.get(scope) ?? gatheredOf.set(scope, new Set()).get(scope)!);
        const state: SignalState = { index: this.states.length, rule, signal, seen: false, items: [], dropped: 0, keys: new Set(), gathered, resolved: [] };
        this.states.push(state);
        this.stateOf.set(signal, state);
        if (signal.type === 'log' && signal.presence) this.presenceOf.set(signal.presence, state);
      }
    }
    // Signals of several rules written alike (a user's copy of a built-in rule, rules that read one
    // object the same way) see the same data and, under the same cap, hold the same evidence: the
    // first matches, the others get a copy of what it held in `finish`.
    // By the written text first: the loader gives equal texts one string, whose hash V8 keeps, so
    // a long text is not joined into a new key (and hashed again) for each of thousands of signals.
    const firstOf = new Map<string, Map<string, SignalState>>();
    for (const state of this.states) {
      const { name, written } = state.signal;
      if (written === undefined) continue;
      const alike = firstOf.get(written) ?? firstOf.set(written, new Map()).get(written)!;
      const key = `${state.rule.maxEvidence}\0${name}`;
      const first = alike.get(key);
      if (first) this.twins.push({ twin: state, first });
      else alike.set(key, state);
    }
    const twinned = new Set(this.twins.map(({ twin }) => twin));
    const matching = this.states.filter((s) => !twinned.has(s));
    this.logStates = matching.filter((s) => s.signal.type === 'log');
    this.resourceStates = matching.filter((s) => s.signal.type === 'resource');
    this.eventStates = matching.filter((s) => s.signal.type === 'event');
    const reasonsOf = new Map(this.eventStates.map((state) => [state, exactAlternatives((state.signal as EventSignal).reason)]));
    this.eventStatesAnyReason = this.eventStates.filter((state) => reasonsOf.get(state) === undefined);
    for (const state of this.eventStates) for (const reason of reasonsOf.get(state) ?? []) this.eventStatesByReason.set(reason, []);
    for (const [reason, states] of this.eventStatesByReason) states.push(...this.eventStates.filter((state) => reasonsOf.get(state)?.includes(reason) ?? true));
    for (const state of this.resourceStates) {
      const signal = state.signal as ResourceSignal;
      for (const kind of signal.kinds) pushTo(this.resourceStatesByKind, kind, state);
      const scope = { namespace: signal.namespace, words: wordsRequiredBy(signal) };
      const scopeText = JSON.stringify(scope);
      for (const resource of signal.resources) {
        const key = placeKey(signal.group, resource);
        const place: ResourcePlace = this.resourcePlaces.get(key) ?? { states: [], scopes: new Map(), gathered: new Set() };
        place.states.push(state);
        place.scopes.set(scopeText, scope);
        place.gathered.add(state.gathered);
        this.resourcePlaces.set(key, place);
      }
    }
    const groupOf = new Map<string, LogGroup>();
    for (const state of this.logStates) {
      const files = (state.signal as LogSignal).files;
      const key = selectorsKey(files);
      let group = groupOf.get(key);
      if (!group) {
        groupOf.set(key, (group = { files, states: [], gathered: state.gathered }));
        this.logGroups.push(group);
      }
      group.states.push(state);
    }
  }

  need(entry: ClassifiedEntry): Need | undefined {
    if (isLog(entry)) {
      let wanted = false;
      for (const group of this.selectedLogGroups(entry)) {
        group.gathered.add(entry.namespace ?? '');
        wanted = true;
      }
      return wanted ? { text: true } : undefined;
    }
    if (entry.kind !== 'list' && entry.kind !== 'namespaced-object' && entry.kind !== 'cluster-object') return undefined;
    const place = entry.resource === undefined ? undefined : this.resourcePlaces.get(placeKey(entryGroup(entry), entry.resource));
    let wanted = false;
    // The words a file must hold for some signal to match in it; undefined when one needs none.
    let words: Set<string> | undefined = new Set();
    if (place) {
      for (const state of place.states) state.seen = true;
      for (const gathered of place.gathered) gathered.add(entry.namespace ?? '');
      for (const { namespace, words: required } of place.scopes.values()) {
        // A file of another namespace holds none of its objects (a file of every namespace, as gather-extra's lists, may).
        if (namespace !== undefined && entry.namespace !== undefined && entry.namespace !== namespace) continue;
        wanted = true;
        if (required === undefined) words = undefined;
        else for (const word of required) words?.add(word);
      }
    }
    if (isEventFile(entry) && this.eventStates.length > 0) {
      for (const state of this.eventStates) state.seen = true;
      this.eventsGathered.add(entry.namespace ?? '');
      wanted = true;
      words = undefined;
    }
    return wanted ? { objects: true, objectsIfContains: words && [...words] } : undefined;
  }

  /** An entry in the scope of some signals was not read (a limit, a failure): their rules cannot pass. */
  unread(entry: ClassifiedEntry, reason: string): void {
    for (const state of this.states) {
      if (state.unread === undefined && this.scopeHolds(state, entry)) state.unread = `${entry.path}: ${reason}`;
    }
  }

  /** The input stopped early: no log, object or event signal saw all of it. */
  truncated(at: string): void {
    for (const state of this.states) if (state.signal.type !== 'fact') state.unread ??= `the input was read only up to ${at}`;
  }

  private scopeHolds(state: SignalState, entry: ClassifiedEntry): boolean {
    const signal = state.signal;
    if (signal.type === 'log') return isLog(entry) && selects(signal.files, entry, this.options.bareInput);
    if (signal.type === 'resource') return holdsResource(entry, signal);
    if (signal.type === 'event') return isEventFile(entry);
    return false;
  }

  private selectedLogGroups(entry: ClassifiedEntry): LogGroup[] {
    if (this.selected?.entry === entry) return this.selected.groups;
    const { namespace } = entry;
    let candidates = this.logGroupsOfNamespace.get(namespace);
    if (!candidates) {
      candidates = this.logGroups.filter((group) => group.files.some((s) => s.bare || s.namespace === undefined || s.namespace === namespace));
      this.logGroupsOfNamespace.set(namespace, candidates);
    }
    const groups = candidates.filter((group) => selects(group.files, entry, this.options.bareInput));
    this.selected = { entry, groups };
    return groups;
  }

  text(chunk: Buffer, entry: ClassifiedEntry): void {
    if (this.scanner?.entry !== entry) {
      const active = this.selectedLogGroups(entry).flatMap((group) => group.states);
      const signals: LogSignal[] = [];
      for (const state of active) {
        const signal = state.signal as LogSignal;
        signals.push(signal);
        if (signal.presence) signals.push(signal.presence);
        else state.seen = true;
      }
      this.scanner = { entry, scanner: new LogScanner(signals, this.options.maxLineBytes, (line) => this.matchLine(line, entry)) };
    }
    this.scanner.scanner.push(chunk);
  }

  endText(entry: ClassifiedEntry): void {
    if (this.scanner?.entry === entry) this.scanner.scanner.end();
    this.scanner = undefined;
    for (const [state, lines] of this.tails) this.hold(state, undefined, tailItem(state.signal.name, lines, entry));
    this.tails.clear();
  }

  /** A `tail` signal's latest lines of the file being read, held as one item at its end (see {@link tailItem}). */
  private keepTail(state: SignalState, size: number, line: CandidateLine): void {
    let lines = this.tails.get(state);
    if (!lines) this.tails.set(state, (lines = []));
    lines.push(line);
    if (lines.length > size) lines.shift();
  }

  private matchLine(line: CandidateLine, entry: ClassifiedEntry): void {
    // Rules that share a regex (see `compiledRegex`) share its run on the line, and its parse.
    const shared: LineShared = { runs: new Map(), parsed: undefined };
    const costs = this.options.costs;
    for (const signal of line.signals) {
      const started = costs?.now();
      this.matchSignalOnLine(signal, line, entry, shared);
      if (started !== undefined) costs!.charge((this.stateOf.get(signal) ?? this.presenceOf.get(signal))!.rule.id, started);
    }
  }

  private matchSignalOnLine(signal: LogSignal, line: CandidateLine, entry: ClassifiedEntry, shared: LineShared): void {
    let match = shared.runs.get(signal.regex);
    if (match === undefined) shared.runs.set(signal.regex, (match = signal.regex.exec(line.text)));
    if (!match) return;
    const vouched = this.presenceOf.get(signal);
    if (vouched) {
      vouched.seen = true;
      return;
    }
    const state = this.stateOf.get(signal)!;
    // A tail signal's lines are parsed only once kept: most lines of a file are not its last.
    if (signal.tail !== undefined && !signal.levels) return this.keepTail(state, signal.tail, line);
    const parsed = (shared.parsed ??= parseLogLine(line.text, line.lineNo));
    if (signal.levels && (!parsed.klog || !signal.levels.has(parsed.klog.level))) return;
    if (signal.tail !== undefined) return this.keepTail(state, signal.tail, line);
    this.hold(state, undefined, {
      signal: signal.name,
      file: entry.path,
      line: line.lineNo,
      time: lineTime(parsed),
      text: clip(line.text),
      match: [match.index, match.index + match[0].length],
      captures: match.groups ? { ...match.groups } : undefined,
      namespace: entry.namespace,
      pod: entry.pod,
      container: entry.container,
    });
  }

  object(object: K8sObject, entry: ClassifiedEntry, place: ObjectPlace): void {
    const kind = object.kind;
    const events = kind === 'Event' && isEventFile(entry);
    const states = kind === undefined ? undefined : this.resourceStatesByKind.get(kind);
    if (!events && !states) return;
    const costs = this.options.costs;
    // Rules that share a `where` expression share its program: it runs once per object.
    let verdicts: Map<CelProgram, boolean> | undefined;
    const holds = (where: CelProgram): boolean => {
      verdicts ??= new Map();
      let verdict = verdicts.get(where);
      if (verdict === undefined) verdicts.set(where, (verdict = where({ object })));
      return verdict;
    };
    // And a summary template, its text.
    let summaries: Map<Template, string> | undefined;
    const summary = (template: Template): string => {
      summaries ??= new Map();
      let text = summaries.get(template);
      if (text === undefined) summaries.set(template, (text = clip(safeRender(template, { object }))));
      return text;
    };
    const candidates = events ? (this.eventStatesByReason.get(stringField(object, 'reason')) ?? this.eventStatesAnyReason) : [];
    if (candidates.length > 0) {
      // Signals that share a message regex share its run on the event, as log lines do, and all
      // of them its fields and its evidence text.
      const runs = new Map<RegExp, RegExpExecArray | null>();
      const view = new EventView(object);
      for (const state of candidates) {
        const started = costs?.now();
        this.matchEvent(state, view, entry, place, holds, runs);
        if (started !== undefined) costs!.charge(state.rule.id, started);
      }
    }
    if (!states || kind === undefined) return;
    const group = groupOf(object) ?? '';
    for (const state of states) {
      if (group !== (state.signal as ResourceSignal).group) continue;
      const started = costs?.now();
      this.matchResource(state, object, kind, entry, place, holds, summary);
      if (started !== undefined) costs!.charge(state.rule.id, started);
    }
  }

  private matchResource(
    state: SignalState,
    object: K8sObject,
    kind: string,
    entry: ClassifiedEntry,
    place: ObjectPlace,
    holds: (where: CelProgram) => boolean,
    summary: (template: Template) => string,
  ): void {
    const signal = state.signal as ResourceSignal;
    const meta = object.metadata ?? {};
    if (signal.namespace !== undefined && meta.namespace !== signal.namespace) return;
    if (signal.objectName !== undefined && meta.name !== signal.objectName) return;
    if (signal.where && !holds(signal.where)) return;
    const captured = signal.match ? matchField(object, signal.match) : {};
    if (signal.match?.required && captured === undefined) return;
    const name = meta.name ?? '';
    const time = signal.since ? earliestTime(fieldValues(object, signal.since)) : undefined;
    // The summary is rendered only for an item kept: most copies of an object (a List and its own
    // file, two image folders) and matches past maxEvidence are not.
    this.holdMade(state, identityKey(object), time, () => ({
      signal: signal.name,
      file: entry.path,
      line: place.line,
      time,
      text: signal.summary ? summary(signal.summary) : clip(`${kind} ${meta.namespace ? `${meta.namespace}/` : ''}${name}`),
      object: { kind, namespace: meta.namespace, name },
      captures: { ...captured, kind, name, namespace: meta.namespace ?? '' },
      data: object,
    }));
  }

  private matchEvent(
    state: SignalState,
    view: EventView,
    entry: ClassifiedEntry,
    place: ObjectPlace,
    holds: (where: CelProgram) => boolean,
    runs: Map<RegExp, RegExpExecArray | null>,
  ): void {
    const signal = state.signal as EventSignal;
    const { event, reason, message, involved, namespace, kind, objectName } = view;
    if (signal.namespace !== undefined && namespace !== signal.namespace) return;
    if (signal.involvedKind !== undefined && involved['kind'] !== signal.involvedKind) return;
    const named = signal.involvedName?.exec(objectName);
    if (named === null) return;
    if (signal.literal && !message.includes(signal.literal)) return;
    if (signal.reason && !signal.reason.test(reason)) return;
    let match: RegExpExecArray | null = null;
    if (signal.message) {
      match = runs.get(signal.message) ?? null;
      if (!runs.has(signal.message)) runs.set(signal.message, (match = signal.message.exec(message)));
      if (!match) return;
    }
    if (signal.countAbove !== undefined && eventCount(event) <= signal.countAbove) return;
    if (signal.where && !holds(signal.where)) return;
    const { key, time, prefix, text } = view.evidence();
    this.hold(state, key, {
      signal: signal.name,
      file: entry.path,
      line: place.line,
      time,
      text,
      match: match ? [prefix.length + match.index, prefix.length + match.index + match[0].length] : undefined,
      captures: { reason, namespace: namespace ?? '', name: objectName, kind, ...definedGroups(named), ...(match?.groups ?? {}) },
      // The involved object's own namespace: an event about a Node is recorded in `default`, and the Node has none.
      object: { kind, namespace: involved['namespace'] as string | undefined, name: objectName },
      data: event,
    });
  }

  keepEntriesApart(): void {
    this.taken = { held: [], unkeyed: new Map() };
  }

  takeEntry(): EngineTaken {
    const seen: number[] = [];
    for (const state of this.states) {
      if (!state.seen) continue;
      seen.push(state.index);
      state.seen = false;
    }
    const held = this.taken?.held.splice(0) ?? [];
    this.taken?.unkeyed.clear();
    return { seen, held };
  }

  mergeEntry(taken: EngineTaken): void {
    for (const index of taken.seen) this.states[index]!.seen = true;
    for (const record of taken.held) {
      const state = this.states[record.state]!;
      if ('dropped' in record) this.drop(state, record.dropped, record.latest);
      else this.hold(state, record.key, record.item);
    }
  }

  private hold(state: SignalState, key: string | undefined, item: Held): void {
    this.holdMade(state, key, item.time, () => item);
  }

  /** Holds the item `make` makes, made only if it is kept; `time` dates it when it is dropped past the cap. */
  private holdMade(state: SignalState, key: string | undefined, time: number | undefined, make: () => Held): void {
    // Another copy of an object this thread took before: on the main thread it was kept or
    // dropped; in a worker it was sent, in an earlier entry, which the main thread merges first.
    if (key !== undefined) {
      if (state.keys.has(key)) return;
      state.keys.add(detachString(key));
    }
    if (this.taken) {
      this.takeHeld(this.taken, state, key, make());
      return;
    }
    if (state.items.length >= state.rule.maxEvidence) this.drop(state, 1, time);
    // Kept to the end of the run: it must not keep the file it was parsed from.
    else state.items.push(detached(make()));
  }

  private drop(state: SignalState, count: number, latest: number | undefined): void {
    state.dropped += count;
    state.droppedLatest = latestOf([state.droppedLatest, latest]);
  }

  private takeHeld(taken: NonNullable<RuleEngine['taken']>, state: SignalState, key: string | undefined, item: Held): void {
    if (key === undefined) {
      const count = (taken.unkeyed.get(state.index) ?? 0) + 1;
      taken.unkeyed.set(state.index, count);
      if (count > state.rule.maxEvidence) {
        const last = taken.held[taken.held.length - 1];
        if (last && 'dropped' in last && last.state === state.index) {
          last.dropped++;
          last.latest = latestOf([last.latest, item.time]);
        } else taken.held.push({ state: state.index, dropped: 1, latest: item.time });
        return;
      }
    }
    taken.held.push({ state: state.index, key, item });
  }

  /** Evaluates facts, conditions and scopes, and builds findings. */
  finish(facts: EngineFacts): EngineResult {
    const costs = this.options.costs;
    // Each twin gets its own copy of every item: a rule's resolution marks its items. A fact
    // signal's twin, once the first is evaluated.
    const factTwins = this.twins.filter(({ twin }) => twin.signal.type === 'fact');
    for (const { twin, first } of this.twins) if (twin.signal.type !== 'fact') copyHeld(twin, first);
    const twinned = new Set(factTwins.map(({ twin }) => twin));
    const factItems: FactItemViews = { verdicts: new PairMemo(), texts: new PairMemo() };
    for (const state of this.states) {
      if (state.signal.type === 'fact') {
        if (twinned.has(state)) continue;
        const started = costs?.now();
        this.evaluateFact(state, facts, factItems);
        if (started !== undefined) costs!.charge(state.rule.id, started);
      }
      else if (state.signal.type === 'resource' && state.signal.age) state.items = state.items.filter((item) => ageHolds((state.signal as ResourceSignal).age, item.time, facts.collectedAt));
      else if (state.signal.type === 'log' && state.signal.afterInstall) {
        const { settleMs } = state.signal.afterInstall;
        state.items = state.items.filter((item) => loggedAfterInstall(item.time, facts.history?.install?.completionTime, settleMs));
      }
      else if (state.signal.type === 'event') {
        const signal = state.signal;
        if (signal.afterInstall) state.items = state.items.filter((item) => seenAfterInstall(item.data, facts.history?.install?.completionTime));
        if (signal.age) state.items = state.items.filter((item) => ageHolds(signal.age, item.time, facts.collectedAt));
      }
    }
    for (const { twin, first } of factTwins) copyHeld(twin, first);
    const result: EngineResult = { findings: [], notChecked: [], notApplicable: [], checkedInPart: [], passed: [], diagnosis: { roots: [], cyclesBroken: [] } };
    // `oc adm inspect` holds only what it was asked for: a signal of one namespace saw nothing of
    // it when that namespace was not gathered (a must-gather lacks a platform namespace only when
    // it does not exist).
    const partial = facts.layout === 'inspect';
    if (partial) for (const state of this.states) if (namespaceNotGathered(state)) state.seen = false;
    const subjects: LinkSubject[] = [];
    const holds = heldObjects(this.states, facts);
    for (const rule of this.rules) {
      const started = costs?.now();
      this.finishRule(rule, facts, holds, partial, result, subjects);
      if (started !== undefined) costs!.charge(rule.id, started);
    }
    const joined = joinFindings(subjects);
    for (const finding of result.findings) {
      const id = findingId(finding);
      finding.explains = joined.links.filter((l) => l.cause === id).map((l) => l.effect);
      finding.explainedBy = joined.links.filter((l) => l.effect === id).map((l) => l.cause);
    }
    result.diagnosis = joined.diagnosis;
    return result;
  }

  /** A rule's verdict from its signals' states: findings, history, passed or not checked, into `result`. */
  private finishRule(rule: Rule, facts: EngineFacts, holds: Holds, partial: boolean, result: EngineResult, subjects: LinkSubject[]): void {
    const scope = scopeOf(rule.applies, facts);
    if (scope.notApplicable) {
      result.notApplicable.push({ ruleId: rule.id, title: rule.title, component: rule.component, reason: scope.notApplicable });
      return;
    }
    const states = rule.signals.map((signal) => this.stateOf.get(signal)!);
    setResolvedApart(states, facts.collectedAt);
    const values = valuesOf(states);
    const verdict = evaluateCondition(rule.condition, values);
    const findings = verdict === true ? this.findingsOf(rule, states, values, facts, holds, scope.caveat) : [];
    const history = this.historyOf(rule, states, findings, facts, holds, scope.caveat);
    result.findings.push(...history);
    // Nothing found: does the verdict hold whatever the parts not read or not gathered would have held?
    const unread = verdict === false ? restsOn(rule, states, (s) => s.unread !== undefined) : [];
    const notGathered = verdict === false && unread.length === 0 && partial ? restsOn(rule, states, (s) => notGatheredPart(s) !== undefined) : [];
    if (unread.length > 0) {
      result.notChecked.push({ ruleId: rule.id, title: rule.title, component: rule.component, reason: `part of its input was not read: ${unread[0]!.unread!}` });
    } else if (notGathered.length > 0) {
      const parts = [...new Set(notGathered.map((s) => notGatheredPart(s)!))];
      result.checkedInPart.push({ ruleId: rule.id, title: rule.title, component: rule.component, reason: `nothing found in what was gathered, but ${parts.join('; ')} (an oc adm inspect holds only what it was asked for)` });
    } else if (verdict === false || (verdict === true && findings.length === 0)) {
      if (history.length === 0) result.passed.push({ ruleId: rule.id, title: rule.title, component: rule.component });
    } else if (verdict === 'unknown') {
      if (history.length > 0) return;
      const unknown = states.filter((s) => values.truth(s.signal.name) === 'unknown').map((s) => s.signal);
      const missing = missingData(unknown, facts);
      const notGiven = dataNotGiven(unknown, facts);
      result.notChecked.push({ ruleId: rule.id, title: rule.title, component: rule.component, reason: `the archive lacks ${missing.join('; ')}`, ...(notGiven ? { notGiven } : {}) });
    } else {
      for (const { finding, subject } of findings) {
        result.findings.push(finding);
        subjects.push(subject);
      }
    }
  }

  private findingsOf(rule: Rule, states: SignalState[], values: SignalValues, facts: EngineFacts, holds: Holds, caveat: string | undefined): { finding: Finding; subject: LinkSubject }[] {
    return rule.per ? this.perKey(rule, states, facts, holds, caveat) : [this.buildFinding(rule, states, values, facts, holds, caveat)];
  }

  /**
   * What the rule would have found with the evidence shown over by the collection time, where
   * the present evidence finds nothing: history, at info, in no chain of the diagnosis.
   */
  private historyOf(rule: Rule, states: SignalState[], present: readonly { finding: Finding }[], facts: EngineFacts, holds: Holds, caveat: string | undefined): Finding[] {
    if (states.every((s) => s.resolved.length === 0)) return [];
    const whole = states.map((s) => ({ ...s, items: [...s.items, ...s.resolved] }));
    const values = valuesOf(whole);
    if (evaluateCondition(rule.condition, values) !== true) return [];
    const presentIds = new Set(present.map(({ finding }) => findingId(finding)));
    // When the failures dropped past the evidence cap were last seen: a history's "last seen" counts them.
    const droppedLatest = latestOf(states.filter((s) => s.resolved.length > 0).map((s) => s.droppedLatest));
    return this.findingsOf(rule, whole, values, facts, holds, caveat)
      .map(({ finding }) => finding)
      .filter((finding) => !presentIds.has(findingId(finding)) && finding.evidence.some((e) => e.resolved))
      .map((finding) => asHistory(finding, droppedLatest));
  }

  /**
   * `per`: the evidence of every signal grouped by its rendered key, and the condition and
   * severity evaluated on each group alone: one finding per group whose condition holds.
   * Items whose key renders empty are context shared by every group; when no item has a key,
   * the rule makes one finding as without `per`.
   */
  private perKey(rule: Rule, states: SignalState[], facts: EngineFacts, holds: Holds, caveat: string | undefined): { finding: Finding; subject: LinkSubject }[] {
    const per = rule.per!;
    const keyed = states.map((state) => {
      const byKey = new Map<string, Held[]>();
      const shared: Held[] = [];
      for (const item of state.items) {
        const key = safeRender(per, templateItem(item)).trim();
        if (key === '') shared.push(item);
        else if (byKey.has(key)) byKey.get(key)!.push(item);
        else byKey.set(key, [item]);
      }
      return { state, byKey, shared };
    });
    const keys = [...new Set(keyed.flatMap((k) => [...k.byKey.keys()]))];
    if (keys.length === 0) return [this.buildFinding(rule, states, valuesOf(states), facts, holds, caveat)];
    const findings: { finding: Finding; subject: LinkSubject }[] = [];
    for (const key of keys) {
      const group = keyed.map(({ state, byKey, shared }) => ({ ...state, items: [...shared, ...(byKey.get(key) ?? [])], dropped: 0 }));
      const values = valuesOf(group);
      if (evaluateCondition(rule.condition, values) !== true) continue;
      findings.push(this.buildFinding(rule, group, values, facts, holds, caveat, key));
    }
    return findings;
  }

  private evaluateFact(state: SignalState, facts: EngineFacts, shared: FactItemViews): void {
    const signal = state.signal as FactSignal;
    const value = factValue(facts, signal.fact);
    if (value === undefined) return;
    state.seen = true;
    const items = Array.isArray(value) ? value : [value];
    const context = { facts, cluster: facts.cluster ?? {} };
    const { where, summary } = signal;
    for (const item of items) {
      if (where && !shared.verdicts.of(where, item, () => where({ ...context, item }))) continue;
      const text = summary ? shared.texts.of(summary, item, () => safeRender(summary, { ...context, item })) : summarize(item);
      this.hold(state, undefined, {
        signal: signal.name,
        file: factFile(facts, signal.fact, item),
        line: lineOfItem(item),
        time: timeOfItem(item),
        text: clip(text),
        object: objectOfItem(item),
        data: item,
      });
    }
  }

  private buildFinding(
    rule: Rule,
    states: SignalState[],
    values: SignalValues,
    facts: Facts,
    holds: Holds,
    caveat: string | undefined,
    key?: string,
  ): { finding: Finding; subject: LinkSubject } {
    // What resolver-only signals match shows failures over: not this finding's evidence.
    const resolversOnly = resolverOnlySignals(rule);
    const matched = states.filter((s) => values.truth(s.signal.name) === true && !resolversOnly.has(s.signal.name));
    const signals: Record<string, unknown> = {};
    // Each item's template view made once: the evidence lists the matched signals' items again.
    const views = new Map<SignalState, Record<string, unknown>[]>();
    for (const state of states) {
      const items = state.items.map(templateItem);
      views.set(state, items);
      signals[state.signal.name] = { matched: state.items.length > 0, count: state.items.length + state.dropped, items, first: items[0] };
    }
    const evidence = matched.flatMap((s) => views.get(s)!);
    const context = { rule: { id: rule.id, title: rule.title }, cluster: facts.cluster ?? {}, facts, signals, evidence, collectedAt: facts.collectedAt };
    const severity =
      rule.severityWhen.find((s) => (s.condition === undefined || evaluateCondition(s.condition, values) === true) && (s.youngMs === undefined || allYoung(matched, facts.collectedAt, s.youngMs)))
        ?.severity ?? rule.severity;
    const itemsOf = (signal: string): Held[] => states.find((s) => s.signal.name === signal)?.items ?? [];
    const about = objectsOf(rule.about, itemsOf, context, holds);
    const parts = partsOf(rule, matched, context, holds);
    const since = earliestOf(parts.map((p) => p.since));
    // To the second: a headline is a sentence, not a log line.
    const headline = headlineOf(rule, { ...context, about, since: since === undefined ? undefined : Math.floor(since / 1000) * 1000 });
    const subject: LinkSubject = {
      id: findingId({ ruleId: rule.id, key }),
      rule: rule.id,
      title: rule.title,
      headline,
      severity,
      about,
      mentions: objectsOf(rule.mentions, itemsOf, context, holds),
      times: matched.filter(joinsByTime).flatMap((s) => s.items.flatMap((i) => (i.time === undefined ? [] : [i.time]))),
      since,
      windows: windowsOf(rule.windows, itemsOf, context),
      explains: rule.explains,
      parts,
    };
    const message = safeRender(rule.message, context);
    const finding: Finding = {
      ruleId: rule.id,
      severity,
      title: rule.title,
      headline,
      component: rule.component,
      tags: rule.tags,
      message: caveat ? `${caveat}.\n${message}` : message,
      remediation: rule.remediation ? safeRender(rule.remediation, context) : '',
      references: [...new Set(rule.references.map((r) => safeRender(r, context).trim()).filter((r) => r !== ''))],
      evidence: matched.flatMap((s) => s.items.map(({ data: _data, ...plain }) => dropUndefined(plain))),
      evidenceDropped: matched.reduce((n, s) => n + s.dropped, 0),
      banner: rule.banner ? safeRender(rule.banner, context) || undefined : undefined,
      caveat,
      about,
      explains: [],
      explainedBy: [],
      ...(key !== undefined ? { key } : {}),
    };
    return { finding, subject };
  }
}

/**
 * Moves the evidence some resolver shows over (see `resolvedBy`) out of each state's items,
 * marked with what resolved it. Resolvers read the other states' items as they stand.
 */
function setResolvedApart(states: SignalState[], collectedAt: number | undefined): void {
  const resolved = resolvedItems(states, {
    collectedAt,
    render: (template, item) => safeRender(template, templateItem(item)),
    objectOf: evidenceObject,
  });
  if (resolved.size === 0) return;
  for (const state of states) {
    const over = state.items.filter((item) => resolved.has(item));
    if (over.length === 0) continue;
    for (const item of over) item.resolved = resolved.get(item);
    state.items = state.items.filter((item) => !resolved.has(item));
    state.resolved = over;
  }
}

/** A finding made of evidence shown over by the collection time, as history: info, its times, what resolved it; no remediation, no links. */
function asHistory(finding: Finding, droppedLatest: number | undefined): Finding {
  const over = finding.evidence.filter((e) => e.resolved);
  const lastSeen = latestOf([...over.map((e) => e.time), droppedLatest]);
  const at = latestOf(over.map((e) => e.resolved?.at));
  const when = [lastSeen !== undefined ? `last seen ${isoTime(lastSeen)}` : '', at !== undefined ? `over by ${isoTime(at)}` : ''].filter(Boolean).join(', ');
  const lines = over.slice(0, HISTORY_LINES_SHOWN).map((e) => `- ${e.text}\n  resolved${e.resolved!.at !== undefined ? ` ${isoTime(e.resolved!.at)}` : ''}: ${e.resolved!.by}`);
  const more = over.length - lines.length;
  const message = [
    `Resolved before the collection${when ? ` (${when})` : ''}: history, not a present failure. What the archive showed, and what shows it over:`,
    ...lines,
    ...(more > 0 ? [`- and ${more} more, each with what resolved it in the evidence`] : []),
  ].join('\n');
  return {
    ...finding,
    severity: 'info',
    headline: historyHeadline(finding.headline),
    message: finding.caveat ? `${finding.caveat}.\n${message}` : message,
    remediation: '',
    resolved: { lastSeen, at },
    explains: [],
    explainedBy: [],
  };
}

/**
 * The rule's headline over the message's context with the finding's objects (`about`) and since
 * when (`since`), on one line; generated from those where the rule has none or it renders empty.
 * A template that fails shows its error, as a message does (`rules test` reports it).
 */
function headlineOf(rule: Rule, context: { about: ObjectRef[]; since: number | undefined }): string {
  const rendered = rule.headline ? oneLineHeadline(safeRender(rule.headline, context)) : '';
  return rendered !== '' ? rendered : generatedHeadline(rule.title, context.about, context.since);
}

/** Resolved pieces of evidence a history finding's message lists (the evidence holds them all). */
const HISTORY_LINES_SHOWN = 10;

function latestOf(times: readonly (number | undefined)[]): number | undefined {
  const known = times.filter((t): t is number => t !== undefined);
  return known.length > 0 ? Math.max(...known) : undefined;
}

/** Every piece of resource evidence that says since when (at least one) began less than `youngMs` before the collection time. */
function allYoung(matched: readonly SignalState[], collectedAt: number | undefined, youngMs: number): boolean {
  const timed = matched.filter((s) => s.signal.type === 'resource' && s.signal.since !== undefined).flatMap((s) => s.items);
  return timed.length > 0 && timed.every((item) => {
    const age = ageAt(item.time, collectedAt);
    return age !== undefined && age < youngMs;
  });
}

/**
 * How long before the collection time something began; undefined when either time is unknown,
 * or when it is dated after the collection (a snapshot assembled from several moments, or a
 * clock skewed): such an age says nothing.
 */
function ageAt(since: number | undefined, collectedAt: number | undefined): number | undefined {
  if (since === undefined || collectedAt === undefined || since > collectedAt) return undefined;
  return collectedAt - since;
}

/** Whether evidence that began at `since` has the signal's `age` at the collection time (see {@link EvidenceAge}). */
function ageHolds(evidenceAge: EvidenceAge | undefined, since: number | undefined, collectedAt: number | undefined): boolean {
  const { atLeastMs, underMs } = evidenceAge ?? {};
  const age = ageAt(since, collectedAt);
  // Begun after the collection (a Terminating pod's deletionTimestamp is the request plus its grace period): not that old.
  if (atLeastMs !== undefined && since !== undefined && collectedAt !== undefined && since > collectedAt) return false;
  if (atLeastMs !== undefined && age !== undefined && age < atLeastMs) return false;
  if (underMs !== undefined && (age === undefined || age >= underMs)) return false;
  return true;
}

/** Whether a line logged at `time` counts after the install completed at `installed` and settled for `settleMs`; true when either time is unknown. */
function loggedAfterInstall(time: number | undefined, installed: number | undefined, settleMs: number): boolean {
  return time === undefined || installed === undefined || time > installed + settleMs;
}

/** Whether an event counts after the install completed at `installed` (epoch ms); true when either time is unknown. */
function seenAfterInstall(event: unknown, installed: number | undefined): boolean {
  if (event === undefined) return true;
  const { first, last } = eventTimes(event as K8sObject);
  // Begun while the cluster assembled itself, but still repeating well after: no install noise.
  return !duringInstall(first, last, installed);
}

/**
 * Every match of the regex over the field's values; each named group's distinct values joined
 * with ", ". Undefined when nothing matched.
 */
function matchField(object: K8sObject, match: { path: FieldPath; regex: RegExp }): Record<string, string> | undefined {
  const found = new Map<string, string[]>();
  let any = false;
  for (const value of fieldValues(object, match.path)) {
    for (const m of value.matchAll(match.regex)) {
      any = true;
      for (const [name, captured] of Object.entries(m.groups ?? {})) {
        if (captured === undefined || captured === '') continue;
        const list = found.get(name) ?? [];
        if (!list.includes(captured)) list.push(captured);
        found.set(name, list);
      }
    }
  }
  if (!any) return undefined;
  return Object.fromEntries([...found].map(([name, values]) => [name, values.join(', ')]));
}

/** Whether the input holds an object (see {@link heldObjects}). */
type Holds = (ref: ObjectRef) => boolean;

/**
 * Whether the input holds an object, so that a fixed `about` / `mentions` entry (one without a
 * signal, naming an object whatever the evidence) names only what the archive has: a rule's entry
 * for an Insights recommendation says nothing when the archive holds no Insights data. Held: an
 * object some evidence or fact item is, the Namespace of a namespaced one, and any object of a
 * kind some resource signal read files of. The engine reads only the kinds signals want, so a
 * kind none reads is held only as evidence or a fact item shows it. An entry over a signal's
 * items names what that evidence names (a pod in a refused eviction's log line) and stays.
 */
function heldObjects(states: readonly SignalState[], facts: EngineFacts): Holds {
  const kinds = new Set<string>();
  const objects = new Set<string>();
  /** Facts whose items were added: several signals read one fact. */
  const factsAdded = new Set<string>();
  const add = (ref: ObjectRef | undefined): void => {
    if (!ref) return;
    objects.add(objectKey(ref));
    if (ref.namespace) objects.add(objectKey({ kind: 'Namespace', name: ref.namespace }));
  };
  for (const state of states) {
    const signal = state.signal;
    if (signal.type === 'resource' && state.seen) for (const kind of signal.kinds) kinds.add(kind);
    if (signal.type === 'fact' && !factsAdded.has(signal.fact)) {
      factsAdded.add(signal.fact);
      const value = factValue(facts, signal.fact);
      for (const item of Array.isArray(value) ? value : [value]) add(objectOfItem(item));
    }
    for (const item of state.items) add(evidenceObject(item));
  }
  return (ref) => kinds.has(ref.kind) || objects.has(objectKey(ref));
}

/** The objects of `about` / `mentions` entries, rendered per evidence item or once for the finding (then only those the input holds). */
function objectsOf(entries: readonly ObjectTemplate[], itemsOf: (signal: string) => Held[], context: object, holds: Holds): ObjectRef[] {
  const refs = new Map<string, ObjectRef>();
  for (const entry of entries) {
    const rendered =
      entry.signal === undefined ? renderObjects(entry, context, undefined).filter(holds) : itemsOf(entry.signal).flatMap((item) => renderObjects(entry, { ...context, ...templateItem(item) }, evidenceObject(item)));
    for (const ref of rendered) refs.set(objectKey(ref), ref);
  }
  return [...refs.values()];
}

/** The objects one `about` / `mentions` entry names in one scope; `fallback`: the evidence item's own object. */
function renderObjects(entry: ObjectTemplate, scope: object, fallback: Evidence['object']): ObjectRef[] {
  const kind = entry.kind ? safeRender(entry.kind, scope) : (fallback?.kind ?? '');
  const namespace = entry.namespace ? safeRender(entry.namespace, scope) : entry.name ? undefined : fallback?.namespace;
  // A list as messages write it: `a, b and c`.
  const names = entry.name ? safeRender(entry.name, scope).split(/[\s,]+/).filter((n) => n !== 'and') : [fallback?.name ?? ''];
  return names
    .filter((name) => kind !== '' && name !== '' && !name.startsWith('(template error'))
    .map((name) => ({ kind, name, ...(namespace ? { namespace } : {}) }));
}

/**
 * The finding's parts (see {@link FindingPart}): per evidence item, the objects its `about`
 * entries render, what its `mentions` entries render and its time; items sharing an object make
 * one part. What no item holds (entries without a signal, items about nothing) is shared by all.
 */
function partsOf(rule: Rule, matched: readonly SignalState[], context: object, holds: Holds): FindingPart[] {
  const byItem = new Map<Held, FindingPart>();
  const shared: FindingPart = { about: [], mentions: [], times: [] };
  const partOf = (item: Held): FindingPart => {
    let part = byItem.get(item);
    if (!part) byItem.set(item, (part = { about: [], mentions: [], times: [] }));
    return part;
  };
  const itemsOf = (signal: string): Held[] => matched.find((s) => s.signal.name === signal)?.items ?? [];
  for (const [entries, field] of [[rule.about, 'about'], [rule.mentions, 'mentions']] as const) {
    for (const entry of entries) {
      if (entry.signal === undefined) shared[field].push(...renderObjects(entry, context, undefined).filter(holds));
      else for (const item of itemsOf(entry.signal)) partOf(item)[field].push(...renderObjects(entry, { ...context, ...templateItem(item) }, evidenceObject(item)));
    }
  }
  for (const state of matched) {
    const joinable = joinsByTime(state);
    for (const item of state.items) {
      const part = byItem.get(item) ?? shared;
      (part.texts ??= []).push(item.text);
      if (item.time === undefined) continue;
      if (joinable) part.times.push(item.time);
      part.since = Math.min(part.since ?? item.time, item.time);
    }
  }
  // Items about the same object are one part: a pool and the node its message names, twice.
  const merged: FindingPart[] = [];
  for (const part of byItem.values()) {
    if (part.about.length === 0) {
      shared.mentions.push(...part.mentions);
      (shared.texts ??= []).push(...(part.texts ?? []));
      shared.times.push(...part.times);
      if (part.since !== undefined) shared.since = Math.min(shared.since ?? part.since, part.since);
      continue;
    }
    const keys = new Set(part.about.map(objectKey));
    const overlapping = merged.filter((m) => m.about.some((o) => keys.has(objectKey(o))));
    const into = overlapping.reduce((a, b) => mergeParts(a, b), part);
    merged.splice(0, merged.length, ...merged.filter((m) => !overlapping.includes(m)), into);
  }
  const parts = merged.length > 0 ? merged : [{ about: [], mentions: [], times: [] }];
  // Since when is the part's own evidence's: context about nothing (a rollback in the history
  // next to OVN churn) says when that began, not the problem; it stands in only when nothing else does.
  // Texts are the part's own when it has any: a summary line about nothing (ClusterVersion's
  // list of every gate) names objects of other parts, not of this one.
  return parts.map((part) => uniqueRefs({ ...mergeParts(part, shared), texts: part.texts ?? shared.texts, since: part.since ?? shared.since }));
}

function earliestOf(times: readonly (number | undefined)[]): number | undefined {
  const known = times.filter((t): t is number => t !== undefined);
  return known.length > 0 ? Math.min(...known) : undefined;
}

function mergeParts(a: FindingPart, b: FindingPart): FindingPart {
  const since = a.since === undefined ? b.since : b.since === undefined ? a.since : Math.min(a.since, b.since);
  return { about: [...a.about, ...b.about], mentions: [...a.mentions, ...b.mentions], texts: [...(a.texts ?? []), ...(b.texts ?? [])], times: [...a.times, ...b.times], since };
}

function uniqueRefs(part: FindingPart): FindingPart {
  const unique = (refs: ObjectRef[]): ObjectRef[] => [...new Map(refs.map((r) => [objectKey(r), r])).values()];
  return { ...part, about: unique(part.about), mentions: unique(part.mentions) };
}

/** An evidence item's object: the matched object or event's, or a log line's pod. */
function evidenceObject(item: Held): Evidence['object'] {
  if (item.object) return item.object;
  if (item.pod) return { kind: 'Pod', namespace: item.namespace, name: item.pod };
  return undefined;
}

function windowsOf(entries: readonly WindowTemplate[], itemsOf: (signal: string) => Held[], context: object): TimeWindow[] {
  const windows: TimeWindow[] = [];
  const add = (entry: WindowTemplate, scope: object): void => {
    const from = timeValue(safeRender(entry.from, scope));
    if (from === undefined) return;
    const to = entry.to ? timeValue(safeRender(entry.to, scope)) : undefined;
    windows.push({ from, to, label: safeRender(entry.label, scope) });
  };
  for (const entry of entries) {
    if (entry.signal === undefined) add(entry, context);
    else for (const item of itemsOf(entry.signal)) add(entry, { ...context, ...templateItem(item) });
  }
  return windows;
}

/** The earliest of a field's ISO times, epoch ms. */
function earliestTime(values: readonly string[]): number | undefined {
  return earliestOf(values.map((v) => Date.parse(v)).filter((t) => Number.isFinite(t)));
}

/** Epoch ms from a rendered template: digits, or an ISO time. */
function timeValue(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

/** What a template sees of one piece of evidence: the evidence, its captures at the top, and the object. */
function templateItem(item: Held): Record<string, unknown> {
  // The item's fields first, the captures under them: one spread of the item alone is V8's fast
  // copy, two spreads into one object are not (twice the time on ten times the findings).
  const view: Record<string, unknown> = { ...item, object: item.data ?? item.object, item: item.data };
  const captures = item.captures;
  if (captures !== undefined) for (const key of Object.keys(captures)) if (!Object.hasOwn(view, key)) view[key] = captures[key];
  return view;
}

/**
 * A rule's signals as conditions read them: true with evidence, false when their data was read
 * and nothing matched, else unknown; and how many items matched (kept and dropped). Signals in
 * `incomplete` saw only part of their scope: more data could add matches.
 */
function valuesOf(states: readonly SignalState[], incomplete?: (state: SignalState) => boolean): SignalValues {
  const stateNamed = (name: string): SignalState | undefined => states.find((s) => s.signal.name === name);
  return {
    complete: (name) => {
      const state = stateNamed(name);
      return !(state && incomplete?.(state));
    },
    truth: (name) => {
      const state = stateNamed(name);
      if (!state) return 'unknown';
      if (state.items.length > 0) return true;
      return state.seen ? false : 'unknown';
    },
    count: (name) => {
      const state = stateNamed(name);
      return state ? state.items.length + state.dropped : 0;
    },
  };
}

/**
 * The signals whose missing part could turn a rule's `false` verdict: the ones `incomplete`
 * picks, when the condition read with them incomplete is no longer `false`; else none.
 */
function restsOn(rule: Rule, states: readonly SignalState[], incomplete: (state: SignalState) => boolean): SignalState[] {
  const picked = states.filter(incomplete);
  if (picked.length === 0 || evaluateCondition(rule.condition, valuesOf(states, incomplete)) === false) return [];
  return picked;
}

/** A signal of one namespace whose namespace the input does not hold (it saw other namespaces' files). */
function namespaceNotGathered(state: SignalState): boolean {
  const signal = state.signal;
  const namespace = signal.type === 'resource' || signal.type === 'event' ? signal.namespace : undefined;
  return namespace !== undefined && state.items.length === 0 && !state.gathered.has(namespace);
}

/**
 * What an input made by `oc adm inspect` did not gather of a signal's scope: it holds only the
 * objects and namespaces it was asked for, so a signal over every namespace (or over a
 * cluster-scoped kind) saw only those. Undefined when the scope is one namespace the input holds.
 */
function notGatheredPart(state: SignalState): string | undefined {
  const signal = state.signal;
  if (signal.type === 'fact' || state.gathered.size === 0) return undefined;
  if (signal.type === 'resource' && signal.namespace !== undefined) return undefined;
  if (signal.type === 'event' && signal.namespace !== undefined) return undefined;
  if (signal.type === 'log' && signal.files.every((f) => f.namespace !== undefined || f.bare)) return undefined;
  const namespaces = [...state.gathered].filter((n) => n !== '').sort();
  const what = signal.type === 'resource' ? `${signal.kinds.join(', ')} objects` : signal.type === 'event' ? 'events' : 'logs';
  if (namespaces.length === 0) return `${what} other than those gathered may exist`;
  const shown = namespaces.length > 3 ? `${namespaces.slice(0, 3).join(', ')} and ${namespaces.length - 3} more` : namespaces.join(', ');
  return `${what} of namespaces other than ${shown} were not gathered`;
}

/** What the archive lacks for these signals, each kind of data once with the signals that need it. */
function missingData(signals: readonly Signal[], facts: EngineFacts): string[] {
  const needs = new Map<string, string[]>();
  for (const signal of signals) {
    const what = missingWhat(signal, facts);
    needs.set(what, [...(needs.get(what) ?? []), `'${signal.name}'`]);
  }
  return [...needs].map(([what, names]) => `${what} for signal${names.length > 1 ? 's' : ''} ${names.join(', ')}`);
}

/** The command-line data every unknown signal waits for, when that alone kept the rule from being checked. */
function dataNotGiven(signals: readonly Signal[], facts: EngineFacts): DataNotGiven | undefined {
  const given = signals.map((signal) => (signal.type === 'fact' ? notGivenFor(signal.fact, facts) : undefined));
  const first = given[0];
  return first && given.every((g) => g?.data === first.data) ? first : undefined;
}

function missingWhat(signal: Signal, facts: EngineFacts): string {
  switch (signal.type) {
    case 'log': {
      const scopes = signal.files.map(describeSelector).join(' or ');
      const marker = signal.presence ? ` holding a line like /${signal.presence.regex.source}/` : '';
      return `logs${marker} (${scopes})`;
    }
    case 'resource':
      return `${signal.kinds.join(', ')} objects (${signal.resources.map((resource) => `${signal.group || 'core'}/${resource}`).join(', ')}${signal.namespace !== undefined ? ` in namespace ${signal.namespace}` : ''})`;
    case 'event':
      return signal.namespace !== undefined ? `events of namespace ${signal.namespace}` : 'events';
    case 'fact':
      return describeMissingFact(signal.fact, facts);
  }
}

function describeSelector(selector: LogSelector): string {
  const parts: string[] = [];
  if (selector.namespace) parts.push(`namespace ${selector.namespace}`);
  if (selector.container) parts.push(`container ${selector.container}`);
  if (selector.pod) parts.push('pod pattern');
  if (selector.pathGlob) parts.push(`path ${selector.pathGlob}`);
  if (selector.bare) parts.push('a single log file');
  return parts.join(', ') || 'any log';
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function isLog(entry: ClassifiedEntry): boolean {
  return entry.kind === 'pod-log' || entry.kind === 'host-log';
}

function selects(selectors: readonly LogSelector[], entry: ClassifiedEntry, bareInput: boolean): boolean {
  return selectors.some((s) => {
    if (s.bare) return bareInput;
    if (s.namespace !== undefined && s.namespace !== entry.namespace) return false;
    if (s.container !== undefined && s.container !== entry.container) return false;
    if (s.stream !== undefined && s.stream !== entry.logStream) return false;
    if (s.pod && !(entry.pod !== undefined && s.pod.test(entry.pod))) return false;
    if (s.path && !s.path.test(entry.path)) return false;
    return true;
  });
}

/** Log signals reading the same files (their `gathered` set is one). */
interface LogGroup {
  files: readonly LogSelector[];
  states: SignalState[];
  gathered: Set<string>;
}

/** The files a resource signal's objects are read from, with what its signals ask of each. */
interface ResourcePlace {
  states: SignalState[];
  /** The distinct scopes of its signals, by their text: rules sharing a scope share an entry. */
  scopes: Map<string, { namespace: string | undefined; words: readonly string[] | undefined }>;
  /** The distinct `gathered` sets of its states. */
  gathered: Set<Set<string>>;
}

/** Signals with the same key read the same entries; undefined for facts (no entries). */
function scopeKey(signal: Signal): string | undefined {
  if (signal.type === 'log') return `log ${selectorsKey(signal.files)}`;
  if (signal.type === 'resource') return `resource ${signal.group}/${signal.resources.join(',')}`;
  if (signal.type === 'event') return 'event';
  return undefined;
}

/**
 * Words one of which a file must hold for the signal to match an object in it: the object's name
 * when the signal names one (written as it is in every file that holds the object), else what its
 * `where` requires; undefined when it requires nothing.
 */
function wordsRequiredBy(signal: ResourceSignal): readonly string[] | undefined {
  if (signal.objectName !== undefined && isVerbatimWord(signal.objectName)) return [signal.objectName];
  return signal.where && literalsRequiredBy(signal.where.source);
}

function holdsResource(entry: ClassifiedEntry, signal: ResourceSignal): boolean {
  return entry.resource !== undefined && signal.resources.includes(entry.resource) && entryGroup(entry) === signal.group;
}

/** The API group of the objects an entry holds, as resource signals name it ('' for core). */
function entryGroup(entry: ClassifiedEntry): string {
  return entry.group === undefined || entry.group === 'core' ? '' : entry.group;
}

const placeKey = (group: string, resource: string): string => `${group}/${resource}`;

/** One text per set of file selectors, whatever rule wrote it. */
/** Signals that read the same files share one list of selectors (the loader's): its key is made once. */
const selectorKeys = new WeakMap<readonly LogSelector[], string>();

function selectorsKey(files: readonly LogSelector[]): string {
  let key = selectorKeys.get(files);
  if (key === undefined) selectorKeys.set(files, (key = JSON.stringify(files, (_key, value: unknown) => (value instanceof RegExp ? `/${value.source}/${value.flags}` : value))));
  return key;
}

function isEventFile(entry: ClassifiedEntry): boolean {
  return entry.resource === 'events';
}

/** `^(A|B|C)$` or `^A$` → the exact strings it matches; undefined for any other regex (or none). */
function exactAlternatives(regex: RegExp | undefined): string[] | undefined {
  if (!regex || regex.flags.includes('i')) return undefined;
  const m = /^\^(?:\(([\w|-]+)\)|([\w-]+))\$$/.exec(regex.source);
  const body = m?.[1] ?? m?.[2];
  return body === undefined ? undefined : body.split('|');
}

/** A match's named groups that took part (an alternative not taken leaves its groups undefined). */
function definedGroups(match: RegExpExecArray | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(match?.groups ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function stringField(object: K8sObject, key: string): string {
  const value = object[key];
  return typeof value === 'string' ? value : '';
}

/** When things happened (log lines, events, facts made of log lines), not when a fact or object says something began. */
function joinsByTime(state: SignalState): boolean {
  const signal = state.signal;
  return signal.type === 'log' || signal.type === 'event' || (signal.type === 'fact' && MOMENT_FACTS.has(signal.fact));
}

/** A fact item's line in its file, when it came from one (a log line). */
function lineOfItem(item: unknown): number | undefined {
  const line = (item as { line?: unknown } | undefined)?.line;
  return typeof line === 'number' ? line : undefined;
}

function timeOfItem(item: unknown): number | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const record = item as Record<string, unknown>;
  for (const key of ['started', 'startedTime', 'time', 'firstTime', 'since']) if (typeof record[key] === 'number') return record[key];
  const to = record['to'] as Record<string, unknown> | undefined;
  return typeof to?.['startedTime'] === 'number' ? to['startedTime'] : undefined;
}

/** The object a fact item is about, when it names one (`object: {kind, namespace?, name}`, e.g. an alert's). */
function objectOfItem(item: unknown): Evidence['object'] {
  const object = (item as { object?: unknown } | undefined)?.object;
  if (!object || typeof object !== 'object') return undefined;
  const { kind, namespace, name } = object as Record<string, unknown>;
  if (typeof kind !== 'string' || typeof name !== 'string') return undefined;
  return { kind, namespace: typeof namespace === 'string' ? namespace : undefined, name };
}

function summarize(item: unknown): string {
  if (!item || typeof item !== 'object') return String(item);
  return Object.entries(item as Record<string, unknown>)
    .filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
}

/** What a signal written as another's holds: a copy of each of the other's items (a rule's resolution marks its own). */
function copyHeld(twin: SignalState, first: SignalState): void {
  twin.seen = first.seen;
  twin.items = first.items.map((item) => ({ ...item }));
  twin.dropped = first.dropped;
  twin.droppedLatest = first.droppedLatest;
}

/** A `tail` signal's kept lines of a file as one item: where the first is, the time of the last, their texts. */
function tailItem(signal: string, lines: readonly CandidateLine[], entry: ClassifiedEntry): Held {
  const first = lines[0]!;
  const last = lines[lines.length - 1]!;
  const text = lines.map((l) => clip(l.text)).join('\n');
  // The end is what counts: cut from the front.
  const clipped = text.length > MAX_EVIDENCE_TEXT ? `…${text.slice(-MAX_EVIDENCE_TEXT)}` : text;
  return {
    signal,
    file: entry.path,
    line: first.lineNo,
    time: lineTime(parseLogLine(last.text, last.lineNo)),
    text: clipped,
    match: undefined,
    captures: undefined,
    namespace: entry.namespace,
    pod: entry.pod,
    container: entry.container,
  };
}

/** A log line's time; a klog time whose year could only be guessed from today's clock is no time at all. */
function lineTime(parsed: ReturnType<typeof parseLogLine>): number | undefined {
  return parsed.klog?.yearFrom === 'clock' && parsed.time === parsed.klog.time ? undefined : parsed.time;
}

function clip(text: string): string {
  return text.length > MAX_EVIDENCE_TEXT ? `${text.slice(0, MAX_EVIDENCE_TEXT)}…` : text;
}

function safeRender(template: (context: object) => string, context: object): string {
  try {
    return template(context);
  } catch (err) {
    return `(template error: ${(err as Error).message})`;
  }
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
