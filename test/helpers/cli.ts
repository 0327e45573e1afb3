import { spawnSync } from 'node:child_process';

const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;
const PEAK_RSS = new URL('./peak-rss.mjs', import.meta.url).pathname;

/** Runs the built CLI, as users do. */
export function mgsift(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: options.cwd, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

export interface MeasuredRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size of the CLI process, in bytes (0 if it died before exiting). */
  maxRssBytes: number;
  wallMs: number;
}

/**
 * Runs the built CLI with its wall time and peak RSS measured; killed after `timeoutMs`. In one
 * process (`MGSIFT_RELAUNCH=0`): the peak RSS is the analysis's own.
 */
export function mgsiftMeasured(args: string[], options: { cwd?: string; timeoutMs: number; prefix?: string[] }): MeasuredRun {
  const started = Date.now();
  const [command, ...prefix] = [...(options.prefix ?? []), process.execPath];
  const run = spawnSync(command!, [...prefix, '--import', PEAK_RSS, CLI, ...args], {
    encoding: 'utf8',
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    env: { ...process.env, MGSIFT_RELAUNCH: '0' },
    timeout: options.timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
  });
  const rss = (run.output[3] as string | null) ?? '';
  return { code: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr, maxRssBytes: Number(rss) || 0, wallMs: Date.now() - started };
}
