/**
 * Planted cases: one real failure signature (or one harmless near-miss) written into a copy of a
 * real must-gather, then the CLI's verdict on it. Used by scripts/planted.mjs (the table) and
 * test/planted/planted.test.ts. The format of a case is documented in test/planted/README.md.
 *
 * The base archive is never changed: each case gets a hard-linked copy (`cp -al`) of an
 * unpacked base, and every file a case changes is unlinked and written anew in that copy.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';

export const REPO = fileURLToPath(new URL('../', import.meta.url));
export const CASES_DIR = join(REPO, 'test/planted/cases');
const CLI = join(REPO, 'dist/cli/main.js');
export const BASE_ARCHIVE = 'samples-real/must-gather-aws.tar.xz';
const SEVERITY = { info: 0, warning: 1, error: 2, critical: 3 };

import { sharedPath } from './shared-data.mjs';

export { sharedPath };

// ---------------------------------------------------------------------------------------------
// Cases

/** Every case, sorted by file name; throws on a malformed one. */
export function loadCases(dir = CASES_DIR) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((file) => {
      const doc = yaml.load(readFileSync(join(dir, file), 'utf8'));
      const name = file.replace(/\.yaml$/, '');
      const problems = [];
      if (!doc || typeof doc !== 'object') problems.push('not a mapping');
      else {
        if (!doc.description) problems.push('no description');
        if (!doc.source) problems.push('no source');
        const quiet = doc.expect === 'quiet';
        if (!quiet && !(doc.expect && typeof doc.expect === 'object' && doc.expect.root)) problems.push('expect must be `quiet` or {root: text}');
        if (doc.match !== undefined && (!Array.isArray(doc.match) || quiet)) problems.push('match is a list of rule ids (empty: no rule names this cause), for root cases');
        if (!Array.isArray(doc.plant) || doc.plant.length === 0) problems.push('no plant operations');
      }
      if (problems.length) throw new Error(`${file}: ${problems.join('; ')}`);
      return { name, file, ...doc, quiet: doc.expect === 'quiet' };
    });
}

// ---------------------------------------------------------------------------------------------
// Time placeholders: {{T}}, {{T-45m}}, {{T-1h30m|klog}}, and {{t…}} (the time of one repetition)

const UNIT = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function offsetMs(text) {
  let total = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)([smhd])/g)) total += Number(m[1]) * UNIT[m[2]];
  return total;
}

/** `T`, `T-45m`, `T+2h`, `T-50m+2s` → epoch ms, against the collection time `t0` (`t`: the repetition's instant). */
export function timeOf(expr, t0, tRep) {
  const m = /^\s*([Tt])((?:\s*[+-]\s*[\d.]+[smhd](?:[\d.]+[smhd])*)*)\s*$/.exec(expr);
  if (!m) throw new Error(`bad time expression: ${expr}`);
  let at = m[1] === 't' ? tRep : t0;
  if (at === undefined) throw new Error(`{{t}} outside a repeat: ${expr}`);
  for (const step of m[2].matchAll(/([+-])\s*((?:[\d.]+[smhd])+)/g)) at += (step[1] === '-' ? -1 : 1) * offsetMs(step[2]);
  return at;
}

const pad = (n, w = 2) => String(n).padStart(w, '0');

/** One instant in the format a component writes. */
export function formatTime(ms, format = 'iso') {
  const d = new Date(ms);
  const iso = d.toISOString(); // 2021-08-03T10:14:13.632Z
  switch (format) {
    case 'iso':
      return iso.replace(/\.\d{3}Z$/, 'Z');
    case 'ms':
      return iso;
    case 'micro':
      return iso.replace(/(\.\d{3})Z$/, (_, f) => `${f}${pad(ms % 997, 3)}Z`);
    case 'nano': // the kubelet's log prefix
      return iso.replace(/(\.\d{3})Z$/, (_, f) => `${f}${pad((ms * 7919) % 1_000_000, 6)}Z`);
    case 'klog': // MMDD hh:mm:ss.uuuuuu
      return `${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}${pad(ms % 997, 3)}`;
    case 'epoch':
      return String(Math.floor(ms / 1000));
    case 'date':
      return iso.slice(0, 10);
    default:
      throw new Error(`unknown time format ${format}`);
  }
}

