/**
 * Decoding of tar's 512-byte headers and of the long-name records before them (POSIX ustar,
 * PAX, GNU), read where they lie in the stream's buffer: no view or string is made for a field
 * that is not used. Decides as tar-stream's decoder does (the same types, names, sizes and
 * errors; `test/sources/tar.test.ts` holds the two together).
 */

export const BLOCK = 512;

/** What a header says, `type` as tar-stream names it (null for a type flag it does not know). */
export interface TarHeader {
  name: string;
  type: TarType | null;
  size: number;
  linkname: string | null;
}

export type TarType =
  | 'file'
  | 'link'
  | 'symlink'
  | 'character-device'
  | 'block-device'
  | 'directory'
  | 'fifo'
  | 'contiguous-file'
  | 'pax-header'
  | 'pax-global-header'
  | 'gnu-long-link-path'
  | 'gnu-long-path';

/** Type flags by their byte (`'0'` to `'7'`, PAX's `x` and `g`, GNU's `K`, `L` and `N`); a NUL flag is a file. */
const TYPES = new Map<number, TarType>([
  [0, 'file'],
  [0x30, 'file'],
  [0x31, 'link'],
  [0x32, 'symlink'],
  [0x33, 'character-device'],
  [0x34, 'block-device'],
  [0x35, 'directory'],
  [0x36, 'fifo'],
  [0x37, 'contiguous-file'],
  [0x78, 'pax-header'],
  [0x67, 'pax-global-header'],
  [0x4b, 'gnu-long-link-path'],
  [0x4c, 'gnu-long-path'],
  [0x4e, 'gnu-long-path'],
]);

/** Types whose body names the next entry instead of being one. */
export type LongHeaderType = 'pax-header' | 'pax-global-header' | 'gnu-long-link-path' | 'gnu-long-path';

export function isLongHeader(type: TarType | null): type is LongHeaderType {
  return type === 'pax-header' || type === 'pax-global-header' || type === 'gnu-long-link-path' || type === 'gnu-long-path';
}

const SPACE = 0x20;
const MAGIC_OFFSET = 257;
/** The checksum of a block whose bytes are all zero (its checksum field counted as spaces). */
const EMPTY_CHECKSUM = 8 * SPACE;

/** A header or record that breaks the format (its message names tar, as the stream's other errors do). */
export class TarFormatError extends Error {
  constructor(message: string) {
    super(`tar: ${message}`);
  }
}

/**
 * The header in `block[at, at + 512)` (`view`: a DataView of `block`), or null for a block of
 * zeros (the end-of-archive marker and its padding). Throws on a checksum that does not hold or
 * a format neither ustar nor GNU.
 */
export function decodeHeader(block: Buffer, at: number, view: DataView = viewOf(block)): TarHeader | null {
  const checksum = headerChecksum(block, at, view);
  if (checksum === EMPTY_CHECKSUM) return null;
  if (checksum !== octal(block, at + 148, 8)) throw new TarFormatError('Invalid tar header. Maybe the tar is corrupted or it needs to be gunzipped?');
  const format = formatOf(block, at);
  if (format === undefined) throw new TarFormatError('Invalid tar header: unknown format.');
  let name = text(block, at, 100);
  if (format === 'ustar' && block[at + 345] !== 0) name = `${text(block, at + 345, 155)}/${name}`;
  // A name's trailing slash does not make a directory: a long name cut at 100 bytes may end in one
  // (tar-stream's decoder, whose check for old tars comes after the type is set, reads it so too).
  return {
    name,
    type: TYPES.get(block[at + 156]!) ?? null,
    size: octal(block, at + 124, 12),
    linkname: block[at + 157] === 0 ? null : text(block, at + 157, 100),
  };
}

/** Keys of a PAX record set that name or size the next entry. */
export interface PaxRecords {
  path?: string | undefined;
  linkpath?: string | undefined;
  size?: string | undefined;
}

/**
 * The records of a PAX extended header (`<length> <key>=<value>\n` each) that mgsift uses, read
 * up to the first malformed one, as tar-stream does. Keys are told from the bytes; only the
 * values kept are decoded (an archiver's times and attributes are not).
 */
