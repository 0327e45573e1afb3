/**
 * Markdown building blocks shared by the Markdown renderers: archive text escaped for prose and
 * table cells, fenced blocks it cannot close, tables. No raw HTML ever: `&`, `<`, `>` become
 * entities, Markdown punctuation is backslash-escaped, `|` is escaped in cells.
 */
import { inlineParts, sanitizeText } from './common.js';

/** A fenced code block that `text` cannot close: the fence outruns every backtick run in it. */
export function fenced(text: string, info = ''): string[] {
  const body = sanitizeText(text).replace(/\r\n?/g, '\n');
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${info}`, body, fence, ''];
}

/**
 * Text for Markdown prose, on one line: its code spans (between backticks) stay code spans, printed
 * as they are (Markdown shows a code span's text literally); elsewhere entities for `&`, `<`, `>`,
 * a backslash before Markdown punctuation, and line-start markers (`#`, `-`, `+`, `=`, `1.`)
 * neutralized.
 */
export function mdText(text: string): string {
  return mdLine(sanitizeText(text).replace(/\r\n?|\n/g, ' '));
}

/** Text for a table cell: like {@link mdText} but every backtick escaped too (no code spans). */
export function mdCell(text: string): string {
  return sanitizeText(text)
    .split(/\r\n?|\n/)
    .map((line) => lineStart(escapeText(line.trim())))
    .join(' ');
}

/** Multi-line text: paragraphs kept, line breaks kept as hard breaks (a trailing backslash). */
export function mdParagraphs(text: string): string {
  const paragraphs = sanitizeText(text)
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) =>
      p
        .split('\n')
        .map(mdLine)
        .filter((line) => line !== '')
        .join('\\\n'),
    )
    .filter((p) => p !== '');
  return paragraphs.join('\n\n');
}

function mdLine(line: string): string {
  const parts = inlineParts(line.trim());
  const out = parts.map((p) => (p.code ? codeSpan(p.text) : escapeText(p.text))).join('');
  return parts[0]?.code === true ? out : lineStart(out);
}

/** A code span that shows `text` as it is: its fence outruns every backtick run in it. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function escapeText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]~|]/g, (ch) => `\\${ch}`);
}

/** Block markers at the start of a line: headings, lists, setext underlines, ordered lists (quotes are already entities). */
function lineStart(escaped: string): string {
  return escaped
    .replace(/^#/, '\\#')
    .replace(/^([+=-])(?=\s|$|\1)/, '\\$1')
    .replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
}

/** An http(s) href safe inside `( )`: no spaces, brackets, parentheses or angle brackets. */
export function mdUrl(href: string): string {
  return href.replace(/[\s()<>[\]`|\\]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}


/**
 * A GFM table; every cell is archive text (escaped) except the columns in `markdownColumns`,
 * which this module wrote itself from known values.
 */
export function table(head: string[], rows: string[][], markdownColumns: Set<number> = new Set()): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map((row) => tableRow(row, markdownColumns)), ''].join('\n');
}

/** One row of a {@link table}, for tables built a row at a time. */
export function tableRow(cells: string[], markdownColumns: Set<number> = new Set()): string {
  return `| ${cells.map((cell, i) => (markdownColumns.has(i) ? cell : mdCell(cell))).join(' | ')} |`;
}

/** `unknown` for a missing or empty value. */
export function known(value: string | undefined): string {
  return value === undefined || value === '' ? 'unknown' : value;
}
