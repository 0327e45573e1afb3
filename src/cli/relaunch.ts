/**
 * On a machine of two cores, V8's four worker threads (TurboFan's compiles, the collector's
 * helpers) and zlib's thread compete with the main thread, which then waits, runnable, for its
 * own core: 6–10 % of a large archive's run (BENCHMARKS.md, "V8's background threads on 2
 * cores"). `--v8-pool-size` is read only when Node starts, so a run that will read a large input
 * on such a machine starts Node once more with `--v8-pool-size=1` and ends as that run ends.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { availableParallelism, constants } from 'node:os';
import { isSea } from 'node:sea';

/**
 * Stored size of an input from which the second start pays: it costs about 40 ms, and gains
 * about 0.6 s per GB read.
 */
export const LARGE_INPUT_BYTES = 32 * 1024 * 1024;
/** Set for the second Node: it never starts a third. */
export const RELAUNCHED_ENV = 'MGSIFT_RELAUNCHED';
/** `MGSIFT_RELAUNCH=0`: never start a second Node (a supervisor that must see one process). */
export const RELAUNCH_ENV = 'MGSIFT_RELAUNCH';
const POOL_OPTION = '--v8-pool-size';
/** Signals a supervisor or a terminal sends to stop a run, passed on to the second Node. */
const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export interface LaunchFacts {
  /** The command line after the script: `analyze must-gather.tar.gz -o report.html`. */
  args: readonly string[];
  execArgv: readonly string[];
  nodeOptions: string | undefined;
  relaunched: boolean;
  /** `MGSIFT_RELAUNCH=0` was set. */
  refused: boolean;
  cores: number;
  /** A regular file's size; undefined for anything else (a folder, a name that is no file). */
  fileSize(path: string): number | undefined;
}

/**
 * Whether this run is worth a second start: not refused, exactly two cores (one core gains
 * nothing, more have room for V8's threads), no pool size given already, no thread count chosen
 * (the workers' share of the cores is then the user's), and some argument a file of at least
 * {@link LARGE_INPUT_BYTES}.
 */
export function worthRelaunching(facts: LaunchFacts): boolean {
  if (facts.relaunched || facts.refused || facts.cores !== 2) return false;
  const nodeOptions = [...facts.execArgv, ...(facts.nodeOptions ?? '').split(/\s+/)];
  if (nodeOptions.some((option) => option.startsWith(POOL_OPTION))) return false;
  if (facts.args.some((arg) => arg === '--threads' || arg.startsWith('--threads='))) return false;
  return facts.args.some((arg) => !arg.startsWith('-') && (facts.fileSize(arg) ?? 0) >= LARGE_INPUT_BYTES);
}

/**
 * Starts this run again with `--v8-pool-size=1` when {@link worthRelaunching} says so, passing
 * on the signals above, and ends this process as the second one ends (its exit code, or its
 * signal). Resolves false when the run goes on here: not worth it, or the second Node could
 * not start.
 */
export function relaunchWithOneV8Thread(): Promise<boolean> {
  const args = process.argv.slice(2);
  const facts: LaunchFacts = {
    args,
    execArgv: process.execArgv,
    nodeOptions: process.env.NODE_OPTIONS,
    relaunched: process.env[RELAUNCHED_ENV] !== undefined,
    refused: process.env[RELAUNCH_ENV] === '0',
    cores: availableParallelism(),
    fileSize,
  };
  if (!worthRelaunching(facts)) return Promise.resolve(false);
  const nodeOptions = `${process.env.NODE_OPTIONS ?? ''} ${POOL_OPTION}=1`.trim();
  // A single executable application is started with its arguments alone (its argv holds the executable twice).
  const command = isSea() ? args : [...process.execArgv, process.argv[1] ?? '', ...args];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, command, { stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: nodeOptions, [RELAUNCHED_ENV]: '1' } });
    const forward = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    let started = false;
    child.once('spawn', () => {
      started = true;
      for (const signal of FORWARDED) process.on(signal, forward);
      resolve(true);
    });
    child.once('error', () => {
      if (!started) resolve(false);
    });
    child.once('exit', (code, signal) => {
      for (const name of FORWARDED) process.off(name, forward);
      if (signal) {
        process.kill(process.pid, signal);
        // A signal this process ignores (SIGPIPE) ends it as a shell reports a signal's end.
        process.exitCode = 128 + signalNumber(signal);
      } else process.exitCode = code ?? 1;
    });
  });
}

function fileSize(path: string): number | undefined {
  try {
    const info = statSync(path);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

function signalNumber(signal: NodeJS.Signals): number {
  return (constants.signals as Record<string, number | undefined>)[signal] ?? 0;
}
