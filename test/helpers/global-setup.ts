import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every test's temporary folders (and those of the CLI processes it starts) go into one folder of
 * this run, removed when the run ends: a run leaves nothing in the system's temporary folder.
 * `os.tmpdir()` reads TMPDIR at each call, and workers and child processes inherit it.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'mgsift-tests-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
