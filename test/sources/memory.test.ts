import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { directoryEntries } from '../../src/sources/directory.js';
import { memoryEntries } from '../../src/sources/memory.js';
import { walkFiles } from '../../src/core/assets.js';
import { readAll } from '../../src/sources/bytes.js';
import type { Entry } from '../../src/sources/types.js';

const REPO = new URL('../../', import.meta.url).pathname;
const TREE = 'rules/cvo/cvo-final-sync-lost.fixtures/fires-history/input';

async function listed(entries: AsyncIterable<Entry>): Promise<{ path: string; type: string; size: number | undefined; bytes: string }[]> {
  const out = [];
  for await (const entry of entries) out.push({ path: entry.path, type: entry.type, size: entry.size, bytes: (await readAll(entry.body(), 1 << 24)).toString('base64') });
  return out;
}

describe('a tree held in memory (the built-in fixtures inside the single file)', () => {
  it('gives the entries, order and bytes the directory source gives for the same tree on disk', async () => {
    const files = walkFiles(REPO, TREE).map((path) => ({ path: path.slice(TREE.length + 1), bytes: () => readFileSync(join(REPO, path)) }));
    expect(files.length).toBeGreaterThanOrEqual(3);
    expect(await listed(memoryEntries(files))).toEqual(await listed(directoryEntries(join(REPO, TREE))));
  });
});
