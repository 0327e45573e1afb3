import { Readable } from 'node:stream';
import tarStream from 'tar-stream';
import type { Entry, EntryType } from './types.js';
import { emptyBody } from './bytes.js';

const TAR_TYPES: Record<string, EntryType> = {
  file: 'file',
  'contiguous-file': 'file',
  directory: 'directory',
  symlink: 'symlink',
  link: 'hardlink',
};

/** Entries of a tar stream, in archive order; a truncated or corrupt tar throws where it broke. */
export async function* tarEntries(body: AsyncIterable<Buffer>): AsyncGenerator<Entry> {
  const extract = tarStream.extract();
  const input = Readable.from(body);
  input.on('error', (err) => extract.destroy(err));
  input.pipe(extract);
  try {
    yield* entriesOf(extract);
  } finally {
    // A reader that stops early (--max-entries, an error) must end the body too: its decoder
    // (an `xz -dc` process, a zlib stream) would otherwise wait on a full pipe for ever.
    extract.destroy();
    input.destroy();
  }
}

async function* entriesOf(extract: tarStream.Extract): AsyncGenerator<Entry> {
  for await (const stream of extract) {
    const header = stream.header;
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
}

/** `./a/b/` → `a/b`; everything else (`..`, absolute, backslashes) is kept as data. */
export function normalizeStoredPath(name: string): string {
  let path = name;
  while (path.startsWith('./')) path = path.slice(2);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}
