import { spawnSync } from 'node:child_process';

const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;

/** Runs the built CLI, as users do. */
export function mgsift(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: options.cwd, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}
