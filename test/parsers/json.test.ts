import { describe, expect, it } from 'vitest';
import { Problems } from '../../src/core/problems.js';
import {
  jsonDepthExceeds,
  parseJsonItems,
  parseJsonObjects,
  parseJsonTextItems,
  type JsonOptions,
  type JsonStats,
} from '../../src/parsers/json.js';
import type { ParsedObject } from '../../src/parsers/k8s.js';
import { kindOf, nameOf } from '../../src/parsers/k8s.js';

/** A body in chunks of `size` bytes, like an archive entry's body. */
async function* chunked(text: string | Buffer, size = 64 * 1024): AsyncGenerator<Buffer> {
  const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

async function collect(body: AsyncIterable<Buffer>, opts: JsonOptions = {}): Promise<{ items: ParsedObject[]; problems: Problems; stats: JsonStats }> {
  const problems = new Problems();
  const stats: JsonStats = { streamed: false, bytes: 0 };
  const items: ParsedObject[] = [];
  for await (const item of parseJsonItems(body, 'events.json', problems, { ...opts, stats })) items.push(item);
  return { items, problems, stats };
}

function event(i: number): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `ev-${i}`, namespace: 'openshift-etcd', uid: `uid-${i}`, resourceVersion: String(1000 + i) },
    involvedObject: { kind: 'Pod', name: `etcd-${i % 3}`, namespace: 'openshift-etcd' },
    reason: i % 2 ? 'Pulled' : 'BackOff',
    message: `Back-off restarting failed container ${'x'.repeat(i % 50)} "quoted" \\ ünïcödé ✓`,
    count: i,
    firstTimestamp: '2021-08-03T09:20:00Z',
  };
}

/** `oc get events -A -o json` output: apiVersion, items, kind, metadata in that order. */
function eventList(n: number, pretty = false): string {
  const list = { apiVersion: 'v1', items: Array.from({ length: n }, (_, i) => event(i)), kind: 'List', metadata: { resourceVersion: '', selfLink: '' } };
  return pretty ? JSON.stringify(list, null, 4) : JSON.stringify(list);
}

