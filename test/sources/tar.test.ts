import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { tarEntries, normalizeStoredPath } from '../../src/sources/tar.js';
import { createRequire } from 'node:module';
import { decodeHeader, decodePax } from '../../src/sources/tar-header.js';
import { tempDir } from '../helpers/archives.js';

/** What a reader sees of an entry; `bytes` is the body read, up to `readAtMost`. */
interface Seen {
  path: string;
  type: string;
  size: number | undefined;
  linkTarget: string | undefined;
  bytes: string;
}

const TYPES: Record<string, string> = { file: 'file', 'contiguous-file': 'file', directory: 'directory', symlink: 'symlink', link: 'hardlink' };

/** The same archive read by tar-stream's extractor, the reference the framing keeps to. */
async function byTarStream(archive: Buffer, readAtMost: (index: number) => number): Promise<Seen[] | string> {
  const extract = tar.extract();
  Readable.from([archive]).pipe(extract);
  const seen: Seen[] = [];
  try {
    for await (const stream of extract) {
      const header = stream.header;
      const type = TYPES[header.type ?? 'file'] ?? 'other';
      const chunks: Buffer[] = [];
      let length = 0;
      const most = readAtMost(seen.length);
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (type === 'file' && length < most) chunks.push(chunk.subarray(0, most - length));
        length += chunk.length;
      }
      seen.push({ path: normalizeStoredPath(header.name), type, size: header.size, linkTarget: header.linkname ?? undefined, bytes: Buffer.concat(chunks).toString('latin1') });
    }
  } catch (err) {
    return `tar: ${(err as Error).message}`;
  }
  return seen;
}

/** The archive read by mgsift's framing, fed in chunks of the given sizes (cycled). */
async function byFraming(archive: Buffer, chunkSizes: number[], readAtMost: (index: number) => number): Promise<Seen[] | string> {
  // A size of 0 is an empty chunk, as some decoders yield (the WebAssembly xz decoder ends with one).
  function* chunks(): Generator<Buffer> {
    let at = 0;
    for (let i = 0; at < archive.length; i++) {
      const size = chunkSizes[i % chunkSizes.length]!;
      yield archive.subarray(at, at + size);
      at += size;
    }
    if (chunkSizes.includes(0)) yield Buffer.alloc(0);
  }
  const seen: Seen[] = [];
  try {
    for await (const entry of tarEntries(Readable.from(chunks()))) {
      const parts: Buffer[] = [];
      let length = 0;
      const most = readAtMost(seen.length);
      for await (const chunk of entry.body()) {
        if (length >= most) break; // the rest is left to the framing to skip
        parts.push(chunk.subarray(0, most - length));
        length += chunk.length;
      }
      seen.push({ path: entry.path, type: entry.type, size: entry.size, linkTarget: entry.linkTarget, bytes: Buffer.concat(parts).toString('latin1') });
    }
  } catch (err) {
    return (err as Error).message;
  }
  return seen;
}

async function packed(entries: { name: string; type: 'file' | 'directory' | 'symlink' | 'link'; body: Buffer; linkname: string }[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const entry of entries) {
    if (entry.type === 'file') pack.entry({ name: entry.name, type: 'file' }, entry.body);
    else pack.entry({ name: entry.name, type: entry.type, linkname: entry.type === 'directory' ? undefined : entry.linkname });
  }
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const part of pack as AsyncIterable<Buffer>) parts.push(part);
  return Buffer.concat(parts);
}

const segment = fc.stringMatching(/^[a-zA-Z0-9._\-é日]{1,40}$/);
const entryArb = fc.record({
  name: fc.array(segment, { minLength: 1, maxLength: 8 }).map((parts) => parts.join('/')),
  type: fc.constantFrom('file' as const, 'file' as const, 'directory' as const, 'symlink' as const, 'link' as const),
  body: fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ minLength: 500, maxLength: 1600 }), fc.constant(new Uint8Array(1024).fill(7))).map((bytes) => Buffer.from(bytes)),
  linkname: fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('/')),
});

