// Preloaded into a CLI run (node --import): at exit, writes the process's peak RSS in bytes to
// file descriptor 3, which the test opens as a pipe, so stdout and stderr stay the CLI's own.
import { writeSync } from 'node:fs';
import { peakRssBytes } from './vmhwm.mjs';

process.on('exit', () => {
  writeSync(3, String(peakRssBytes()));
});
