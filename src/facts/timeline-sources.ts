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
import type { EntryConsumer, Need } from '../ingest/consumer.js';
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

export class TimelineSourcesCollector implements EntryConsumer {
  private readonly operators = new Map<string, ConditionTransition[]>();
  private readonly nodes = new Map<string, ConditionTransition[]>();
  private readonly eventUids = new Set<string>();
  private readonly groups = new Map<string, EventGroup>();
  private readonly dropped = { operators: 0, nodes: 0, events: 0 };
  private readonly caps: TimelineSourcesCaps;

  constructor(caps: Partial<TimelineSourcesCaps> = {}) {
    this.caps = { maxConditionObjects: MAX_CONDITION_OBJECTS, maxEvents: MAX_EVENTS, maxEventGroups: MAX_EVENT_GROUPS, ...caps };
  }

  need(entry: ClassifiedEntry): Need | undefined {
    if (entry.kind !== 'list' && entry.kind !== 'cluster-object' && entry.kind !== 'namespaced-object') return undefined;
    return sourceOf(entry) !== undefined ? { objects: true } : undefined;
  }

  object(object: K8sObject, entry: ClassifiedEntry): void {
    const source = sourceOf(entry);
    if (source === 'clusteroperators' && object.kind === 'ClusterOperator') this.keep('operators', object, () => true);
    else if (source === 'nodes' && object.kind === 'Node') this.keep('nodes', object, (type) => type === 'Ready');
    else if (source === 'events' && object.kind === 'Event') this.fold(object);
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

  private keep(kind: 'operators' | 'nodes', object: K8sObject, wanted: (type: string) => boolean): void {
    const into = this[kind];
    const key = identityKey(object);
    if (!into.has(key) && into.size >= this.caps.maxConditionObjects) {
      this.dropped[kind]++;
      return;
    }
    into.set(key, conditionTransitions(object, wanted));
  }

  private fold(event: K8sObject): void {
    const uid = identityKey(event);
    if (this.eventUids.has(uid)) return;
    if (this.eventUids.size >= this.caps.maxEvents) {
      this.dropped.events++;
      return;
    }
    const involved = recordAt(event, 'involvedObject') ?? recordAt(event, 'regarding');
    const namespace = event.metadata?.namespace ?? stringAt(involved, 'namespace');
    const kind = stringAt(involved, 'kind');
    const name = stringAt(involved, 'name');
    const reason = stringAt(event, 'reason') ?? '';
    const type = stringAt(event, 'type') ?? '';
    const key = JSON.stringify([namespace, kind, name, reason, type]);
    let group = this.groups.get(key);
    if (group === undefined) {
      if (this.groups.size >= this.caps.maxEventGroups) {
        this.dropped.events++;
        return;
      }
      group = { namespace, kind, name, reason, type, count: 0, events: 0 };
      this.groups.set(key, group);
    }
    this.eventUids.add(uid);
    const { first, last } = eventTimes(event);
    group.count += eventCount(event);
    group.events++;
    if (first !== undefined && (group.firstTime === undefined || first < group.firstTime)) group.firstTime = first;
    const latest = last !== undefined && (group.lastTime === undefined || last >= group.lastTime);
    if (latest) group.lastTime = last;
    const message = stringAt(event, 'message') ?? stringAt(event, 'note');
    if (message !== undefined && (latest || group.message === undefined)) group.message = message.slice(0, MAX_MESSAGE);
  }
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
