import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/archives.js';
import { spawnSync } from 'node:child_process';
import { mgsift } from '../helpers/cli.js';

const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;

const FIXTURE = new URL('../../rules/cvo/cvo-final-sync-lost.fixtures/fires-history/input', import.meta.url).pathname;

describe('analyze: outputs and exit codes', () => {
  it('--rule-costs lists the costliest rules in the JSON stats, with the same findings', () => {
    const plain = JSON.parse(mgsift(['analyze', FIXTURE, '--format', 'json', '-o', '-']).stdout);
    const timed = JSON.parse(mgsift(['analyze', FIXTURE, '--rule-costs', '--format', 'json', '-o', '-']).stdout);
    expect(plain.stats.ruleCosts).toBeUndefined();
    expect(timed.stats.ruleCosts.length).toBeGreaterThan(5);
    expect(timed.stats.ruleCosts.map((c: { rule: string }) => c.rule)).toContain('cvo-final-sync-lost');
    const ms = timed.stats.ruleCosts.map((c: { ms: number }) => c.ms);
    expect(ms).toEqual([...ms].sort((x: number, y: number) => y - x));
    expect(timed.findings.map((f: { id: string }) => f.id)).toEqual(plain.findings.map((f: { id: string }) => f.id));
  });

  it('exits 1 when a finding is at or above --fail-on, 0 otherwise', () => {
    expect(mgsift(['analyze', FIXTURE, '--format', 'json', '-o', '-']).code).toBe(0);
    const failing = mgsift(['analyze', FIXTURE, '--format', 'json', '-o', '-', '--fail-on', 'warning']);
    expect(failing.code).toBe(1);
    const report = JSON.parse(failing.stdout);
    // The one finding at warning or above is what --fail-on warning fails on (info ones, e.g. the life cycle phase, do not count).
    expect(report.findings.filter((f: { severity: string }) => f.severity !== 'info').map((f: { ruleId: string }) => f.ruleId)).toEqual(['cvo-final-sync-lost']);
  });

  it('writes the chosen formats into the output folder and nothing else', () => {
    const out = join(tempDir(), 'report');
    const run = mgsift(['analyze', FIXTURE, '-o', out, '--format', 'html,json,md,junit', '--quiet']);
    expect(run.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['report.html', 'report.json', 'report.junit.xml', 'report.md']);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).schemaVersion).toBeDefined();
  });

  it('exits 2 with one line and no stack trace on bad input or usage', () => {
    const missing = mgsift(['analyze', '/nonexistent/must-gather.tar.gz', '-o', '-', '--format', 'json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/^mgsift: error: cannot read/);
    expect(missing.stderr).not.toMatch(/\bat .*\.js:\d+/);
    expect(mgsift(['analyze', FIXTURE, '--format', 'pdf']).code).toBe(2);
    expect(mgsift(['analyze', FIXTURE, '--only', 'no-such-rule', '-o', '-', '--format', 'json']).code).toBe(2);
  });

  it.each([
    ['a value out of its choices', ['analyze', FIXTURE, '--fail-on', 'bogus'], /^mgsift: error: option '--fail-on <severity>' argument 'bogus' is invalid\. Allowed choices are info, warning, error, critical\.$/],
    ['an unknown command', ['bogus'], /^mgsift: error: unknown command 'bogus'$/],
    ['no input', ['analyze'], /^mgsift: error: missing required argument 'input'$/],
    ['an unknown option', ['analyze', FIXTURE, '--formt', 'json'], /^mgsift: error: unknown option '--formt' \(Did you mean --format\?\)$/],
    ['no command', [], /^mgsift: error: missing command: inspect, analyze, rules, timeline, diff or audit \(`mgsift --help` says what each does\)$/],
    ['no rules command', ['rules'], /^mgsift: error: missing command: list, lint, build, test or new \(`mgsift rules --help` says what each does\)$/],
  ])("says commander's usage errors as one mgsift: error: line, exit 2: %s", (_what, args, line) => {
    const run = mgsift(args as string[]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.endsWith('\n')).toBe(true);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr.trimEnd()).toMatch(line as RegExp);
  });

  it('still prints help on --help and help, to stdout, exit 0', () => {
    for (const args of [['--help'], ['help', 'rules'], ['analyze', '--help']]) {
      const run = mgsift(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout).toMatch(/^Usage: mgsift/);
      expect(run.stderr).toBe('');
    }
  });

  it('ends an error that escapes every handler as one line and exit 2 (the stack only with --debug)', () => {
    // A rejection nobody awaits, raised once the CLI's handlers are in place.
    const late = `data:text/javascript,setTimeout(() => Promise.reject(new Error('boom')), 1500)`;
    const run = (debug: string[]) => spawnSync(process.execPath, ['--import', late, CLI, ...debug, 'analyze', FIXTURE, '--format', 'json', '-o', join(tempDir(), 'r.json'), '--quiet'], { encoding: 'utf8' });
    const plain = run([]);
    expect(plain.status).toBe(2);
    expect(plain.stderr).toBe('mgsift: error: boom\n');
    const debug = run(['--debug']);
    expect(debug.status).toBe(2);
    expect(debug.stderr).toMatch(/^mgsift: error: boom\nError: boom\n\s+at /);
  });

  it('takes every input limit as an option, defaults in --help, values in the report', () => {
    const help = mgsift(['analyze', '--help']).stdout;
    for (const [flag, value] of [['--max-entry-bytes', '1G'], ['--max-total-bytes', '32G'], ['--max-entries', '1000000'], ['--max-line-bytes', '64K'], ['--max-parse-bytes', '32M'], ['--max-inflation-ratio', '200']]) {
      expect(help).toMatch(new RegExp(`${flag} <[a-z]+>[^]*?\\(default: "${value}"\\)`));
    }
    const flags = ['--max-entry-bytes', '2M', '--max-total-bytes', '3G', '--max-entries', '500', '--max-line-bytes', '1K', '--max-parse-bytes', '8M', '--max-inflation-ratio', '50'];
    const report = JSON.parse(mgsift(['analyze', FIXTURE, '--format', 'json', '-o', '-', ...flags]).stdout);
    expect(report.limits).toEqual({ maxEntryBytes: 2 * 1024 ** 2, maxTotalBytes: 3 * 1024 ** 3, maxEntries: 500, maxLineBytes: 1024, maxParseBytes: 8 * 1024 ** 2, maxInflationRatio: 50 });
  });
});

describe('the rule pack, through the shipped CLI', () => {
  it('lints clean', () => {
    const run = mgsift(['rules', 'lint']);
    expect(run.stdout).toMatch(/ 0 problem\(s\)/);
    expect(run.code).toBe(0);
  });

  it('passes every fixture (fires and near-misses)', () => {
    const run = mgsift(['rules', 'test']);
    expect(run.stdout.trim().split('\n').pop()).toMatch(/^\d+ passed, 0 failed$/);
    expect(run.code).toBe(0);
  });
});
