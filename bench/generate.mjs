#!/usr/bin/env node
// Builds large must-gather-shaped archives for the benchmark by scaling up real content, and
// plants a few rule signals at known file:line places. Output is cached by generator version,
// size and source, so `npm run bench` builds each archive once.
//
//   node bench/generate.mjs --size 0.25 [--formats gz,xz] [--cache .bench-cache] [--source auto|mini]
//   node bench/generate.mjs --real-copies [--cache .bench-cache] [--source auto|mini]   (the real-content case)
//
// Scaling: the base cluster is the first real archive, unchanged except that every pod log
// (but the CVO's, whose lines feed facts) grows LOG_GROWTH-fold with older history: slices of
// real logs of the same container, timestamps shifted so each file stays in time order and
// ends where the real one ends. Then namespaces of every real archive are cloned under new
// names (pods renamed, logs grown the same way) until the tree reaches the wanted size.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Bump when the generated content changes: cached archives of another version are rebuilt. */
export const GENERATOR_VERSION = 3;
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_CACHE = join(REPO, '.bench-cache');
const REAL_SAMPLES = resolve(REPO, '..', 'shared', 'samples-real');
const REAL_ARCHIVES = ['must-gather-aws.tar.xz', 'must-gather-metal.tar.xz'];
const MINI_SAMPLE = join(REPO, 'test', 'fixtures', 'mg-mini');
/** 1 GB = 10^9 bytes of uncompressed file content (tar headers not counted). */
export const GB = 1e9;
const LOG_GROWTH = 3;
/** Namespaces whose logs stay as gathered: their lines feed facts the planted signals rely on. */
const KEEP_LOGS = new Set(['openshift-cluster-version']);
/** xz preset: -3 builds about 4x faster than -6 with -T2 and decompresses at a similar rate. */
export const XZ_PRESET = '-3';

/**
 * Signals planted once each, in the base cluster's own logs: a line of the rule's firing fixture
 * that its log signal matches, given the neighbouring line's timestamps. `at` is where in the
 * file (fraction of its lines) the line goes. Only signals that fire on their line alone: a
 * final-sync line in a cluster whose history shows no affected update is not cvo-final-sync-lost.
 */
const PLANTS = [
  { ruleId: 'cvo-status-rejected-capabilities', signal: 'rejected', namespace: 'openshift-cluster-version', container: 'cluster-version-operator', stream: 'previous', at: 0.5 },
  // Not mco-old-boot-image: it applies from 4.11 (the daemon logs the boot image from then), and the bases are 4.8 and 4.9.
  { ruleId: 'etcd-data-inconsistent', signal: 'corrupt', namespace: 'openshift-etcd', container: 'etcd', stream: 'current', at: 0.8 },
];

const CLONE_NAMES = [
  'openshift-logging', 'payments-prod', 'openshift-storage', 'checkout-prod', 'openshift-gitops', 'inventory-stage',
  'openshift-pipelines', 'search-prod', 'openshift-serverless', 'billing-prod', 'openshift-compliance', 'identity-prod',
  'openshift-local-storage', 'catalog-stage', 'openshift-nmstate', 'orders-prod', 'openshift-adp', 'shipping-dev',
  'openshift-cnv', 'analytics-prod', 'openshift-file-integrity', 'reporting-qa', 'openshift-nfd', 'notifications-prod',
];

