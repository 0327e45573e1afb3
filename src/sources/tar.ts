import type { Entry, EntryType } from './types.js';
import { emptyBody } from './bytes.js';
import { BLOCK, decodeHeader, decodeLongName, decodePax, isLongHeader, paddingAfter, TarFormatError, type LongHeaderType, type PaxRecords, type TarHeader, type TarType } from './tar-header.js';

const TAR_TYPES: Partial<Record<TarType, EntryType>> = {
  file: 'file',
  'contiguous-file': 'file',
  directory: 'directory',
  symlink: 'symlink',
  link: 'hardlink',
};

/** Largest long-name or PAX record read (tar-stream's bound): a larger one is damage, not a name. */
const MAX_LONG_HEADER_BYTES = 4 * 1024 * 1024;

/** Bytes of a stream read so far, counted by its reader for whoever wants to say how far it got. */
export interface StreamCounter {
  bytes: number;
}

/**
 * Entries of a tar stream, in archive order; a truncated or corrupt tar throws where it broke,
 * and so does one that ends between two entries without its end-of-archive block (cut there).
 * `read` counts the stream's bytes as they are taken from `body`.
 *
 * The framing is done here, on the chunks as they come (headers decoded in place, bodies handed
 * on as views of the chunk that holds them), with the types, names and errors of tar-stream:
 * its stream machinery per entry was a third of reading a real must-gather's 24,000 entries
 * (BENCHMARKS.md, "Tar framing").
 */
export async function* tarEntries(body: AsyncIterable<Buffer>, read: StreamCounter = { bytes: 0 }): AsyncGenerator<Entry> {
  const input = new ChunkedInput(body[Symbol.asyncIterator](), read);
  try {
    let entriesEnd = 0;
    let names: LongNames = {};
    for (;;) {
      if (!(await input.nextBlock())) break;
      const header = decodeHeader(input.block, input.blockAt);
      if (header === null) continue; // the end-of-archive blocks, and any zero block
      if (isLongHeader(header.type)) {
        names = await readLongHeader(input, header.type, header.size, names);
        continue;
      }
      const named = applyLongNames(header, names);
      names = { global: names.global };
      if (!(named.size >= 0)) throw new TarFormatError('Invalid header');
      const dataStart = input.position;
      entriesEnd = dataStart + named.size + paddingAfter(named.size);
      const type = TAR_TYPES[named.type ?? 'file'] ?? 'other';
      // A directory's size is not data that follows it (as tar-stream reads it).
      const data = new EntryData(input, named.type === 'directory' ? 0 : named.size);
      yield {
        path: normalizeStoredPath(named.name),
        type,
        size: named.size,
        linkTarget: named.linkname ?? undefined,
        body: type === 'file' ? () => new TarBody(data) : emptyBody,
      };
      await data.skipRest();
    }
    // Without a zero block after the last entry, the archive was cut between two entries and what followed is lost.
    if (read.bytes < entriesEnd + BLOCK) throw new TarFormatError('the stream ends without its end-of-archive block (cut after the last entry read)');
  } finally {
    // A reader that stops early (--max-entries, an error) must end the body too: its decoder
    // (an `xz -dc` process, a zlib stream) would otherwise wait on a full pipe for ever.
    await input.close();
  }
}

/** Long names and PAX records waiting for the entry they name; the global PAX records for every entry after them. */
interface LongNames {
  path?: string | undefined;
  linkpath?: string | undefined;
  pax?: PaxRecords | undefined;
  global?: PaxRecords | undefined;
}

async function readLongHeader(input: ChunkedInput, type: LongHeaderType, size: number, names: LongNames): Promise<LongNames> {
  if (!(size >= 0)) throw new TarFormatError('Invalid header');
  if (size > MAX_LONG_HEADER_BYTES) throw new TarFormatError('Header exceeds max size');
  const body = await input.take(size);
  await input.skip(paddingAfter(size));
  switch (type) {
    case 'gnu-long-path':
      return { ...names, path: decodeLongName(body) };
    case 'gnu-long-link-path':
      return { ...names, linkpath: decodeLongName(body) };
    case 'pax-global-header':
      return { ...names, global: decodePax(body) };
    case 'pax-header':
      // As tar-stream: the global records count only for an entry that has records of its own.
      return { ...names, pax: { ...names.global, ...decodePax(body) } };
  }
}

function applyLongNames(header: TarHeader, names: LongNames): TarHeader {
  let { name, linkname, size } = header;
  if (names.path) name = names.path;
  if (names.linkpath) linkname = names.linkpath;
  const pax = names.pax;
  if (pax) {
    if (pax.path) name = pax.path;
    if (pax.linkpath) linkname = pax.linkpath;
    if (pax.size) size = Number.parseInt(pax.size, 10);
  }
  return { name, type: header.type, size, linkname };
}

