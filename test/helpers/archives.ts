import { execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { createReadStream, createWriteStream } from 'node:fs';

export const MG_MINI = new URL('../fixtures/mg-mini/', import.meta.url).pathname;

export function tempDir(prefix = 'mgsift-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The same tree as .tar, .tar.gz, .tar.xz and .zip (system tar, xz and python's zipfile). */
export function packTree(parent: string, name: string, out: string): Record<'tar' | 'tar.gz' | 'tar.xz' | 'zip', string> {
  const base = join(out, name);
  const files = {
    tar: `${base}.tar`,
    'tar.gz': `${base}.tar.gz`,
    'tar.xz': `${base}.tar.xz`,
    zip: `${base}.zip`,
  };
  execFileSync('tar', ['-cf', files.tar, '--sort=name', '-C', parent, name]);
  execFileSync('tar', ['-czf', files['tar.gz'], '--sort=name', '-C', parent, name]);
  execFileSync('tar', ['-cJf', files['tar.xz'], '--sort=name', '-C', parent, name]);
  execFileSync('python3', ['-c', ZIP_SCRIPT, files.zip, parent, name]);
  return files;
}

const ZIP_SCRIPT = `
import os, sys, zipfile
out, parent, name = sys.argv[1:4]
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    for root, dirs, files in os.walk(os.path.join(parent, name)):
        dirs.sort()
        for f in sorted(files):
            full = os.path.join(root, f)
            z.write(full, os.path.relpath(full, parent))
`;

export async function gzipFile(source: string, target: string): Promise<void> {
  await pipeline(createReadStream(source), createGzip(), createWriteStream(target));
}

/**
 * Every entry under a folder with its size and modification time (links as links, never
 * followed): to check that nothing was written, changed or removed around a run.
 */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      const st = lstatSync(full, { throwIfNoEntry: false });
      if (!st) continue;
      out[full] = `${st.isDirectory() ? 'dir' : st.size} ${st.mtimeMs}`;
      if (st.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return out;
}
