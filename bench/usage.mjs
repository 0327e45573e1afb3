// Preloaded into each measured mgsift process (`node --import`): when it exits, however it
// exits, appends its peak RSS, CPU time (all threads: zlib and xz work off the main thread) and
// the main thread's own CPU time (Linux; with worker threads, the part no added core shortens)
// as one JSON line to $MGSIFT_BENCH_USAGE. A run that relaunches itself (src/cli/relaunch.ts)
// writes two lines: the second Node's, marked `relaunched`, and the first's, which waited for it.
import { appendFileSync, readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.MGSIFT_BENCH_USAGE;
if (file && isMainThread) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    const line = {
      maxRssBytes: usage.maxRSS * 1024,
      privateBytes: privateBytes(),
      cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
      mainCpuSeconds: mainThreadCpuSeconds(),
      relaunched: process.env.MGSIFT_RELAUNCHED !== undefined,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  });
}

/** utime + stime of this process's first thread, from /proc (fields 14 and 15 of its stat, in clock ticks of 1/100 s). */
function mainThreadCpuSeconds() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Memory this process wrote and holds alone, at exit (Linux: Private_Dirty): what a second Node
 * of the same binary adds. Its code pages are clean, and shared while both run.
 */
function privateBytes() {
  try {
    return Number(/^Private_Dirty:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'))?.[1]) * 1024;
  } catch {
    return undefined;
  }
}