export function decodePax(body: Buffer): PaxRecords {
  const records: PaxRecords = {};
  let at = 0;
  while (at < body.length) {
    let length = 0;
    let space = at;
    for (; space < body.length && body[space] !== SPACE; space++) {
      const digit = body[space]! - 0x30;
      if (digit < 0 || digit > 9) break;
      length = length * 10 + digit;
    }
    while (space < body.length && body[space] !== SPACE) space++;
    if (!length) return records;
    const end = Math.min(at + length - 1, body.length);
    const equals = body.indexOf(EQUALS, space + 1);
    if (equals === -1 || equals >= end) return records;
    const key = PAX_KEYS.find((candidate) => equals - space - 1 === candidate.bytes.length && keyAt(body, space + 1, candidate.bytes));
    if (key) records[key.name] = body.toString('utf8', equals + 1, end);
    at += length;
  }
  return records;
}

const EQUALS = 0x3d;
const PAX_KEYS = (['path', 'linkpath', 'size'] as const).map((name) => ({ name, bytes: Buffer.from(name) }));

function keyAt(body: Buffer, at: number, key: Buffer): boolean {
  for (let i = 0; i < key.length; i++) if (body[at + i] !== key[i]) return false;
  return true;
}

/** A GNU long name or link target: the record's text up to its first NUL. */
export function decodeLongName(body: Buffer): string {
  return text(body, 0, body.length);
}

/** Bytes of padding after a body of `size` bytes, to the next block. */
export function paddingAfter(size: number): number {
  const over = size % BLOCK;
  return over === 0 ? 0 : BLOCK - over;
}

/**
 * The sum of a header's bytes, its checksum field counted as spaces. Summed four bytes at a time
 * in two 16-bit lanes (128 words cannot overflow a lane: 128 × 2 × 255 < 65536): a third of a
 * byte loop's time, over the 50,000 headers of a large must-gather.
 */
export function headerChecksum(block: Buffer, at: number, view: DataView = viewOf(block)): number {
  let lanes = 0;
  for (let i = at; i < at + BLOCK; i += 4) {
    const word = view.getUint32(i, true);
    lanes += (word & 0x00ff00ff) + ((word >>> 8) & 0x00ff00ff);
  }
  let sum = (lanes & 0xffff) + (lanes >>> 16) + EMPTY_CHECKSUM;
  for (let i = at + 148; i < at + 156; i++) sum -= block[i]!;
  return sum;
}

/** A DataView of a buffer's bytes (a reader of many headers in one buffer makes it once: `decodeHeader`'s `view`). */
export function viewOf(block: Buffer): DataView {
  return new DataView(block.buffer, block.byteOffset, block.length);
}

const USTAR = [0x75, 0x73, 0x74, 0x61, 0x72]; // "ustar"

/** `ustar\0` (POSIX) or `ustar ` with version ` \0` (GNU, old GNU); undefined for anything else. */
function formatOf(block: Buffer, at: number): 'ustar' | 'gnu' | undefined {
  const magic = at + MAGIC_OFFSET;
  for (let i = 0; i < USTAR.length; i++) if (block[magic + i] !== USTAR[i]) return undefined;
  if (block[magic + 5] === 0) return 'ustar';
  if (block[magic + 5] === SPACE && block[magic + 6] === SPACE && block[magic + 7] === 0) return 'gnu';
  return undefined;
}

/** A NUL-ended field as UTF-8. */
function text(block: Buffer, at: number, length: number): string {
  let end = at;
  const limit = at + length;
  while (end < limit && block[end] !== 0) end++;
  return block.toString('utf8', at, end);
}

/**
 * A numeric field: base 256 when its first byte has the high bit (GNU's large sizes), else
 * octal digits after leading spaces and NULs, up to the first space (NaN when there are none
 * but other bytes: a broken header).
 */
function octal(block: Buffer, at: number, length: number): number {
  const end = at + length;
  if (block[at]! & 0x80) return base256(block, at, end);
  let i = at;
  while (i < end && block[i] === SPACE) i++;
  let stop = i;
  while (stop < end && block[stop] !== SPACE) stop++;
  while (i < stop && block[i] === 0) i++;
  if (i === stop) return 0;
  let value = 0;
  let digits = 0;
  for (; i < stop; i++, digits++) {
    const digit = block[i]! - 0x30;
    if (digit < 0 || digit > 7) break;
    value = value * 8 + digit;
  }
  return digits === 0 ? Number.NaN : value;
}

/** A base-256 number: 0x80 first for a positive one, 0xff for a negative one (two's complement). */
function base256(block: Buffer, at: number, end: number): number {
  const positive = block[at] === 0x80;
  if (!positive && block[at] !== 0xff) return Number.NaN;
  let value = 0;
  for (let i = at + 1; i < end; i++) value = value * 256 + (positive ? block[i]! : 0xff - block[i]!);
  return positive ? value : -value;
}
