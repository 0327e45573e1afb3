/**
 * What the cross-source timeline reads from objects, in the same pass as the rules:
 * ClusterOperator condition transitions, node readiness transitions and events aggregated
 * into groups.
 *
 * An object keeps only the latest transition of each condition (`lastTransitionTime`), so
 * these are "the last time each condition changed", not the condition's whole history.
 * A must-gather writes some objects twice (`clusteroperators.yaml` and
 * `clusteroperators/<name>.yaml`): objects are keyed by identity, events by uid.
 *
 * Memory is bounded: at most {@link MAX_CONDITION_OBJECTS} operators and nodes each,
 * {@link MAX_EVENTS} distinct events and {@link MAX_EVENT_GROUPS} groups; what is past a cap
 * is counted, not kept.
 */
import { detachData, detachString } from '../core/detach.js';
import { RecordingConsumer, type Need } from '../ingest/consumer.js';
import type { ClassifiedEntry } from '../layout/types.js';
import { identityKey, type K8sObject } from '../parsers/k8s.js';
import { arrayAt, recordAt, stringAt, timeAt } from './internal.js';
import { eventCount, eventTimes } from './events.js';

/** The latest transition of one condition of one object. */
export interface ConditionTransition {
  /** ClusterOperator or Node name. */
  object: string;
  type: string;
  status: string;
  reason?: string | undefined;
  message?: string | undefined;
  /** Epoch ms: `lastTransitionTime`. */
  time: number;
}

/** Events of one (namespace, involved object, reason, type), folded together. */
export interface EventGroup {
  namespace?: string | undefined;
  kind?: string | undefined;
  name?: string | undefined;
  reason: string;
  /** `Normal`, `Warning`, or what the event says. */
  type: string;
  /** Occurrences: the sum of each event's count (series count, count, or 1). */
  count: number;
  /** Event objects folded into the group. */
  events: number;
  /** Epoch ms. */
  firstTime?: number | undefined;
  lastTime?: number | undefined;
  /** Message of the latest event. */
  message?: string | undefined;
}

export interface TimelineSources {
  /** ClusterOperator condition transitions, every condition type. */
  operators: ConditionTransition[];
  /** Node `Ready` transitions. */
  nodes: ConditionTransition[];
  events: EventGroup[];
  /** Distinct events folded into groups. */
  eventsRead: number;
  /**
   * Not kept, by the memory caps: operators and nodes past {@link MAX_CONDITION_OBJECTS};
   * events past {@link MAX_EVENTS}, or whose group was past {@link MAX_EVENT_GROUPS}.
   */
  dropped: { operators: number; nodes: number; events: number };
}

export const MAX_CONDITION_OBJECTS = 5000;
export const MAX_EVENTS = 500_000;
export const MAX_EVENT_GROUPS = 50_000;
const MAX_MESSAGE = 2000;

export interface TimelineSourcesCaps {
  maxConditionObjects: number;
  maxEvents: number;
  maxEventGroups: number;
}

/** What one object adds: an operator's or node's transitions, or one event's part of its group. */
export type TimelineRecord =
  | { keep: 'operators' | 'nodes'; key: string; transitions: ConditionTransition[] }
  | { event: EventFacts }
  /** From a worker thread: another copy of an event it sent before, told by its uid alone. */
  | { copyOf: string };

/** What one event brings to its group. */
interface EventFacts {
  uid: string;
  group: string;
  namespace: string | undefined;
  kind: string | undefined;
  name: string | undefined;
  reason: string;
  type: string;
  count: number;
  first: number | undefined;
  last: number | undefined;
  message: string | undefined;
}

export class TimelineSourcesCollector extends RecordingConsumer<TimelineRecord> {
  private readonly operators = new Map<string, ConditionTransition[]>();
  private readonly nodes = new Map<string, ConditionTransition[]>();
  private readonly eventUids = new Set<string>();
  private readonly groups = new Map<string, EventGroup>();
  private readonly dropped = { operators: 0, nodes: 0, events: 0 };
  private readonly caps: TimelineSourcesCaps;
  /** In a worker thread: the events sent so far, by uid. */
  private readonly sentUids = new Set<string>();

  constructor(caps: Partial<TimelineSourcesCaps> = {}) {
    super();
    this.caps = { maxConditionObjects: MAX_CONDITION_OBJECTS, maxEvents: MAX_EVENTS, maxEventGroups: MAX_EVENT_GROUPS, ...caps };
  }

  need(entry: ClassifiedEntry): Need | undefined {
    if (entry.kind !== 'list' && entry.kind !== 'cluster-object' && entry.kind !== 'namespaced-object') return undefined;
    return sourceOf(entry) !== undefined ? { objects: true } : undefined;
  }

