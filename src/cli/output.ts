import { describeError } from '../core/problems.js';
import { access, constants, mkdir, open, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, basename, join, resolve } from 'node:path';
import { UsageError } from './options.js';

/** Writes a file whole or not at all: a temporary file beside it, then a rename. */
export async function writeAtomically(file: string, content: string): Promise<void> {
  const temporary = temporaryBeside(file);
  try {
    await writeFile(temporary, content, { flag: 'wx' });
    await rename(temporary, file);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

function temporaryBeside(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
}

/** Where `-o` sends the output: stdout, one file, or a folder of reports. */
export type OutputTarget = { kind: 'stdout' } | { kind: 'file'; path: string } | { kind: 'folder'; path: string };

/** `-o -` and `-o /dev/stdout` both mean stdout. */
export function isStdout(output: string): boolean {
  return output === '-' || output === '/dev/stdout';
}

/**
 * Makes the folders an output needs and proves it can be written, before any analysis runs
 * (minutes on a large archive): a folder target is made, a file target's folder is made and a
 * temporary file is created in it and removed. Folders made here are listed, so a run that ends
 * without a report can take them away again (`undoOutput`). Every failure is one UsageError line.
 */
export async function prepareOutput(target: OutputTarget): Promise<string[]> {
  if (target.kind === 'stdout') return [];
  const folder = target.kind === 'folder' ? target.path : dirname(target.path);
  const created = await makeFolders(folder, target.path);
  try {
    if (target.kind === 'file') {
      const existing = await stat(target.path).catch(() => undefined);
      if (existing?.isDirectory()) throw new UsageError(`-o ${target.path}: is a folder, not a file`);
      const probe = temporaryBeside(target.path);
      await (await open(probe, 'wx')).close();
      await unlink(probe);
    } else {
      await access(folder, constants.W_OK);
    }
  } catch (err) {
    await undoOutput(created);
    throw err instanceof UsageError ? err : new UsageError(`-o ${target.path}: cannot write there: ${reasonOf(err)}`);
  }
  return created;
}

/** Removes the (empty) folders `prepareOutput` made, deepest first; what is not empty stays. */
export async function undoOutput(created: readonly string[]): Promise<void> {
  for (const folder of [...created].reverse()) await rmdir(folder).catch(() => undefined);
}

/**
 * `mkdir -p`, one level at a time. Node's recursive mkdir loops for ever where a level cannot be
 * made although its parent exists (`/proc/x`); here each level is made once and the first
 * failure ends it.
 */
async function makeFolders(folder: string, asked: string): Promise<string[]> {
  const missing: string[] = [];
  let at = resolve(folder);
  for (;;) {
    const info = await stat(at).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : err));
    if (info instanceof Error) throw new UsageError(`-o ${asked}: cannot use ${at}: ${reasonOf(info)}`);
    if (info) {
      if (!info.isDirectory()) throw new UsageError(`-o ${asked}: ${at} is a file, where a folder is needed`);
      break;
    }
    missing.unshift(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  const created: string[] = [];
  for (const level of missing) {
    try {
      await mkdir(level);
    } catch (err) {
      await undoOutput(created);
      throw new UsageError(`-o ${asked}: cannot create folder ${level}: ${reasonOf(err)}`);
    }
    created.push(level);
  }
  return created;
}

const REASONS: Record<string, string> = {
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'no such file or directory (the file system does not allow it here)',
  ENOTDIR: 'a file stands where a folder is needed',
  ENOSPC: 'no space left on the device',
  EEXIST: 'a file of that name exists',
};

function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && REASONS[code]) return REASONS[code]!;
  return describeError(err);
}
