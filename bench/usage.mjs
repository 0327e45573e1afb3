// Preloaded into each measured mgsift process (`node --import`): when it exits, however it
// exits, writes its peak RSS and CPU time (all threads: zlib and xz work off the main thread)
// as JSON to $MGSIFT_BENCH_USAGE.
import { writeFileSync } from 'node:fs';

const file = process.env.MGSIFT_BENCH_USAGE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRssBytes: usage.maxRSS * 1024, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 }));
  });
}
