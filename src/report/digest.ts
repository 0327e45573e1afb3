/**
 * The unrecognised-errors section of the reports: the analysis' digest as report rows (JSON),
 * as an HTML view (`templates/partials/digest.hbs`) and as Markdown. Each format shows the
 * components with most lines first and, in each, the templates with most lines first, capped;
 * what a cap leaves out is counted ("N more").
 */
import type { Digest, DigestTemplate } from '../digest/collector.js';
import { iso } from '../analysis/inspect.js';
import type { DigestComponentRow, DigestRow, ReportDigest } from './model.js';
import { compareStrings, displayTime, inlineParts, sanitizeText, shortPath, type InlinePart } from './common.js';
import type { JsonObject } from './json.js';
import { fenced, mdText, table, tableRow } from './md.js';
import type { MdPart } from './md-budget.js';

/** Templates per component in the report (the JSON holds these; HTML and Markdown show fewer). */
export const DIGEST_TEMPLATES_IN_REPORT = 50;
/** Shown in HTML: components, and templates per component. */
const HTML_COMPONENTS = 40;
const HTML_TEMPLATES = 10;
/** Shown in the Markdown extract (pasted into tickets: shorter); `--md-full` shows them all. */
const MD_COMPONENTS = 10;
const MD_TEMPLATES = 3;
/** Components whose section is open when the HTML report opens. */
const HTML_OPEN = 3;

/** The digest as report rows: times as ISO strings, templates capped per component. */
export function reportDigest(digest: Digest): ReportDigest {
  const components = digest.components.map(
    (c): DigestComponentRow => ({
      name: c.name,
      count: c.count,
      unfolded: c.unfolded,
      templates: c.templates.slice(0, DIGEST_TEMPLATES_IN_REPORT).map(row),
      moreTemplates: Math.max(0, c.templates.length - DIGEST_TEMPLATES_IN_REPORT),
    }),
  );
  const templates = digest.components.reduce((n, c) => n + c.templates.length, 0);
  return { lines: digest.lines, explained: digest.explained, templates, components };
}

function row(t: DigestTemplate): DigestRow {
  return {
    id: t.id,
    pattern: t.pattern,
    level: t.level,
    template: t.template,
    count: t.count,
    first: iso(t.first),
    last: iso(t.last),
    files: t.files.map((f) => ({ path: f.path, count: f.count })),
    moreFiles: t.moreFiles,
    example: { file: t.example.file, line: t.example.line, time: iso(t.example.time), text: t.example.text },
  };
}

/** Components and templates in report order: most lines first, then by name / template text. */
function sorted(digest: ReportDigest): DigestComponentRow[] {
  return [...digest.components]
    .sort((a, b) => b.count + b.unfolded - (a.count + a.unfolded) || compareStrings(a.name, b.name))
    .map((c) => ({ ...c, templates: [...c.templates].sort((a, b) => b.count - a.count || compareStrings(a.template, b.template) || compareStrings(a.id, b.id)) }));
}

/** One sentence on the whole digest. */
function summary(digest: ReportDigest): string {
  if (digest.lines === 0) return 'No error-level log line was found.';
  const folded = digest.components.reduce((n, c) => n + c.count, 0);
  const explained = digest.explained > 0 ? `; ${digest.explained} more ${plural(digest.explained, 'is', 'are')} evidence of a finding and left out` : '';
  return (
    `${folded} error-level log ${plural(folded, 'line')} that no rule explains fold into ${digest.templates} ${plural(digest.templates, 'template')} ` +
    `in ${digest.components.length} ${plural(digest.components.length, 'component')}${explained}. ` +
    'Most frequent first; a template id turns into a rule skeleton with `mgsift rules new --from <id>`.'
  );
}