// A container log inside a namespace folder: pods/<pod>/<container>/<container>/logs/<stream>.log
const POD_LOG = /^pods\/([^/]+)\/([^/]+)\/\2\/logs\/([^/]+)\.log$/;
// RFC 3339 prefix of `oc logs --timestamps`, then an optional klog header.
const TIME_PREFIX = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(\.\d+)?Z(?: ([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d))?/gm;

/** Deterministic pseudo-random numbers (mulberry32), so an archive is the same on every machine. */
function random(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n) => Math.floor(next() * n),
    pick(list) {
      return list[Math.floor(next() * list.length)];
    },
    suffix(length) {
      const chars = 'bcdfghjklmnpqrstvwxz2456789';
      let s = '';
      for (let i = 0; i < length; i++) s += chars[Math.floor(next() * chars.length)];
      return s;
    },
  };
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status})`);
}

function walkFiles(dir, base = dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walkFiles(path, base, out);
    else if (entry.isFile()) out.push(relative(base, path));
  }
  return out.sort();
}

/** The folder that holds `namespaces/` (the must-gather image folder), at most three levels down. */
function imageDir(dir, depth = 0) {
  if (existsSync(join(dir, 'namespaces'))) return dir;
  if (depth >= 3) return undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory()) continue;
    const found = imageDir(join(dir, entry.name), depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * The real archives, extracted once into the cache; without ../shared/samples-real (or with
 * source 'mini', for tests), the small fixture test/fixtures/mg-mini, whose figures say little
 * about real archives.
 */
export function prepareSources(cacheDir, source = 'auto') {
  const archives = REAL_ARCHIVES.map((name) => join(REAL_SAMPLES, name));
  if (source === 'mini' || !archives.every((a) => existsSync(a))) {
    const why = source === 'mini' ? 'asked for' : `${REAL_SAMPLES} is absent`;
    return { kind: 'mini', note: `scaled up from ${relative(REPO, MINI_SAMPLE)} (${why}): not real-sized content`, roots: [join(MINI_SAMPLE, 'must-gather-aws')] };
  }
  const roots = archives.map((archive) => extracted(archive, cacheDir));
  return { kind: 'real', note: `scaled up from ${REAL_ARCHIVES.join(', ')}`, roots };
}

/** A real archive's root folder, extracted once into the cache. */
function extracted(archive, cacheDir) {
  const name = archive.split('/').pop().replace(/\.tar\.xz$/, '');
  const dir = join(cacheDir, 'sources', name);
  if (!existsSync(join(dir, '.complete'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    run('tar', ['-xJf', archive, '-C', dir]);
    writeFileSync(join(dir, '.complete'), '');
  }
  const top = readdirSync(dir).filter((n) => n !== '.complete');
  if (top.length !== 1) throw new Error(`${archive}: expected one root folder, found ${top.join(', ')}`);
  return join(dir, top[0]);
}

/** Every namespace of a source: its files, and its pod logs by container name. */
function scanSource(root) {
  const image = imageDir(root);
  if (!image) throw new Error(`${root}: no namespaces/ folder`);
  const namespaces = readdirSync(join(image, 'namespaces')).sort().map((name) => {
    const dir = join(image, 'namespaces', name);
    return { name, dir, files: walkFiles(dir) };
  });
  return { root, image, namespaces };
}

function logPool(sources) {
  const pool = new Map();
  for (const source of sources) {
    for (const ns of source.namespaces) {
      for (const file of ns.files) {
        const m = POD_LOG.exec(file);
        const path = join(ns.dir, file);
        if (!m || statSync(path).size === 0) continue;
        const list = pool.get(m[2]) ?? [];
        list.push(path);
        pool.set(m[2], list);
      }
    }
  }
  return pool;
}

function timeOfMatch(m) {
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
}

function firstTime(text) {
  const re = new RegExp(TIME_PREFIX.source, 'm');
  const m = re.exec(text.slice(0, 4096));
  return m ? timeOfMatch(m) : undefined;
}

function lastTime(text) {
  const re = new RegExp(TIME_PREFIX.source, 'gm');
  let last;
  for (const m of text.slice(Math.max(0, text.length - 65536)).matchAll(re)) last = m;
  return last ? timeOfMatch(last) : undefined;
}

const pad = (n, w = 2) => String(n).padStart(w, '0');

/** Moves every line's timestamps (RFC 3339 prefix and klog header) by whole seconds. */
function shiftTimes(text, seconds) {
  if (seconds === 0) return text;
  const memo = new Map();
  return text.replace(TIME_PREFIX, (whole, y, mo, d, h, mi, s, frac = '', level, kmo, kd, kh, kmi, ks) => {
    const key = whole.length > 30 ? `${y}${mo}${d}${h}${mi}${s}|${kmo}${kd}${kh}${kmi}${ks}` : `${y}${mo}${d}${h}${mi}${s}`;
    let head = memo.get(key);
    if (head === undefined) {
      const t = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s) + seconds * 1000);
      head = `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`;
      if (level) {
        const k = new Date(Date.UTC(+y, +kmo - 1, +kd, +kh, +kmi, +ks) + seconds * 1000);
        head += `\u0000${pad(k.getUTCMonth() + 1)}${pad(k.getUTCDate())} ${pad(k.getUTCHours())}:${pad(k.getUTCMinutes())}:${pad(k.getUTCSeconds())}`;
      }
      memo.set(key, head);
    }
    if (!level) return `${head}${frac}Z`;
    const [rfc, klog] = head.split('\u0000');
    return `${rfc}${frac}Z ${level}${klog}`;
  });
}

/** A line-aligned slice of about `bytes` from a random place of `text`. */
function sliceLines(text, bytes, rnd) {
  if (text.length <= bytes) return text.endsWith('\n') ? text : `${text}\n`;
  let start = rnd.int(text.length - bytes);
  start = start === 0 ? 0 : text.indexOf('\n', start) + 1;
  let end = text.indexOf('\n', start + bytes);
  end = end < 0 ? text.length : end + 1;
  const slice = text.slice(start, end);
  return slice.endsWith('\n') ? slice : `${slice}\n`;
}

/** A pod log with LOG_GROWTH times its size: older history from same-container logs, then the log itself. */
function grownLog(text, container, pool, rnd) {
  const pieces = [text];
  let size = text.length;
  let next = firstTime(text);
  const candidates = pool.get(container) ?? [];
  while (size < LOG_GROWTH * text.length && candidates.length > 0) {
    const slice = sliceLines(readFileSync(rnd.pick(candidates), 'utf8'), text.length, rnd);
    const start = firstTime(slice);
    const end = lastTime(slice);
    let piece = slice;
    if (next !== undefined && start !== undefined && end !== undefined) {
      const seconds = Math.floor((next - end) / 1000) - 1 - rnd.int(60);
      piece = shiftTimes(slice, seconds);
      next = start + seconds * 1000;
    }
    pieces.unshift(piece);
    size += piece.length;
  }
  return pieces.join('');
}

function escapeRegex(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces whole names (not parts of longer names) by their new names. */
function renamer(names) {
  const keys = [...names.keys()].sort((a, b) => b.length - a.length);
  if (keys.length === 0) return (s) => s;
  const re = new RegExp(`(?<![A-Za-z0-9-])(?:${keys.map(escapeRegex).join('|')})(?![A-Za-z0-9-])`, 'g');
  return (s) => s.replace(re, (name) => names.get(name));
}

/** Writes one namespace (a real one, or a clone under a new name) into the output tree. */
function writeNamespace(ns, outImage, newName, pool, rnd) {
  const names = new Map();
  if (newName !== ns.name) {
    names.set(ns.name, newName);
    for (const pod of new Set(ns.files.filter((f) => f.startsWith('pods/')).map((f) => f.split('/')[1]))) {
      // Replica-set and daemon-set pods end in a 5-character suffix; static pods keep their name.
      const m = /^(.*-)[a-z0-9]{5}$/.exec(pod);
      if (m) names.set(pod, `${m[1]}${rnd.suffix(5)}`);
    }
  }
  const rename = renamer(names);
  let bytes = 0;
  for (const file of ns.files) {
    const source = join(ns.dir, file);
    const target = join(outImage, 'namespaces', newName, rename(file));
    mkdirSync(dirname(target), { recursive: true });
    const m = POD_LOG.exec(file);
    if (names.size === 0 && (!m || KEEP_LOGS.has(ns.name))) {
      copyFileSync(source, target);
      bytes += statSync(target).size;
      continue;
    }
    let text = readFileSync(source, 'utf8');
    if (m && text.length > 0 && !KEEP_LOGS.has(ns.name)) text = grownLog(text, m[2], pool, rnd);
    text = rename(text);
    writeFileSync(target, text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

/** The fixture line that a rule's log signal matches (and its presence pattern, when it has one). */
function fixtureLine(rule, signalName) {
  const signal = rule.signals.find((s) => s.name === signalName && s.type === 'log');
  if (!signal) throw new Error(`rule ${rule.id} has no log signal ${signalName}`);
  const fixtures = rule.file.replace(/\.ya?ml$/, '.fixtures');
  const cases = readdirSync(fixtures).filter((c) => c.startsWith('fires')).sort();
  for (const c of cases) {
    const dir = join(fixtures, c);
    for (const entry of readdirSync(dir).filter((e) => e.startsWith('input')).sort()) {
      const path = join(dir, entry);
      const files = statSync(path).isDirectory() ? walkFiles(path).map((f) => join(path, f)) : [path];
      for (const file of files) {
        for (const line of readFileSync(file, 'utf8').split('\n')) {
          if (signal.regex.test(line) && (!signal.presence || signal.presence.regex.test(line))) return { line, signal };
        }
      }
    }
  }
  throw new Error(`no line of ${fixtures}/fires-* matches signal ${signalName}`);
}

const KLOG = /^([IWEF])(\d{4}) (\d\d:\d\d:\d\d\.\d{6})(\s+\d+ [^\]]+\] .*)$/;
const RFC_PREFIX = /^(\d{4}-\d\d-\d\dT[\d:.]+Z) /;

/** The fixture's message with the neighbouring line's timestamps, so the file stays in time order. */
function lineLike(fixture, neighbour) {
  let message = fixture.replace(RFC_PREFIX, '').replace(/^(stdout|stderr) [FP] /, '');
  const rfc = RFC_PREFIX.exec(neighbour);
  const klogNeighbour = KLOG.exec(neighbour.replace(RFC_PREFIX, ''));
  const klog = KLOG.exec(message);
  if (klog && klogNeighbour) message = `${klog[1]}${klogNeighbour[2]} ${klogNeighbour[3]}${klog[4]}`;
  return rfc ? `${rfc[1]} ${message}` : message;
}

/** Inserts each planted line; returns where it is, as the report will name it. */
function plantSignals(outRoot, outImage, rules) {
  const expected = [];
  for (const plant of PLANTS) {
    const rule = rules.find((r) => r.id === plant.ruleId);
    if (!rule) throw new Error(`rule ${plant.ruleId} is not in the pack`);
    const { line } = fixtureLine(rule, plant.signal);
    const nsDir = join(outImage, 'namespaces', plant.namespace);
    const candidates = existsSync(nsDir)
      ? walkFiles(nsDir).filter((f) => {
          const m = POD_LOG.exec(f);
          return m && m[2] === plant.container && m[3] === plant.stream && statSync(join(nsDir, f)).size > 0;
        })
      : [];
    if (candidates.length === 0) {
      process.stderr.write(`bench: no ${plant.namespace}/${plant.container} ${plant.stream}.log to plant ${plant.ruleId} in; skipped\n`);
      continue;
    }
    const path = join(nsDir, candidates[0]);
    const lines = readFileSync(path, 'utf8').split('\n');
    const index = Math.max(1, Math.floor((lines.length - 1) * plant.at));
    const planted = lineLike(line, lines[index - 1]);
    lines.splice(index, 0, planted);
    writeFileSync(path, lines.join('\n'));
    expected.push({ ruleId: plant.ruleId, signal: plant.signal, file: relative(outRoot, path), line: index + 1, text: planted });
  }
  return expected;
}

export function archiveName(sizeGb, sourceKind) {
  return `mg-${sizeGb}gb-${sourceKind}-v${GENERATOR_VERSION}`;
}

/**
 * Builds (or finds in the cache) the archive of `sizeGb` uncompressed in each format.
 * Returns its manifest: paths, sizes, build time and the planted signals.
 */
export async function ensureArchive({ sizeGb, formats = ['gz', 'xz'], cacheDir = DEFAULT_CACHE, source = 'auto', log = () => {} }) {
  mkdirSync(cacheDir, { recursive: true });
  const sources = prepareSources(cacheDir, source);
  const name = archiveName(sizeGb, sources.kind);
  const manifestPath = join(cacheDir, `${name}.json`);
  const cached = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : undefined;
  const missing = formats.filter((f) => !cached?.archives?.[f] || !existsSync(cached.archives[f].path));
  if (cached && missing.length === 0) return cached;

  // Generation is deterministic, so a format added later rebuilds the same tree.
  const started = Date.now();
  const tree = join(cacheDir, `${name}.tree`);
  log(`generating ${name} (${sources.note})`);
  rmSync(tree, { recursive: true, force: true });
  const manifest = buildTree({ sizeGb, sources, tree, rules: await loadPack() });
  manifest.generateSeconds = (Date.now() - started) / 1000;
  manifest.archives = cached?.archives ?? {};
  for (const format of missing) {
    const t0 = Date.now();
    const path = join(cacheDir, `${name}.tar.${format}`);
    log(`compressing ${relative(REPO, path)} with ${compressor(format)}`);
    run('bash', ['-o', 'pipefail', '-c', `${tarCommand(tree)} | ${compressor(format)} > '${path}.partial'`]);
    renameSync(`${path}.partial`, path);
    manifest.archives[format] = { path, bytes: statSync(path).size, compressor: compressor(format), buildSeconds: (Date.now() - t0) / 1000 };
  }
  rmSync(tree, { recursive: true, force: true });
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

let pack;
/** The shipped rule pack, from the build (the planted lines are chosen by the rules' own regexes). */
async function loadPack() {
  const load = join(REPO, 'dist', 'engine', 'load.js');
  if (!existsSync(load)) throw new Error('dist/ is missing: run `npx tsc -p tsconfig.json` first');
  const { loadRules } = await import(pathToFileURL(load).href);
  pack ??= (await loadRules()).rules;
  return pack;
}

const ROOT_NAME = 'must-gather.local.5829317041122867231';

function buildTree({ sizeGb, sources, tree, rules }) {
  const scanned = sources.roots.map(scanSource);
  const pool = logPool(scanned);
  const rnd = random(Math.round(sizeGb * 1000) + GENERATOR_VERSION);
  const base = scanned[0];
  const outRoot = join(tree, ROOT_NAME);
  const outImage = join(outRoot, relative(base.root, base.image));
  const namespacesPrefix = `${relative(base.root, join(base.image, 'namespaces'))}/`;
  let bytes = 0;
  let files = 0;

  // The base cluster: everything outside namespaces/ as gathered, its namespaces with grown logs.
  for (const file of walkFiles(base.root)) {
    if (file.startsWith(namespacesPrefix)) continue;
    const target = join(outRoot, file);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(base.root, file), target);
    bytes += statSync(target).size;
    files += 1;
  }
  for (const ns of base.namespaces) {
    bytes += writeNamespace(ns, outImage, ns.name, pool, rnd);
    files += ns.files.length;
  }

  // Clones of every source's namespaces under new names, round-robin, until the size is reached.
  const order = scanned.flatMap((s) => s.namespaces).filter((ns) => ns.files.length > 0);
  const rounds = new Map();
  let clones = 0;
  while (bytes < sizeGb * GB) {
    const ns = order[clones % order.length];
    const baseName = CLONE_NAMES[clones % CLONE_NAMES.length];
    const round = (rounds.get(baseName) ?? 0) + 1;
    rounds.set(baseName, round);
    bytes += writeNamespace(ns, outImage, round === 1 ? baseName : `${baseName}-${round}`, pool, rnd);
    files += ns.files.length;
    clones += 1;
  }
  const expected = plantSignals(tree, outImage, rules);
  return { name: archiveName(sizeGb, sources.kind), generatorVersion: GENERATOR_VERSION, source: sources.kind, sourceNote: sources.note, sizeGb, bytes, files, clonedNamespaces: clones, logGrowth: LOG_GROWTH, expected };
}

/** Copies of the real archive's image folder in the real-content case (issue 16: the azure one ×4 was 344 MB). */
export const REAL_COPIES = 4;

/**
 * The real archives the real-content cases copy: aws (shared/samples-real; the series the bench
 * has printed since issue 16 was re-measured) and azure (issue 33's own case, "the azure
 * must-gather ×4"; in the repository, test/precision/archives).
 */
export const REAL_COPY_SOURCES = [
  { name: 'aws', archive: join(REAL_SAMPLES, REAL_ARCHIVES[0]) },
  { name: 'azure', archive: join(REPO, 'test', 'precision', 'archives', 'must-gather-azure.tar.xz') },
];

/**
 * A real-content case: a real archive (`from`, aws by default) as gathered, its image folder four
 * times under one root (names differing in the digest's last characters), as a `.tar.gz`
 * (`pigz -6`). Real YAML and logs, nothing scaled: mgsift reads each log once (the copies' logs
 * are the same logical logs, skipped as duplicates) and the YAML of every copy. Undefined without
 * the archive. Cached as `mg-<source>-image-x4-v<generator version>.tar.gz`.
 */
export function ensureRealCopies({ cacheDir = DEFAULT_CACHE, source = 'auto', log = () => {}, from = REAL_COPY_SOURCES[0] } = {}) {
  mkdirSync(cacheDir, { recursive: true });
  // Tests ask for the small fixture; otherwise the case exists only with the real archive.
  const mini = source === 'mini' || !existsSync(from.archive);
  if (mini && source !== 'mini') return undefined;
  const root = mini ? join(MINI_SAMPLE, 'must-gather-aws') : extracted(from.archive, cacheDir);
  const origin = relative(REPO, mini ? root : from.archive);
  const name = `mg-${mini ? 'mini' : from.name}-image-x${REAL_COPIES}-v${GENERATOR_VERSION}`;
  const manifestPath = join(cacheDir, `${name}.json`);
  const path = join(cacheDir, `${name}.tar.gz`);
  // The manifest may come from another checkout's cache (copied or moved): the archive is the one here.
  if (existsSync(manifestPath) && existsSync(path)) return { ...JSON.parse(readFileSync(manifestPath, 'utf8')), path };
  const started = Date.now();
  log(`building ${relative(REPO, path)} (${origin}'s image folder ×${REAL_COPIES})`);
  const image = imageDir(root);
  const tree = join(cacheDir, `${name}.tree`);
  const top = `${ROOT_NAME}-x${REAL_COPIES}`;
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(join(tree, top), { recursive: true });
  let bytes = 0;
  let files = 0;
  for (const file of walkFiles(root)) {
    if (join(root, file).startsWith(`${image}/`)) continue;
    copyFileSync(join(root, file), join(tree, top, file));
    bytes += statSync(join(root, file)).size;
    files += 1;
  }
  const imageFiles = walkFiles(image);
  const imageBytes = imageFiles.reduce((n, f) => n + statSync(join(image, f)).size, 0);
  const base = relative(root, image);
  for (let k = 1; k <= REAL_COPIES; k++) {
    // Hard links: the tar stores each copy's bytes in full (--hard-dereference), the cache holds them once.
    run('cp', ['-al', image, join(tree, top, `${base.slice(0, -String(k).length)}${k}`)]);
    bytes += imageBytes;
    files += imageFiles.length;
  }
  run('bash', ['-o', 'pipefail', '-c', `tar -C '${tree}' --sort=name --hard-dereference --owner=0 --group=0 --numeric-owner --mtime='2021-08-03 10:13:47Z' -cf - '${top}' | ${compressor('gz')} > '${path}.partial'`]);
  renameSync(`${path}.partial`, path);
  rmSync(tree, { recursive: true, force: true });
  const manifest = { name, source: origin, copies: REAL_COPIES, bytes, files, path, archiveBytes: statSync(path).size, buildSeconds: (Date.now() - started) / 1000, expected: [] };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

function compressor(format) {
  if (format === 'xz') return `xz -T2 ${XZ_PRESET}`;
  return hasCommand('pigz') ? 'pigz -6' : 'gzip -6';
}

function tarCommand(tree) {
  return `tar -C '${tree}' --sort=name --owner=0 --group=0 --numeric-owner --mtime='2021-08-03 10:13:47Z' -cf - '${ROOT_NAME}'`;
}

export function hasCommand(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

async function main() {
  const args = process.argv.slice(2);
  const value = (flag, fallback) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : fallback;
  };
  if (args.includes('--real-copies')) {
    const copies = ensureRealCopies({ cacheDir: resolve(value('--cache', DEFAULT_CACHE)), source: value('--source', 'auto'), log: (m) => process.stderr.write(`bench: ${m}\n`) });
    process.stdout.write(`${JSON.stringify(copies ?? null, null, 2)}\n`);
    return;
  }
  const manifest = await ensureArchive({
    sizeGb: Number(value('--size', '0.25')),
    formats: value('--formats', 'gz,xz').split(','),
    cacheDir: resolve(value('--cache', DEFAULT_CACHE)),
    source: value('--source', 'auto'),
    log: (m) => process.stderr.write(`bench: ${m}\n`),
  });
  process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
