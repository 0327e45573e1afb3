import { describe, expect, it } from 'vitest';
import { findingSlugs, renderMarkdown } from '../../src/report/markdown.js';
import { fenced, mdCell, mdText } from '../../src/report/md.js';
import { sanitizeText } from '../../src/report/common.js';
import { FINAL_SYNC_LINE, healthyReport, HOSTILE_LINE, manyEntriesReport, rollbackReport, seed000Report } from './fixtures.js';

interface Parsed {
  /** Text outside fenced code blocks. */
  prose: string[];
  blocks: { fence: string; body: string }[];
}

/** Fenced code blocks as CommonMark finds them (backtick and tilde fences, up to 3 spaces). */
function parseFences(md: string): Parsed {
  const out: Parsed = { prose: [], blocks: [] };
  let open: { char: string; len: number; fence: string; lines: string[] } | undefined;
  for (const line of md.split('\n')) {
    if (open === undefined) {
      const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
      if (m !== null && !(m[1]?.startsWith('`') && (m[2] ?? '').includes('`'))) {
        open = { char: m[1]?.[0] ?? '`', len: m[1]?.length ?? 3, fence: m[1] ?? '', lines: [] };
      } else out.prose.push(line);
      continue;
    }
    const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
    if (close !== null && close[1]?.[0] === open.char && (close[1]?.length ?? 0) >= open.len) {
      out.blocks.push({ fence: open.fence, body: open.lines.join('\n') });
      open = undefined;
    } else open.lines.push(line);
  }
  expect(open, 'unclosed fence').toBeUndefined();
  return out;
}

/** Table cells split on unescaped pipes (GFM). */
function cells(row: string): number {
  let count = 0;
  for (let i = 0; i < row.length; i++) {
    if (row[i] === '\\') i++;
    else if (row[i] === '|') count++;
  }
  return count;
}

function checkTables(prose: string[]): number {
  let tables = 0;
  for (let i = 0; i < prose.length; i++) {
    const head = prose[i] ?? '';
    if (!head.startsWith('| ') || !/^\| (---( \| )?)+/.test(prose[i + 1] ?? '')) continue;
    tables++;
    const width = cells(head);
    expect(cells(prose[i + 1] ?? '')).toBe(width);
    for (let j = i + 2; j < prose.length && (prose[j] ?? '').startsWith('|'); j++) {
      expect(cells(prose[j] ?? ''), `row ${prose[j]}`).toBe(width);
    }
  }
  return tables;
}

