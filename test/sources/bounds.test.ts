import { describe, it, expect } from 'vitest';
import { createWriteStream } from 'node:fs';
import { createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { openInput } from '../../src/sources/open.js';
import { Problems } from '../../src/core/problems.js';
import { DEFAULT_LIMITS, type Limits } from '../../src/core/limits.js';
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { LineSplitter, LongLineCounter } from '../../src/parsers/lines.js';
import { MG_MINI, tempDir } from '../helpers/archives.js';
import { overlappingZipBomb, zipBuffer } from '../helpers/zip.js';

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
    expect(problems.stopped?.at).toBeDefined();
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

  it('counts lines longer than the limit, whatever the chunking', () => {
    const text = fc.array(fc.tuple(fc.nat(60), fc.boolean()), { maxLength: 12 }).map((parts) => parts.map(([n, nl]) => 'x'.repeat(n) + (nl ? '\n' : '')).join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 25 }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1 }), (input, max, cuts) => {
        const counter = new LongLineCounter(max);
        const bytes = Buffer.from(input);
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const size = cuts[i % cuts.length]!;
          counter.push(bytes.subarray(at, at + size));
          at += size;
        }
        expect(counter.count).toBe(input.split('\n').filter((line) => line.length > max).length);
      }),
      { seed: 6, numRuns: 2000 },
    );
  });

  it('reads traversal and absolute names in a zip as data, with a warning', async () => {
    const zip = join(tempDir(), 'names.zip');
    writeFileSync(zip, zipBuffer([{ name: '../../etc/passwd', data: Buffer.from('x\n') }, { name: '/etc/shadow' }, { name: 'ok.log', data: Buffer.from('ok\n') }]));
    const { files, problems } = await readEverything(zip, DEFAULT_LIMITS);
    expect(files).toBe(3);
    expect(problems.stopped?.at).toBeUndefined();
    expect(problems.items.filter((p) => /absolute or climbs out/.test(p.reason)).map((p) => p.path)).toEqual(['../../etc/passwd', '/etc/shadow']);
  });

  it('stops a zip whose entries overlap, and refuses an entry declared to inflate past the ratio', async () => {
    const zip = join(tempDir(), 'overlap.zip');
    writeFileSync(zip, overlappingZipBomb(['a.log', 'b.log', 'c.log'], 100 * 1024 * 1024));
    const { bytes, files, problems } = await readEverything(zip, DEFAULT_LIMITS);
    expect(files).toBe(1);
    expect(bytes).toBe(0);
    const reasons = problems.items.map((p) => `${p.path}: ${p.reason}`);
    expect(reasons).toContainEqual(expect.stringMatching(/^a\.log: unreadable: zip entry inflates more than 200:1 \(compression bomb guard\)$/));
    expect(reasons).toContainEqual(expect.stringMatching(/^a\.log: reading stopped after this entry: zip entries overlap/));
    expect(problems.stopped?.at).toBe('a.log');
  });
});
