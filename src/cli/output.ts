import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';

/** Writes a file whole or not at all: a temporary file beside it, then a rename. */
export async function writeAtomically(file: string, content: string): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    await writeFile(temporary, content, { flag: 'wx' });
    await rename(temporary, file);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

export async function prepareOutputDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
}
