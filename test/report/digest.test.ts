import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { renderJson } from '../../src/report/json.js';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { DigestRow, Report, ReportDigest } from '../../src/report/model.js';
import { healthyReport, HOSTILE } from './fixtures.js';

const schema = JSON.parse(readFileSync(new URL('../../schema/report.schema.json', import.meta.url), 'utf8')) as object;
const ajv = new Ajv2020({ strict: true, allErrors: true });
const validate = ajv.compile(schema);

const CVO_LOG = 'must-gather.local.1/quay-io-x/namespaces/openshift-cluster-version/pods/cluster-version-operator-849b4dcf9c-dl6zb/cluster-version-operator/cluster-version-operator/logs/current.log';

function row(id: string, count: number, template: string, text = template): DigestRow {
  return {
    id,
    pattern: 'klog',
    level: 'E',
    template,
    count,
    first: '2021-08-03T09:24:51.420Z',
    last: '2021-08-03T09:27:51.420Z',
    files: [{ path: CVO_LOG, count }],
    moreFiles: 2,
    example: { file: CVO_LOG, line: 7, time: '2021-08-03T09:24:51.420Z', text },
  };
}

/** A digest with a hostile template and example, one component with many templates and many components. */
function digest(): ReportDigest {
  const many = Array.from({ length: 14 }, (_, i) => row(`00000000${String(i).padStart(2, '0')}`, 20 - i, `x.go:${i}] failure number ${i}`));
  const small = Array.from({ length: 45 }, (_, i) => ({ name: `ns-${String(i).padStart(2, '0')}/c`, count: 1, unfolded: 0, templates: [row(`1${String(i).padStart(9, '0')}`, 1, 'y.go:1] rare')], moreTemplates: 0 }));
  return {
    lines: 7300,
    explained: 4,
    templates: 70,
    components: [
      ...small,
      { name: 'openshift-cluster-version/cluster-version-operator', count: 7000, unfolded: 3, templates: many, moreTemplates: 2 },
      { name: `openshift-evil/${HOSTILE}`, count: 200, unfolded: 0, templates: [row('abcdef0123', 200, `task.go:112] ${HOSTILE} <num>`, `E0803 ${HOSTILE}`)], moreTemplates: 0 },
    ],
  };
}

function report(): Report {
  return { ...healthyReport(), digest: digest() };
}

describe('digest in the JSON report', () => {
  it('validates against the schema and sits after facts', () => {
    const text = renderJson(report());
    const value = JSON.parse(text) as Record<string, unknown>;
    expect(validate(value), ajv.errorsText(validate.errors)).toBe(true);
    const keys = Object.keys(value);
    expect(keys.indexOf('digest')).toBe(keys.indexOf('facts') + 1);
  });

  it('lists components and templates most lines first, whatever the input order', () => {
    const reversed = report();
    reversed.digest!.components.reverse();
    for (const c of reversed.digest!.components) c.templates.reverse();
    expect(renderJson(reversed)).toBe(renderJson(report()));
    const components = (JSON.parse(renderJson(report())) as { digest: { components: { name: string; templates: { count: number }[] }[] } }).digest.components;
    expect(components[0]!.name).toBe('openshift-cluster-version/cluster-version-operator');
    expect(components[0]!.templates.map((t) => t.count)).toEqual([20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7]);
  });

  it('is absent when the digest was not made', () => {
    expect(JSON.parse(renderJson(healthyReport()))).not.toHaveProperty('digest');
  });
});

describe('digest in the HTML report', () => {
  const html = renderHtml(report());
  const section = /<section id="digest" class="report-section">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';

  it('has a section per component with template, count, times, files, id and a real example', () => {
    expect(html).toContain('<a href="#digest">Unrecognised errors</a>');
    for (const fragment of [
      '7245 error-level log lines that no rule explains fold into 70 templates in 47 components; 4 more are evidence of a finding and left out.',
      'openshift-cluster-version/cluster-version-operator</span> — 7000 lines (+3 past the template cap), 16 templates',
      '<td class="count">20</td>',
      '<code class="template">x.go:0] failure number 0</code>',
      '2021-08-03 09:24:51.420Z',
      'and 2 more files',
      'id <span class="rule">0000000000</span> · klog E',
      // Paths below the gather root; the whole path in a tooltip.
      'Example: <span class="path">namespaces/openshift-cluster-version/pods/cluster-version-operator-849b4dcf9c-dl6zb/cluster-version-operator/cluster-version-operator/logs/current.log:7</span>',
      `<div title="${CVO_LOG}">namespaces/openshift-cluster-version/pods/`,
    ]) {
      expect(section).toContain(fragment);
    }
  });

  it('shows 10 templates per component and 40 components, and says how many more', () => {
    expect(section).toContain('6 more templates in this component; see the JSON report.');
    expect(section).not.toContain('failure number 10<');
    expect(section).toContain('7 more components with fewer lines; see the JSON report.');
    expect(section.match(/<details class="digest-component"/g)).toHaveLength(40);
    expect(section.match(/<details class="digest-component" open>/g)).toHaveLength(3);
  });

  it('escapes archive text', () => {
    expect(section).not.toContain('<script>');
    expect(section).not.toContain('<img');
    expect(section).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(section).toContain('\u2400 nul');
  });

  it('is absent when the digest was not made', () => {
    expect(renderHtml(healthyReport())).not.toContain('id="digest"');
  });
});

describe('digest in the Markdown report', () => {
  const md = renderMarkdown(report());

  it('has a table per component and each template example in a fenced block', () => {
    expect(md).toContain('## Unrecognised errors');
    expect(md).toContain('### openshift-cluster-version/cluster-version-operator — 7000 lines (+3 past the template cap), 16 templates');
    expect(md).toContain('| 20 | x.go:0\\] failure number 0 | 2021-08-03 09:24:51.420Z | 2021-08-03 09:27:51.420Z |');
    expect(md).toContain('Example of 0000000000: namespaces/openshift-cluster-version/pods/cluster-version-operator-849b4dcf9c-dl6zb/cluster-version-operator/cluster-version-operator/logs/current.log:7');
    expect(md).toContain('*13 more templates in this component; see the JSON report.*');
    expect(renderMarkdown(report(), { full: true })).not.toContain('13 more templates in this component');
  });

  it('escapes archive text outside fenced blocks, where it is code', () => {
    const prose = md.replace(/^(`{3,})text\n[\s\S]*?^\1$/gm, '');
    expect(prose).not.toContain('<script>');
    expect(prose).toContain('&lt;script&gt;');
    expect(md).toContain(`\`\`\`\`\`text\nE0803 ${HOSTILE.replace('\u0000', '\u2400').replace('\u001b', '\u241b')}\n\`\`\`\`\``);
  });
});
