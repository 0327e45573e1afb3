import type * as Yauzl from 'yauzl';
import type { Limits } from '../core/limits.js';
import type { Entry } from './types.js';
import { emptyBody } from './bytes.js';
import { normalizeStoredPath } from './tar.js';
import { InflationError, RATIO_GRACE_BYTES } from './decompress.js';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

type ZipFile = Yauzl.ZipFile;

/** yauzl, loaded when a zip is first read: most inputs are tars, and start-up pays for every module. */
let yauzl: (typeof Yauzl)['default'];
async function loadYauzl(): Promise<void> {
  yauzl ??= (await import('yauzl')).default;
}

// Names stay raw (decodeStrings: false): yauzl would refuse the whole zip at the first `../` or
// absolute name, where mgsift reads such a name as data and says so.
const OPTIONS = { lazyEntries: true, decodeStrings: false, validateEntrySizes: true } as const;

async function openFile(path: string): Promise<ZipFile> {
  await loadYauzl();
  return new Promise((resolve, reject) => yauzl.open(path, { ...OPTIONS, autoClose: true }, (err, zip) => (err ? reject(zipError(err)) : resolve(zip))));
}

async function openBuffer(buffer: Buffer): Promise<ZipFile> {
  await loadYauzl();
  return new Promise((resolve, reject) => yauzl.fromBuffer(buffer, OPTIONS, (err, zip) => (err ? reject(zipError(err)) : resolve(zip))));
}

/**
 * Entries of a zip read from its central directory (a file on disk, or a buffer for a nested
 * zip). Two bomb guards: entries whose compressed data together exceed the archive overlap
 * (one deflated kernel shared by many names), which stops the listing; and an entry declared to
 * inflate past the inflation ratio is refused when its body is read.
 */
export async function* zipEntries(from: { path: string } | { buffer: Buffer }, limits: Limits): AsyncGenerator<Entry> {
  const zip = 'path' in from ? await openFile(from.path) : await openBuffer(from.buffer);
  let compressedTotal = 0;
  try {
    for (;;) {
      const raw = await nextEntry(zip);
      if (!raw) return;
      compressedTotal += raw.compressedSize;
      if (compressedTotal > zip.fileSize) {
        throw new InflationError(`zip entries overlap (their data exceeds the ${zip.fileSize}-byte archive): a zip bomb; the rest was not read`);
      }
      const name = yauzl.getFileNameLowLevel(raw.generalPurposeBitFlag, raw.fileName as unknown as Buffer, raw.extraFields, false);
      const mode = (raw.externalFileAttributes >>> 16) & S_IFMT;
      const type = name.endsWith('/') ? 'directory' : mode === S_IFLNK ? 'symlink' : 'file';
      yield {
        path: normalizeStoredPath(name),
        type,
        size: raw.uncompressedSize,
        body: () => (type === 'file' ? openEntry(zip, raw, limits) : emptyBody()),
      } satisfies Entry;
    }
  } finally {
    zip.close();
  }
}

/** yauzl's error on the archive's structure, saying it is the zip's. */
function zipError(err: Error): Error {
  return new Error(`zip: ${err.message}`, { cause: err });
}

function nextEntry(zip: ZipFile): Promise<Yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const onEntry = (entry: Yauzl.Entry): void => {
      cleanup();
      resolve(entry);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(undefined);
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(zipError(err));
    };
    const cleanup = (): void => {
      zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
    };
    zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zip.readEntry();
  });
}

async function* openEntry(zip: ZipFile, entry: Yauzl.Entry, limits: Limits): AsyncGenerator<Buffer> {
  if (entry.uncompressedSize > RATIO_GRACE_BYTES && entry.uncompressedSize > limits.maxInflationRatio * Math.max(entry.compressedSize, 1)) {
    throw new InflationError(`zip entry inflates more than ${limits.maxInflationRatio}:1 (compression bomb guard)`);
  }
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
  );
  for await (const chunk of stream) yield chunk as Buffer;
}