describe('tar framing', () => {
  it('reads what tar-stream reads: names (long ones in PAX records), types, sizes, links and bodies, however the stream is chunked (empty chunks too) and the bodies read', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(entryArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.oneof(fc.integer({ min: 1, max: 700 }), fc.integer({ min: 700, max: 9000 }), fc.constant(0)), { minLength: 1, maxLength: 5 }).filter((sizes) => sizes.some((size) => size > 0)),
        fc.array(fc.constantFrom(0, 1, 511, 600, Number.MAX_SAFE_INTEGER), { minLength: 1, maxLength: 4 }),
        async (entries, chunkSizes, reads) => {
          const archive = await packed(entries);
          const readAtMost = (index: number): number => reads[index % reads.length]!;
          const expected = await byTarStream(archive, readAtMost);
          expect(Array.isArray(expected)).toBe(true);
          expect(await byFraming(archive, chunkSizes, readAtMost)).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("reads GNU long names and links, PAX global records and old GNU headers as tar-stream does (python's tarfile writes them)", async () => {
    const dir = tempDir();
    const script = `
import io, sys, tarfile
long = 'must-gather/' + 'namespaces/openshift-etcd/pods/' * 6 + 'etcd.log'
for fmt, name in ((tarfile.GNU_FORMAT, 'gnu'), (tarfile.PAX_FORMAT, 'pax')):
    with tarfile.open(sys.argv[1] + '/' + name + '.tar', mode='w', format=fmt, pax_headers={'comment': 'global'}) as t:
        for i, path in enumerate([long, 'short.txt', long + '.2']):
            data = (path * 20).encode()
            info = tarfile.TarInfo(path); info.size = len(data); t.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo('a-link'); link.type = tarfile.SYMTYPE; link.linkname = long; t.addfile(link)
        d = tarfile.TarInfo('dir/'); d.type = tarfile.DIRTYPE; t.addfile(d)
`;
    execFileSync('python3', ['-c', script, dir]);
    for (const name of ['gnu', 'pax']) {
      const archive = readFileSync(join(dir, `${name}.tar`));
      const expected = await byTarStream(archive, () => Number.MAX_SAFE_INTEGER);
      expect(Array.isArray(expected) && expected.length, name).toBe(5);
      expect(await byFraming(archive, [1000], () => Number.MAX_SAFE_INTEGER), name).toEqual(expected);
      expect(await byFraming(archive, [97], () => Number.MAX_SAFE_INTEGER), name).toEqual(expected);
      expect(await byFraming(archive, [512, 0], () => Number.MAX_SAFE_INTEGER), name).toEqual(expected);
    }
  });

  it('fails where tar-stream fails, with its words: a broken checksum, an unknown format, a size that is no number, a long-name record over 4 MB, a stream cut in a body or a header', async () => {
    const archive = await packed([
      { name: 'a.txt', type: 'file', body: Buffer.alloc(700, 1), linkname: '' },
      { name: 'b.txt', type: 'file', body: Buffer.alloc(10, 2), linkname: '' },
    ]);
    const checksum = Buffer.from(archive);
    checksum[1536 + 3]! ^= 0xff; // b.txt's name: its checksum no longer holds
    const unknown = Buffer.from(archive);
    unknown.write('ustaz', 1536 + 257, 'latin1');
    const fixChecksum = (block: Buffer): void => {
      block.fill(0x20, 148, 156);
      let sum = 0;
      for (const byte of block) sum += byte;
      block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    };
    fixChecksum(unknown.subarray(1536, 2048));
    const noSize = Buffer.from(archive);
    noSize.write('zzzzzzzzzzz', 1536 + 124, 'latin1');
    fixChecksum(noSize.subarray(1536, 2048));
    // b.txt's header made a PAX record of 5 MB: its size is refused before any of it is read.
    const hugeRecord = Buffer.from(archive);
    hugeRecord.write('x', 1536 + 156, 'latin1');
    hugeRecord.write(`${(5 * 1024 * 1024).toString(8).padStart(11, '0')}\0`, 1536 + 124, 'latin1');
    fixChecksum(hugeRecord.subarray(1536, 2048));
    const cases: [string, Buffer][] = [
      ['checksum', checksum],
      ['unknown format', unknown],
      ['size no number', noSize],
      ['long-name record over 4 MB', hugeRecord],
      ['cut in a body', archive.subarray(0, 1000)],
      ['cut in a header', archive.subarray(0, 1536 + 100)],
    ];
    for (const [what, bytes] of cases) {
      const expected = await byTarStream(bytes, () => Number.MAX_SAFE_INTEGER);
      expect(typeof expected, what).toBe('string');
      expect(await byFraming(bytes, [300], () => Number.MAX_SAFE_INTEGER), what).toBe(expected);
    }
  });

  it("reads PAX records as tar-stream's decoder does: the path, link and size kept, other keys passed over, a malformed record ending the read", () => {
    // tar-stream's own decoder, reached by its file: the package exports only its streams.
    const reference = createRequire(import.meta.url)('../../node_modules/tar-stream/headers.js') as { decodePax(body: Buffer): Record<string, string> };
    const record = fc.oneof(
      fc.tuple(fc.constantFrom('path', 'linkpath', 'size', 'mtime', 'atime', 'SCHILY.xattr.user.a', 'pathx', 'pat'), fc.stringMatching(/^[a-z0-9/.=é ]{0,30}$/)).map(([key, value]) => {
        const text = ` ${key}=${value}\n`;
        let length = Buffer.byteLength(text) + 1;
        if (String(length).length + Buffer.byteLength(text) !== length) length++;
        return `${length}${text}`;
      }),
      fc.constantFrom('0 path=x\n', 'abc\n', '9 noequals\n', '12 path=ab\n'),
    );
    fc.assert(
      fc.property(fc.array(record, { maxLength: 6 }), (records) => {
        const body = Buffer.from(records.join(''));
        const expected = reference.decodePax(body);
        const kept = Object.fromEntries(['path', 'linkpath', 'size'].filter((key) => key in expected).map((key) => [key, expected[key]]));
        expect(decodePax(body)).toEqual(kept);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a zero block as no header, and sizes written in base 256', () => {
    expect(decodeHeader(Buffer.alloc(512), 0)).toBeNull();
    const block = Buffer.alloc(512);
    block.write('big.bin', 0, 'latin1');
    block.write('ustar\0', 257, 'latin1');
    block.write('00', 263, 'latin1');
    block[124] = 0x80;
    block.writeUIntBE(2 ** 36 + 5, 136 - 6, 6); // last six bytes of the size field
    block.fill(0x20, 148, 156);
    let sum = 0;
    for (const byte of block) sum += byte;
    block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    expect(decodeHeader(block, 0)).toEqual({ name: 'big.bin', type: 'file', size: 2 ** 36 + 5, linkname: null });
  });

  it('shows an entry\'s first bytes at hand without reading them, and none once its body was read or when they span chunks', async () => {
    const body = Buffer.from('0123456789'.repeat(100));
    const archive = await packed([
      { name: 'a.txt', type: 'file', body, linkname: '' },
      { name: 'b.txt', type: 'file', body: Buffer.from('short'), linkname: '' },
    ]);
    const seen: { path: string; head: string | undefined; whole: string; after: string | undefined }[] = [];
    for await (const entry of tarEntries(Readable.from([archive]))) {
      const head = entry.peekNow?.(512)?.toString('latin1');
      const parts: Buffer[] = [];
      for await (const chunk of entry.body()) parts.push(chunk);
      seen.push({ path: entry.path, head, whole: Buffer.concat(parts).toString('latin1'), after: entry.peekNow?.(512)?.toString('latin1') });
    }
    expect(seen).toEqual([
      { path: 'a.txt', head: body.toString('latin1', 0, 512), whole: body.toString('latin1'), after: undefined },
      // A body shorter than asked for is shown whole.
      { path: 'b.txt', head: 'short', whole: 'short', after: undefined },
    ]);
    // Fed 100 bytes at a time, the first 512 bytes of a.txt are not in one chunk.
    const pieces = Array.from({ length: Math.ceil(archive.length / 100) }, (_, i) => archive.subarray(i * 100, i * 100 + 100));
    for await (const entry of tarEntries(Readable.from(pieces))) {
      if (entry.path === 'a.txt') expect(entry.peekNow?.(512)).toBeUndefined();
    }
  });
});

