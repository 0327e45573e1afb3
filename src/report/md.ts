/**
 * Markdown building blocks shared by the Markdown renderers: archive text escaped for prose and
 * table cells, fenced blocks it cannot close, tables. No raw HTML ever: `&`, `<`, `>` become
 * entities, Markdown punctuation is backslash-escaped, `|` is escaped in cells.
 */
import { sanitizeText } from './common.js';

/** A fenced code block that `text` cannot close: the fence outruns every backtick run in it. */
export function fenced(text: string, info = ''): string[] {
  const body = sanitizeText(text).replace(/\r\n?/g, '\n');
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${info}`, body, fence, ''];
}

/**
 * Archive text for Markdown prose, on one line: entities for `&`, `<`, `>`; backslash before
 * Markdown punctuation; line-start markers (`#`, `-`, `+`, `=`, `1.`) neutralized.
 */
export function mdText(text: string): string {
  return sanitizeText(text)
    .split(/\r\n?|\n/)
    .map(mdLine)
    .join(' ');
}

/** {@link mdText} for a table cell (`|` is already escaped, line breaks are flattened). */
export function mdCell(text: string): string {
  return mdText(text);
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
  const escaped = line
    .trim()
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]~|]/g, (ch) => `\\${ch}`);
  // Block markers at the start of a line: headings, lists, setext underlines, quotes (already
  // entities), ordered lists.
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
  const body = rows.map((row) => line(row.map((cell, i) => (markdownColumns.has(i) ? cell : mdCell(cell)))));
  return [line(head), line(head.map(() => '---')), ...body, ''].join('\n');
}

/** `unknown` for a missing or empty value. */
export function known(value: string | undefined): string {
  return value === undefined || value === '' ? 'unknown' : value;
}