function plural(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

function componentSummary(c: DigestComponentRow): string {
  const templates = c.templates.length + c.moreTemplates;
  const unfolded = c.unfolded > 0 ? ` (+${c.unfolded} past the template cap)` : '';
  return `${c.count} ${plural(c.count, 'line')}${unfolded}, ${templates} ${plural(templates, 'template')}`;
}

function moreTemplates(c: DigestComponentRow, shown: number): string | null {
  const more = c.templates.length - shown + c.moreTemplates;
  return more > 0 ? `${more} more ${plural(more, 'template')} in this component; see the JSON report.` : null;
}

function moreComponents(all: number, shown: number): string | null {
  const more = all - shown;
  return more > 0 ? `${more} more ${plural(more, 'component')} with fewer lines; see the JSON report.` : null;
}

// ---------------------------------------------------------------------------------------------
// JSON

/** The digest in canonical key order (the order of `schema/report.schema.json`). */
export function digestJson(digest: ReportDigest): JsonObject {
  return {
    lines: digest.lines,
    explained: digest.explained,
    templates: digest.templates,
    components: sorted(digest).map((c) => ({
      name: c.name,
      count: c.count,
      unfolded: c.unfolded,
      templates: c.templates.map(rowJson),
      moreTemplates: c.moreTemplates,
    })),
  };
}

function rowJson(r: DigestRow): JsonObject {
  const out: JsonObject = { id: r.id, pattern: r.pattern, level: r.level, template: r.template, count: r.count };
  if (r.first !== undefined) out.first = r.first;
  if (r.last !== undefined) out.last = r.last;
  out.files = [...r.files].sort((a, b) => b.count - a.count || compareStrings(a.path, b.path)).map((f) => ({ path: f.path, count: f.count }));
  out.moreFiles = r.moreFiles;
  const example: JsonObject = { file: r.example.file, line: r.example.line };
  if (r.example.time !== undefined) example.time = r.example.time;
  example.text = r.example.text;
  out.example = example;
  return out;
}

// ---------------------------------------------------------------------------------------------
// HTML view (printed by templates/partials/digest.hbs with escaping only)

interface TemplateView {
  id: string;
  count: number;
  template: string;
  kind: string;
  first: string;
  last: string;
  /** Below the gather root, with the whole path for a tooltip. */
  files: { path: string; full: string; count: number }[];
  moreFiles: string | null;
  exampleAt: string;
  example: string;
}

interface ComponentView {
  name: string;
  summary: string;
  open: boolean;
  templates: TemplateView[];
  more: string | null;
}

export interface DigestView {
  summary: InlinePart[];
  components: ComponentView[];
  more: string | null;
}

const s = sanitizeText;

export function digestView(digest: ReportDigest): DigestView {
  const all = sorted(digest);
  const components = all.slice(0, HTML_COMPONENTS).map(
    (c, i): ComponentView => ({
      name: s(c.name),
      summary: componentSummary(c),
      open: i < HTML_OPEN,
      templates: c.templates.slice(0, HTML_TEMPLATES).map(templateView),
      more: moreTemplates(c, Math.min(c.templates.length, HTML_TEMPLATES)),
    }),
  );
  return { summary: inlineParts(summary(digest)), components, more: moreComponents(all.length, components.length) };
}

/** Beside the folded section's heading: how much there is. */
export function digestNote(digest: ReportDigest): string {
  const folded = digest.components.reduce((n, c) => n + c.count, 0);
  return `${folded} ${plural(folded, 'line')}, ${digest.templates} ${plural(digest.templates, 'template')}, ${digest.components.length} ${plural(digest.components.length, 'component')}`;
}

/** Markdown tables stay narrow: the file with most lines, and how many others. */
function fileList(r: DigestRow): string {
  const [top] = r.files;
  const others = r.files.length - 1 + r.moreFiles;
  return top === undefined ? '' : `${shortPath(top.path)} (${top.count})${others > 0 ? ` and ${others} more ${plural(others, 'file')}` : ''}`;
}

function templateView(r: DigestRow): TemplateView {
  return {
    id: s(r.id),
    count: r.count,
    template: s(r.template),
    kind: s(`${r.pattern} ${r.level}`),
    first: displayTime(r.first),
    last: displayTime(r.last),
    files: r.files.map((f) => ({ path: s(shortPath(f.path)), full: s(f.path), count: f.count })),
    moreFiles: r.moreFiles > 0 ? `and ${r.moreFiles} more ${plural(r.moreFiles, 'file')}` : null,
    exampleAt: s(`${shortPath(r.example.file)}:${r.example.line}`),
    example: s(r.example.text),
  };
}

// ---------------------------------------------------------------------------------------------
// Markdown

/**
 * The digest section of the Markdown report as budget parts ({@link MdPart}): the components with
 * most lines first, a table of their templates each, then an example line per template (taken
 * only once every table row is in). Without `full`, an extract: the first components and
 * templates only. `priority` says what the tables and the examples are worth to the budget.
 */
export function digestMarkdown(digest: ReportDigest, full: boolean, priority: { table: number; examples: number }): MdPart[] {
  const parts: MdPart[] = [{ text: `## Unrecognised errors\n\n${mdText(summary(digest))}\n\n`, priority: priority.table, rank: -1, opens: 'digest' }];
  const all = sorted(digest);
  const components = full ? all : all.slice(0, MD_COMPONENTS);
  const examples: MdPart[] = [];
  components.forEach((c, ci) => {
    const section = `digest-${ci}`;
    const shown = full ? c.templates : c.templates.slice(0, MD_TEMPLATES);
    const head = `### ${mdText(c.name)} — ${mdText(componentSummary(c))}\n\n`;
    const columns = ['Lines', 'Template', 'First seen (UTC)', 'Last seen (UTC)', 'Files (lines)', 'Id'];
    parts.push({ text: `${head}${table(columns, []).trimEnd()}\n`, priority: priority.table, heading: true, section: 'digest', opens: section });
    shown.forEach((r, ti) => {
      const row = tableRow([String(r.count), r.template, displayTime(r.first), displayTime(r.last), fileList(r), r.id]);
      parts.push({ text: `${row}\n`, priority: priority.table, rank: ci * 1000 + ti + 1, section, unit: 'digest template' });
      examples.push({
        text: [`Example of ${mdText(r.id)}: ${mdText(`${shortPath(r.example.file)}:${r.example.line}`)}`, '', ...fenced(r.example.text, 'text')].join('\n'),
        priority: priority.examples,
        rank: 1e6 + ci * 1000 + ti,
        section,
        unit: 'digest example',
      });
    });
    const more = moreTemplates(c, shown.length);
    parts.push({ text: `\n${more ? `*${mdText(more)}*\n` : ''}\n`, priority: priority.table, rank: ci * 1000 + 999, section });
    // Examples print after their table, but are taken once every table row is in.
    parts.push(...examples.splice(0));
  });
  const more = moreComponents(all.length, components.length);
  if (more) parts.push({ text: `*${mdText(more)}*\n\n`, priority: priority.table, rank: 1e6 - 1, section: 'digest' });
  return parts;
}
