import { open as openFile, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { describeError, type InputStop, type Problems } from '../core/problems.js';
import { MAGIC_PEEK_BYTES, detectMagic, type Magic } from './magic.js';
import { peek, readAll, emptyBody, bufferBody, DONE } from './bytes.js';
import { decompress, InflationError, type Compression } from './decompress.js';
import { tarEntries, type StreamCounter } from './tar.js';
import { zipEntries } from './zip.js';
import { directoryEntries } from './directory.js';
import { memoryEntries, type MemoryFile } from './memory.js';
import type { ContainerKind, Entry, InputPosition, Source, SourceOptions } from './types.js';

/**
 * Bytes read from an input file at a time. zlib inflates each piece whole before it asks for
 * the next, and a new piece costs this thread a trip through the streams that feed it. 512 KB
 * (4 MB inflated) rather than 256 KB: azure image x4 30-50 ms faster of 1.75 s, aws image x4
 * the same. 1 MB gained a little more but held 25 MB more memory at the peak.
 */
const READ_CHUNK = 512 * 1024;
const COMPRESSION_SUFFIX = /\.(gz|xz)$/;

/** The name of what a decompressed entry holds (`x.log.gz` → `x.log`), for telling what it is; `path` otherwise. */
export function contentPath(entry: Pick<Entry, 'path' | 'decompressed'>): string {
  return entry.decompressed ? entry.path.replace(COMPRESSION_SUFFIX, '') : entry.path;
}

export class InputError extends Error {}

/**
 * Opens any input — a directory, a tar (plain, gzip, xz), a zip, or a single (compressed)
 * file — as a stream of entries. The container is told by content, not by name. Archives
 * found inside (a case folder holding `must-gather.tar.gz`) are opened in place, one level deep;
 * single gzip/xz files are decompressed on the fly. Nothing is written anywhere.
 */
export async function openInput(input: string, options: SourceOptions): Promise<Source> {
  let info;
  try {
    info = await stat(input);
  } catch (err) {
    throw new InputError(`cannot read ${input}: ${describeError(err)}`);
  }
  if (info.isDirectory()) {
    return guarded(input, 'directory', () => directoryEntries(input), options);
  }
  if (!info.isFile()) throw new InputError(`${input} is neither a file nor a directory`);

  const magic = detectMagic(
    await readHead(input).catch((err: unknown) => {
      throw new InputError(`cannot read ${input}: ${describeError(err)}`);
    }),
  );
  let read = 0;
  /** The file's bytes; the last body opened is the one the position follows. */
  async function* fileBody(): AsyncGenerator<Buffer> {
    read = 0;
    for await (const chunk of createReadStream(input, { highWaterMark: READ_CHUNK }) as AsyncIterable<Buffer>) {
      read += chunk.length;
      yield chunk;
    }
  }
  const position = (): InputPosition => ({ read, total: info.size });
  /** The tar stream's bytes (decompressed), counted by its parser. */
  const tarStream: StreamCounter = { bytes: 0 };
  const tarPosition = (): InputPosition => ({ read, total: info.size, stream: tarStream.bytes });
  switch (magic) {
    case 'zip':
      return guarded(input, 'zip', () => zipEntries({ path: input }, options.limits), options);
    case 'tar':
      return guarded(input, 'tar', () => tarEntries(fileBody(), tarStream), options, true, tarPosition);
    case 'gzip':
    case 'xz': {
      const inner = await innerMagic(fileBody(), info.size, magic, options);
      if (inner === 'tar') {
        const container: ContainerKind = magic === 'gzip' ? 'tar.gz' : 'tar.xz';
        return guarded(input, container, () => tarEntries(decompress(fileBody(), magic, options.limits), tarStream), options, true, tarPosition);
      }
      const container: ContainerKind = magic === 'gzip' ? 'file.gz' : 'file.xz';
      const path = basename(input);
      const single: Entry = {
        path,
        type: 'file',
        size: undefined,
        decompressed: magic,
        // The compressed stream is the container here: its breaking is the input's, not one entry's.
        body: () => stopsOnDamage(decompress(fileBody(), magic, options.limits), path, options.problems),
      };
      return guarded(input, container, () => one(single), options, false, position);
    }
    case 'bzip2':
    case 'zstd':
      throw new InputError(`${input} is ${magic}-compressed; mgsift reads tar, tar.gz, tar.xz, zip and gzip/xz files`);
    default:
      return guarded(
        input,
        'file',
        () => one({ path: basename(input), type: 'file', size: info.size, body: fileBody }),
        options,
        false,
        position,
      );
  }
}

/**
 * A tree held in memory, read as a directory would be; or one plain (uncompressed) file given
 * alone. `input` names it in the report.
 */
export function openMemory(input: string, tree: { files: readonly MemoryFile[] } | { file: MemoryFile }, options: SourceOptions): Source {
  if ('files' in tree) return guarded(input, 'directory', () => memoryEntries(tree.files), options);
  const bytes = tree.file.bytes();
  const entry: Entry = { path: basename(input), type: 'file', size: bytes.length, body: () => bufferBody(bytes) };
  return guarded(input, 'file', () => one(entry), options, false);
}

/** The first bytes of a file: what `detectMagic` needs. */
export async function readHead(path: string): Promise<Buffer> {
  const handle = await openFile(path, 'r');
  try {
    const buffer = Buffer.alloc(MAGIC_PEEK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAGIC_PEEK_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Compressed bytes decoded to tell what a stream holds: far more than its first decompressed bytes need. */
const INNER_MAGIC_INPUT_BYTES = 64 * 1024;
/** The gzip trailer (CRC-32 and size); in an xz file, part of its footer. */
const TRAILER_BYTES = 8;

/**
 * What a compressed file holds, from its first decompressed bytes. The decoder is given a
 * prefix short of the trailer: a checksum failing at the end of a small file would otherwise
 * hide what it holds (the failure is told as damage once the whole stream is read).
 */
async function innerMagic(body: AsyncIterable<Buffer>, size: number, compression: Compression, options: SourceOptions): Promise<Magic> {
  const iterator = decompress(prefix(body, Math.min(INNER_MAGIC_INPUT_BYTES, size - TRAILER_BYTES)), compression, options.limits);
  try {
    const { head } = await peek(iterator, MAGIC_PEEK_BYTES);
    return detectMagic(head);
  } catch {
    return 'unknown';
  } finally {
    await iterator.return(undefined);
  }
}

/** The first `bytes` bytes of a body. */
async function* prefix(body: AsyncIterable<Buffer>, bytes: number): AsyncGenerator<Buffer> {
  let left = bytes;
  if (left <= 0) return;
  for await (const chunk of body) {
    yield chunk.subarray(0, left);
    left -= chunk.length;
    if (left <= 0) return;
  }
}

async function* one(entry: Entry): AsyncGenerator<Entry> {
  yield entry;
}

/** A single (possibly compressed) file given alone, not a tree or an archive. */
export function isSingleFile(source: Source): boolean {
  return source.container === 'file' || source.container === 'file.gz' || source.container === 'file.xz';
}

function guarded(
  input: string,
  container: ContainerKind,
  entries: () => AsyncIterable<Entry>,
  options: SourceOptions,
  expand = true,
  position?: () => InputPosition,
): Source {
  return { input, container, position, entries: () => guardedEntries(entries(), options, expand, position) };
}

/**
 * The entries readers get: archives and compressed files found among them opened in place
 * (with `expand`; see {@link openEntry}), and the entry-count, entry-size and total-size limits
 * applied to what that yields (a nested archive's entries are entries; the archive is not). One
 * generator for both: every entry of an archive passes through it, and each generator in a
 * chain costs a step per entry.
 */
async function* guardedEntries(entries: AsyncIterable<Entry>, options: SourceOptions, expand: boolean, position?: () => InputPosition): AsyncGenerator<Entry> {
  const limits = new EntryLimits(options, position);
  try {
    for await (const entry of entries) {
      const opened = expand && entry.type === 'file' && !isPlainNow(entry) ? await openEntry(entry, options, 0) : entry;
      if (opened === undefined) continue;
      if (!('nested' in opened)) {
        const admitted = limits.admit(opened);
        if (admitted === STOP) return;
        if (admitted) yield admitted;
        continue;
      }
      for await (const inner of opened.nested) {
        const admitted = limits.admit(inner);
        if (admitted === STOP) return;
        if (admitted) yield admitted;
      }
    }
  } catch (err) {
    limits.broken(err);
  }
}

/**
 * Whether a file entry is told plain (no archive, no compression) from first bytes at hand: it
 * is then passed on as it is, without {@link openEntry}'s peek (most entries of an archive).
 */
function isPlainNow(entry: Entry): boolean {
  const head = entry.peekNow?.(MAGIC_PEEK_BYTES);
  return head !== undefined && detectMagic(head) === 'unknown';
}

/** An archive found inside the input: its entries, named under its path. */
interface NestedArchive {
  nested: AsyncIterable<Entry>;
}

/**
 * A file entry as readers get it, told by its first bytes: as it is, decompressed (a gzip or xz
 * file), or an archive's entries (tar, tar.gz, tar.xz, zip), opened one level deep: inside a
 * nested archive (`depth` 1), archives are reported, not opened. Undefined for what is skipped,
 * and said so.
 */
async function openEntry(entry: Entry, options: SourceOptions, depth: number): Promise<Entry | NestedArchive | undefined> {
  const { head, body } = await peek(entry.body(), MAGIC_PEEK_BYTES).catch((err: unknown) => {
    options.problems.error(entry.path, `unreadable: ${describeError(err)}`);
    return { head: Buffer.alloc(0), body: emptyBody() };
  });
  const magic = detectMagic(head);
  if (magic === 'unknown') return { ...entry, body: () => body };
  if (magic === 'bzip2' || magic === 'zstd') {
    options.problems.warn(entry.path, `${magic}-compressed entry skipped (unsupported compression)`);
    return undefined;
  }
  if (magic === 'gzip' || magic === 'xz') {
    const inflated = await peek(decompress(body, magic, options.limits), MAGIC_PEEK_BYTES).catch((err: unknown) => {
      options.problems.error(entry.path, `${magic} entry unreadable: ${describeError(err)}`);
      return undefined;
    });
    if (!inflated) return undefined;
    if (detectMagic(inflated.head) === 'tar') return nestedArchive(entry.path, () => tarEntries(inflated.body), options, depth);
    return { path: entry.path, type: 'file', size: undefined, decompressed: magic, body: () => inflated.body };
  }
  if (magic === 'tar') return nestedArchive(entry.path, () => tarEntries(body), options, depth);
  // zip needs random access: a nested zip is read into memory, within the entry limit.
  const buffer = await readAll(body, options.limits.maxEntryBytes).catch((err: unknown) => {
    options.problems.warn(entry.path, `nested zip skipped: ${describeError(err)}`);
    return undefined;
  });
  return buffer ? nestedArchive(entry.path, () => zipEntries({ buffer }, options.limits), options, depth) : undefined;
}

function nestedArchive(at: string, entries: () => AsyncIterable<Entry>, options: SourceOptions, depth: number): NestedArchive | undefined {
  if (depth >= 1) {
    options.problems.warn(at, 'archive nested two levels deep: not opened');
    return undefined;
  }
  return { nested: nestedEntries(at, entries, options) };
}

/** A nested archive's entries, each opened as the input's are (one level down), its breaking a problem of its own. */
async function* nestedEntries(at: string, entries: () => AsyncIterable<Entry>, options: SourceOptions): AsyncGenerator<Entry> {
  try {
    for await (const inner of entries()) {
      const opened = inner.type === 'file' && !isPlainNow(inner) ? await openEntry(inner, options, 1) : inner;
      // One level down, archives are not opened: what comes back is an entry or nothing.
      if (opened !== undefined && !('nested' in opened)) yield { ...opened, path: `${at}/${opened.path}` };
    }
  } catch (err) {
    options.problems.error(at, `nested archive broken: ${describeError(err)}`);
  }
}

/** What {@link EntryLimits.admit} returns when a limit ends the reading. */
const STOP = Symbol('stop');

/**
 * The entry-count, entry-size and total-size limits of one input, hostile names flagged, and a
 * broken container turned into a recorded problem: the entries read before it are kept.
 */
class EntryLimits {
  private count = 0;
  /** Bytes handed to readers, every entry's. */
  total = 0;
  private last = '';

  constructor(
    readonly options: SourceOptions,
    private readonly position: (() => InputPosition) | undefined,
  ) {}

  /** The entry as readers get it (its body counted against the limits), undefined if skipped, or STOP. */
  admit(entry: Entry): Entry | typeof STOP | undefined {
    const { limits, problems } = this.options;
    this.count++;
    if (this.count > limits.maxEntries) {
      this.stop('limit', entry.path, `more than ${limits.maxEntries} entries: the rest was not read (--max-entries)`, this.count - 1);
      return STOP;
    }
    this.last = entry.path;
    if (isHostileName(entry.path)) problems.warn(entry.path, 'entry name is absolute or climbs out with `..`: read as data, never written');
    if (entry.type !== 'file') return entry;
    if (entry.size !== undefined && entry.size > limits.maxEntryBytes) {
      const reason = `entry of ${entry.size} bytes skipped (--max-entry-bytes ${limits.maxEntryBytes})`;
      problems.warn(entry.path, reason);
      return { ...entry, skipped: reason, body: emptyBody };
    }
    if (this.total >= limits.maxTotalBytes) {
      this.stop('limit', entry.path, `more than ${limits.maxTotalBytes} bytes read: the rest was not read (--max-total-bytes)`, this.count - 1);
      return STOP;
    }
    return new LimitedEntry(entry, this);
  }

  /** The container broke (or the bomb guard stopped it) after the entries admitted so far. */
  broken(err: unknown): void {
    // The bomb guard stopping the reading is a limit, not a broken archive.
    const reason = describeError(err);
    const { count, last } = this;
    if (err instanceof InflationError) this.stop('limit', last, `${reason} (--max-inflation-ratio)`, count, `reading stopped after this entry: ${reason} (--max-inflation-ratio)`);
    else this.stop('damage', last, reason, count, last ? `input broken after this entry: ${reason}` : `input unreadable: ${reason}`);
  }

  /** Records the stop, with how far reading got, and its problem at `at` (`reason` unless told). */
  private stop(by: InputStop['by'], at: string, reason: string, entries: number, problem = reason): void {
    this.options.problems.error(at, problem);
    this.options.problems.stopped = { by, at: at || '(start)', reason, entries, streamBytes: this.position?.().stream };
  }
}

/**
 * A file entry whose body counts against the limits. A body whose size is known only once read
 * (a decompressed `.gz`, a zip entry that inflates past its stated size) is read up to the entry
 * limit: the part read is scanned, the rest is named as not read (`cutShort`).
 */
class LimitedEntry implements Entry {
  readonly path: string;
  readonly type: Entry['type'];
  readonly size: number | undefined;
  readonly linkTarget: string | undefined;
  readonly decompressed: Entry['decompressed'];
  /** Set once the entry limit cut the body. */
  cut: string | undefined;

  constructor(
    private readonly entry: Entry,
    readonly limits: EntryLimits,
  ) {
    this.path = entry.path;
    this.type = entry.type;
    this.size = entry.size;
    this.linkTarget = entry.linkTarget;
    this.decompressed = entry.decompressed;
  }

  // Own properties, not methods: an entry is copied with `{ ...entry }` (walk's held entries keep `cutShort`).
  readonly cutShort = (): string | undefined => this.cut;
  readonly body = (): AsyncIterable<Buffer> => new LimitedBody(this, this.entry);
}

/**
 * A plain iterator, not an async generator: it is on the path of every chunk read. It does what
 * the generator `for await (chunk of original()) { …yield… }` would, step by step.
 */
class LimitedBody implements AsyncIterableIterator<Buffer> {
  private source: AsyncIterator<Buffer> | undefined;
  private entryBytes = 0;
  private stopped = false;
  /** Set once the part of a chunk that fits was handed out: the cut is made at the next call. */
  private cutRoom: number | undefined;

  constructor(
    private readonly entry: LimitedEntry,
    private readonly original: Entry,
  ) {}

  [Symbol.asyncIterator](): AsyncIterableIterator<Buffer> {
    return this;
  }

  next(): Promise<IteratorResult<Buffer>> {
    if (this.stopped) return DONE;
    if (this.cutRoom !== undefined) return this.cutHere(this.cutRoom);
    this.source ??= this.original.body()[Symbol.asyncIterator]();
    return this.source.next().then(
      (next): IteratorResult<Buffer> | Promise<IteratorResult<Buffer>> => {
        if (next.done) {
          this.stopped = true;
          this.source = undefined;
          return { done: true, value: undefined };
        }
        const chunk = next.value;
        const { maxEntryBytes } = this.entry.limits.options.limits;
        const room = maxEntryBytes - this.entryBytes;
        if (chunk.length > room) {
          if (room <= 0) return this.cutHere(room);
          this.cutRoom = room;
          return { done: false, value: chunk.subarray(0, room) };
        }
        this.entryBytes += chunk.length;
        this.entry.limits.total += chunk.length;
        return { done: false, value: chunk };
      },
      (err: unknown) => {
        this.stopped = true;
        this.source = undefined;
        throw err;
      },
    );
  }

  /** As `for await` leaving early: the source is told to return. */
  return(): Promise<IteratorResult<Buffer>> {
    this.stopped = true;
    const inner = this.source;
    this.source = undefined;
    return (inner?.return?.() ?? Promise.resolve(undefined)).then(() => ({ done: true, value: undefined }));
  }

  private cutHere(room: number): Promise<IteratorResult<Buffer>> {
    const { limits, problems } = this.entry.limits.options;
    this.entry.limits.total += room;
    this.entry.cut = `cut at ${limits.maxEntryBytes} bytes (--max-entry-bytes ${limits.maxEntryBytes}): the first ${limits.maxEntryBytes} bytes were read, the rest of the entry was not`;
    problems.warn(this.entry.path, this.entry.cut);
    return this.return();
  }
}

/**
 * The body of a compressed file given alone: when its stream breaks, the input stops there (the
 * error still reaches the reader, which keeps what it read).
 */
async function* stopsOnDamage(body: AsyncIterable<Buffer>, path: string, problems: Problems): AsyncGenerator<Buffer> {
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      yield chunk;
    }
  } catch (err) {
    if (!(err instanceof InflationError)) problems.stopped = { by: 'damage', at: path, reason: describeError(err), entries: 1, streamBytes: bytes };
    throw err;
  }
}

/** `..` as a whole segment of a path, between slashes or backslashes or at either end. */
const CLIMBS_OUT = /(?:^|[\\/])\.\.(?:[\\/]|$)/;

/** Read for every entry: a test that makes no array of segments. */
function isHostileName(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || CLIMBS_OUT.test(path);
}
