// node bench/read-floor.mjs ARCHIVE: mgsift's own reading of a container and nothing else —
// open it as `analyze` does (decompression, tar framing, nested-archive detection, limits) and
// drain every entry's body; no file is classified, parsed or matched. What the bench times
// against gzip -dc: the part of a run no rule, parser or report can shorten (issue 33).
import { pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const repo = join(dirname(new URL(import.meta.url).pathname), '..');
const load = (path) => import(pathToFileURL(join(repo, 'dist', path)).href);
const [{ openInput }, { DEFAULT_LIMITS }, { Problems }] = await Promise.all([load('sources/open.js'), load('core/limits.js'), load('core/problems.js')]);

const archive = process.argv[2];
if (!archive) {
  process.stderr.write('usage: node bench/read-floor.mjs ARCHIVE\n');
  process.exit(2);
}
const problems = new Problems();
const source = await openInput(archive, { limits: DEFAULT_LIMITS, problems });
let entries = 0;
let bytes = 0;
for await (const entry of source.entries()) {
  entries++;
  if (entry.type !== 'file') continue;
  for await (const chunk of entry.body()) bytes += chunk.length;
}
process.stdout.write(`${entries} entries, ${bytes} bytes, ${problems.items.length} problems\n`);
