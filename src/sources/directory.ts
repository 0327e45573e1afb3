import { readdir, lstat, readlink } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import type { Entry } from './types.js';
import { emptyBody } from './bytes.js';

const READ_CHUNK = 256 * 1024;
const SLASH = Buffer.from('/');

/**
 * Entries of a directory tree, names sorted for a stable order. Links are reported as
 * links, never followed; devices, FIFOs and sockets are reported as `other` and not opened.
 * The file system is addressed by the names' bytes: a name that is not UTF-8 is still read
 * (its entry path shows U+FFFD where the bytes do not decode).
 */
export async function* directoryEntries(dir: string | Buffer, prefix = ''): AsyncGenerator<Entry> {
  const names = (await readdir(dir, { encoding: 'buffer' })).sort(Buffer.compare);
  const base = Buffer.concat([Buffer.from(dir), SLASH]);
  for (const name of names) {
    const full = Buffer.concat([base, name]);
    const text = name.toString('utf8');
    const path = prefix ? `${prefix}/${text}` : text;
    const stat = await lstat(full);
    if (stat.isDirectory()) {
      yield { path, type: 'directory', size: undefined, body: emptyBody };
      yield* directoryEntries(full, path);
    } else if (stat.isSymbolicLink()) {
      yield { path, type: 'symlink', size: undefined, linkTarget: await readlink(full, 'utf8'), body: emptyBody };
    } else if (stat.isFile()) {
      yield { path, type: 'file', size: stat.size, body: () => createReadStream(full, { highWaterMark: READ_CHUNK }) };
    } else {
      yield { path, type: 'other', size: undefined, body: emptyBody };
    }
  }
}