describe('small JSON (JSON.parse)', () => {
  it('expands a List and keeps indexes', async () => {
    const { items, problems, stats } = await collect(chunked(eventList(5), 7));
    expect(problems.items).toEqual([]);
    expect(stats.streamed).toBe(false);
    expect(items.map((i) => [i.doc, i.item, nameOf(i.object)])).toEqual([0, 1, 2, 3, 4].map((i) => [0, i, `ev-${i}`]));
  });

  it('yields a single object as itself', async () => {
    const { items } = await collect(chunked('\ufeff{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"openshift-etcd"}}'));
    expect(items).toHaveLength(1);
    expect(items[0]!.item).toBeUndefined();
    expect(kindOf(items[0]!.object)).toBe('Namespace');
  });

  it('reports broken JSON with a position, without throwing', async () => {
    const { items, problems } = await collect(chunked('{\n  "kind": "List",\n  "items": [ {"kind": "A"}, ]\n}'));
    expect(items).toEqual([]);
    expect(problems.items).toHaveLength(1);
    expect(problems.items[0]!.severity).toBe('error');
    expect(problems.items[0]!.reason).toMatch(/^JSON parse error: /);
    expect(problems.items[0]!.reason).not.toContain('\n');
    const truncated = await collect(chunked('{"kind": "A", "metadata": {"name": "x"'));
    expect(truncated.problems.items[0]!.reason).toMatch(/^JSON parse error: .*(line 1, column \d+|end of JSON)/);
  });

  it('is quiet about an empty body', async () => {
    const { items, problems } = await collect(chunked(''));
    expect(items).toEqual([]);
    expect(problems.items).toEqual([]);
  });

  it('rejects absurd nesting before parsing', () => {
    const problems = new Problems();
    const deep = '{"kind":"A","x":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
    expect([...parseJsonTextItems(deep, 'deep.json', problems)]).toEqual([]);
    expect(problems.items[0]!.reason).toMatch(/^JSON rejected: nesting deeper than 256 at line 1, column \d+/);
  });

  it('counts depth outside strings only', () => {
    expect(jsonDepthExceeds('{"a":"[[[[[[[[[[\\"[[[[[["}', 2)).toBe(-1);
    expect(jsonDepthExceeds('[[[1]]]', 2)).toBe(2);
    expect(jsonDepthExceeds('{"a\\\\":[[1]]}', 2)).toBe(8);
  });

  it('keeps __proto__ as a plain key', async () => {
    const { items } = await collect(chunked('{"kind":"A","__proto__":{"polluted":true}}'));
    const o = items[0]!.object;
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect((o as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('expands a top-level array and skips non-objects with one warning', async () => {
    const { items, problems } = await collect(chunked('[{"kind":"A"}, 3, "x", {"kind":"B"}]'));
    expect(items.map((i) => [i.item, kindOf(i.object)])).toEqual([
      [0, 'A'],
      [3, 'B'],
    ]);
    expect(problems.items.map((p) => p.reason)).toEqual(['JSON document 1: 2 items skipped (first: item 1: not an object (a number))']);
  });
});

describe('large JSON (streamed)', () => {
  it('streams a >8 MB List one item at a time', async () => {
    const n = 25_000;
    const text = eventList(n, true);
    expect(text.length).toBeGreaterThan(8 * 1024 * 1024);
    let pulled = 0;
    const produced = { bytes: 0 };
    async function* body(): AsyncGenerator<Buffer> {
      for await (const chunk of chunked(text)) {
        produced.bytes += chunk.length;
        yield chunk;
      }
    }
    const problems = new Problems();
    const stats: JsonStats = { streamed: false, bytes: 0 };
    const names = new Set<string>();
    let last: ParsedObject | undefined;
    for await (const item of parseJsonItems(body(), 'events.json', problems, { stats })) {
      pulled++;
      // Items come out while the body is still being read: past the threshold (8 MiB held to
      // decide), the parser never reads more than a chunk ahead of the consumer.
      if (pulled === 1) expect(produced.bytes).toBeLessThanOrEqual(8 * 1024 * 1024 + 2 * 64 * 1024);
      if (pulled === n / 2) expect(produced.bytes).toBeLessThan(text.length * 0.6);
      names.add(nameOf(item.object) ?? '');
      last = item;
    }
    expect(problems.items).toEqual([]);
    expect(stats.streamed).toBe(true);
    expect(stats.bytes).toBe(Buffer.byteLength(text));
    expect(pulled).toBe(n);
    expect(names.size).toBe(n);
    expect(last).toMatchObject({ doc: 0, item: n - 1 });
    // Same values as JSON.parse gives, unicode split across chunks included.
    expect(last!.object).toEqual(event(n - 1));
  });

  it('gives the same objects streamed and parsed whole', async () => {
    const text = eventList(300);
    const whole = await collect(chunked(text));
    const streamed = await collect(chunked(text, 1000), { streamThreshold: 4096 });
    expect(whole.stats.streamed).toBe(false);
    expect(streamed.stats.streamed).toBe(true);
    expect(streamed.items).toEqual(whole.items);
  });

  it('streams single objects, concatenated documents and top-level arrays', async () => {
    const big = JSON.stringify({ kind: 'ConfigMap', metadata: { name: 'big' }, data: { blob: 'y'.repeat(10_000) } });
    const text = `${big}\n{"kind":"List","items":[{"kind":"A"},{"kind":"B"}]}\n[{"kind":"C"}]`;
    const { items, problems, stats } = await collect(chunked(text, 999), { streamThreshold: 1000 });
    expect(stats.streamed).toBe(true);
    expect(problems.items).toEqual([]);
    expect(items.map((i) => [i.doc, i.item, kindOf(i.object)])).toEqual([
      [0, undefined, 'ConfigMap'],
      [1, 0, 'A'],
      [1, 1, 'B'],
      [2, 0, 'C'],
    ]);
    expect(items[0]!.object['data']).toEqual({ blob: 'y'.repeat(10_000) });
  });

  it('reads a streamed *List without items as empty', async () => {
    const text = `{"apiVersion":"v1","items":null,"kind":"EventList","pad":"${'p'.repeat(100)}"}`;
    const { items, problems, stats } = await collect(chunked(text, 10), { streamThreshold: 20 });
    expect(stats.streamed).toBe(true);
    expect(items).toEqual([]);
    expect(problems.items).toEqual([]);
  });

  it('reports broken streamed JSON after the items it could read', async () => {
    const good = eventList(50);
    const broken = good.slice(0, good.indexOf('"ev-40"')) + '"ev-40", }}}';
    const { items, problems } = await collect(chunked(broken, 512), { streamThreshold: 1024 });
    expect(items.length).toBeGreaterThanOrEqual(30);
    expect(items.length).toBeLessThan(41);
    expect(problems.items).toHaveLength(1);
    expect(problems.items[0]!.reason).toMatch(/^JSON parse error after \d+ objects, within the first \d+ bytes: /);
  });

  it('reports a truncated streamed body', async () => {
    const good = eventList(50);
    const { items, problems } = await collect(chunked(good.slice(0, good.length - 100), 512), { streamThreshold: 1024 });
    expect(items.length).toBeGreaterThan(40);
    expect(problems.items).toHaveLength(1);
    expect(problems.items[0]!.reason).toMatch(/^JSON (parse error|ended early)/);
  });

  it('skips items nested too deep and rejects deep non-items', async () => {
    const deep = '['.repeat(50) + ']'.repeat(50);
    const text = `{"items":[{"kind":"A"},{"kind":"B","x":${deep}},{"kind":"C"}],"kind":"List"}`;
    const { items, problems } = await collect(chunked(text, 64), { streamThreshold: 16, maxDepth: 20 });
    expect(items.map((i) => [i.item, kindOf(i.object)])).toEqual([
      [0, 'A'],
      [2, 'C'],
    ]);
    expect(problems.items.map((p) => p.reason)).toEqual(['JSON document 1: 1 item skipped (first: item 1: nesting deeper than 20)']);
    const bad = await collect(chunked(`{"kind":"X","x":${deep}}`, 64), { streamThreshold: 16, maxDepth: 20 });
    expect(bad.items).toEqual([]);
    expect(bad.problems.items[0]!.reason).toMatch(/^JSON rejected after 0 objects: nesting deeper than 20/);
  });

  it('stops reading when the consumer stops', async () => {
    let returned = false;
    const text = eventList(2000);
    async function* body(): AsyncGenerator<Buffer> {
      try {
        yield* chunked(text, 4096);
      } finally {
        returned = true;
      }
    }
    const problems = new Problems();
    let n = 0;
    for await (const o of parseJsonObjects(body(), 'e.json', problems, { streamThreshold: 8192 })) {
      expect(kindOf(o)).toBe('Event');
      if (++n === 10) break;
    }
    expect(returned).toBe(true);
    expect(problems.items).toEqual([]);
  });

  it('reports a body that fails while being read', async () => {
    async function* body(): AsyncGenerator<Buffer> {
      yield Buffer.from('{"items":[{"kind":"A"},');
      yield Buffer.from(' '.repeat(100));
      throw new Error('xz: corrupt input');
    }
    const { items, problems } = await collect(body(), { streamThreshold: 10 });
    expect(items.map((i) => kindOf(i.object))).toEqual(['A']);
    expect(problems.items[0]!.reason).toMatch(/^JSON read failed after \d+ bytes: xz: corrupt input$/);
  });
});
