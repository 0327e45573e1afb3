import { describe, it, expect, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from '../helpers/archives.js';
import { syntheticMustGather } from '../helpers/synthetic.js';

const MEASURE = new URL('../helpers/measure.mjs', import.meta.url).pathname;

function measure(input: string): { maxRssBytes: number; bytesRead: number; files: number } {
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
