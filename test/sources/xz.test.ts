import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unxzWithLiblzma, unxzWithProcess } from '../../src/sources/decompress.js';
import { readAll } from '../../src/sources/bytes.js';
import { MG_MINI, packTree, tempDir } from '../helpers/archives.js';

const decoders = { 'the system xz': unxzWithProcess, liblzma: unxzWithLiblzma };

describe('xz decoders', () => {
  const out = tempDir();
  const archives = packTree(dirname(MG_MINI.replace(/\/$/, '')), 'mg-mini', out);
  const tar = readFileSync(archives.tar);
  const truncated = join(out, 'truncated.tar.xz');
  writeFileSync(truncated, readFileSync(archives['tar.xz']).subarray(0, 3000));

  it.each(Object.entries(decoders))('%s decodes the archive to the same bytes as tar holds', async (_name, decode) => {
    const bytes = await readAll(decode(createReadStream(archives['tar.xz'])), 64 * 1024 * 1024);
    expect(bytes.equals(tar)).toBe(true);
  });

  it.each(Object.entries(decoders))('%s fails on a truncated stream', async (_name, decode) => {
    await expect(readAll(decode(createReadStream(truncated)), 64 * 1024 * 1024)).rejects.toThrow(/end of input|no progress is possible/i);
  });
});
