import { describe, it, expect, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from '../helpers/archives.js';
import { syntheticMustGather } from '../helpers/synthetic.js';

const MEASURE = new URL('../helpers/measure.mjs', import.meta.url).pathname;

interface Measured {
  maxRssBytes: number;
  bytesRead: number;
  files: number;
  digest: { lines: number; templates: number; unfolded: number };
}

function measure(input: string): Measured {
  const run = spawnSync(process.execPath, [MEASURE, input], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe('memory does not grow with archive size', () => {
  let small: string;
  let large: string;
  beforeAll(async () => {
    const dir = tempDir();
    small = join(dir, 'small.tar.gz');
    large = join(dir, 'large.tar.gz');
    await syntheticMustGather(small, 20, 20_000); // ~60 MB of CVO logs
    await syntheticMustGather(large, 80, 20_000); // ~240 MB of CVO logs
  });

  it('reads 4x more log bytes with about the same peak RSS', () => {
    const a = measure(small);
    const b = measure(large);
    expect(b.bytesRead).toBeGreaterThan(3.9 * a.bytesRead);
    expect(b.maxRssBytes).toBeLessThan(a.maxRssBytes * 1.5); // measured 162 MB → 194 MB (1.2×): V8 grows its heap lazily
    expect(b.maxRssBytes).toBeLessThan(400 * 1024 * 1024);
  });
});

describe('the unrecognised-errors digest stays bounded', () => {
  let small: string;
  let large: string;
  beforeAll(async () => {
    const dir = tempDir();
    small = join(dir, 'small-errors.tar.gz');
    large = join(dir, 'large-errors.tar.gz');
    await syntheticMustGather(small, 10, 20_000, { errorsEvery: 10 }); // 20,000 error lines, all different
    await syntheticMustGather(large, 40, 20_000, { errorsEvery: 10 }); // 80,000
  });

  it('caps templates and counts the rest, with about the same peak RSS for 4x more error lines', () => {
    const a = measure(small);
    const b = measure(large);
    expect(b.digest.lines).toBe(80_000);
    expect(b.digest.templates).toBe(200); // the per-component cap: all lines are one container's
    expect(b.digest.unfolded).toBe(80_000 - 200);
    expect(b.maxRssBytes).toBeLessThan(a.maxRssBytes * 1.5);
    expect(b.maxRssBytes).toBeLessThan(400 * 1024 * 1024);
  });
});
