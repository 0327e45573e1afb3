import { describe, expect, it } from 'vitest';
import { compileCel, parseCel } from '../../src/engine/cel.js';
import { guardOf } from '../../src/engine/cel-guards.js';

/** The same expression with no guard hoisted from it (its top level is a comparison, not a chain). */
const unguarded = (expression: string): string => `(${expression}) == true`;

const EXPRESSIONS = [
  "object.metadata.namespace in ['openshift-etcd', 'openshift-kube-apiserver'] && object.status.phase == 'Running'",
  "object.metadata.name.startsWith('etcd-guard-') && has(object.status.conditions)",
  "object.metadata.name.endsWith('-guard') && !has(object.metadata.deletionTimestamp)",
  "'olm.catalogSource' in object.metadata.labels && object.status.containerStatuses.exists(c, !c.ready)",
  "'Running' in object.status.phases && object.metadata['name'] == 'a'",
  "has(object.status.phase) && object.status.phase == 'Pending' || object.status.phase == 'Failed'",
  "object.spec.replicas == '3' && has(object.constructor)",
  "!has(object.status.reason) && object.kind == 'Pod'",
  "item.rotation == '' && item.daysLeft < 30.0",
  "has(object.a.b.c) && true",
  "!has(object.a.b.c) && true",
  "!has(object.a) && true",
  "'k' in object.a && true",
  "object.a.b == 'x' && true",
  "object.a.startsWith('k') && object.a.endsWith('x')",
  "[has(object.status.containerStatuses) ? object.status.containerStatuses : [], has(object.status.initContainerStatuses) ? object.status.initContainerStatuses : []].exists(list, list.exists(c, has(c.state.waiting) && c.state.waiting.reason in ['ErrImagePull', 'CrashLoopBackOff']))",
  "object.status.containerStatuses.exists(c, (has(c.state.terminated) && c.state.terminated.reason == 'OOMKilled') || (has(c.lastState.terminated) && c.lastState.terminated.reason == 'OOMKilled' && c.restartCount >= 3))",
  "object.a.exists(k, k == 'k') && object.a.exists(x, has(x.b) || x == 'k')",
  "[object.a, object.status].exists(x, has(x.b))",
];

const OBJECTS: unknown[] = [
  { kind: 'Pod', metadata: { name: 'etcd-guard-master-0', namespace: 'openshift-etcd', labels: { 'olm.catalogSource': 'x' } }, status: { phase: 'Running', conditions: [], containerStatuses: [{ ready: false }] } },
  { kind: 'Pod', metadata: { name: 'a', namespace: 'openshift-kube-apiserver', deletionTimestamp: null, labels: {} }, status: { phase: 'Pending', phases: ['Running'], reason: null } },
  { kind: 'Pod', metadata: { name: 'x-guard', namespace: 'default', labels: ['olm.catalogSource'] }, status: { phase: 'Failed', containerStatuses: [{ ready: true }] } },
  { kind: 'Pod', metadata: { name: 7, namespace: null }, spec: { replicas: 3 }, status: null },
  { kind: 'Pod', metadata: {}, spec: { replicas: '3' }, status: { phase: ['Running'] } },
  { metadata: { name: 'constructor', labels: { 'olm.catalogSource': null } } },
  { metadata: { name: 'x', labels: { 'olm.catalogSource': '' } }, status: { containerStatuses: [{ ready: false }] } },
  {},
  { a: null },
  { a: 'kx' },
  { a: ['k'] },
  { a: { k: 1 } },
  { a: { k: null } },
  { a: { b: null } },
  { a: { b: 'x' } },
  { a: { b: { c: null } } },
  { a: { b: { c: 0 } } },
  { a: { b: [] } },
  { a: ['k', { b: 1 }] },
  { a: [{ b: null }] },
  { status: { containerStatuses: [{ state: { waiting: { reason: 'CrashLoopBackOff' } } }], initContainerStatuses: null } },
  { status: { containerStatuses: [{ state: { terminated: { reason: 'OOMKilled' } }, lastState: {} }, { state: {}, lastState: { terminated: { reason: 'OOMKilled' } }, restartCount: 4 }] } },
  { status: { containerStatuses: [{ state: { waiting: null }, lastState: { terminated: { reason: 'OOMKilled' } }, restartCount: 1 }] } },
  { status: { containerStatuses: 'none', initContainerStatuses: [{ state: { waiting: { reason: 'ErrImagePull' } } }] } },
  { status: { containerStatuses: { a: 1 } } },
];

describe('guardsOf: conditions of a where decided before its program runs', () => {
  it('decides what JavaScript decides exactly, and leaves the rest to the program', () => {
    const decide = (expression: string, object: unknown): boolean | undefined => guardOf(parseCel(expression).expr)?.({ object });
    expect(decide(EXPRESSIONS[0]!, OBJECTS[2])).toBe(false);
    expect(decide(EXPRESSIONS[0]!, OBJECTS[0])).toBe(true);
    expect(decide("size(object.metadata.name) > 3", OBJECTS[0])).toBeUndefined();
    expect(decide("object.status.phase == 'Failed' || size(object.metadata.name) > 3", OBJECTS[0])).toBeUndefined();
    expect(decide(unguarded(EXPRESSIONS[0]!), OBJECTS[2])).toBeUndefined();
    // A pod's containers: none waiting with the reason, so the program need not run.
    expect(decide(EXPRESSIONS[15]!, OBJECTS[0])).toBe(false);
    expect(decide(EXPRESSIONS[15]!, { status: { containerStatuses: [{ state: { waiting: { reason: 'ErrImagePull' } } }] } })).toBe(true);
  });

  it('never changes a verdict: every expression on every object, with and without its guards', () => {
    for (const expression of EXPRESSIONS) {
      const guarded = compileCel(expression);
      const plain = compileCel(unguarded(expression));
      for (const object of OBJECTS) {
        const bindings = { object, item: { rotation: '', daysLeft: 3 } };
        expect(guarded(bindings), `${expression} on ${JSON.stringify(object)}`).toBe(plain(bindings));
      }
    }
  });

  it('matches where it should', () => {
    const bindings = { object: OBJECTS[0] };
    expect(compileCel(EXPRESSIONS[0]!)(bindings)).toBe(true);
    expect(compileCel(EXPRESSIONS[1]!)(bindings)).toBe(true);
    expect(compileCel(EXPRESSIONS[3]!)(bindings)).toBe(true);
  });
});
