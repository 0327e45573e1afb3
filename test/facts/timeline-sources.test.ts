import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { TimelineSourcesCollector } from '../../src/facts/timeline-sources.js';
import { eventCount, eventTimes } from '../../src/facts/events.js';
import type { ClassifiedEntry } from '../../src/layout/types.js';
import type { K8sObject } from '../../src/parsers/k8s.js';
import { mgMiniWithNodes } from '../helpers/timeline.js';

const entry = (resource: string, group: string, kind: ClassifiedEntry['kind'] = 'list'): ClassifiedEntry => ({
  kind,
  path: `x/${group}/${resource}.yaml`,
  format: 'yaml',
  rule: 'test',
  group,
  resource,
});

function operator(name: string, conditions: Record<string, unknown>[]): K8sObject {
  return { apiVersion: 'config.openshift.io/v1', kind: 'ClusterOperator', metadata: { name, uid: `uid-${name}` }, status: { conditions } };
}

function event(uid: string, fields: Record<string, unknown>): K8sObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: uid, namespace: 'openshift-etcd', uid },
    involvedObject: { kind: 'Pod', name: 'etcd-0', namespace: 'openshift-etcd' },
    reason: 'Unhealthy',
    type: 'Warning',
    ...fields,
  };
}

describe('TimelineSourcesCollector', () => {
  it('asks only for ClusterOperator, Node and Event files', () => {
    const c = new TimelineSourcesCollector();
    expect(c.need(entry('clusteroperators', 'config.openshift.io'))).toEqual({ objects: true });
    expect(c.need(entry('nodes', 'core', 'cluster-object'))).toEqual({ objects: true });
    expect(c.need(entry('events', 'core'))).toEqual({ objects: true });
    expect(c.need(entry('pods', 'core'))).toBeUndefined();
    expect(c.need(entry('clusterversions', 'config.openshift.io'))).toBeUndefined();
    expect(c.need({ ...entry('nodes', 'core'), kind: 'host-log' })).toBeUndefined();
  });

  it('keeps every condition transition of an operator once, however often the archive writes it', () => {
    const c = new TimelineSourcesCollector();
    const co = operator('etcd', [
      { type: 'Degraded', status: 'True', reason: 'EtcdMembersDegraded', message: '2 of 3 members are available', lastTransitionTime: '2021-08-03T09:40:00Z' },
      { type: 'Available', status: 'True', lastTransitionTime: '2021-08-03T09:21:20Z' },
      { type: 'Upgradeable', status: 'True' },
    ]);
    c.object(co, entry('clusteroperators', 'config.openshift.io'));
    c.object(co, entry('clusteroperators', 'config.openshift.io', 'cluster-object'));
    const { operators } = c.sources();
    expect(operators).toEqual([
      { object: 'etcd', type: 'Degraded', status: 'True', reason: 'EtcdMembersDegraded', message: '2 of 3 members are available', time: Date.parse('2021-08-03T09:40:00Z') },
      { object: 'etcd', type: 'Available', status: 'True', reason: undefined, message: undefined, time: Date.parse('2021-08-03T09:21:20Z') },
    ]);
  });

  it('keeps only the Ready condition of a node', () => {
    const c = new TimelineSourcesCollector();
    const node: K8sObject = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'worker-0' },
      status: {
        conditions: [
          { type: 'MemoryPressure', status: 'False', lastTransitionTime: '2021-08-03T09:17:54Z' },
          { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'PLEG is not healthy', lastTransitionTime: '2021-08-03T10:01:00Z' },
        ],
      },
    };
    c.object(node, entry('nodes', 'core', 'cluster-object'));
    expect(c.sources().nodes).toEqual([
      { object: 'worker-0', type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'PLEG is not healthy', time: Date.parse('2021-08-03T10:01:00Z') },
    ]);
  });

  it('folds events by namespace, object, reason and type: counts, first and last time, latest message', () => {
    const c = new TimelineSourcesCollector();
    const events = entry('events', 'core');
    c.object(event('a', { count: 3, firstTimestamp: '2021-08-03T09:30:00Z', lastTimestamp: '2021-08-03T09:35:00Z', message: 'older' }), events);
    c.object(event('b', { eventTime: '2021-08-03T09:20:00.5Z', series: { count: 4, lastObservedTime: '2021-08-03T09:50:00Z' }, message: 'newest' }), events);
    c.object(event('b', { eventTime: '2021-08-03T09:20:00.5Z', message: 'duplicate of b' }), events);
    c.object(event('c', { type: 'Normal', firstTimestamp: '2021-08-03T09:31:00Z', lastTimestamp: '2021-08-03T09:31:00Z' }), events);
    const { events: groups, eventsRead } = c.sources();
    expect(eventsRead).toBe(3);
    expect(groups).toEqual([
      {
        namespace: 'openshift-etcd',
        kind: 'Pod',
        name: 'etcd-0',
        reason: 'Unhealthy',
        type: 'Warning',
        count: 7,
        events: 2,
        firstTime: Date.parse('2021-08-03T09:20:00.5Z'),
        lastTime: Date.parse('2021-08-03T09:50:00Z'),
        message: 'newest',
      },
      expect.objectContaining({ type: 'Normal', count: 1, events: 1 }),
    ]);
  });

  it('reads events.k8s.io/v1 fields (regarding, note, deprecated timestamps)', () => {
    const e: K8sObject = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'x', namespace: 'ns', uid: 'x' },
      regarding: { kind: 'Node', name: 'worker-0' },
      reason: 'NodeNotReady',
      note: 'Node worker-0 status is now: NodeNotReady',
      type: 'Warning',
      deprecatedFirstTimestamp: '2021-08-03T09:00:00Z',
      deprecatedLastTimestamp: '2021-08-03T09:10:00Z',
      deprecatedCount: 2,
    };
    expect(eventTimes(e)).toEqual({ first: Date.parse('2021-08-03T09:00:00Z'), last: Date.parse('2021-08-03T09:10:00Z') });
    expect(eventCount(e)).toBe(2);
    const c = new TimelineSourcesCollector();
    c.object(e, entry('events', 'events.k8s.io'));
    expect(c.sources().events[0]).toMatchObject({ namespace: 'ns', kind: 'Node', name: 'worker-0', message: 'Node worker-0 status is now: NodeNotReady' });
  });

  it('stays within its caps and counts what it drops', () => {
    const c = new TimelineSourcesCollector({ maxConditionObjects: 2, maxEvents: 5, maxEventGroups: 3 });
    for (const name of ['a', 'b', 'c', 'a']) c.object(operator(name, []), entry('clusteroperators', 'config.openshift.io'));
    for (let i = 0; i < 8; i++) {
      c.object({ ...event(`e${i}`, { eventTime: '2021-08-03T09:00:00Z' }), reason: `R${i % 4}` }, entry('events', 'core'));
    }
    const s = c.sources();
    expect(s.events).toHaveLength(3);
    expect(s.eventsRead).toBe(5);
    expect(s.dropped).toEqual({ operators: 1, nodes: 0, events: 3 });
  });
});

