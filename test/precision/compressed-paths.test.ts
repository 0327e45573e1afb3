import { describe, it, expect, beforeAll } from 'vitest';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { tempDir } from '../helpers/archives.js';
import { mgsift } from '../helpers/cli.js';

/** Evidence, digest and `rules new` name a gzipped log exactly as stored: `….log.gz`, lines of its decompressed text. */
const FIXTURE = new URL('../../rules/cvo/cvo-final-sync-lost.fixtures/fires-gather-extra-log-gz/input/', import.meta.url).pathname;
const LOG = 'artifacts/pods/openshift-cluster-version_cluster-version-operator-59bc479b54-h54zb_cluster-version-operator.log.gz';
/** An error line no rule explains, so the digest names the file too. */
const UNEXPLAINED = '2021-01-19T22:24:16.000000000Z E0119 22:24:16.002117       1 task.go:112] error running apply for clusteroperator "openshift-apiserver": timed out';

interface JsonReport {
  findings: { ruleId: string; evidence: { file: string; line?: number }[] }[];
  digest: { components: { templates: { id: string; example: { file: string; line: number }; files: { path: string }[] }[] }[] };
}

describe('a gather-extra folder with a .log.gz pod log', () => {
  let dir: string;
  let report: JsonReport;
  let reportFile: string;
  beforeAll(() => {
    dir = tempDir();
    const input = join(dir, 'gather-extra');
    cpSync(FIXTURE, input, { recursive: true });
    const text = readFileSync(join(FIXTURE, LOG));
    writeFileSync(join(input, LOG), gzipSync(Buffer.concat([gunzipSync(text), Buffer.from(`${UNEXPLAINED}\n`)])));
    reportFile = join(dir, 'out', 'report.json');
    const run = mgsift(['analyze', input, '--format', 'json,md', '-o', join(dir, 'out'), '--fail-on', 'critical', '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    report = JSON.parse(readFileSync(reportFile, 'utf8')) as JsonReport;
  });

  it('evidence names the .log.gz file, with the line of the decompressed text', () => {
    const finding = report.findings.find((f) => f.ruleId === 'cvo-final-sync-lost');
    expect(finding?.evidence).toEqual(expect.arrayContaining([expect.objectContaining({ file: LOG, line: 8 })]));
  });

  it('the digest names it too, and the Markdown report says once how lines are counted', () => {
    const template = report.digest.components.flatMap((c) => c.templates).find((t) => t.example.file === LOG);
    expect(template?.example.line).toBe(9);
    expect(template?.files.map((f) => f.path)).toEqual([LOG]);
    const md = readFileSync(join(dir, 'out', 'report.md'), 'utf8');
    expect(md.split('line numbers count lines of its decompressed text').length).toBe(2);
  });

  it('rules new names the file as stored in the README of the fixtures it writes', () => {
    const template = report.digest.components.flatMap((c) => c.templates).find((t) => t.example.file === LOG)!;
    const rulesDir = join(dir, 'new-rules');
    const run = mgsift(['rules', 'new', '--from', template.id, reportFile, '--dir', rulesDir]);
    expect(run.code, run.stderr).toBe(0);
    const readme = join(rulesDir, 'cluster-version-operator', 'cluster-version-operator-error-running-apply-for-clusteroperator.fixtures', 'README.md');
    expect(readFileSync(readme, 'utf8')).toContain(`the real line (${LOG}:9)`);
    const test = mgsift(['rules', 'test', '--rules', rulesDir]);
    expect(test.stdout).toContain('2 passed, 0 failed');
  });
});