export function expand(text, t0, tRep) {
  return text.replace(/\{\{\s*([Tt][^}|]*?)\s*(?:\|\s*(\w+)\s*)?\}\}/g, (_, expr, fmt) => formatTime(timeOf(expr, t0, tRep), fmt ?? 'iso'));
}

function expandDeep(value, t0, tRep) {
  if (typeof value === 'string') return expand(value, t0, tRep);
  if (Array.isArray(value)) return value.map((v) => expandDeep(v, t0, tRep));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandDeep(v, t0, tRep)]));
  return value;
}

// ---------------------------------------------------------------------------------------------
// The base archive

/** Collection time: the latest instant in the archive's `timestamp` files (must-gather writes them). */
export function collectionTime(root) {
  let latest = 0;
  const visit = (dir, depth) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === 'timestamp') {
        for (const m of readFileSync(path, 'utf8').matchAll(/(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(\.\d+)? ([+-]\d\d)(\d\d)/g)) {
          const t = Date.parse(`${m[1]}T${m[2]}${(m[3] ?? '').slice(0, 4)}${m[4]}:${m[5]}`);
          if (t > latest) latest = t;
        }
      } else if (depth < 2 && statSync(path).isDirectory()) visit(path, depth + 1);
    }
  };
  visit(root, 0);
  if (!latest) throw new Error(`no timestamp file in ${root}`);
  return latest;
}

/** The folder holding `cluster-scoped-resources/` under `root`. */
export function mustGatherRoot(root) {
  const queue = [root];
  while (queue.length) {
    const dir = queue.shift();
    if (existsSync(join(dir, 'cluster-scoped-resources'))) return dir;
    for (const name of readdirSync(dir)) if (statSync(join(dir, name)).isDirectory()) queue.push(join(dir, name));
  }
  throw new Error(`no must-gather tree under ${root}`);
}

/** Where the runs happen: $MGSIFT_PLANTED_DIR or <tmp>/mgsift-planted. */
export function workRoot() {
  const dir = process.env.MGSIFT_PLANTED_DIR ?? join(tmpdir(), 'mgsift-planted');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The unpacked base (extracted once from the shared tarball into the work root) and its
 * unmodified report. Safe against concurrent callers: extraction goes to a private folder first.
 */
export function prepareBase({ archive = sharedPath(BASE_ARCHIVE), root = workRoot() } = {}) {
  if (!archive) throw new Error(`../shared/${BASE_ARCHIVE} not found`);
  const baseDir = join(root, 'base');
  if (!existsSync(join(baseDir, '.complete'))) {
    const staging = mkdtempSync(join(root, 'extract-'));
    execFileSync('tar', ['-xJf', archive, '-C', staging]);
    writeFileSync(join(staging, '.complete'), archive);
    try {
      renameSync(staging, baseDir);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another run won the race
    }
  }
  const inputDir = readdirSync(baseDir).filter((n) => !n.startsWith('.')).length === 1 ? join(baseDir, readdirSync(baseDir).find((n) => !n.startsWith('.'))) : baseDir;
  const mg = mustGatherRoot(inputDir);
  return { baseDir, inputRel: relative(baseDir, inputDir), mgRel: relative(baseDir, mg), t0: collectionTime(inputDir), root };
}

/** Runs the CLI on a folder, single-threaded; resolves to the parsed JSON report. */
export function analyze(input, out) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, 'analyze', input, '--format', 'json', '-o', out, '--threads', '1', '-q', '--fail-on', 'critical'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (!existsSync(out)) return reject(new Error(`analyze exited ${code} without a report: ${stderr.slice(0, 2000)}`));
      resolvePromise(JSON.parse(readFileSync(out, 'utf8')));
    });
  });
}

let baselineReport;
/** The unmodified base's report (computed once per process). */
export async function baseline(base) {
  const out = join(base.root, `baseline-${process.pid}.json`);
  baselineReport ??= analyze(join(base.baseDir, base.inputRel), out).then((report) => {
    rmSync(out, { force: true });
    return report;
  });
  return baselineReport;
}

