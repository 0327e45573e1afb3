import { describe, it, expect } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openInput } from '../../src/sources/open.js';
import { peek } from '../../src/sources/bytes.js';
import { Problems } from '../../src/core/problems.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { packTree, tempDir } from '../helpers/archives.js';

// Entry bodies are plain async iterators (tar data, the magic peek's replay, the limits' count):
// they must behave as the async generators they replaced.
describe('entry bodies', () => {
  const dir = tempDir();
  const tree = join(dir, 'tree');
  mkdirSync(join(tree, 'mg'), { recursive: true });
  // A gzip entry: its size is unknown until inflated, so the limit stops it while it is read.
  const big = Buffer.from('x'.repeat(199) + '\n').toString().repeat(1000);
  writeFileSync(join(tree, 'mg', 'a.log.gz'), gzipSync(big));
  writeFileSync(join(tree, 'mg', 'b.log'), 'after\n');
  writeFileSync(join(tree, 'mg', 'c.log'), 'third\n');
  const archive = packTree(tree, 'mg', dir)['tar.gz'];

  it('stops a decompressed entry at --max-entry-bytes and reads the entries after it', async () => {
    const problems = new Problems();
    const source = await openInput(archive, { limits: { ...DEFAULT_LIMITS, maxEntryBytes: 50_000 }, problems });
    const read: Record<string, number> = {};
    for await (const entry of source.entries()) {
      if (entry.type !== 'file') continue;
      let bytes = 0;
      for await (const chunk of entry.body()) bytes += chunk.length;
      read[entry.path] = bytes;
    }
    expect(read['mg/a.log.gz'] ?? 0).toBeLessThanOrEqual(50_000);
    expect(read['mg/b.log']).toBe(6);
    expect(read['mg/c.log']).toBe(6);
    expect(problems.items.some((p) => p.path === 'mg/a.log.gz' && /50000 bytes/.test(p.reason))).toBe(true);
  });

  it('a body left early, or not read at all, does not stop the walk', async () => {
    const source = await openInput(archive, { limits: DEFAULT_LIMITS, problems: new Problems() });
    const seen: string[] = [];
    for await (const entry of source.entries()) {
      if (entry.type !== 'file') continue;
      seen.push(entry.path);
      if (entry.path === 'mg/a.log.gz') {
        for await (const chunk of entry.body()) {
          expect(chunk.length).toBeGreaterThan(0);
          break;
        }
      }
    }
    expect(seen).toEqual(['mg/a.log.gz', 'mg/b.log', 'mg/c.log']);
  });

  it("peek's replay gives the whole body once, and passes a source's error on", async () => {
    async function* chunks(fail: boolean): AsyncGenerator<Buffer> {
      yield Buffer.from('ab');
      yield Buffer.from('cd');
      if (fail) throw new Error('broken');
      yield Buffer.from('ef');
    }
    const { head, body } = await peek(chunks(false), 3);
    expect(head.toString()).toBe('abc');
    const parts: string[] = [];
    for await (const chunk of body) parts.push(chunk.toString());
    expect(parts.join('')).toBe('abcdef');
    for await (const chunk of body) parts.push(chunk.toString());
    expect(parts.join('')).toBe('abcdef');
    const broken = await peek(chunks(true), 1);
    await expect((async () => {
      for await (const chunk of broken.body) void chunk;
    })()).rejects.toThrow('broken');
  });
});
