import { open as openFile, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { describeError, type InputStop, type Problems } from '../core/problems.js';
import { MAGIC_PEEK_BYTES, detectMagic, type Magic } from './magic.js';
import { peek, readAll, emptyBody, bufferBody } from './bytes.js';
import { decompress, InflationError, type Compression } from './decompress.js';
import { tarEntries, type StreamCounter } from './tar.js';
import { zipEntries } from './zip.js';
import { directoryEntries } from './directory.js';
import { memoryEntries, type MemoryFile } from './memory.js';
import type { ContainerKind, Entry, InputPosition, Source, SourceOptions } from './types.js';

const READ_CHUNK = 256 * 1024;
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
  return {
    input,
    container,
    position,
    entries: () => enforceLimits(expand ? expandNested(entries(), options) : entries(), options, position),
  };
}

/**
 * Opens archives and decompresses gzip/xz files found among the entries. Nested archives are
 * opened one level deep: inside them, archives are reported, not opened.
 */
async function* expandNested(entries: AsyncIterable<Entry>, options: SourceOptions, depth = 0): AsyncGenerator<Entry> {
  for await (const entry of entries) {
    if (entry.type !== 'file') {
      yield entry;
      continue;
    }
    const { head, body } = await peek(entry.body(), MAGIC_PEEK_BYTES).catch((err: unknown) => {
      options.problems.error(entry.path, `unreadable: ${describeError(err)}`);
      return { head: Buffer.alloc(0), body: emptyBody() };
    });
    const magic = detectMagic(head);
    if (magic === 'unknown') {
      yield { ...entry, body: () => body };
      continue;
    }
    if (magic === 'bzip2' || magic === 'zstd') {
      options.problems.warn(entry.path, `${magic}-compressed entry skipped (unsupported compression)`);
      continue;
    }
    if (magic === 'gzip' || magic === 'xz') {
      const inflated = await peek(decompress(body, magic, options.limits), MAGIC_PEEK_BYTES).catch(
        (err: unknown) => {
          options.problems.error(entry.path, `${magic} entry unreadable: ${describeError(err)}`);
          return undefined;
        },
      );
      if (!inflated) continue;
      if (detectMagic(inflated.head) === 'tar') {
        yield* nestedArchive(entry.path, () => tarEntries(inflated.body), options, depth);
      } else {
        yield { path: entry.path, type: 'file', size: undefined, decompressed: magic, body: () => inflated.body };
      }
      continue;
    }
    if (magic === 'tar') {
      yield* nestedArchive(entry.path, () => tarEntries(body), options, depth);
      continue;
    }
    // zip needs random access: a nested zip is read into memory, within the entry limit.
    const buffer = await readAll(body, options.limits.maxEntryBytes).catch((err: unknown) => {
      options.problems.warn(entry.path, `nested zip skipped: ${describeError(err)}`);
      return undefined;
    });
    if (buffer) yield* nestedArchive(entry.path, () => zipEntries({ buffer }, options.limits), options, depth);
  }
}

async function* nestedArchive(
  at: string,
  entries: () => AsyncIterable<Entry>,
  options: SourceOptions,
  depth: number,
): AsyncGenerator<Entry> {
  if (depth >= 1) {
    options.problems.warn(at, 'archive nested two levels deep: not opened');
    return;
  }
  try {
    for await (const inner of expandNested(entries(), options, depth + 1)) {
      yield { ...inner, path: `${at}/${inner.path}` };
    }
  } catch (err) {
    options.problems.error(at, `nested archive broken: ${describeError(err)}`);
  }
}

/**
 * Applies the entry-count, entry-size and total-size limits, flags hostile names, and turns
 * a broken container into a recorded problem: the entries read before it are kept.
 */