// ---------------------------------------------------------------------------------------------
// Overlay operations

function resolveInside(mg, rel) {
  const path = resolve(mg, rel);
  if (path !== mg && !path.startsWith(mg + sep)) throw new Error(`path leaves the must-gather: ${rel}`);
  return path;
}

/** Writes a file of the copy: never in place (the copy's files are hard links to the base). */
function replaceFile(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  if (existsSync(path)) unlinkSync(path);
  writeFileSync(path, text);
}

function deepMerge(target, patch) {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch) || !target || typeof target !== 'object' || Array.isArray(target)) return patch;
  for (const [k, v] of Object.entries(patch)) target[k] = v === null ? undefined : deepMerge(target[k], v);
  for (const k of Object.keys(target)) if (target[k] === undefined) delete target[k];
  return target;
}

function getPath(object, dotted, create) {
  let at = object;
  const keys = dotted.split('.');
  for (const [i, key] of keys.entries()) {
    if (at[key] === undefined || at[key] === null) {
      if (!create) return undefined;
      at[key] = i === keys.length - 1 ? [] : {};
    }
    at = at[key];
  }
  return at;
}

/** Selects the object an edit works on: the file's object, or an item of its `items`. */
function selectObject(doc, item, file) {
  if (!item) return doc;
  const found = (doc.items ?? []).find((o) => (!item.name || o?.metadata?.name === item.name) && (!item.namespace || o?.metadata?.namespace === item.namespace) && (!item.kind || o?.kind === item.kind));
  if (!found) throw new Error(`${file}: no item ${JSON.stringify(item)}`);
  return found;
}

/**
 * Walks `at` from `object`: dot-separated keys, `[key=value]` picks the array element whose `key`
 * (a dotted path inside it) equals value, `[n]` an index: `data.groups[name=etcd].rules[name=etcdNoLeader]`.
 */
function walk(object, at, file) {
  let node = object;
  for (const m of at.matchAll(/([^.[\]]+)|\[([^\]=]+)=([^\]]*)\]|\[(\d+)\]/g)) {
    if (m[1] !== undefined) node = node?.[m[1]];
    else if (m[4] !== undefined) node = node?.[Number(m[4])];
    else node = Array.isArray(node) ? node.find((e) => String(m[2].split('.').reduce((o, k) => o?.[k], e)) === m[3]) : undefined;
    if (node === undefined) throw new Error(`${file}: nothing at ${at} (stopped at ${m[0]})`);
  }
  return node;
}

function applyEdit(mg, op) {
  const path = resolveInside(mg, op.edit);
  const json = path.endsWith('.json');
  const doc = existsSync(path) ? (json ? JSON.parse(readFileSync(path, 'utf8')) : yaml.load(readFileSync(path, 'utf8'))) : op.createAs ?? { apiVersion: 'v1', kind: 'List', items: [] };
  if (op.add !== undefined) {
    doc.items ??= [];
    doc.items.push(...(Array.isArray(op.add) ? op.add : [op.add]));
  }
  let target = selectObject(doc, op.item, op.edit);
  if (op.at) target = walk(target, op.at, op.edit);
  if (op.push !== undefined) {
    if (!Array.isArray(target)) throw new Error(`${op.edit}: push needs a list at ${op.at}`);
    target.push(...(Array.isArray(op.push) ? op.push : [op.push]));
  }
  if (op.merge) deepMerge(target, op.merge);
  if (op.conditions) {
    const list = getPath(target, op.conditionsAt ?? 'status.conditions', true);
    for (const condition of op.conditions) {
      const i = list.findIndex((c) => c.type === condition.type);
      if (i >= 0) list[i] = { ...list[i], ...condition };
      else list.push(condition);
    }
  }
  if (op.remove) {
    // remove: items whose metadata.name is listed
    doc.items = (doc.items ?? []).filter((o) => !op.remove.includes(o?.metadata?.name));
  }
  replaceFile(path, json ? JSON.stringify(doc) : yaml.dump(doc, { lineWidth: -1, noRefs: true }));
}