describe('TimelineSourcesCollector in a worker thread', () => {
  /** Events in entries (each a list of events), read on one collector, or in a worker's and merged into the main thread's. */
  function read(entries: K8sObject[][], caps: { maxEvents: number; maxEventGroups: number }, inWorker: boolean): { sources: ReturnType<TimelineSourcesCollector['sources']>; sent: unknown[] } {
    const main = new TimelineSourcesCollector({ maxConditionObjects: 10, ...caps });
    const worker = new TimelineSourcesCollector({ maxConditionObjects: 10, ...caps });
    if (inWorker) worker.keepEntriesApart();
    const sent: unknown[] = [];
    for (const objects of entries) {
      for (const object of objects) (inWorker ? worker : main).object(object, entry('events', 'core'));
      if (!inWorker) continue;
      const taken = structuredClone(worker.takeEntry());
      sent.push(...taken);
      main.mergeEntry(taken);
    }
    return { sources: main.sources(), sent };
  }

  it('sends a copy of an event it sent before by its uid alone, and the merge equals reading on one thread, within and past the caps', () => {
    const copy = (uid: string, reason: string): K8sObject => ({ ...event(uid, { eventTime: '2021-08-03T09:00:00Z', message: `${uid} ${reason}` }), reason });
    // Three image folders' events: the same uids again (one with another message: the first copy wins).
    const first = ['a', 'b', 'c', 'd', 'e'].map((uid, i) => copy(uid, `R${i % 3}`));
    const entries = [first, [...first.slice(0, 3), copy('f', 'R0')], [copy('a', 'other'), copy('e', 'R1'), copy('g', 'R5')]];
    for (const caps of [{ maxEvents: 100, maxEventGroups: 100 }, { maxEvents: 4, maxEventGroups: 100 }, { maxEvents: 100, maxEventGroups: 2 }]) {
      const alone = read(entries, caps, false);
      const merged = read(entries, caps, true);
      expect(merged.sources, JSON.stringify(caps)).toEqual(alone.sources);
      expect(merged.sent.filter((record) => typeof record === 'object' && record !== null && 'copyOf' in record)).toHaveLength(5);
    }
  });
});

describe('timeline sources of the real trimmed must-gather', () => {
  it('reads operator transitions, node readiness and event groups in the analysis pass', async () => {
    const analysis = await analyzeInput(mgMiniWithNodes(), { limits: DEFAULT_LIMITS });
    const { operators, nodes, events } = analysis.timeline;
    expect(operators.map((t) => `${t.object} ${t.type}=${t.status}`).sort()).toEqual([
      'ingress Available=True',
      'ingress Degraded=False',
      'ingress Progressing=False',
      'machine-config Available=True',
      'machine-config Degraded=False',
      'machine-config Progressing=False',
      'machine-config Upgradeable=True',
    ]);
    expect(nodes).toEqual([
      expect.objectContaining({ object: 'ip-10-0-129-220.ec2.internal', type: 'Ready', status: 'True', reason: 'KubeletReady', time: Date.parse('2021-08-03T09:27:55Z') }),
      expect.objectContaining({ object: 'ip-10-0-195-177.ec2.internal', type: 'Ready', status: 'True', time: Date.parse('2021-08-03T09:18:34Z') }),
    ]);
    // Two FailedScheduling events of the CVO pod, the second a series (count 1, last observed 09:15:09).
    expect(events.find((g) => g.reason === 'FailedScheduling')).toEqual({
      namespace: 'openshift-cluster-version',
      kind: 'Pod',
      name: 'cluster-version-operator-849b4dcf9c-dl6zb',
      reason: 'FailedScheduling',
      type: 'Warning',
      count: 2,
      events: 2,
      firstTime: Date.parse('2021-08-03T09:14:55.140954Z'),
      lastTime: Date.parse('2021-08-03T09:15:09.849928Z'),
      message: 'no nodes available to schedule pods',
    });
    expect(analysis.timeline.eventsRead).toBe(29);
  });
});