/**
 * The tar stream as the chunks its source yields, with a read position in the current one.
 * Headers are read where they lie; only a header or record split between two chunks is copied.
 */
class ChunkedInput {
  private chunk: Buffer = Buffer.alloc(0);
  /** Read position in `chunk`. */
  private at = 0;
  /** The block {@link nextBlock} moved past, and where it starts in that buffer. */
  block: Buffer = this.chunk;
  blockAt = 0;
  /** Stream offset of `chunk`'s first byte. */
  private chunkStart = 0;
  private ended = false;
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly source: AsyncIterator<Buffer>,
    private readonly read: StreamCounter,
  ) {}

  /** Stream offset of the read position. */
  get position(): number {
    return this.chunkStart + this.at;
  }

  get available(): number {
    return this.chunk.length - this.at;
  }

  /**
   * Moves past the next 512-byte block, left in `block` at `blockAt`; false when the stream ends
   * right here. A block split between two chunks is copied.
   */
  async nextBlock(): Promise<boolean> {
    if (this.available === 0 && !(await this.next())) return false;
    if (this.available >= BLOCK) {
      this.block = this.chunk;
      this.blockAt = this.at;
      this.at += BLOCK;
    } else {
      this.block = await this.take(BLOCK);
      this.blockAt = 0;
    }
    return true;
  }

  /** The next `n` bytes (a view when one chunk holds them). */
  async take(n: number): Promise<Buffer> {
    if (this.available >= n) {
      this.at += n;
      return this.chunk.subarray(this.at - n, this.at);
    }
    const whole = Buffer.allocUnsafe(n);
    let filled = 0;
    while (filled < n) {
      if (this.available === 0 && !(await this.next())) throw new TarFormatError('Unexpected end of data');
      const piece = this.piece(n - filled);
      piece.copy(whole, filled);
      filled += piece.length;
    }
    return whole;
  }

  async skip(n: number): Promise<void> {
    let left = n;
    while (left > 0) {
      if (this.available === 0 && !(await this.next())) throw new TarFormatError('Unexpected end of data');
      left -= this.piece(left).length;
    }
  }

  /** Up to `max` bytes of the current chunk (a view), moved past. */
  piece(max: number): Buffer {
    const n = Math.min(max, this.available);
    this.at += n;
    return this.chunk.subarray(this.at - n, this.at);
  }

  /**
   * Moves to the source's next chunk; false at its end. The source's failure (a decoder's) is
   * thrown again on every later call: the entry's reader that met it first may have caught it.
   */
  async next(): Promise<boolean> {
    if (this.failure !== undefined) throw this.failure.error;
    if (this.ended) return false;
    const next = await this.source.next().catch((error: unknown) => {
      this.failure = { error };
      throw error;
    });
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.chunkStart += this.chunk.length;
    this.chunk = next.value;
    this.at = 0;
    this.read.bytes += next.value.length;
    return true;
  }

  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.source.return?.();
  }
}

/** The data of one entry: what is left of it in the stream. */
class EntryData {
  constructor(
    readonly input: ChunkedInput,
    public left: number,
  ) {}

  /** Skips what the entry's reader left, and the padding to the next header. */
  async skipRest(): Promise<void> {
    const size = this.left;
    this.left = 0;
    await this.input.skip(size);
    // To the next block of the stream (whose blocks start at its first byte); a directory's size had no data to pad.
    await this.input.skip(paddingAfter(this.input.position));
  }
}

/**
 * An entry's body: views of the chunks that hold it. A plain iterator, not an async generator
 * (every entry is read at least for its first bytes). Stopping early leaves the rest to the
 * framing, which skips it; a body asked for again goes on where the last one stopped.
 */
class TarBody implements AsyncIterableIterator<Buffer> {
  private stopped = false;

  constructor(private readonly data: EntryData) {}

  [Symbol.asyncIterator](): AsyncIterableIterator<Buffer> {
    return this;
  }

  next(): Promise<IteratorResult<Buffer>> {
    const { data } = this;
    if (this.stopped || data.left === 0) return DONE;
    if (data.input.available > 0) {
      const piece = data.input.piece(data.left);
      data.left -= piece.length;
      return Promise.resolve({ done: false, value: piece });
    }
    return data.input.next().then((more) => {
      if (!more) {
        this.stopped = true;
        throw new TarFormatError('Unexpected end of data');
      }
      return this.next();
    });
  }

  return(): Promise<IteratorResult<Buffer>> {
    this.stopped = true;
    return DONE;
  }
}

const DONE: Promise<IteratorResult<Buffer>> = Promise.resolve({ done: true, value: undefined });

/** `./a/b/` → `a/b`; everything else (`..`, absolute, backslashes) is kept as data. */
export function normalizeStoredPath(name: string): string {
  let path = name;
  while (path.startsWith('./')) path = path.slice(2);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}
