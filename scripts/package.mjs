#!/usr/bin/env node
/**
 * `npm run package`: mgsift as one file, for machines with no network and no npm.
 *
 *   release/mgsift-<version>.cjs          one esbuild bundle for any Node >= 20 (no node_modules)
 *   release/mgsift-<version>-linux-x64    the same bundle in a Node single executable application
 *   release/SHA256SUMS, release/README.md
 *
 * The built-in rules (with their schema and fixtures), the templates, the report schemas and
 * package.json travel inside the bundle (read by src/core/assets.ts). Runs after `tsc` (it
 * reuses the compiled walk of src/core/assets.ts so the embedded order is the dev build's).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { BUNDLE_ASSET, walkFiles } from '../dist/core/assets.js';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const RELEASE = join(REPO, 'release');
/** Where Node's single-executable support looks for the blob (fixed by Node). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const SHIPPED = ['package.json', ...['rules', 'templates', 'schema'].flatMap((dir) => walkFiles(REPO, dir))];

const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
const names = { bundle: `mgsift-${version}.cjs`, executable: `mgsift-${version}-${process.platform}-${process.arch}` };

/** `1a2b3c4d5e6f 2026-11-24` (`-dirty` when the tree has changes), or `unknown` outside git. */
function buildId() {
  const git = (...args) => execFileSync('git', args, { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const dirty = git('status', '--porcelain', '--untracked-files=no') === '' ? '' : '-dirty';
    return `${git('rev-parse', '--short=12', 'HEAD')}${dirty} ${git('log', '-1', '--format=%cs')}`;
  } catch {
    return 'unknown';
  }
}

function embedded(buildId) {
  const files = SHIPPED.map((path) => [path, readFileSync(join(REPO, path)).toString('base64')]);
  return { build: buildId, files: gzipSync(JSON.stringify(files), { level: 9 }).toString('base64') };
}

async function bundle(outfile, buildId) {
  await esbuild.build({
    entryPoints: [join(REPO, 'src/cli/single-file.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    legalComments: 'eof',
    banner: { js: '#!/usr/bin/env node' },
    define: { MGSIFT_EMBEDDED: JSON.stringify(embedded(buildId)) },
    // `import.meta.url` is read only by the dev build's paths (core/assets.ts, the dev worker script).
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'warning',
  });
  chmodSync(outfile, 0o755);
}

/** The bundle injected into a copy of this Node binary, and again as an asset for worker threads. */
function executable(bundlePath, outfile) {
  const work = join(RELEASE, '.sea');
  mkdirSync(work, { recursive: true });
  const blob = join(work, 'sea.blob');
  const config = join(work, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify({ main: bundlePath, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets: { [BUNDLE_ASSET]: bundlePath } }),
  );
  quiet(process.execPath, ['--experimental-sea-config', config]);
  copyFileSync(process.execPath, outfile);
  chmodSync(outfile, 0o755);
  const postject = join(REPO, 'node_modules/.bin/postject');
  quiet(postject, [outfile, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE]);
  rmSync(work, { recursive: true, force: true });
}

/** Runs a step; its chatter (postject's warnings about ELF note names) is shown only if it fails. */
function quiet(command, args) {
  try {
    execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    process.stderr.write(`${err.stdout ?? ''}${err.stderr ?? ''}`);
    throw err;
  }
}

function sha256(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function readme(buildId) {
  return `# mgsift ${version} (build ${buildId})

Offline analyzer for OpenShift diagnostic archives, as one file. Nothing to install, no network.

| file | runs on |
| --- | --- |
| \`${names.executable}\` | Linux ${process.arch}, glibc 2.28 or later (RHEL 8, Debian 10, Ubuntu 20.04 on); no Node needed |
| \`${names.bundle}\` | any OS with Node.js 20.19 or later: \`node ${names.bundle} …\` |

Check the download, then run it:

    sha256sum -c SHA256SUMS --ignore-missing
    chmod +x ${names.executable}
    ./${names.executable} analyze must-gather.tar.gz -o report.html
    ./${names.executable} --version

Both hold the built-in rules, templates and schemas. \`--rules DIR\` adds your own rules.
Inputs: folders, .tar, .tar.gz and .zip need nothing else; .tar.xz is decoded by the \`xz\`
command when it is on PATH (faster), else by the decoder built in (an .xz inside an .xz
archive then needs \`xz\`). Exit codes: 0 no finding at or above --fail-on, 1 findings,
2 usage or input error.
`;
}

const id = buildId();
rmSync(RELEASE, { recursive: true, force: true });
mkdirSync(RELEASE, { recursive: true });
const bundlePath = join(RELEASE, names.bundle);
await bundle(bundlePath, id);
const outputs = [names.bundle];
if (process.platform === 'linux') {
  executable(bundlePath, join(RELEASE, names.executable));
  outputs.unshift(names.executable);
}
writeFileSync(join(RELEASE, 'SHA256SUMS'), outputs.map((name) => `${sha256(join(RELEASE, name))}  ${name}\n`).join(''));
writeFileSync(join(RELEASE, 'README.md'), readme(id));
for (const name of outputs) {
  process.stdout.write(`${relative(REPO, join(RELEASE, name))}  ${(statSync(join(RELEASE, name)).size / 1e6).toFixed(1)} MB\n`);
}
process.stdout.write(`build ${id}\n`);
