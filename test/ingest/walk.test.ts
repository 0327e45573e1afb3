import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { walk } from '../../src/ingest/walk.js';
import type { EntryConsumer } from '../../src/ingest/consumer.js';
import { openInput } from '../../src/sources/open.js';
import { Problems } from '../../src/core/problems.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { tempDir } from '../helpers/archives.js';

const pod = (name: string): string => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  namespace: openshift-etcd\n`;

/** A must-gather namespace holding the pods List and each pod's own file, as `oc adm inspect` writes them. */
function mustGather(listText: string): string {
  const root = join(tempDir(), 'must-gather.local.1', 'quay-io-image');
  const ns = join(root, 'namespaces', 'openshift-etcd');
  mkdirSync(join(ns, 'core'), { recursive: true });
  writeFileSync(join(root, 'timestamp'), '2021-08-03 10:14:13.632 +0000 UTC m=+0.1\n');
  writeFileSync(join(ns, 'core', 'pods.yaml'), listText);
  for (const name of ['etcd-a', 'etcd-b']) {
    mkdirSync(join(ns, 'pods', name), { recursive: true });
    writeFileSync(join(ns, 'pods', name, `${name}.yaml`), pod(name));
  }
  return join(root, '..', '..');
}

async function podsSeen(input: string, words?: readonly string[]): Promise<string[]> {
  const seen: string[] = [];
  const consumer: EntryConsumer = {
    need: (entry) => (entry.resource === 'pods' ? { objects: true, objectsIfContains: words } : undefined),
    object: (object, entry) => seen.push(`${entry.kind}:${String(object.metadata?.['name'])}`),
  };
  const problems = new Problems();
  const limits = DEFAULT_LIMITS;
  await walk(await openInput(input, { limits, problems }), [consumer], { problems, limits });
  return seen.sort();
}

describe('walk', () => {
  const list = `apiVersion: v1\nkind: List\nitems:\n${[pod('etcd-a'), pod('etcd-b')].map((p) => `- ${p.trimEnd().replaceAll('\n', '\n  ')}`).join('\n')}\n`;

  it("skips an object's own file when its List was read cleanly (must-gather writes it twice)", async () => {
    expect(await podsSeen(mustGather(list))).toEqual(['list:etcd-a', 'list:etcd-b']);
  });

  it("reads the objects' own files when their List could not be parsed", async () => {
    expect(await podsSeen(mustGather('items: [unclosed\n'))).toEqual(['namespaced-object:etcd-a', 'namespaced-object:etcd-b']);
  });

  it('parses a file for a consumer only when it holds one of the words the consumer requires', async () => {
    const input = mustGather(list);
    expect(await podsSeen(input, ['Evicted', 'etcd-b'])).toEqual(['list:etcd-a', 'list:etcd-b']);
    expect(await podsSeen(input, ['Evicted'])).toEqual([]);
  });

  it('tells a long line as a part left unread only to a reader of lines, not to one that reads the text whole', async () => {
    const input = mustGather(`apiVersion: v1\nkind: List\nitems:\n- kind: Pod\n  data: ${'x'.repeat(2048)}\n`);
    const problemsFor = async (wholeText: boolean): Promise<string[]> => {
      const unread: string[] = [];
      const consumer: EntryConsumer = {
        need: (entry) => (entry.resource === 'pods' && entry.kind === 'list' ? { text: true, wholeText } : undefined),
        text: () => undefined,
        unread: (entry, reason) => unread.push(reason),
      };
      const problems = new Problems();
      const limits = { ...DEFAULT_LIMITS, maxLineBytes: 1024 };
      await walk(await openInput(input, { limits, problems }), [consumer], { problems, limits });
      return [...unread, ...problems.items.map((p) => p.reason)];
    };
    expect(await problemsFor(true)).toEqual([]);
    expect((await problemsFor(false)).join('\n')).toMatch(/1 line\(s\) longer than 1024 bytes cut/);
  });
});
