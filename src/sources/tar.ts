import { Readable } from 'node:stream';
import type tarStream from 'tar-stream';
import type { Entry, EntryType } from './types.js';
import { emptyBody } from './bytes.js';

const TAR_TYPES: Record<string, EntryType> = {
  file: 'file',
  'contiguous-file': 'file',
  directory: 'directory',
  symlink: 'symlink',
  link: 'hardlink',
};

const BLOCK = 512;

/** Bytes of a stream read so far, counted by its reader for whoever wants to say how far it got. */
export interface StreamCounter {
  bytes: number;
}

/**
 * Entries of a tar stream, in archive order; a truncated or corrupt tar throws where it broke,
 * and so does one that ends between two entries without its end-of-archive block (cut there).
 * `read` counts the stream's bytes as they are parsed.
 */
export async function* tarEntries(body: AsyncIterable<Buffer>, read: StreamCounter = { bytes: 0 }): AsyncGenerator<Entry> {
  // Loaded at the first tar: `mgsift audit` on a folder of logs reads none.
  const { default: tar } = await import('tar-stream');
  const extract = tar.extract();
  const input = Readable.from(counted(body, read));
  let upstream: unknown;
  input.on('error', (err) => {
    upstream = err;
    extract.destroy(err);
  });
  input.pipe(extract);
  try {
    const entriesEnd = yield* entriesOf(extract);
    // tar-stream ends quietly at the last byte it is given: without a zero block after the last
    // entry, the archive was cut between two entries and what followed is lost.
    if (read.bytes < entriesEnd + BLOCK) throw new Error('tar: the stream ends without its end-of-archive block (cut after the last entry read)');
  } catch (err) {
    // The decoder's own error (`xz: …`) is passed on as it is; the tar parser's is named.
    if (err === upstream || !(err instanceof Error) || err.message.startsWith('tar: ')) throw err;
    throw new Error(`tar: ${err.message}`, { cause: err });
  } finally {
    // A reader that stops early (--max-entries, an error) must end the body too: its decoder
    // (an `xz -dc` process, a zlib stream) would otherwise wait on a full pipe for ever.
    extract.destroy();
    input.destroy();
  }
}

async function* counted(body: AsyncIterable<Buffer>, read: StreamCounter): AsyncGenerator<Buffer> {
  for await (const chunk of body) {
    read.bytes += chunk.length;
    yield chunk;
  }
}

/** Yields the entries; returns where the last one's data ends in the stream (0 for none). */
async function* entriesOf(extract: tarStream.Extract): AsyncGenerator<Entry, number> {
  let end = 0;
  for await (const stream of extract) {
    const header = stream.header as tarStream.Header & { byteOffset?: number };
    // Where its data starts (tar-stream's offset after the header), padded to whole blocks.
    end = (header.byteOffset ?? end) + Math.ceil((header.size ?? 0) / BLOCK) * BLOCK;
    const type = TAR_TYPES[header.type ?? 'file'] ?? 'other';
    // One iterator for the entry's data: the reader may stop early, and what it left is
    // drained from the same iterator below (destroying the entry stream would break the tar).
    const data = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    let exhausted = false;
    // A plain iterator over the entry's data, not an async generator (cheaper, and every entry
    // is read at least for its first bytes); returning early leaves the rest to the drain below.
    const body = (): AsyncIterable<Buffer> => {
      let stopped = false;
      const iterator: AsyncIterableIterator<Buffer> = {
        [Symbol.asyncIterator]() {
          return iterator;
        },
        next(): Promise<IteratorResult<Buffer>> {
          if (stopped) return Promise.resolve({ done: true, value: undefined });
          return data.next().then(
            (next) => {
              if (next.done) {
                exhausted = true;
                stopped = true;
                return { done: true, value: undefined };
              }
              return { done: false, value: next.value as Buffer };
            },
            (err: unknown) => {
              stopped = true;
              throw err;
            },
          );
        },
        return(): Promise<IteratorResult<Buffer>> {
          stopped = true;
          return Promise.resolve({ done: true, value: undefined });
        },
      };
      return iterator;
    };
    yield {
      path: normalizeStoredPath(header.name),
      type,
      size: header.size,
      linkTarget: header.linkname ?? undefined,
      body: type === 'file' ? body : emptyBody,
    };
    while (!exhausted) exhausted = (await data.next()).done === true;
  }
  return end;
}

/** `./a/b/` → `a/b`; everything else (`..`, absolute, backslashes) is kept as data. */
export function normalizeStoredPath(name: string): string {
  let path = name;
  while (path.startsWith('./')) path = path.slice(2);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}
