/**
 * Builders for hostile archives: tar members written by hand or through tar-stream, gzip and xz
 * bombs made of repeated compressed members (a gigabyte of zeros in about a megabyte, built in
 * well under a second), and the mg-mini tree as members to mix hostile entries into.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, createWriteStream, ftruncateSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import tarStream from 'tar-stream';
import { MG_MINI } from '../helpers/archives.js';

/** The mg-mini image folder, where a must-gather keeps its resources and logs. */
export const IMAGE = 'must-gather-aws/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cbd33388f7e18954e5ce8ad9616e91df05ace604966c0a44111d85c897';

export interface TarMember {
  name: string;
  data?: Buffer | string;
  /** A large body, streamed: its size and its chunks. */
  stream?: { size: number; chunks: Iterable<Buffer> };
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'character-device' | 'block-device' | 'fifo';
  linkname?: string;
}

/** Every file of mg-mini as tar members, in name order. */
export function mgMiniMembers(): TarMember[] {
  const members: TarMember[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name !== 'PROVENANCE.md') members.push({ name: relative(MG_MINI, full), data: readFileSync(full) });
    }
  };
  walk(MG_MINI);
  return members;
}

/** mg-mini with some members replaced (same name) or added. */
export function mgMiniWith(...extra: TarMember[]): TarMember[] {
  const names = new Set(extra.map((m) => m.name));
  return [...mgMiniMembers().filter((m) => !names.has(m.name)), ...extra];
}

/** Writes members as a tar (gzip-compressed for `.gz` names), streamed: 200,000 members stay cheap. */
export async function writeTar(file: string, members: Iterable<TarMember>): Promise<void> {
  const pack = tarStream.pack();
  const sink = createWriteStream(file);
  const done = file.endsWith('.gz') ? pipeline(pack, createGzip({ level: 1 }), sink) : pipeline(pack, sink);
  for (const member of members) {
    const data = member.data === undefined ? undefined : Buffer.from(member.data);
    const size = member.stream?.size ?? data?.length ?? 0;
    await new Promise<void>((resolve, reject) => {
      const header = { name: member.name, type: member.type ?? 'file', linkname: member.linkname, size, mode: 0o644, mtime: new Date(0) };
      const callback = (err?: Error | null): void => (err ? reject(err) : resolve());
      if (member.stream) void pipeline(Readable.from(member.stream.chunks), pack.entry(header, callback)).catch(reject);
      else if (data === undefined) pack.entry(header, callback);
      else pack.entry(header, data, callback);
    });
  }
  pack.finalize();
  await done;
}

export async function tarBuffer(members: Iterable<TarMember>): Promise<Buffer> {
  const pack = tarStream.pack();
  for (const member of members) {
    const data = member.data === undefined ? Buffer.alloc(0) : Buffer.from(member.data);
    pack.entry({ name: member.name, type: member.type ?? 'file', linkname: member.linkname, size: data.length, mode: 0o644, mtime: new Date(0) }, data);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Offsets of the 512-byte headers of a plain tar (PAX headers included). */
export function tarHeaderOffsets(tar: Buffer): number[] {
  const offsets: number[] = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    if (tar[at] === 0) break;
    offsets.push(at);
    const size = parseInt(tar.toString('latin1', at + 124, at + 136).replace(/\0.*$/, '').trim() || '0', 8);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return offsets;
}

/** A ustar header for a short name (≤ 100 bytes, given as raw bytes when it must not be UTF-8). */
export function ustarHeader(name: Buffer, size: number, type = '0'): Buffer {
  const header = Buffer.alloc(512);
  name.copy(header, 0, 0, 100);
  header.write('0000644\0', 100, 'latin1');
  header.write('0000000\0', 108, 'latin1');
  header.write('0000000\0', 116, 'latin1');
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  header.write('00000000000\0', 136, 'latin1');
  header.write(type, 156, 'latin1');
  header.write('ustar\0' + '00', 257, 'latin1');
  fixChecksum(header);
  return header;
}

/** Recomputes a tar header's checksum after its bytes were changed. */
function fixChecksum(header: Buffer): void {
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += header[i]!;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
}

const MIB = 1024 * 1024;

/**
 * A gzip bomb: `mib` MiB of zeros as concatenated gzip members (each member one MiB), after an
 * optional `head` (e.g. a tar header) and before an optional `tail`. 1 GiB costs about 1 MB.
 */
export async function writeGzipBomb(file: string, mib: number, head?: Buffer, tail?: Buffer): Promise<void> {
  const member = gzipSync(Buffer.alloc(MIB), { level: 9 });
  async function* parts(): AsyncGenerator<Buffer> {
    if (head) yield gzipSync(head);
    for (let i = 0; i < mib; i++) yield member;
    if (tail) yield gzipSync(tail);
  }
  await pipeline(Readable.from(parts()), createWriteStream(file));
}

/** An xz bomb: `mib` MiB of zeros as concatenated xz streams of 64 MiB each (after `head`). */
export async function writeXzBomb(file: string, mib: number, head?: Buffer): Promise<void> {
  const compress = (data: Buffer): Buffer => execFileSync('xz', ['-0', '-c'], { input: data, maxBuffer: 64 * MIB });
  const stream = compress(Buffer.alloc(64 * MIB));
  const first = head ? compress(head) : undefined;
  async function* parts(): AsyncGenerator<Buffer> {
    if (first) yield first;
    for (let i = 0; i < mib / 64; i++) yield stream;
  }
  await pipeline(Readable.from(parts()), createWriteStream(file));
}

/** A sparse file: `head`, then `bytes` in all, then `tail`; it takes almost no disk space. */
export function writeSparse(file: string, head: string, bytes: number, tail: string): void {
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, head, 0);
    ftruncateSync(fd, bytes - Buffer.byteLength(tail));
    writeSync(fd, tail, bytes - Buffer.byteLength(tail));
  } finally {
    closeSync(fd);
  }
}