async function* enforceLimits(entries: AsyncIterable<Entry>, options: SourceOptions, position?: () => InputPosition): AsyncGenerator<Entry> {
  const { limits, problems } = options;
  let count = 0;
  let total = 0;
  let last = '';
  /** Records the stop, with how far reading got, and its problem at `at` (`reason` unless told). */
  const stop = (by: InputStop['by'], at: string, reason: string, entries: number, problem = reason): void => {
    problems.error(at, problem);
    problems.stopped = { by, at: at || '(start)', reason, entries, streamBytes: position?.().stream };
  };
  try {
    for await (const entry of entries) {
      count++;
      if (count > limits.maxEntries) {
        stop('limit', entry.path, `more than ${limits.maxEntries} entries: the rest was not read (--max-entries)`, count - 1);
        return;
      }
      last = entry.path;
      if (isHostileName(entry.path)) problems.warn(entry.path, 'entry name is absolute or climbs out with `..`: read as data, never written');
      if (entry.type !== 'file') {
        yield entry;
        continue;
      }
      if (entry.size !== undefined && entry.size > limits.maxEntryBytes) {
        const reason = `entry of ${entry.size} bytes skipped (--max-entry-bytes ${limits.maxEntryBytes})`;
        problems.warn(entry.path, reason);
        yield { ...entry, skipped: reason, body: emptyBody };
        continue;
      }
      if (total >= limits.maxTotalBytes) {
        stop('limit', entry.path, `more than ${limits.maxTotalBytes} bytes read: the rest was not read (--max-total-bytes)`, count - 1);
        return;
      }
      // A body whose size is known only once read (a decompressed `.gz`, a zip entry that
      // inflates past its stated size) is read up to the limit: the part read is scanned, the
      // rest is named as not read.
      const original = entry.body;
      let cut: string | undefined;
      yield {
        ...entry,
        cutShort: () => cut,
        // A plain iterator, not an async generator: it is on the path of every chunk read. It
        // does what the generator `for await (chunk of original()) { …yield… }` did, step by step.
        body: (): AsyncIterable<Buffer> => {
          let source: AsyncIterator<Buffer> | undefined;
          let entryBytes = 0;
          let stopped = false;
          /** Set once the part of a chunk that fits was handed out: the cut is made at the next call. */
          let cutRoom: number | undefined;
          const stop = (): Promise<IteratorResult<Buffer>> => {
            // As `for await` leaving early: the source is told to return.
            stopped = true;
            const inner = source;
            source = undefined;
            return (inner?.return?.() ?? Promise.resolve(undefined)).then(() => ({ done: true, value: undefined }));
          };
          const cutHere = (room: number): Promise<IteratorResult<Buffer>> => {
            total += room;
            cut = `cut at ${limits.maxEntryBytes} bytes (--max-entry-bytes ${limits.maxEntryBytes}): the first ${limits.maxEntryBytes} bytes were read, the rest of the entry was not`;
            problems.warn(entry.path, cut);
            return stop();
          };
          const iterator: AsyncIterableIterator<Buffer> = {
            [Symbol.asyncIterator]() {
              return iterator;
            },
            next(): Promise<IteratorResult<Buffer>> {
              if (stopped) return Promise.resolve({ done: true, value: undefined });
              if (cutRoom !== undefined) return cutHere(cutRoom);
              source ??= original()[Symbol.asyncIterator]();
              return source.next().then(
                (next): IteratorResult<Buffer> | Promise<IteratorResult<Buffer>> => {
                  if (next.done) {
                    stopped = true;
                    source = undefined;
                    return { done: true, value: undefined };
                  }
                  const chunk = next.value;
                  const room = limits.maxEntryBytes - entryBytes;
                  if (chunk.length > room) {
                    if (room <= 0) return cutHere(room);
                    cutRoom = room;
                    return { done: false, value: chunk.subarray(0, room) };
                  }
                  entryBytes += chunk.length;
                  total += chunk.length;
                  return { done: false, value: chunk };
                },
                (err: unknown) => {
                  stopped = true;
                  source = undefined;
                  throw err;
                },
              );
            },
            return: stop,
          };
          return iterator;
        },
      };
    }
  } catch (err) {
    // The bomb guard stopping the reading is a limit, not a broken archive.
    const reason = describeError(err);
    if (err instanceof InflationError) stop('limit', last, `${reason} (--max-inflation-ratio)`, count, `reading stopped after this entry: ${reason} (--max-inflation-ratio)`);
    else stop('damage', last, reason, count, last ? `input broken after this entry: ${reason}` : `input unreadable: ${reason}`);
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
