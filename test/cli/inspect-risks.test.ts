/**
 * `mgsift inspect` says whether known update risks were evaluated: without data, `evaluated: false`
 * and why (JSON) and `not evaluated: …` (text), never the empty lists of an evaluation that found nothing.
 */
import { describe, it, expect } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/archives.js';
import { mgsift } from '../helpers/cli.js';

const HEALTHY = new URL('../../samples/healthy.tar.gz', import.meta.url).pathname;
const NO_DATA = 'no update-risk data given (--update-risks DIR or MGSIFT_UPDATE_RISKS: a cincinnati-graph-data checkout)';

describe('inspect: risks evaluated or not', () => {
  const env = { ...process.env, MGSIFT_UPDATE_RISKS: '' };

  it('without --update-risks: evaluated false with the reason, in JSON and text alike', () => {
    const json = mgsift(['inspect', '--json', HEALTHY], { env });
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { risks: unknown }[])[0]!.risks).toEqual({ evaluated: false, reason: NO_DATA });
    expect(mgsift(['inspect', HEALTHY], { env }).stdout).toMatch(new RegExp(`^Risks: +not evaluated: ${NO_DATA.replace(/[()]/g, '\\$&')}$`, 'm'));
  });

  it('with --update-risks: evaluated true, with the data folder and the lists', () => {
    const edges = join(tempDir(), 'blocked-edges');
    mkdirSync(edges);
    writeFileSync(join(edges, '4.8.99-TestRisk.yaml'), 'to: 4.8.99\nfrom: 4\\.8\\..*\nurl: https://example.com/risk\nname: TestRisk\nmessage: A test risk.\nmatchingRules:\n- type: Always\n');
    const run = mgsift(['inspect', '--json', HEALTHY, '--update-risks', edges], { env });
    expect(run.code, run.stderr).toBe(0);
    const risks = (JSON.parse(run.stdout) as { risks: Record<string, unknown> }[])[0]!.risks;
    expect(risks).toMatchObject({ evaluated: true, dataDir: edges, currentVersion: '4.8.0-0.nightly-2021-07-31-065602' });
    expect(Array.isArray(risks['applies'])).toBe(true);
  });
});
