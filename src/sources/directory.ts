import { opendir, lstat, readlink } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { Entry } from './types.js';
import { emptyBody } from './bytes.js';

const READ_CHUNK = 256 * 1024;

/**
 * Entries of a directory tree, names sorted for a stable order. Links are reported as
 * links, never followed; devices, FIFOs and sockets are reported as `other` and not opened.
 */
export async function* directoryEntries(dir: string, prefix = ''): AsyncGenerator<Entry> {
  const names: string[] = [];
  for await (const dirent of await opendir(dir)) names.push(dirent.name);
  names.sort();
  for (const name of names) {
    const full = join(dir, name);
    const path = prefix ? `${prefix}/${name}` : name;
    const stat = await lstat(full);
    if (stat.isDirectory()) {
      yield { path, type: 'directory', size: undefined, body: emptyBody };
      yield* directoryEntries(full, path);
    } else if (stat.isSymbolicLink()) {
      yield { path, type: 'symlink', size: undefined, linkTarget: await readlink(full), body: emptyBody };
    } else if (stat.isFile()) {
      yield { path, type: 'file', size: stat.size, body: () => createReadStream(full, { highWaterMark: READ_CHUNK }) };
    } else {
      yield { path, type: 'other', size: undefined, body: emptyBody };
    }
  }
}