  object(object: K8sObject, entry: ClassifiedEntry): void {
    const source = sourceOf(entry);
    let record: TimelineRecord | undefined;
    if (source === 'clusteroperators' && object.kind === 'ClusterOperator') {
      record = { keep: 'operators', key: identityKey(object), transitions: conditionTransitions(object, () => true) };
    } else if (source === 'nodes' && object.kind === 'Node') {
      record = { keep: 'nodes', key: identityKey(object), transitions: conditionTransitions(object, (type) => type === 'Ready') };
    } else if (source === 'events' && object.kind === 'Event') {
      // A worker sends an event's facts once: the main thread folds the first copy in archive
      // order (this thread's earlier entry), and of a later copy needs only the uid.
      const uid = identityKey(object);
      if (!this.apart) record = { event: eventFacts(object, uid) };
      else if (this.sentUids.has(uid)) record = { copyOf: uid };
      else {
        this.sentUids.add(detachString(uid));
        record = { event: eventFacts(object, uid) };
      }
    }
    if (record) this.record(record);
  }

  protected add(record: TimelineRecord): void {
    if ('keep' in record) this.keep(record.keep, record.key, record.transitions);
    else if ('event' in record) this.fold(record.event);
    // The first copy was folded, or dropped past a cap that still holds: this one is dropped as it was.
    else if (!this.eventUids.has(record.copyOf)) this.dropped.events++;
  }

  sources(): TimelineSources {
    return {
      operators: [...this.operators.values()].flat(),
      nodes: [...this.nodes.values()].flat(),
      events: [...this.groups.values()],
      eventsRead: this.eventUids.size,
      dropped: { ...this.dropped },
    };
  }

  private keep(kind: 'operators' | 'nodes', key: string, transitions: ConditionTransition[]): void {
    const into = this[kind];
    if (!into.has(key) && into.size >= this.caps.maxConditionObjects) {
      this.dropped[kind]++;
      return;
    }
    // Kept to the end of the run: none of its strings may keep the file it was parsed from.
    into.set(detachString(key), detachData(transitions));
  }

  private fold(event: EventFacts): void {
    const { uid, first, last } = event;
    if (this.eventUids.has(uid)) return;
    if (this.eventUids.size >= this.caps.maxEvents) {
      this.dropped.events++;
      return;
    }
    let group = this.groups.get(event.group);
    if (group === undefined) {
      if (this.groups.size >= this.caps.maxEventGroups) {
        this.dropped.events++;
        return;
      }
      // Kept to the end of the run: no string of it may keep the events file it was parsed from.
      const { namespace, kind, name, reason, type } = event;
      group = { namespace: detachString(namespace), kind: detachString(kind), name: detachString(name), reason: detachString(reason), type: detachString(type), count: 0, events: 0 };
      this.groups.set(event.group, group);
    }
    this.eventUids.add(detachString(uid));
    group.count += event.count;
    group.events++;
    if (first !== undefined && (group.firstTime === undefined || first < group.firstTime)) group.firstTime = first;
    const latest = last !== undefined && (group.lastTime === undefined || last >= group.lastTime);
    if (latest) group.lastTime = last;
    if (event.message !== undefined && (latest || group.message === undefined)) group.message = detachString(event.message);
  }
}

function eventFacts(event: K8sObject, uid: string): EventFacts {
  const involved = recordAt(event, 'involvedObject') ?? recordAt(event, 'regarding');
  const namespace = event.metadata?.namespace ?? stringAt(involved, 'namespace');
  const kind = stringAt(involved, 'kind');
  const name = stringAt(involved, 'name');
  const reason = stringAt(event, 'reason') ?? '';
  const type = stringAt(event, 'type') ?? '';
  const { first, last } = eventTimes(event);
  const message = stringAt(event, 'message') ?? stringAt(event, 'note');
  return {
    uid,
    group: JSON.stringify([namespace, kind, name, reason, type]),
    namespace,
    kind,
    name,
    reason,
    type,
    count: eventCount(event),
    first,
    last,
    message: message?.slice(0, MAX_MESSAGE),
  };
}

/** Which timeline source an entry holds, from its classified path. */
function sourceOf(entry: ClassifiedEntry): 'clusteroperators' | 'nodes' | 'events' | undefined {
  const group = entry.group ?? 'core';
  if (entry.resource === 'clusteroperators' && group === 'config.openshift.io') return 'clusteroperators';
  if (entry.resource === 'nodes' && group === 'core') return 'nodes';
  if (entry.resource === 'events' && (group === 'core' || group === 'events.k8s.io')) return 'events';
  return undefined;
}

function conditionTransitions(object: K8sObject, wanted: (type: string) => boolean): ConditionTransition[] {
  const name = object.metadata?.name ?? '(no name)';
  const out: ConditionTransition[] = [];
  for (const condition of arrayAt(recordAt(object, 'status'), 'conditions')) {
    const type = stringAt(condition, 'type');
    const time = timeAt(condition, 'lastTransitionTime');
    if (type === undefined || time === undefined || !wanted(type)) continue;
    out.push({
      object: name,
      type,
      status: stringAt(condition, 'status') ?? 'Unknown',
      reason: stringAt(condition, 'reason'),
      message: stringAt(condition, 'message')?.slice(0, MAX_MESSAGE),
      time,
    });
  }
  return out;
}
