// node scripts/byte-ranks.mjs ARCHIVE... — how often each byte occurs in the logs of real
// must-gathers, as the rank table `src/parsers/byte-ranks.ts` holds (0 = the rarest). The
// literal scanner searches each literal from its rarest byte (ripgrep's heuristic), so the table
// is made from real logs, not guessed; run again on other archives to check it still holds.
import { pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const repo = join(dirname(new URL(import.meta.url).pathname), '..');
const load = (path) => import(pathToFileURL(join(repo, 'dist', path)).href);
const [{ openInput }, { DEFAULT_LIMITS }, { Problems }] = await Promise.all([load('sources/open.js'), load('core/limits.js'), load('core/problems.js')]);

const archives = process.argv.slice(2);
if (archives.length === 0) {
  process.stderr.write('usage: node scripts/byte-ranks.mjs ARCHIVE...\n');
  process.exit(2);
}
const counts = new Float64Array(256);
let bytes = 0;
for (const archive of archives) {
  const source = await openInput(archive, { limits: DEFAULT_LIMITS, problems: new Problems() });
  for await (const entry of source.entries()) {
    if (entry.type !== 'file' || !/\.log(\.gz)?$/.test(entry.path)) continue;
    for await (const chunk of entry.body()) {
      for (let i = 0; i < chunk.length; i++) counts[chunk[i]]++;
      bytes += chunk.length;
    }
  }
}
const order = [...counts.keys()].sort((a, b) => counts[a] - counts[b] || a - b);
const ranks = new Array(256);
order.forEach((byte, rank) => (ranks[byte] = rank));
process.stderr.write(`${bytes} bytes of logs read\n`);
const rows = [];
for (let i = 0; i < 256; i += 16) rows.push(`  ${ranks.slice(i, i + 16).join(', ')},`);
process.stdout.write(`${rows.join('\n')}\n`);
