/**
 * Every case of the hostile corpus through the built CLI, as a user runs it: bounded time and
 * memory, the documented exit code, at most one line on stderr and never a stack trace, a report
 * (all four formats) whose banners say what was skipped and why, and nothing written anywhere
 * but the output folder.
 */
import { describe, it, expect, onTestFinished } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { snapshot, tempDir } from '../helpers/archives.js';
import { mgsiftMeasured } from '../helpers/cli.js';
import { parseXml } from '../report/xml.js';
import { CORPUS, PAYLOADS } from './corpus.js';

const TIME_LIMIT_MS = 60_000;
const RSS_LIMIT_BYTES = 512 * 1024 * 1024;
const REPORT_FILES = ['report.html', 'report.json', 'report.junit.xml', 'report.md'];
const STACK_LINE = /^\s+at .+[:(]\d+/m;

interface JsonReport {
  banners: string[];
  problems: { path: string; reason: string }[];
  findings: { ruleId: string; message: string }[];
  limits: Record<string, number>;
}

describe('hostile corpus, through the CLI', () => {
  it.each(CORPUS.map((c) => [c.name, c] as const))('%s', async (_name, hostile) => {
    const root = tempDir('mgsift-hostile-');
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    const inputs = join(root, 'inputs');
    const cwd = join(root, 'run', 'cwd');
    const out = join(root, 'run', 'out');
    mkdirSync(inputs);
    mkdirSync(cwd, { recursive: true });
    const built = await hostile.build(inputs);
    const before = snapshot(root);

    const run = mgsiftMeasured(['analyze', built.input, '-o', out, '--format', 'html,json,md,junit', ...(built.args ?? [])], { cwd, timeoutMs: TIME_LIMIT_MS });
    const trace = `exit ${run.code} (signal ${run.signal}) after ${run.wallMs} ms, peak RSS ${Math.round(run.maxRssBytes / 1024 / 1024)} MB; stderr:\n${run.stderr}`;
    expect(run.signal, trace).toBeNull();
    expect(run.wallMs, trace).toBeLessThan(TIME_LIMIT_MS);
    expect(run.maxRssBytes, trace).toBeGreaterThan(0);
    expect(run.maxRssBytes, trace).toBeLessThan(RSS_LIMIT_BYTES);
    expect(run.code, trace).toBe(hostile.exit);
    expect(run.stderr, trace).not.toMatch(STACK_LINE);
    expect(run.stdout).toBe('');

    const lines = run.stderr.trimEnd().split('\n');
    if (hostile.nothingChecked) {
      // No rule could be checked: exit 2 and its line after the run's summary line, the report still written.
      expect(lines, trace).toHaveLength(2);
      expect(lines[1]).toMatch(new RegExp(`^mgsift: error: ${built.input.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: no rule could be checked \\(`));
    }
    if (hostile.cut) {
      // Cut or corrupt: exit 2 and its line after the run's summary line, the report of the part read written.
      expect(lines, trace).toHaveLength(2);
      expect(lines[1]).toMatch(new RegExp(`^mgsift: error: ${built.input.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: The input is truncated or corrupt \\(`));
    }
    if (hostile.exit === 2 && !hostile.nothingChecked && !hostile.cut) {
      expect(lines, trace).toHaveLength(1);
      expect(lines[0]).toMatch(/^mgsift: error: /);
      if (hostile.says) expect(lines[0]).toMatch(hostile.says);
      expect(existsSync(out)).toBe(false);
    } else {
      // The summary line of the run (and a note per replaced built-in rule, none here).
      expect(lines, trace).toHaveLength(hostile.nothingChecked || hostile.cut ? 2 : 1);
      expect(lines[0]).toContain(built.input);
      expect(readdirSync(out).sort()).toEqual(REPORT_FILES);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as JsonReport;
      if (hostile.says) expect(report.banners.join('\n')).toMatch(hostile.says);
      if (hostile.finding) expect(report.findings.map((f) => f.message)).toContainEqual(expect.stringMatching(hostile.finding));
      expect(Object.keys(report.limits).sort()).toEqual(['maxEntries', 'maxEntryBytes', 'maxInflationRatio', 'maxLineBytes', 'maxParseBytes', 'maxTotalBytes']);
      const html = readFileSync(join(out, 'report.html'), 'utf8');
      const markdown = readFileSync(join(out, 'report.md'), 'utf8');
      for (const flag of ['--max-entry-bytes', '--max-total-bytes', '--max-entries', '--max-line-bytes', '--max-parse-bytes', '--max-inflation-ratio']) {
        expect(html).toContain(flag);
        expect(markdown).toContain(flag);
      }
      for (const payload of PAYLOADS.slice(0, 3)) expect(html).not.toContain(payload);
      expect(() => parseXml(readFileSync(join(out, 'report.junit.xml'), 'utf8'))).not.toThrow();
    }

    // Nothing appeared or changed outside the output folder (cwd and the inputs included).
    const after = snapshot(root);
    const outside = (files: Record<string, string>) =>
      Object.fromEntries(Object.entries(files).filter(([path]) => path !== out && path !== join(root, 'run') && !path.startsWith(`${out}/`)));
    expect(outside(after)).toEqual(outside(before));
  }, 2 * TIME_LIMIT_MS); // building the case, then the run's own 60 s
});