function repetitions(op, t0) {
  if (!op.repeat) return [undefined];
  const { count, from = 'T-1h', to = 'T' } = op.repeat;
  const a = timeOf(from, t0);
  const b = timeOf(to, t0);
  return Array.from({ length: count }, (_, i) => Math.round(count === 1 ? b : a + ((b - a) * i) / (count - 1)));
}

/** Applies the case's operations to the must-gather root `mg` (a hard-linked copy). */
export function applyPlant(mg, plant, t0) {
  for (const raw of plant) {
    const reps = repetitions(raw, t0);
    if (raw.append !== undefined) {
      const path = resolveInside(mg, raw.append);
      const old = existsSync(path) ? readFileSync(path, 'utf8') : '';
      const lines = [];
      for (const tRep of reps) for (const line of [].concat(raw.lines ?? raw.line)) lines.push(expand(String(line), t0, tRep));
      replaceFile(path, `${old}${old && !old.endsWith('\n') ? '\n' : ''}${lines.join('\n')}\n`);
    } else if (raw.write !== undefined) {
      replaceFile(resolveInside(mg, raw.write), expand(String(raw.content ?? ''), t0));
    } else if (raw.edit !== undefined) {
      for (const tRep of reps) applyEdit(mg, expandDeep(raw, t0, tRep));
    } else if (raw.delete !== undefined) {
      const path = resolveInside(mg, raw.delete);
      if (existsSync(path)) rmSync(path, { recursive: true });
    } else {
      throw new Error(`unknown operation ${JSON.stringify(raw)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Running and judging

const atLeastWarning = (f) => (SEVERITY[f.severity] ?? 0) >= SEVERITY.warning;
const firstLine = (text) => String(text ?? '').split('\n')[0];

/** Plants the case in a fresh copy, analyses it, removes the copy; resolves to its result. */
export async function runCase(c, base, { keep = false } = {}) {
  const before = await baseline(base);
  const caseRoot = mkdtempSync(join(base.root, `case-${c.name}-`));
  const copy = join(caseRoot, 'input');
  try {
    execFileSync('cp', ['-al', base.baseDir, copy]);
    rmSync(join(copy, '.complete'), { force: true });
    applyPlant(join(copy, base.mgRel), c.plant, base.t0);
    const report = await analyze(join(copy, base.inputRel), join(caseRoot, 'report.json'));
    return judge(c, before, report);
  } finally {
    if (!keep) rmSync(caseRoot, { recursive: true, force: true });
  }
}

export function judge(c, before, report) {
  const old = new Map(before.findings.filter(atLeastWarning).map((f) => [f.ruleId, SEVERITY[f.severity]]));
  const findings = report.findings.map((f) => ({ ruleId: f.ruleId, severity: f.severity, line: firstLine(f.message), explainedBy: f.explainedBy ?? [] }));
  const newFindings = findings.filter((f) => atLeastWarning(f) && !(old.get(f.ruleId) >= SEVERITY[f.severity]));
  // A root of a keyed finding is named `<rule id> [<key>]`.
  const roots = report.diagnosis.roots.map((r) => {
    const ruleId = r.ruleId.replace(/ \[.*\]$/s, '');
    return { ruleId, node: r.ruleId, severity: r.severity, title: r.title, line: firstLine(report.findings.find((f) => f.ruleId === ruleId)?.message ?? r.title) };
  });
  let verdict;
  let matchedFinding;
  if (c.quiet) verdict = newFindings.length === 0 ? 'pass' : 'FAIL';
  else if (!c.match) verdict = 'unjudged';
  else {
    verdict = roots.some((r) => c.match.includes(r.ruleId)) ? 'pass' : 'FAIL';
    matchedFinding = findings.find((f) => c.match.includes(f.ruleId));
  }
  return { name: c.name, expect: c.quiet ? 'quiet' : c.expect.root, match: c.match, roots, newFindings, findings, matchedFinding, verdict };
}

/** Runs `items` through `worker` with at most `limit` at once, keeping their order. */
export async function pool(items, limit, worker) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await worker(items[i], i);
      }
    }),
  );
  return results;
}
