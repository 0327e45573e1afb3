import { createReadStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unxzWithProcess, unxzWithWasm } from '../../src/sources/xz.js';
import { readAll } from '../../src/sources/bytes.js';
import { MG_MINI, packTree, tempDir } from '../helpers/archives.js';
import { needs } from '../helpers/needs.js';

const decoders = { 'the system xz': unxzWithProcess, 'the WebAssembly decoder': unxzWithWasm };

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

  it('the WebAssembly decoder names what is wrong: end of input, corrupt data, no xz stream', async () => {
    const xz = readFileSync(archives['tar.xz']);
    const corrupt = Buffer.from(xz);
    for (let i = 1000; i < 1100; i++) corrupt[i]! ^= 0xff;
    async function* once(bytes: Buffer): AsyncGenerator<Buffer> {
      yield bytes;
    }
    const failure = (bytes: Buffer): Promise<Buffer> => readAll(unxzWithWasm(once(bytes)), 64 * 1024 * 1024);
    await expect(failure(xz.subarray(0, 3000))).rejects.toThrow(/^xz: unexpected end of input$/);
    await expect(failure(xz.subarray(0, 8))).rejects.toThrow(/^xz: unexpected end of input$/);
    await expect(failure(corrupt)).rejects.toThrow(/^xz: corrupt data$/);
    await expect(failure(Buffer.from('customer notes, not xz\n'))).rejects.toThrow(/^xz: not an xz stream$/);
  });

  it('the WebAssembly decoder stops when its reader stops, and then decodes the next stream', async () => {
    const first = unxzWithWasm(createReadStream(archives['tar.xz']));
    expect((await first.next()).done).toBe(false);
    await first.return(undefined);
    const bytes = await readAll(unxzWithWasm(createReadStream(archives['tar.xz'])), 64 * 1024 * 1024);
    expect(bytes.equals(tar)).toBe(true);
  });

  it('the WebAssembly decoder refuses an xz stream inside another one with a line naming xz', async () => {
    const outer = unxzWithWasm(createReadStream(archives['tar.xz']));
    await outer.next();
    await expect(unxzWithWasm(createReadStream(archives['tar.xz'])).next()).rejects.toThrow(/needs the `xz` command/);
    await outer.return(undefined);
  });

  const REAL = new URL('../../../shared/samples-real/', import.meta.url).pathname;
  const real = ['must-gather-aws.tar.xz', 'must-gather-metal.tar.xz'].map((name) => join(REAL, name));
  const canCompare = real.every((file) => existsSync(file)) && spawnSync('xz', ['--version']).status === 0;
  it.runIf(canCompare)(`the WebAssembly decoder gives the real must-gathers byte for byte as \`xz -dc\` ${needs('../shared/samples-real/ (not in CI) and xz on PATH')}`, async () => {
    for (const file of real) {
      const hash = createHash('sha256');
      for await (const chunk of unxzWithWasm(createReadStream(file))) hash.update(chunk);
      const expected = createHash('sha256').update(spawnSync('xz', ['-dc', file], { maxBuffer: 512 * 1024 * 1024 }).stdout).digest('hex');
      expect(hash.digest('hex')).toBe(expected);
    }
  }, 60_000);
});
