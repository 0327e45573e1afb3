import yauzl from 'yauzl';
import type { Entry } from './types.js';
import { emptyBody } from './bytes.js';
import { normalizeStoredPath } from './tar.js';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

type ZipFile = yauzl.ZipFile;

function openFile(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: true, strictFileNames: false, validateEntrySizes: true }, (err, zip) =>
      err ? reject(err) : resolve(zip),
    ),
  );
}

function openBuffer(buffer: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true, strictFileNames: false, validateEntrySizes: true }, (err, zip) =>
      err ? reject(err) : resolve(zip),
    ),
  );
}

/** Entries of a zip read from its central directory (a file on disk, or a buffer for a nested zip). */
export async function* zipEntries(from: { path: string } | { buffer: Buffer }): AsyncGenerator<Entry> {
  const zip = 'path' in from ? await openFile(from.path) : await openBuffer(from.buffer);
  try {
    for (;;) {
      const raw = await nextEntry(zip);
      if (!raw) return;
      const mode = (raw.externalFileAttributes >>> 16) & S_IFMT;
      const isDir = raw.fileName.endsWith('/');
      const type = isDir ? 'directory' : mode === S_IFLNK ? 'symlink' : 'file';
      yield {
        path: normalizeStoredPath(raw.fileName),
        type,
        size: raw.uncompressedSize,
        body: () => (type === 'file' ? openEntry(zip, raw) : emptyBody()),
      } satisfies Entry;
    }
  } finally {
    zip.close();
  }
}

function nextEntry(zip: ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const onEntry = (entry: yauzl.Entry): void => {
      cleanup();
      resolve(entry);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(undefined);
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const cleanup = (): void => {
      zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
    };
    zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zip.readEntry();
  });
}

async function* openEntry(zip: ZipFile, entry: yauzl.Entry): AsyncGenerator<Buffer> {
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
  );
  for await (const chunk of stream) yield chunk as Buffer;
}
