import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { decompress } from '../../src/sources/decompress.js';

async function* once(bytes: Buffer): AsyncGenerator<Buffer> {
  yield bytes;
}

describe('gzip decompression', () => {
  it('hands a slow reader one decoder chunk (1 MiB at most) at a time, never the buffered chunks copied into one', async () => {
    // 12 MiB of text that compresses: the decoder runs ahead of a reader that waits on every chunk.
    const line = Buffer.from(`${randomBytes(24).toString('hex')} a log line that repeats\n`);
    const plain = Buffer.concat(Array.from({ length: Math.ceil((12 * 1024 * 1024) / line.length) }, () => line));
    const sizes: number[] = [];
    const read: Buffer[] = [];
    for await (const chunk of decompress(once(gzipSync(plain)), 'gzip', DEFAULT_LIMITS)) {
      sizes.push(chunk.length);
      read.push(chunk);
      await sleep(40);
    }
    expect(Buffer.concat(read).equals(plain)).toBe(true);
    expect(sizes.length).toBeGreaterThanOrEqual(12);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1024 * 1024);
  });
});
