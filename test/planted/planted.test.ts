import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_ARCHIVE, baseline, expand, formatTime, loadCases, prepareBase, runCase, sharedPath, timeOf, type Base } from '../../scripts/planted-lib.mjs';
import { needs, needsShared } from '../helpers/needs.js';

/**
 * Planted cases (test/planted/README.md): real failure signatures planted one per case into the
 * real AWS must-gather. Runs the quiet cases and the root cases that have a `match` list; each
 * case's analysis is single-threaded, and at most MGSIFT_PLANTED_JOBS (default 2) run at once.
 */
const archive = sharedPath(BASE_ARCHIVE);
const built = existsSync(new URL('../../dist/cli/main.js', import.meta.url));
const cases = loadCases();
const JOBS = Math.max(1, Number(process.env.MGSIFT_PLANTED_JOBS ?? 2));

/** At most JOBS callers inside at once. */
let running = 0;
const waiting: (() => void)[] = [];
async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= JOBS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

let base: Base | undefined;
function theBase(): Base {
  base ??= prepareBase({ archive });
  return base;
}

describe('planted cases: format', () => {
  it('every case names its source and, when it expects a root, may list rule ids', () => {
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      expect(c.source, c.name).toMatch(/^https:\/\//);
      if (c.match) expect(Array.isArray(c.match), c.name).toBe(true);
    }
  });

  it('times are relative to the collection time, in the formats components write', () => {
    const t0 = Date.parse('2021-08-03T10:14:13.632Z');
    expect(formatTime(timeOf('T-45m', t0))).toBe('2021-08-03T09:29:13Z');
    expect(formatTime(timeOf('T-1h30m', t0), 'klog')).toMatch(/^0803 08:44:13\.632\d{3}$/);
    expect(expand('at {{T-2s|ms}} and {{t+1m}}', t0, t0)).toBe('at 2021-08-03T10:14:11.632Z and 2021-08-03T10:15:13Z');
  });
});

// Declared only when it can run: otherwise one placeholder says why, not one skip per case.
if (!archive || !built) {
  describe(`planted cases in the real AWS must-gather ${needsShared(BASE_ARCHIVE)} ${needs('dist/ built')}`, () => {
    it.skip(`skipped: ${!archive ? `${BASE_ARCHIVE} is absent beside the repository or its parents` : 'dist/ is not built'}`, () => {});
  });
}

if (archive && built) describe(`planted cases in the real AWS must-gather ${needsShared(BASE_ARCHIVE)} ${needs('dist/ built')}`, () => {
  it('the base archive, unmodified, has a collection time and a report', async () => {
    const b = theBase();
    expect(existsSync(join(b.baseDir, b.mgRel, 'cluster-scoped-resources'))).toBe(true);
    expect(new Date(b.t0).toISOString()).toBe('2021-08-03T10:14:13.632Z');
    expect((await limited(() => baseline(b))).findings).toBeDefined();
  }, 300_000);

  const quiet = cases.filter((c) => c.quiet);
  it.concurrent.each(quiet.map((c) => [c.name, c] as const))('near-miss %s stays quiet', async (_name, c) => {
    const result = await limited(() => runCase(c, theBase()));
    expect(result.newFindings.map((f) => `${f.ruleId} (${f.severity}): ${f.line}`)).toEqual([]);
  }, 300_000);

  const matched = cases.filter((c) => !c.quiet && c.match && c.match.length > 0);
  it.concurrent.each(matched.map((c) => [c.name, c] as const))('%s is named as a root', async (_name, c) => {
    const result = await limited(() => runCase(c, theBase()));
    const roots = result.roots.map((r) => r.ruleId);
    expect(roots.some((r) => c.match!.includes(r)), `roots: ${roots.join(', ') || 'none'}; expected one of ${c.match!.join(', ')}`).toBe(true);
  }, 300_000);
});
