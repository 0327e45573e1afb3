#!/usr/bin/env node
/**
 * Start-up and size of the single file against the dev build: `mgsift --version` and `analyze`
 * of the smallest bundled sample, each build run in turn (interleaved, so a busy machine slows
 * all alike), median and fastest of N runs, wall clock and CPU (user + system, from
 * /usr/bin/time: steadier on a busy machine). Needs `npm run build` and `npm run package` first.
 *
 *   node bench/startup.mjs [runs]
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
const SAMPLE = join(REPO, 'samples/cvo-final-sync-lost.tar.gz');
const runs = Number(process.argv[2] ?? 11);
const builds = {
  'dev (node dist/cli/main.js)': [process.execPath, join(REPO, 'dist/cli/main.js')],
  [`node mgsift-${version}.cjs`]: [process.execPath, join(REPO, `release/mgsift-${version}.cjs`)],
  [`mgsift-${version}-linux-x64`]: [join(REPO, `release/mgsift-${version}-linux-x64`)],
};
const tasks = { '--version': ['--version'], 'analyze (9.6 KB sample)': ['analyze', SAMPLE, '--format', 'json', '-o', '-'] };

for (const [task, args] of Object.entries(tasks)) {
  const times = new Map(Object.keys(builds).map((name) => [name, { wall: [], cpu: [] }]));
  for (let i = 0; i < runs; i++) {
    for (const [name, command] of Object.entries(builds)) {
      const started = performance.now();
      const run = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', ...command, ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
      times.get(name).wall.push(performance.now() - started);
      const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(run.stderr);
      if ((run.status !== 0 && run.status !== 1) || !cpu) throw new Error(`${name} ${args.join(' ')}: exit ${run.status}\n${run.stderr}`);
      times.get(name).cpu.push((Number(cpu[1]) + Number(cpu[2])) * 1000);
    }
  }
  const median = (all) => Math.round([...all].sort((a, b) => a - b)[all.length >> 1]);
  const fastest = (all) => Math.round(Math.min(...all));
  for (const [name, { wall, cpu }] of times) {
    console.log(`${task.padEnd(24)} ${name.padEnd(30)} wall median ${median(wall)} ms (fastest ${fastest(wall)}), CPU median ${median(cpu)} ms (least ${fastest(cpu)})`);
  }
}
const size = (path) => `${(statSync(path).size / 1e6).toFixed(1)} MB`;
console.log(`size: mgsift-${version}-linux-x64 ${size(join(REPO, `release/mgsift-${version}-linux-x64`))}, mgsift-${version}.cjs ${size(join(REPO, `release/mgsift-${version}.cjs`))}, Node binary ${size(process.execPath)}`);
