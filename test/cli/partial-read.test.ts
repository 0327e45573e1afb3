/**
 * A cut or corrupt archive: the report of the part read is written, says how far reading got,
 * never reads as healthy ("No problem found in the part that could be read"), and the run exits 2.
 * One entry unreadable inside an archive that is otherwise whole keeps exit 0.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { MG_MINI, packTree, tempDir } from '../helpers/archives.js';
import { mgsift } from '../helpers/cli.js';
import { tarBuffer, mgMiniMembers } from '../hostile/build.js';

const schema = JSON.parse(readFileSync(new URL('../../schema/report.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

interface JsonReport {
  input: { truncated?: { by: string; reason: string; lastEntry: string; entriesRead: number; streamBytesRead?: number } };
  banners: string[];
  counts: { critical: number; error: number; warning: number; info: number };
}

describe('analyze on a cut .tar.gz and .tar.xz', () => {
  let dir: string;
  const cut: Record<'tar.gz' | 'tar.xz', string> = { 'tar.gz': '', 'tar.xz': '' };
  beforeAll(() => {
    dir = tempDir();
    const archives = packTree(MG_MINI, 'must-gather-aws', dir);
    for (const kind of ['tar.gz', 'tar.xz'] as const) {
      const whole = readFileSync(archives[kind]);
      cut[kind] = join(dir, `cut.${kind}`);
      writeFileSync(cut[kind], whole.subarray(0, Math.floor(whole.length / 2)));
    }
  });

  it.each(['tar.gz', 'tar.xz'] as const)('.%s: exit 2, the verdict is of the part read, JSON input.truncated says how far', (kind) => {
    const out = join(dir, `out-${kind}`);
    const run = mgsift(['analyze', cut[kind], '-o', out, '--format', 'json,md,html,junit,text']);
    expect(run.code, run.stderr).toBe(2);
    const decoder = kind === 'tar.gz' ? 'gzip: unexpected end of file' : 'xz: Unexpected end of input';
    expect(run.stderr).toContain(`mgsift: error: ${cut[kind]}: The input is truncated or corrupt (${decoder}): `);

    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as JsonReport;
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    const truncated = report.input.truncated!;
    expect(truncated).toMatchObject({ by: 'damage', reason: decoder });
    expect(truncated.entriesRead).toBeGreaterThan(5);
    expect(truncated.streamBytesRead).toBeGreaterThan(10_000);
    expect(truncated.lastEntry).toMatch(/^must-gather-aws\//);
    expect(report.counts.warning + report.counts.error + report.counts.critical).toBe(0);

    const verdict = `No problem found in the part that could be read (input truncated or corrupt: ${decoder}, after ${truncated.entriesRead} entries and `;
    expect(readFileSync(join(out, 'report.txt'), 'utf8')).toContain(verdict);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(verdict);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain(verdict);
    for (const format of ['txt', 'md', 'html']) expect(readFileSync(join(out, `report.${format}`), 'utf8')).not.toMatch(/No problem found:/);
    expect(report.banners[0]).toMatch(new RegExp(`^The input is truncated or corrupt \\(${decoder}\\): ${truncated.entriesRead} entries and .* \\(${truncated.streamBytesRead} bytes\\) of its uncompressed stream were read, up to ${truncated.lastEntry}; anything after it is missing`));

    const junit = readFileSync(join(out, 'report.junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase classname="mgsift\.input" name="input: the archive was read to its end" time="0">\s*<failure message="The input is truncated or corrupt/);
    expect(junit).toMatch(/<testsuite name="mgsift" tests="\d+" failures="1" /);
  });

  it('a finding at or above --fail-on in the part read does not hide the cut: exit 2, not 1', () => {
    const run = mgsift(['analyze', cut['tar.xz'], '--format', 'json', '-o', '-', '--fail-on', 'info']);
    expect(run.code).toBe(2);
    expect((JSON.parse(run.stdout) as JsonReport).counts.info).toBeGreaterThan(0);
  });
});

describe('a tar whose one entry is unreadable but which is whole', () => {
  it('keeps exit 0 and no input.truncated: the entry is named in "What could not be read"', async () => {
    const dir = tempDir();
    // A .gz log inside the archive, cut: that entry fails, the archive around it is whole.
    const members = [...mgMiniMembers(), { name: 'must-gather-aws/extra/broken.log.gz', data: gzipSync(Buffer.from('x\n'.repeat(10_000))).subarray(0, 40) }];
    const input = join(dir, 'one-broken-entry.tar');
    writeFileSync(input, await tarBuffer(members));
    const run = mgsift(['analyze', input, '--format', 'json', '-o', '-']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport & { problems: { path: string; reason: string }[] };
    expect(report.input.truncated).toBeUndefined();
    expect(report.problems.map((p) => p.path)).toContain('must-gather-aws/extra/broken.log.gz');
  });
});
