import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workerPool } from '../../src/cli/batch.js';
import { tempDir } from '../helpers/archives.js';

const SCRIPT = new URL('../helpers/pool-worker.mjs', import.meta.url);
const BUILT = new URL('../../dist/cli/batch.js', import.meta.url).href;

async function collect<T>(results: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const result of results) out.push(result);
  return out;
}

describe('workerPool', () => {
  it('answers every task once; a worker that dies fails only its own task and is replaced', async () => {
    const tasks = ['a', 'throw', 'b', 'exit', 'c', 'd', 'e'];
    const results = await collect(workerPool(tasks, { jobs: 2, script: SCRIPT, workerData: null, onCrash: (reason) => `crashed: ${reason}` }));
    const byIndex = new Map(results.map((r) => [r.index, r.result]));
    expect(results).toHaveLength(tasks.length);
    expect([...byIndex.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(byIndex.get(0)).toBe('done a');
    expect(byIndex.get(1)).toBe('crashed: boom in worker');
    expect(byIndex.get(3)).toBe('crashed: worker exited with code 3');
    for (const i of [2, 4, 5, 6]) expect(byIndex.get(i)).toBe(`done ${tasks[i]}`);
  });

  it('uses no more workers than tasks, and yields nothing for no task', async () => {
    expect(await collect(workerPool(['only'], { jobs: 8, script: SCRIPT, workerData: null, onCrash: () => 'crashed' }))).toEqual([
      { index: 0, result: 'done only' },
    ]);
    expect(await collect(workerPool([], { jobs: 2, script: SCRIPT, workerData: null, onCrash: () => 'crashed' }))).toEqual([]);
  });

  it('stops every worker when the reader stops early: nothing keeps the process alive', () => {
    // In a process of its own (the built module), which must end by itself within the timeout
    // although two of its tasks never finish.
    const program = `
      import { workerPool } from ${JSON.stringify(BUILT)};
      const pool = workerPool(['a', 'hang', 'hang'], { jobs: 2, script: new URL(${JSON.stringify(SCRIPT.href)}), workerData: null, onCrash: () => 'crashed' });
      for await (const first of pool) { console.log(first.result.startsWith('done ')); break; }
      console.log(JSON.stringify(await pool.next()));`;
    const file = join(tempDir(), 'early-stop.mjs');
    writeFileSync(file, program);
    const run = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 10_000 });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual(['true', '{"done":true}']);
  });
});
