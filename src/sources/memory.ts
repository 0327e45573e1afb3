import type { Entry } from './types.js';
import { bufferBody, emptyBody } from './bytes.js';

/** A file of a tree held in memory: its path under the tree's root, and its bytes. */
export interface MemoryFile {
  path: string;
  bytes(): Buffer;
}

/**
 * Entries of a tree held in memory (the built-in rules' fixtures inside the single-file
 * build), given in directory-walk order: each folder is announced before its first file, as
 * the directory source does.
 */
export async function* memoryEntries(files: readonly MemoryFile[]): AsyncGenerator<Entry> {
  const announced = new Set<string>();
  for (const file of files) {
    const parts = file.path.split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      const dir = parts.slice(0, depth).join('/');
      if (announced.has(dir)) continue;
      announced.add(dir);
      yield { path: dir, type: 'directory', size: undefined, body: emptyBody };
    }
    const bytes = file.bytes();
    yield { path: file.path, type: 'file', size: bytes.length, body: () => bufferBody(bytes) };
  }
}

