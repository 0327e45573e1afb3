import { readFileSync } from 'node:fs';

/**
 * Peak resident set size of this process, in bytes, from /proc (VmHWM). Not getrusage: Linux
 * carries ru_maxrss across exec, so it would include the size of the test process that forked us.
 */
export function peakRssBytes() {
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024;
}
