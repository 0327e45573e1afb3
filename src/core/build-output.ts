import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

/**
 * A JSON file `npm run build` wrote beside a module (scripts/pack-prebuilt.mjs), by its name and
 * the module's `import.meta.url`; `fallback` when there is none: the tests run the TypeScript
 * sources, and the single file carries none (nor a module URL), and each such file only saves
 * work its reader can do itself.
 */
export function readBuildOutput<T>(name: string, moduleUrl: string | undefined, fallback: T): T {
  try {
    return JSON.parse(readFileSync(new URL(name, moduleUrl), 'utf8')) as T;
  } catch {
    return fallback;
  }
}

/** The bytes of a file `npm run build` wrote beside a module; undefined when there is none (see {@link readBuildOutput}). */
export function readBuildOutputBytes(name: string, moduleUrl: string | undefined): Buffer | undefined {
  try {
    return readFileSync(new URL(name, moduleUrl));
  } catch {
    return undefined;
  }
}

/**
 * `length` bytes from `start` of a file `npm run build` wrote beside a module, as UTF-8 (a part
 * its JSON index points to: the reader needs a few parts of a large file, not all of it).
 */
export function readBuildOutputPart(name: string, moduleUrl: string | undefined, start: number, length: number): string {
  const fd = openSync(new URL(name, moduleUrl), 'r');
  try {
    const bytes = Buffer.allocUnsafe(length);
    if (readSync(fd, bytes, 0, length, start) !== length) throw new Error(`${name}: shorter than its index says`);
    return bytes.toString('utf8');
  } finally {
    closeSync(fd);
  }
}
