/**
 * Reports sized for their readers: the Markdown report fits a case comment on every bundled
 * sample (the real must-gathers: test/precision/real-reports.test.ts), says what it left
 * out, and `--md-limit` / `--md-full` change that; remediation fences commands only; the budget
 * shares its room by priority; `rules list` fits 120 columns, says when severity changes, and has --json.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mgsift } from '../helpers/cli.js';
import { markdownReport as markdown } from '../helpers/reports.js';
import { inlineParts, remediationBlocks } from '../../src/report/common.js';
import { countList, layoutParts, type MdPart } from '../../src/report/md-budget.js';
import { MD_DEFAULT_LIMIT } from '../../src/report/markdown.js';

const SAMPLES = fileURLToPath(new URL('../../samples/', import.meta.url));
const samples = readdirSync(SAMPLES)
  .filter((f) => f.endsWith('.tar.gz'))
  .sort()
  .map((f) => join(SAMPLES, f));

describe('Markdown report size', () => {
  it.each(samples)('bundled sample %s: under 60,000 characters, findings first', (input) => {
    const md = markdown(input);
    expect(md.length).toBeLessThan(MD_DEFAULT_LIMIT);
    const findings = md.indexOf('## Findings');
    expect(findings).toBeGreaterThan(0);
    for (const later of ['## Unrecognised errors', '## Timeline', '## Rules not checked']) {
      if (md.includes(later)) expect(md.indexOf(later)).toBeGreaterThan(findings);
    }
  });

  describe('a small --md-limit holds, keeping a row per finding (samples/mco-ignition-rollback.tar.gz, 10 findings)', () => {
    const input = join(SAMPLES, 'mco-ignition-rollback.tar.gz');
    const findings = (JSON.parse(mgsift(['analyze', input, '--format', 'json', '-o', '-', '--fail-on', 'critical']).stdout) as { findings: { ruleId: string }[] }).findings;

    it.each([1000, 2000, 3000, 5000])('--md-limit %i', (limit) => {
      const md = markdown(input, ['--md-limit', String(limit)]);
      expect(md.length).toBeLessThanOrEqual(limit);
      expect(md).toContain(`Shortened to ${limit.toLocaleString('en-US')} characters`);
      // The findings table: the lines of the first table under "## Findings", its head and rule line left out.
      const table = md.slice(md.indexOf('## Findings')).split('\n\n')[1]!.split('\n').slice(2).filter((line) => line !== '');
      expect(findings.length).toBeGreaterThanOrEqual(5);
      expect(table).toHaveLength(findings.length);
      for (const row of table) expect(row).toMatch(/^\| (critical|error|warning|info) \| /);
      // Evidence goes before any row does.
      expect(md).not.toContain('**Evidence 1:**');
    });
  });

  it('refuses a bad --md-limit, and --md-limit with --md-full', () => {
    const input = samples[0] ?? '';
    for (const args of [['--md-limit', 'lots'], ['--md-limit', '10'], ['--md-limit', '30000', '--md-full']]) {
      const run = mgsift(['analyze', input, '--format', 'md', '-o', '-', ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^mgsift: error: --md-/);
    }
  });
});

describe('remediation: commands fenced, prose kept', () => {
  it('takes lines indented two spaces deeper than their prose, and `$ ` lines, as commands', () => {
    const text = [
      'Read what the CVO waits on:',
      '  oc adm upgrade',
      '  oc get clusteroperators',
      'Then look at `oc get nodes` output.',
      '$ oc get mcp',
    ].join('\n');
    expect(remediationBlocks(text)).toEqual([
      { kind: 'text', text: 'Read what the CVO waits on:' },
      { kind: 'code', text: 'oc adm upgrade\noc get clusteroperators' },
      { kind: 'text', text: 'Then look at `oc get nodes` output.' },
      { kind: 'code', text: 'oc get mcp' },
    ]);
  });

  it('keeps the continuation lines of a numbered item as prose, its deeper lines as commands', () => {
    const text = ['1. Check the stub:', '     oc get secret/worker-user-data', '   If it says 2.2.0, write a copy.', '2. Then the certificate.'].join('\n');
    expect(remediationBlocks(text)).toEqual([
      { kind: 'text', text: '1. Check the stub:' },
      { kind: 'code', text: 'oc get secret/worker-user-data' },
      { kind: 'text', text: 'If it says 2.2.0, write a copy.\n2. Then the certificate.' },
    ]);
  });

  it('keeps a fenced script whole, comments included', () => {
    const text = ['```sh', '# review first', 'oc delete installplan -n ns ip-1', '```'].join('\n');
    expect(remediationBlocks(text)).toEqual([{ kind: 'code', text: '# review first\noc delete installplan -n ns ip-1' }]);
  });

  it('cuts prose around code spans as CommonMark does', () => {
    expect(inlineParts('run `mgsift rules new --from <id>` now')).toEqual([
      { code: false, text: 'run ' },
      { code: true, text: 'mgsift rules new --from <id>' },
      { code: false, text: ' now' },
    ]);
    expect(inlineParts('a `` x`y `` b')).toEqual([
      { code: false, text: 'a ' },
      { code: true, text: 'x`y' },
      { code: false, text: ' b' },
    ]);
    expect(inlineParts('it`s open')).toEqual([{ code: false, text: 'it`s open' }]);
  });
});

describe('Markdown budget', () => {
  const part = (text: string, priority: number, extra: Partial<MdPart> = {}): MdPart => ({ text: `${text}\n`, priority, ...extra });

  it('takes parts by priority, prints them in reading order, cuts groups as a prefix and notes the cut', () => {
    const parts: MdPart[] = [
      part('# title', 0),
      { text: '', priority: 0, leftOutLine: true },
      ...[1, 2, 3, 4].map((n) => part(`row ${n} ${'x'.repeat(80)}`, 3, { group: 'rows', unit: 'row' })),
      part('finding', 1),
    ];
    const { text, leftOut } = layoutParts(parts, { limit: 250, notes: { rows: (n) => (n > 0 ? `*${n} more rows*` : '') } }, (l) =>
      l.size > 0 ? `left out: ${countList(l)}` : '',
    );
    expect(text).toContain('# title\nleft out: 2 rows\n');
    expect(text.indexOf('row 1')).toBeLessThan(text.indexOf('row 2'));
    expect(text).not.toContain('row 3');
    expect(text).toContain('*2 more rows*');
    expect(text.indexOf('finding')).toBeGreaterThan(text.indexOf('*2 more rows*'));
    expect(leftOut.get('row')).toBe(2);
  });

  it('prints a heading only with a part of its section, a group note only after a kept part, and counts no heading', () => {
    const parts: MdPart[] = [
      part('# title', 0),
      { text: '', priority: 0, leftOutLine: true },
      part('## Kept', 0, { heading: true, opens: 'kept' }),
      part('kept row', 1, { section: 'kept', group: 'a', unit: 'row' }),
      part('## Empty', 0, { heading: true, opens: 'empty' }),
      part(`big row ${'z'.repeat(500)}`, 2, { section: 'empty', group: 'b', unit: 'row' }),
    ];
    const notes = { a: (n: number) => `*${n} more a*`, b: (n: number) => `*${n} more b*` };
    const { text, leftOut } = layoutParts(parts, { limit: 200, notes }, (l) => (l.size > 0 ? `left out: ${countList(l)}` : ''));
    expect(text).toBe('# title\nleft out: 1 row\n## Kept\nkept row\n\n*0 more a*\n');
    expect(leftOut).toEqual(new Map([['row', 1]]));
  });

  it('uses the shorter forms, one level at a time, until every essential part fits', () => {
    const parts: MdPart[] = [
      part('# title', 0),
      ...[1, 2, 3].map((n) => part(`row ${n} ${'w'.repeat(60)}`, 1, { tighter: [`row ${n} ${'w'.repeat(30)}\n`, `row ${n}\n`], unit: 'row' })),
      part(`evidence ${'e'.repeat(40)}`, 3, { unit: 'evidence' }),
    ];
    const layout = (limit: number) => layoutParts(parts, { limit, essential: 1 }, () => '');
    expect(layout(500).level).toBe(0);
    expect(layout(150).level).toBe(1);
    expect(layout(150).text).toContain(`row 3 ${'w'.repeat(30)}\n`);
    expect(layout(150).text).not.toContain('evidence');
    expect(layout(50).level).toBe(2);
    expect(layout(50).text).toBe('# title\nrow 1\nrow 2\nrow 3\n');
  });

  it('holds a group to its share of the limit', () => {
    const parts = [1, 2, 3, 4, 5].map((n) => part(`${n}${'y'.repeat(99)}`, 3, { group: 'digest' }));
    const { text } = layoutParts(parts, { limit: 10_000, shares: { digest: 0.025 } }, () => '');
    expect(text.split('\n').filter((l) => l.startsWith('1') || l.startsWith('2') || l.startsWith('3'))).toHaveLength(2);
  });
});

describe('rules list', () => {
  it('fits 120 columns: a header row, rules grouped by domain, each title on its own lines, a marked severity that can change', () => {
    const run = mgsift(['rules', 'list']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(120);
    const [head, ...rest] = lines;
    expect(head).toMatch(/^DOMAIN\s+ID\s+SEVERITY\s+STATUS\s+COMPONENT$/);
    expect(rest.at(-1)).toMatch(/^\* another severity .*--conditions/);
    const rows = rest.filter((l) => /^\S/.test(l) && !l.startsWith('*'));
    const at = (id: string): number => lines.findIndex((l) => l.split(/\s+/)[1] === id);
    expect(lines[at('events-failed-scheduling')]).toMatch(/ warning\*\s+stable\s+kube-scheduler$/);
    expect(lines[at('events-failed-scheduling') + 1]).toBe('    The scheduler could not place pods (FailedScheduling events)');
    expect(lines[at('node-not-ready')]).toMatch(/ error\s+stable /);
    expect(lines.filter((l) => l.startsWith('    > '))).toEqual([]);
    const domains = rows.map((r) => r.split(/\s+/)[0]!);
    expect(domains).toEqual([...domains].sort((a, b) => a.localeCompare(b)));
  });
  it('--conditions adds, under the title, each severity severityWhen gives and when', () => {
    const lines = mgsift(['rules', 'list', '--conditions']).stdout.split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(120);
    const at = (id: string): number => lines.findIndex((l) => l.split(/\s+/)[1] === id);
    expect(lines[at('events-failed-scheduling') + 2]).toBe('    > info when not still_pending');
    expect(lines.slice(at('update-rollback') + 1, at('update-rollback') + 4).join('\n')).toMatch(/> error when y_stream/);
  });
  it('--json gives every rule with its severityWhen and references, and stdout holds JSON alone', () => {
    const run = mgsift(['rules', 'list', '--json']);
    expect(run.code).toBe(0);
    const rules = JSON.parse(run.stdout) as Record<string, unknown>[];
    const table = mgsift(['rules', 'list']).stdout.split('\n').filter((l) => /^[a-z]/.test(l));
    expect(rules).toHaveLength(table.length);
    expect(rules.find((r) => r['id'] === 'events-failed-scheduling')).toEqual({
      id: 'events-failed-scheduling',
      title: 'The scheduler could not place pods (FailedScheduling events)',
      severity: 'warning',
      severityWhen: [{ severity: 'info', condition: 'not still_pending' }],
      domain: 'health',
      status: 'stable',
      component: 'kube-scheduler',
      references: expect.arrayContaining([expect.stringMatching(/^https:\/\//)]),
    });
    const young = rules.find((r) => r['id'] === 'auth-identity-provider-invalid');
    expect(young?.['severityWhen']).toEqual([{ severity: 'info', condition: 'updating', youngerThanMinutes: 30 }]);
    // A reference taken from the evidence stays a template: what the rule says, not a rendered link.
    expect(rules.flatMap((r) => r['references'] as string[])).toContain('{{#with evidence.[0].item}}{{url}}{{/with}}');
  });
});
