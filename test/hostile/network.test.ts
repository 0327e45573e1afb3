/**
 * mgsift never reaches the network: inside a fresh network namespace (no interface but a
 * down loopback) an analysis gives exactly the report it gives outside.
 */
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mgsiftMeasured } from '../helpers/cli.js';
import { needs } from '../helpers/needs.js';

const SAMPLE = new URL('../../samples/cvo-final-sync-lost.tar.gz', import.meta.url).pathname;
const canUnshare = spawnSync('unshare', ['-n', 'true']).status === 0;

/** The JSON report without the two fields that differ between any two runs. */
function comparable(stdout: string): unknown {
  const report = JSON.parse(stdout) as { generatedAt?: string; stats: { durationMs?: number } };
  delete report.generatedAt;
  delete report.stats.durationMs;
  return report;
}

describe('no network', () => {
  it.runIf(canUnshare)(`analyze inside \`unshare -n\` gives the same report, exit code and stderr as outside ${needs('`unshare -n`: root or user namespaces')}`, () => {
    const args = ['analyze', SAMPLE, '--format', 'json', '-o', '-', '--fail-on', 'warning'];
    const outside = mgsiftMeasured(args, { timeoutMs: 60_000 });
    const inside = mgsiftMeasured(args, { timeoutMs: 60_000, prefix: ['unshare', '-n'] });
    expect(inside.code).toBe(1);
    expect(inside.code).toBe(outside.code);
    expect(inside.stderr).toBe(outside.stderr);
    expect(comparable(inside.stdout)).toEqual(comparable(outside.stdout));
  });

  it.skipIf(canUnshare)('skipped: `unshare -n` is not permitted on this machine (needs root or user namespaces)', () => {});
});
