// Preloaded into each measured mgsift process (`node --import`): writes the process's peak RSS
// in bytes to $MGSIFT_BENCH_RSS when it exits, however it exits.
import { writeFileSync } from 'node:fs';

const file = process.env.MGSIFT_BENCH_RSS;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
