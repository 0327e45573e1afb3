// Preloaded into a CLI run (node --import), and so into a second Node it starts (relaunch.ts):
// each process appends one JSON line about itself to $MGSIFT_RECORD when it starts.
import { appendFileSync } from 'node:fs';

const file = process.env.MGSIFT_RECORD;
if (file) {
  const line = { pid: process.pid, ppid: process.ppid, relaunched: process.env.MGSIFT_RELAUNCHED !== undefined, nodeOptions: process.env.NODE_OPTIONS, execArgv: process.execArgv };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}
