import type { Entry, EntryType } from './types.js';
import { DONE, emptyBody } from './bytes.js';
import { BLOCK, decodeHeader, decodeLongName, decodePax, isLongHeader, paddingAfter, TarFormatError, viewOf, type LongHeaderType, type PaxRecords, type TarHeader, type TarType } from './tar-header.js';

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
 * (BENCHMARKS.md, "Tar framing of our own").
 */
export async function* tarEntries(body: AsyncIterable<Buffer>, read: StreamCounter = { bytes: 0 }): AsyncGenerator<Entry> {
  const input = new ChunkedInput(body[Symbol.asyncIterator](), read);
  try {
    let entriesEnd = 0;
    const names = new LongNames();
    for (;;) {
      // Each step is taken at once when the current chunk holds it (nearly always): an `await` per header and body costs more than the framing.
      if (!input.blockNow() && !(await input.nextBlock())) break;
      const header = decodeHeader(input.block, input.blockAt, input.blockView);
      if (header === null) continue; // the end-of-archive blocks, and any zero block
      if (isLongHeader(header.type)) {
        const size = checkedLongHeaderSize(header.size);
        names.read(header.type, input.takeNow(size) ?? (await input.take(size)));
        const padding = input.skipNow(paddingAfter(size));
        if (padding > 0) await input.skip(padding);
        continue;
      }
      names.applyTo(header);
      if (!(header.size >= 0)) throw new TarFormatError('Invalid header');
      entriesEnd = input.position + header.size + paddingAfter(header.size);
      const type = TAR_TYPES[header.type ?? 'file'] ?? 'other';
      // A directory's size is not data that follows it (as tar-stream reads it).
      const data = new EntryData(input, header.type === 'directory' ? 0 : header.size);
      yield {
        path: normalizeStoredPath(header.name),
        type,
        size: header.size,
        linkTarget: header.linkname ?? undefined,
        body: type === 'file' ? data.body : emptyBody,
        peekNow: type === 'file' ? data.peekNow : undefined,
      };
      if (!data.skipRestNow()) await data.skipRest();
    }
    // Without a zero block after the last entry, the archive was cut between two entries and what followed is lost.
    if (read.bytes < entriesEnd + BLOCK) throw new TarFormatError('the stream ends without its end-of-archive block (cut after the last entry read)');
  } finally {
    // A reader that stops early (--max-entries, an error) must end the body too: its decoder
    // (an `xz -dc` process, a zlib stream) would otherwise wait on a full pipe for ever.
    await input.close();
  }
}

function checkedLongHeaderSize(size: number): number {
  if (!(size >= 0)) throw new TarFormatError('Invalid header');
  if (size > MAX_LONG_HEADER_BYTES) throw new TarFormatError('Header exceeds max size');
  return size;
}

/**
 * Long names and PAX records waiting for the entry they name, and the global PAX records (which,
 * as tar-stream reads them, count only for an entry that has PAX records of its own).
 */
class LongNames {
  private path: string | undefined;
  private linkpath: string | undefined;
  private pax: PaxRecords | undefined;
  private global: PaxRecords | undefined;

  read(type: LongHeaderType, record: Buffer): void {
    if (type === 'gnu-long-path') this.path = decodeLongName(record);
    else if (type === 'gnu-long-link-path') this.linkpath = decodeLongName(record);
    else if (type === 'pax-global-header') this.global = decodePax(record);
    else this.pax = this.global ? { ...this.global, ...decodePax(record) } : decodePax(record);
  }

  /** Names and sizes the entry as the records before it say, and forgets them (the global ones aside). */
  applyTo(header: TarHeader): void {
    if (this.path) header.name = this.path;
    if (this.linkpath) header.linkname = this.linkpath;
    const pax = this.pax;
    if (pax) {
      if (pax.path) header.name = pax.path;
      if (pax.linkpath) header.linkname = pax.linkpath;
      if (pax.size) header.size = Number.parseInt(pax.size, 10);
    }
    this.path = this.linkpath = this.pax = undefined;
  }
}

/**
 * The tar stream as the chunks its source yields, with a read position in the current one.
 * Headers are read where they lie; only a header or record split between two chunks is copied.
 * Each step has a form taken at once from the current chunk (`…Now`) and one that waits for
 * the source's next chunks.
 */