describe('renderMarkdown', () => {
  const reports = [seed000Report(), rollbackReport(), healthyReport(), manyEntriesReport()];
  const outputs = reports.map((r) => renderMarkdown(r));
  const [seed = '', rollback = '', healthy = ''] = outputs;

  it('opens with the diagnosis: each root with its chain as nested lists, or "no problem found"', () => {
    const md = renderMarkdown(rollbackReport());
    const start = md.indexOf('## Diagnosis');
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThan(md.indexOf('| Field | Value |'));
    expect(md).toContain(
      // Each node leads with its headline; the rule's title, the class, follows it.
      '1. **CRITICAL** ClusterVersion history records a rollback from 4.14.0-ec.4 to 4.13.8 · *Unsupported y-stream rollback 4.14.0-ec.4 → 4.13.8* `unsupported-y-stream-rollback`\n' +
        '   - → **WARNING** ovnkube-master exited 2 times with "No longer leader" since 2023-08-16T08:05:42Z · *ovnkube-master lost leadership and exited* `ovnkube-leader-lost` *(at 2023-08-16 08:05:42Z, inside the rollback 4.14.0-ec.4 → 4.13.8 (2023-08-16 08:00:00Z – collection))*\n',
    );
    expect(md).toContain("2. **ERROR** The API server has rejected the CVO's ClusterVersion status writes since 2023-08-16T08:03:11Z");
    // Each finding opens with its headline too.
    expect(md).toContain('## Findings');
    expect(md.slice(md.indexOf('## Findings'))).toContain('**ClusterVersion history records a rollback from 4.14.0-ec.4 to 4.13.8**');
    expect(md).toContain('Explained by `unsupported-y-stream-rollback`.');
    expect(renderMarkdown(healthyReport())).toContain('## Diagnosis\n\nNo problem found: no rule found anything at warning or above.\n');
  });

  it('writes no raw HTML outside code blocks, whatever the archive holds', () => {
    for (const md of outputs) {
      const { prose } = parseFences(md);
      // Code spans show their text literally (no markup, no entity): leave them out of the check.
      const text = prose.join('\n').replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
      expect(text).not.toMatch(/<[a-zA-Z/!?]/);
      expect(text).not.toContain('<');
      expect(text).not.toContain('\u0000');
      // Entities only from our own escaping.
      for (const m of text.matchAll(/&[a-zA-Z#0-9]*;?/g)) expect(['&amp;', '&lt;', '&gt;']).toContain(m[0]);
    }
    expect(seed).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(seed).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('puts evidence in fenced blocks that the text cannot close', () => {
    const { blocks } = parseFences(seed);
    const bodies = blocks.map((b) => b.body);
    expect(bodies).toContain(FINAL_SYNC_LINE);
    expect(bodies).toContain(sanitizeText(HOSTILE_LINE));
    const hostile = blocks.find((b) => b.body === sanitizeText(HOSTILE_LINE));
    expect(hostile?.fence.length).toBeGreaterThan(4); // the line holds a run of 4 backticks
    expect(fenced('a ````` b')[0]).toBe('``````');
    expect(fenced('plain')[0]).toBe('```');
  });

  it('keeps every table rectangular (pipes in archive text are escaped)', () => {
    for (const md of outputs) expect(checkTables(parseFences(md).prose)).toBeGreaterThan(0);
    expect(seed).toContain('No InstallPlan objects in the archive \\| &lt;img');
  });

  it('has the timeline as a table, rollbacks marked', () => {
    expect(seed).toContain('| Version | State | Verified | Started (UTC) | Completed (UTC) | Notes | Image |');
    expect(seed).toMatch(/\| 4\\?\.6\\?\.8 \| Partial \| unverified \| 2021-01-19 22:23:59Z \| not completed \|/);
    expect(seed).toContain('### Timeline items (12)');
    expect(rollback).toContain('**rollback (y-stream)**');
    expect(healthy).toContain('The archive holds no ClusterVersion update history.');
  });

  it('has the same content as the other reports', () => {
    expect(seed).toContain('# mgsift report — c2d5e0f8-6b1a-4c1e-9f3e-7a2b3c4d5e6f');
    expect(seed).toContain('**Findings:** 0 critical · 0 error · 1 warning · 1 info');
    expect(seed).toContain('> **Read this first:** ClusterVersion is mid-update');
    expect(seed.indexOf('### WARNING:')).toBeLessThan(seed.indexOf('### INFO:'));
    expect(seed).toContain('*5 more evidence items (2 not kept by the per-signal cap); see the HTML or JSON report.*');
    expect(seed).toContain('- [https://bugzilla.redhat.com/show\\_bug.cgi?id=1916384](https://bugzilla.redhat.com/show_bug.cgi?id=1916384)');
    expect(seed).toContain('- javascript:alert(1)');
    expect(seed).not.toMatch(/\]\(javascript/i);
    expect(seed).toContain('## Rules not checked');
    expect(seed).toContain('## Rules that passed');
    expect(seed).toContain('## What could not be read');
    expect(seed).toContain('## Limits');
    // Message line breaks become hard breaks.
    expect(seed).toContain('synced ClusterVersion status.\\\nThis is BZ 1916384');
    expect(renderMarkdown(seed000Report())).toBe(seed);
  });

  it('escapes Markdown syntax in archive text', () => {
    expect(mdText('# not a heading')).toBe('\\# not a heading');
    expect(mdText('- not a list')).toBe('\\- not a list');
    expect(mdText('4.6.8')).toBe('4.6.8');
    expect(mdText('---')).toBe('\\---');
    expect(mdText('-x')).toBe('-x');
    expect(mdText('1. not a list')).toBe('1\\. not a list');
    expect(mdText('*em* _em_ `code` [x](y) ~~del~~')).toBe('\\*em\\* \\_em\\_ `code` \\[x\\](y) \\~\\~del\\~\\~');
    // Inline code stays code, shown as it is (no entity, no backslash); a lone backtick is text.
    expect(mdText('run `mgsift rules new --from <id>` now')).toBe('run `mgsift rules new --from <id>` now');
    expect(mdText('a `` x`y `` b')).toBe('a ``x`y`` b');
    expect(mdText('it`s <b>')).toBe('it\\`s &lt;b&gt;');
    expect(mdCell('`code`')).toBe('\\`code\\`');
    expect(mdText('a\nb')).toBe('a b');
    expect(mdCell('a|b\\|c')).toBe('a\\|b\\\\\\|c');
    expect(mdText('<b>&amp;')).toBe('&lt;b&gt;&amp;amp;');
  });
});

describe('findingSlugs', () => {
  it('links each table row to its own heading, as GitHub names it: the key included, repeats numbered', () => {
    const finding = (title: string, key?: string): Parameters<typeof findingSlugs>[0][number] =>
      ({ ...rollbackReport().findings[0]!, severity: 'warning', title, ...(key !== undefined ? { key } : {}) });
    expect(findingSlugs([finding('A firing alert', 'KubePodCrashLooping'), finding('A firing alert', 'Watchdog'), finding('Same title'), finding('Same title'), finding('!!!')])).toEqual([
      'warning-a-firing-alert--kubepodcrashlooping',
      'warning-a-firing-alert--watchdog',
      'warning-same-title',
      'warning-same-title-1',
      'warning',
    ]);
  });
});

