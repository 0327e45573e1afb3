/**
 * What an analysis keeps to its end (the timeline's event groups, the rules' evidence) holds
 * copies of the strings it needs, never views into the text of the file they were parsed from:
 * otherwise each event kept would keep its whole events.yaml alive, and memory would grow with
 * every namespace read (V8 makes substrings views into their parent).
 */
import { cpSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { getHeapSnapshot } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { MetricsCollector } from '../../src/facts/metrics.js';
import { openInput } from '../../src/sources/open.js';
import { walk } from '../../src/ingest/walk.js';
import { Problems } from '../../src/core/problems.js';
import { loadRules } from '../../src/engine/load.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { detachData, detachString } from '../../src/core/detach.js';
import { MG_MINI, tempDir } from '../helpers/archives.js';

const RISKS_COMPLETE = new URL('../fixtures/risks-complete', import.meta.url).pathname;

/** The live strings of this thread's heap (a snapshot is taken after a full collection). */
async function liveStrings(): Promise<string[]> {
  let json = '';
  for await (const chunk of getHeapSnapshot()) json += String(chunk);
  return (JSON.parse(json) as { strings: string[] }).strings;
}

/** FailedScheduling events in one namespace; each carries `marker` in a field nothing keeps. */
function eventsFile(marker: string): string {
  const items = Array.from({ length: 40 }, (_, i) =>
    [
      `- apiVersion: v1`,
      `  kind: Event`,
      `  metadata:`,
      `    name: pod-${i}.17a${i}`,
      `    namespace: openshift-etcd`,
      `    uid: 6a1c0b7e-0000-4000-8000-${String(i).padStart(12, '0')}`,
      `    annotations:`,
      `      note: ${marker} ${'z'.repeat(200)}`,
      `  involvedObject:`,
      `    kind: Pod`,
      `    name: installer-${i}-master-0`,
      `    namespace: openshift-etcd`,
      `  reason: FailedScheduling`,
      `  message: '0/3 nodes are available: 3 node(s) had untolerated taint {node-role.kubernetes.io/master: }.'`,
      `  type: Warning`,
      `  count: 2`,
      `  firstTimestamp: "2021-08-03T09:15:22Z"`,
      `  lastTimestamp: "2021-08-03T09:16:22Z"`,
    ].join('\n'),
  );
  return `apiVersion: v1\nkind: List\nitems:\n${items.join('\n')}\n`;
}

/**
 * Secrets in one namespace, each with `marker` in a label: in the lines the metrics read, not in
 * what they keep. Names of 13 characters or more: V8 copies shorter substrings anyway.
 */
function secretsFile(marker: string): string {
  const items = Array.from({ length: 40 }, (_, i) =>
    [`- apiVersion: v1`, `  kind: Secret`, `  metadata:`, `    labels:`, `      note: ${marker}-${'z'.repeat(200)}`, `    name: installer-cloud-credentials-${i}`, `    namespace: default`, `  data:`, `    token: ${'QUFB'.repeat(100)}`, `  type: Opaque`].join('\n'),
  );
  return `apiVersion: v1\nkind: List\nitems:\n${items.join('\n')}\n`;
}

describe('what an analysis keeps', () => {
  it('detachString copies: equal text, and short strings are given back as they are', () => {
    const text = `${'a'.repeat(50)}${randomUUID()}`.slice(10);
    expect(detachString(text)).toBe(text);
    expect(detachString('short')).toBe('short');
  });

  it('detachData copies plain data whole: equal, no object shared, an own __proto__ key kept as data, a Map or a Date copied as structuredClone copies it', () => {
    const parent = `${'p'.repeat(40)}${randomUUID()}`;
    const own = JSON.parse('{"__proto__": {"polluted": true}}') as object;
    const data = { text: parent.slice(5), n: 1, none: null, absent: undefined, list: [1, 'two', { deep: [true] }], own, map: new Map([['k', 'v']]), when: new Date(0) };
    const copy = detachData(data);
    expect(copy).toEqual(data);
    expect(copy.list).not.toBe(data.list);
    expect(copy.list[2]).not.toBe(data.list[2]);
    expect(Object.keys(copy)).toEqual(Object.keys(data));
    expect(Object.getPrototypeOf(copy.own)).toBe(Object.prototype);
    expect(Object.keys(copy.own)).toEqual(['__proto__']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(copy.map).toBeInstanceOf(Map);
    expect(copy.map).not.toBe(data.map);
    expect(copy.when.getTime()).toBe(0);
  });

  it('keeps no parsed events file alive: the timeline groups and the evidence hold copies', async () => {
    const dir = tempDir();
    cpSync(MG_MINI, dir, { recursive: true });
    const marker = `marker-${randomUUID()}`;
    const image = join(dir, 'must-gather-aws', 'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cbd33388f7e18954e5ce8ad9616e91df05ace604966c0a44111d85c897');
    cpSync(join(image, 'namespaces', 'openshift-cluster-version'), join(image, 'namespaces', 'openshift-etcd'), { recursive: true, filter: (src) => !src.includes('/pods') });
    writeFileSync(join(image, 'namespaces', 'openshift-etcd', 'core', 'events.yaml'), eventsFile(marker));
    const rules = (await loadRules([])).rules;
    const analysis = await analyzeInput(dir, { limits: DEFAULT_LIMITS, rules, digest: true });
    // The events were read: grouped for the timeline, held as a finding's evidence.
    const etcd = analysis.timeline.events.filter((group) => group.namespace === 'openshift-etcd' && group.reason === 'FailedScheduling');
    expect(etcd.reduce((sum, group) => sum + group.events, 0)).toBe(40);
    expect(analysis.result?.findings.find((f) => f.ruleId === 'events-failed-scheduling')?.evidence.length).toBeGreaterThan(0);
    // The evidence keeps each event whole, its note (the marker and 200 characters) too: not the file.
    expect((await liveStrings()).filter((text) => text.includes(marker) && text.length > marker.length + 300)).toEqual([]);
    expect(analysis.result?.findings.length).toBeGreaterThan(0); // `analysis` is live while the heap is read
  }, 60_000);

  it('keeps no parsed secrets file alive: the update risks\' metrics hold copies of what they read', async () => {
    const dir = tempDir();
    cpSync(RISKS_COMPLETE, dir, { recursive: true });
    const marker = `marker-${randomUUID()}`;
    const root = join(dir, 'must-gather.local.4242', 'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-9c3a1e7f5b2d4c6a8e0f1a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1d3e5f7a9b1c3d');
    writeFileSync(join(root, 'namespaces', 'default', 'core', 'secrets.yaml'), secretsFile(marker));
    const problems = new Problems();
    const metrics = new MetricsCollector();
    await walk(await openInput(dir, { limits: DEFAULT_LIMITS, problems }), [metrics], { problems, limits: DEFAULT_LIMITS });
    const names = metrics.metrics().series('kube_secret_info').samples.map((sample) => sample.labels['secret']);
    expect(names).toContain('installer-cloud-credentials-39');
    expect((await liveStrings()).filter((text) => text.includes(marker))).toEqual([]);
    expect(names.length).toBeGreaterThan(0); // `metrics` is live while the heap is read
  }, 60_000);
});