class ChunkedInput {
  private chunk: Buffer = Buffer.alloc(0);
  private chunkView = viewOf(this.chunk);
  /** Read position in `chunk`. */
  private at = 0;
  /** Stream offset of `chunk`'s first byte. */
  private chunkStart = 0;
  private ended = false;
  private failure: { error: unknown } | undefined;
  /** The block {@link blockNow} or {@link nextBlock} moved past, where it starts in that buffer, and a view of the buffer. */
  block: Buffer = this.chunk;
  blockAt = 0;
  blockView = this.chunkView;

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

  /** Moves past the next 512-byte block if the current chunk holds it whole (it is then in `block` at `blockAt`). */
  blockNow(): boolean {
    if (this.available < BLOCK) return false;
    this.block = this.chunk;
    this.blockView = this.chunkView;
    this.blockAt = this.at;
    this.at += BLOCK;
    return true;
  }

  /** As {@link blockNow}, waiting for the source; false when the stream ends right here. A block split between chunks is copied. */
  async nextBlock(): Promise<boolean> {
    // A source may yield empty chunks (the xz decoder in WebAssembly ends with one).
    while (this.available === 0) if (!(await this.next())) return false;
    if (this.blockNow()) return true;
    this.block = await this.take(BLOCK);
    this.blockView = viewOf(this.block);
    this.blockAt = 0;
    return true;
  }

  /** The next `n` bytes if the current chunk holds them (a view), moved past; else undefined. */
  takeNow(n: number): Buffer | undefined {
    return this.available < n ? undefined : this.piece(n);
  }

  /** The next `n` bytes, copied when they span chunks. */
  async take(n: number): Promise<Buffer> {
    const now = this.takeNow(n);
    if (now) return now;
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

  /** Skips up to `n` bytes of the current chunk; returns how many are left to skip. */
  skipNow(n: number): number {
    const skipped = Math.min(n, this.available);
    this.at += skipped;
    return n - skipped;
  }

  async skip(n: number): Promise<void> {
    let left = this.skipNow(n);
    while (left > 0) {
      if (!(await this.next())) throw new TarFormatError('Unexpected end of data');
      left = this.skipNow(left);
    }
  }

  /** The next `n` bytes if the current chunk holds them (a view), not moved past; else undefined. */
  peekNow(n: number): Buffer | undefined {
    return this.available < n ? undefined : this.chunk.subarray(this.at, this.at + n);
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
    this.chunkView = viewOf(next.value);
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
  /** Where the data starts in the stream, and its size. */
  private readonly start: number;
  private readonly size: number;

  constructor(
    readonly input: ChunkedInput,
    public left: number,
  ) {
    this.start = input.position;
    this.size = left;
  }

  /** The entry's body; asked for again, it goes on where the last one stopped. */
  readonly body = (): AsyncIterableIterator<Buffer> => new TarBody(this);

  /** The first `n` bytes (all of a shorter body) while none was read and the current chunk holds them; else undefined. */
  readonly peekNow = (n: number): Buffer | undefined =>
    this.left === this.size && this.input.position === this.start ? this.input.peekNow(Math.min(n, this.size)) : undefined;

  /** Skips what the entry's reader left and the padding to the next header, if the current chunk holds them; false if not. */
  skipRestNow(): boolean {
    this.left = this.input.skipNow(this.left);
    return this.left === 0 && this.input.skipNow(this.padding()) === 0;
  }

  /** As {@link skipRestNow}, waiting for the source. */
  async skipRest(): Promise<void> {
    const left = this.left;
    this.left = 0;
    await this.input.skip(left);
    await this.input.skip(this.padding());
  }

  /** To the next block of the stream (whose blocks start at its first byte); a directory's size had no data to pad. */
  private padding(): number {
    return paddingAfter(this.input.position);
  }
}

/**
 * An entry's body: views of the chunks that hold it. A plain iterator, not an async generator
 * (every entry is read at least for its first bytes). Stopping early leaves the rest to the
 * framing, which skips it.
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

/** `./a/b/` → `a/b`; everything else (`..`, absolute, backslashes) is kept as data. */
export function normalizeStoredPath(name: string): string {
  let path = name;
  while (path.startsWith('./')) path = path.slice(2);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}
