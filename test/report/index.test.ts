import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { HTML_CSP } from '../../src/report/html.js';
import {
  archiveRow,
  buildIndex,
  failedRow,
  INDEX_SCHEMA_VERSION,
  jsonLine,
  renderIndexHtml,
  renderIndexJson,
  renderIndexMarkdown,
} from '../../src/report/index.js';
import { healthyReport, IMG, rollbackReport, SCRIPT, seed000Report } from './fixtures.js';

const schema = JSON.parse(readFileSync(new URL('../../schema/index.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ strict: true, allErrors: true });
const validateIndex = ajv.compile(schema);
const validateArchive = ajv.compile({ $defs: schema.$defs, $ref: '#/$defs/archive' });

const HOSTILE_INPUT = `cases/${SCRIPT}.tar.gz`;

/** Four archives: a partial read (seed 000 holds an error-level problem), a rollback, a healthy one, a failure. */
function batch() {
  const rows = [
    archiveRow('case-1/must-gather.tar.gz', seed000Report(), ['must-gather.html', 'must-gather.json']),
    archiveRow(HOSTILE_INPUT, rollbackReport(), ['rollback.md', 'rollback.html']),
    archiveRow('healthy.tar.gz', healthyReport(), []),
    failedRow('missing.tar.gz', 'cannot read missing.tar.gz: ENOENT: no such file or directory'),
  ];
  return buildIndex(rows, 'error', new Date('2024-06-01T12:00:00Z'));
}

describe('buildIndex', () => {
  const index = batch();

  it('has one row per archive, in input order, with status and the reason of a failure', () => {
    expect(index.archives.map((r) => [r.input, r.status])).toEqual([
      ['case-1/must-gather.tar.gz', 'partial'],
      [HOSTILE_INPUT, 'ok'],
      ['healthy.tar.gz', 'ok'],
      ['missing.tar.gz', 'failed'],
    ]);
    expect(index.archives[0]?.error).toBe(`archive truncated: unexpected end of gzip stream ${IMG}`);
    expect(index.archives[3]).toMatchObject({ error: 'cannot read missing.tar.gz: ENOENT: no such file or directory', reports: [], findings: [] });
    expect(index.archives[3]?.counts).toBeUndefined();
    expect(index.archives[0]?.cluster.id).toBe('c2d5e0f8-6b1a-4c1e-9f3e-7a2b3c4d5e6f');
    expect(index.summary).toEqual({ archives: 4, ok: 2, partial: 1, nothingChecked: 0, failed: 1, failing: 1 });
  });

  it('exits 2 when an input could not be read at all, and says so in the JSON, Markdown and HTML index', () => {
    expect(index.exit).toEqual({ code: 2, reason: "1 of 4 inputs could not be read at all (failed); the others' reports are written" });
    expect((JSON.parse(renderIndexJson(index)) as { exit: unknown }).exit).toEqual(index.exit);
    expect(renderIndexMarkdown(index)).toContain("**Exit 2:** 1 of 4 inputs could not be read at all (failed); the others' reports are written.");
    expect(renderIndexHtml(index)).toContain('<p class="exit exit-2"><strong>Exit 2:</strong> 1 of 4 inputs could not be read at all (failed); the others&#x27; reports are written.</p>');
  });

  it('exits 1 or 0 by the findings when every input was read', () => {
    const rows = batch().archives.slice(0, 3);
    expect(buildIndex(rows, 'error').exit).toEqual({ code: 1, reason: '1 archive holds a finding at or above error' });
    expect(buildIndex(rows.slice(2), 'error').exit).toEqual({ code: 0, reason: 'no archive holds a finding at or above error' });
  });

  it('has one column per rule that fired anywhere: most severe first, one rule once', () => {
    const fired = [...seed000Report().findings, ...rollbackReport().findings].map((f) => f.ruleId);
    expect(index.rules.map((r) => r.ruleId).sort()).toEqual([...new Set(fired)].sort());
    expect(index.rules[0]).toMatchObject({ ruleId: 'unsupported-y-stream-rollback', severity: 'critical', archives: 1 });
    const ranks = index.rules.map((r) => ['info', 'warning', 'error', 'critical'].indexOf(r.severity));
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    // seed 000 reports cvo-final-sync-lost twice: still one archive.
    expect(index.rules.find((r) => r.ruleId === 'cvo-final-sync-lost')?.archives).toBe(1);
  });
});

describe('index renderers', () => {
  const index = batch();

  it('JSON validates against schema/index.schema.json, each jsonl line against its archive shape', () => {
    const value: unknown = JSON.parse(renderIndexJson(index));
    expect(validateIndex(value), ajv.errorsText(validateIndex.errors)).toBe(true);
    expect((schema.properties as Record<string, { const?: string }>).schemaVersion?.const).toBe(INDEX_SCHEMA_VERSION);
    for (const row of index.archives) {
      const line = jsonLine(row);
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toContain('\n');
      const parsed: unknown = JSON.parse(line);
      expect(validateArchive(parsed), ajv.errorsText(validateArchive.errors)).toBe(true);
    }
    expect(Object.keys(JSON.parse(jsonLine(index.archives[0]!)) as object)).toEqual([
      'input', 'status', 'error', 'reports', 'container', 'layout', 'cluster', 'collectedAt', 'counts', 'notChecked', 'checkedInPart', 'findings', 'rootCauses',
    ]);
  });

  it('Markdown: one table row per archive, a column per rule, archive text escaped', () => {
    const md = renderIndexMarkdown(index);
    const header = md.split('\n').find((line) => line.startsWith('| # |')) ?? '';
    for (const rule of index.rules) expect(header).toContain(` ${rule.ruleId.replace(/[_*]/g, (c) => `\\${c}`)} |`);
    expect(md).toContain('| 1 | [case-1/must-gather.tar.gz](must-gather.html) | partial: archive truncated');
    expect(md).toContain('(rollback.md)');
    expect(md).toContain('| 3 | healthy.tar.gz | ok |');
    expect(md).toContain('| 4 | missing.tar.gz | failed: cannot read missing.tar.gz');
    expect(md).not.toContain('<script>');
    expect(md).not.toContain('<img');
    expect(md).toContain('&lt;script&gt;');
  });

  it('HTML: self-contained, CSP, archive text escaped, links only to the reports written', () => {
    const html = renderIndexHtml(index);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${HTML_CSP.replace(/'/g, '&#x27;')}">`);
    expect(html).not.toMatch(/<script|<img|\bsrc=|onerror=/i);
    // The path's last slash (inside the payload's closing tag) splits it into folder and name.
    expect(html).toContain('<span class="where">cases/&lt;script&gt;alert(1)&lt;/</span>');
    expect(html).toContain('>script&gt;.tar.gz</a>');
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(['must-gather.html', 'rollback.html']);
    expect(html).toContain('cannot read missing.tar.gz');
    // The rollback row: its critical rule's cell.
    expect(html).toMatch(/<span class="sev sev-critical" title="critical">C<\/span>/);
  });

  it('is deterministic', () => {
    expect(renderIndexHtml(batch())).toBe(renderIndexHtml(batch()));
    expect(renderIndexMarkdown(batch())).toBe(renderIndexMarkdown(batch()));
    expect(renderIndexJson(batch())).toBe(renderIndexJson(batch()));
  });
});
