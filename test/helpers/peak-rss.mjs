// Preloaded into a CLI run (node --import): at exit, writes the process's peak RSS in bytes to
// file descriptor 3, which the test opens as a pipe, so stdout and stderr stay the CLI's own.
// VmHWM, not getrusage: Linux carries ru_maxrss across exec, so it would include the size of
// the test process that forked the CLI.
import { readFileSync, writeSync } from 'node:fs';

process.on('exit', () => {
  const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  writeSync(3, String(Number(kib) * 1024));
});
