import { describe, it, expect } from 'vitest';
import { createWriteStream } from 'node:fs';
import { createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { openInput } from '../../src/sources/open.js';
import { Problems } from '../../src/core/problems.js';
import { DEFAULT_LIMITS, type Limits } from '../../src/core/limits.js';
import { LineSplitter } from '../../src/parsers/lines.js';
import { MG_MINI, tempDir } from '../helpers/archives.js';

async function readEverything(input: string, limits: Limits) {
  const problems = new Problems();
  const source = await openInput(input, { limits, problems });
  let bytes = 0;
  let files = 0;
  for await (const entry of source.entries()) {
    if (entry.type !== 'file') continue;
    files++;
    try {
      for await (const chunk of entry.body()) bytes += chunk.length;
    } catch (err) {
      problems.error(entry.path, (err as Error).message);
    }
  }
  return { bytes, files, problems };
}

describe('input bounds', () => {
  it('stops a gzip bomb at the inflation-ratio guard, early', async () => {
    const bomb = join(tempDir(), 'zeros.log.gz');
    async function* zeros(): AsyncGenerator<Buffer> {
      const block = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < 200; i++) yield block;
    }
    await pipeline(Readable.from(zeros()), createGzip({ level: 9 }), createWriteStream(bomb));
    const { bytes, problems } = await readEverything(bomb, DEFAULT_LIMITS);
    expect(bytes).toBeLessThan(100 * 1024 * 1024);
    expect(problems.items.map((p) => p.reason).join('\n')).toMatch(/compression bomb guard/);
  });

  it('stops reading after --max-total-bytes and says where', async () => {
    const { bytes, problems } = await readEverything(MG_MINI, { ...DEFAULT_LIMITS, maxTotalBytes: 50_000 });
    expect(bytes).toBeLessThan(50_000 + 70_000); // the entry under way may finish, the next does not start
    expect(problems.truncatedAt).toBeDefined();
    expect(problems.items.some((p) => /max-total-bytes/.test(p.reason))).toBe(true);
  });

  it('cuts a line longer than --max-line-bytes and keeps counting lines after it', () => {
    const seen: [number, number][] = [];
    const splitter = new LineSplitter((line, lineNo) => seen.push([lineNo, line.length]), 100);
    splitter.push(Buffer.from('first\n'));
    for (let i = 0; i < 50; i++) splitter.push(Buffer.alloc(10_000, 'x'));
    splitter.push(Buffer.from('\nlast'));
    splitter.end();
    expect(seen).toEqual([
      [1, 5],
      [2, 100],
      [3, 4],
    ]);
    expect(splitter.cut).toBe(1);
  });
});
