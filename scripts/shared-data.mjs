/**
 * Where the workplace's shared data sits: `shared/<sub>` beside the repository or beside one of
 * its parent folders (a checkout at /work/main sees /work/shared; a worktree at
 * /work/wt/<name> too). Undefined when absent (CI has no shared data): tests skip, naming why.
 * Plain JavaScript so that scripts (`planted.mjs`) and tests (`test/helpers/shared-data.ts`) share it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../', import.meta.url)).replace(/\/$/, '');

export function sharedPath(sub) {
  let dir = REPO;
  for (;;) {
    const candidate = join(dirname(dir), 'shared', sub);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
