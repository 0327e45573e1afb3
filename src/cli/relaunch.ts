/**
 * On a machine of two cores, V8's four worker threads (TurboFan's compiles, the collector's
 * helpers) and zlib's thread compete with the main thread, which then waits, runnable, for its
 * own core: 6–10 % of a large archive's run (BENCHMARKS.md, "V8's background threads on 2
 * cores"). `--v8-pool-size` is read only when Node starts, so a run that will read a large input
 * on such a machine starts Node once more with `--v8-pool-size=1` and ends as that run ends.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism, constants } from 'node:os';
import { isSea } from 'node:sea';
import { detectMagic, MAGIC_PEEK_BYTES } from '../sources/magic.js';

/**
 * Bytes an input holds (decompressed) from which the second start pays: it costs 50–60 ms (a
 * Node starting), and the one V8 thread gives back 7–10 % of a run. Measured (alternated runs,
 * medians): +27 ms for 10 MB (a 0.45 s run), −58 ms for 33 MB (0.83 s), −132 ms for a real
 * must-gather (80 MB in a 4 MB .tar.xz, 1.77 s).
 */
export const LARGE_CONTENT_BYTES = 24 * 1024 * 1024;
/**
 * How much more an xz or zip file holds than it stores, where the stored size alone tells it
 * (must-gathers: about 20 × in .tar.xz, 6–8 × deflated); a gzip file says it in its trailer.
 */
const XZ_RATIO = 15;
const ZIP_RATIO = 5;
/** Set for the second Node: it never starts a third. */
export const RELAUNCHED_ENV = 'MGSIFT_RELAUNCHED';
/** `MGSIFT_RELAUNCH=0`: never start a second Node (a supervisor that must see one process). */
export const RELAUNCH_ENV = 'MGSIFT_RELAUNCH';
const POOL_OPTION = '--v8-pool-size';
/**
 * The young generation at its full size from the start, for the second Node. V8 starts it small
 * and grows it as objects survive: until then, objects that would have died young are moved to
 * the old generation, which grows and is swept. Measured (alternated runs, medians): on the 0.25 GB
 * archive peak RSS 229 → 193 MB (highest 244 → 203) and 1.68 → 1.65 s; aws image ×4 1.78 →
 * 1.74 s; azure ×4 the same; the pack ten times over 2.08 → 2.06 s. Node refuses it in
 * NODE_OPTIONS: it goes on the command line (a single executable, which takes none, runs without it).
 */
const YOUNG_GENERATION_OPTION = '--min-semi-space-size=16';
/** Options by which the user shares the cores out: worker threads per input, inputs at once (`--jobs 2`, `-j2`). */
const CHOSEN_PARALLELISM = /^(?:--threads|--jobs)(?:=|$)|^-j/;
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
  /** What a regular file holds once decompressed, estimated; undefined for anything else (a folder, a name that is no file). */
  contentSize(path: string): number | undefined;
}

/**
 * Whether this run is worth a second start: not refused, exactly two cores (one core gains
 * nothing, more have room for V8's threads), no pool size given already, no thread or job count
 * chosen (the workers' share of the cores is then the user's), and some argument a file that
 * holds at least {@link LARGE_CONTENT_BYTES}.
 */
export function worthRelaunching(facts: LaunchFacts): boolean {
  if (facts.relaunched || facts.refused || facts.cores !== 2) return false;
  const nodeOptions = [...facts.execArgv, ...(facts.nodeOptions ?? '').split(/\s+/)];
  if (nodeOptions.some((option) => option.startsWith(POOL_OPTION))) return false;
  if (facts.args.some((arg) => CHOSEN_PARALLELISM.test(arg))) return false;
  return facts.args.some((arg) => !arg.startsWith('-') && (facts.contentSize(arg) ?? 0) >= LARGE_CONTENT_BYTES);
}

/**
 * Starts this run again with `--v8-pool-size=1` and the young generation at its full size when
 * {@link worthRelaunching} says so, passing
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
    contentSize,
  };
  if (!worthRelaunching(facts)) return Promise.resolve(false);
  const nodeOptions = `${process.env.NODE_OPTIONS ?? ''} ${POOL_OPTION}=1`.trim();
  // A single executable application is started with its arguments alone (its argv holds the executable twice).
  const nodeArgs = process.execArgv.some((option) => option.startsWith('--min-semi-space-size')) ? process.execArgv : [...process.execArgv, YOUNG_GENERATION_OPTION];
  const command = isSea() ? args : [...nodeArgs, process.argv[1] ?? '', ...args];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, command, { stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: nodeOptions, [RELAUNCHED_ENV]: '1' } });
    // From now on: a signal that came before the second Node runs would otherwise end this one alone.
    const forward = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    const stopForwarding = (): void => {
      for (const name of FORWARDED) process.off(name, forward);
    };
    for (const name of FORWARDED) process.on(name, forward);
    let started = false;
    child.once('spawn', () => {
      started = true;
      resolve(true);
    });
    child.once('error', () => {
      if (started) return;
      stopForwarding();
      resolve(false);
    });
    child.once('exit', (code, signal) => {
      stopForwarding();
      if (signal) {
        process.kill(process.pid, signal);
        // A signal this process ignores (SIGPIPE) ends it as a shell reports a signal's end.
        process.exitCode = 128 + signalNumber(signal);
      } else process.exitCode = code ?? 1;
    });
  });
}

/**
 * What a file holds once decompressed: a gzip file's trailer (its size modulo 4 GiB), an xz or
 * zip file's stored size times its usual ratio, any other file's own size. Undefined for what
 * is no regular file or cannot be read.
 */
export function contentSize(path: string): number | undefined {
  let fd: number | undefined;
  try {
    // Told before opening: opening a named pipe would wait for its writer.
    const info = statSync(path);
    if (!info.isFile()) return undefined;
    const { size } = info;
    fd = openSync(path, 'r');
    const head = Buffer.alloc(MAGIC_PEEK_BYTES);
    const magic = detectMagic(head.subarray(0, readSync(fd, head, 0, head.length, 0)));
    if (magic === 'xz') return size * XZ_RATIO;
    if (magic === 'zip') return size * ZIP_RATIO;
    if (magic !== 'gzip' || size < 18) return size;
    const trailer = Buffer.alloc(4);
    readSync(fd, trailer, 0, 4, size - 4);
    const stated = trailer.readUInt32LE(0);
    // Deflate grows nothing by more than a fraction of a percent: a trailer stating less wrapped past 4 GiB.
    return stated >= size * 0.99 - 64 ? stated : size * 8;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function signalNumber(signal: NodeJS.Signals): number {
  return (constants.signals as Record<string, number | undefined>)[signal] ?? 0;
}
