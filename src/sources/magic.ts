import { headerChecksum } from './tar-header.js';

/** Container detection by content (magic bytes), never by file name alone. */
export type Magic = 'gzip' | 'xz' | 'zip' | 'tar' | 'bzip2' | 'zstd' | 'unknown';

/** Bytes a caller should peek to let `detectMagic` see a tar header. */
export const MAGIC_PEEK_BYTES = 512;

const XZ = Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);
const USTAR = Buffer.from('ustar', 'latin1');

export function detectMagic(head: Buffer): Magic {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head.length >= 6 && head.subarray(0, 6).equals(XZ)) return 'xz';
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 0x03 || head[2] === 0x05) && (head[3] === 0x04 || head[3] === 0x06)) return 'zip';
  if (head.length >= 3 && head[0] === 0x42 && head[1] === 0x5a && head[2] === 0x68) return 'bzip2'; // BZh
  if (head.length >= 4 && head.readUInt32LE(0) === 0xfd2fb528) return 'zstd';
  if (isTarHeader(head)) return 'tar';
  return 'unknown';
}

/** POSIX/GNU `ustar` magic, or an old-style header whose checksum adds up. */
function isTarHeader(head: Buffer): boolean {
  if (head.length < 512) return false;
  // Compared in place: every entry of an archive is tested.
  if (head.compare(USTAR, 0, USTAR.length, 257, 257 + USTAR.length) === 0) return true;
  if (!mayBeOctal(head, 148, 156)) return false;
  const stored = parseInt(head.toString('latin1', 148, 156).replace(/\0.*$/, '').trim(), 8);
  if (!Number.isFinite(stored) || head[0] === 0) return false;
  return headerChecksum(head, 0) === stored;
}

/**
 * Whether `parseInt(field.trim(), 8)` could give a number: its first byte other than white space
 * is an octal digit or a sign. Most files fail here, on text, before any string is made of them.
 */
function mayBeOctal(head: Buffer, from: number, to: number): boolean {
  let at = from;
  while (at < to && isWhiteSpace(head[at]!)) at++;
  const first = head[at];
  return at < to && first !== undefined && ((first >= 0x30 && first <= 0x37) || first === 0x2b || first === 0x2d);
}

/** White space as `String.prototype.trim` takes it, among the bytes latin1 decodes. */
function isWhiteSpace(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d) || byte === 0xa0;
}
