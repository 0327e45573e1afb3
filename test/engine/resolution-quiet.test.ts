import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../src/engine/findings.js';
import { loadRuleText } from '../../src/engine/load.js';
import { resolvedItems } from '../../src/engine/resolution.js';

/** One log signal over etcd's logs, over after 15 minutes of quiet. */
const { rule } = loadRuleText(
  'quiet-demo.yaml',
  `id: quiet-demo
title: Quiet demo
severity: warning
status: experimental
component: demo
signals:
  slow:
    log:
      files:
        - { namespace: openshift-etcd, container: etcd }
      regex: 'slow fdatasync'
      resolvedBy:
        - quietFor: 15m
condition: slow >= 3
message: demo
`,
  false,
);

const MINUTE = 60_000;
const COLLECTED = Date.parse('2021-08-03T10:40:00Z');

function line(pod: string, minutesBeforeCollection: number): Evidence {
  return { signal: 'slow', file: `${pod}/current.log`, time: COLLECTED - minutesBeforeCollection * MINUTE, text: 'slow fdatasync', namespace: 'openshift-etcd', pod };
}

function resolve(items: Evidence[]): Map<Evidence, { at?: number | undefined; by: string }> {
  const signal = rule!.signals.find((s) => s.name === 'slow')!;
  return resolvedItems([{ signal, items }], {
    collectedAt: COLLECTED,
    render: () => '',
    objectOf: (item) => (item.pod ? { kind: 'Pod', namespace: item.namespace, name: item.pod } : undefined),
  });
}

describe('quietFor', () => {
  it('counts from the last line of the same pod: an old line followed by a recent one is seen again', () => {
    const items = [line('etcd-a', 40), line('etcd-a', 25), line('etcd-a', 2)];
    expect(resolve(items).size).toBe(0);
  });

  it('resolves every line of a pod quiet for the span, and only that pod', () => {
    const quiet = [line('etcd-a', 40), line('etcd-a', 30)];
    const loud = [line('etcd-b', 40), line('etcd-b', 5)];
    const resolved = resolve([...quiet, ...loud]);
    expect([...resolved.keys()]).toEqual(quiet);
    expect(resolved.get(quiet[0]!)?.by).toContain('not seen again in the 30m before the collection');
  });

  it('takes a pod of the same name in another namespace for another object', () => {
    const quiet = [line('etcd-a', 40)];
    const elsewhere = { ...line('etcd-a', 2), namespace: 'openshift-etcd-operator' };
    expect([...resolve([...quiet, elsewhere]).keys()]).toEqual(quiet);
  });
});
