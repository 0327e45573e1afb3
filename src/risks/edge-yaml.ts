/**
 * A reader for the small fixed YAML shape of cincinnati-graph-data `blocked-edges/` files: block
 * mappings and sequences whose values are one-line plain or single-quoted scalars or literal
 * block scalars (`|`, `|-`), every scalar a string (as js-yaml's failsafe schema reads them).
 * Anything else — flow collections, folded or kept (`|+`) scalars, wrapped plain scalars,
 * double quotes, anchors, tags, trailing comments, tabs — gives undefined, and the caller reads
 * the file with js-yaml. Loading 1,717 files this way costs a fraction of js-yaml's cold start.
 */

class Outside extends Error {}

interface Line {
  indent: number;
  /** The line after its indentation. */
  text: string;
}

/** The document as js-yaml (FAILSAFE_SCHEMA) reads it, or undefined when it is not in this subset. */
export function parseEdgeYaml(text: string): unknown {
  // Without a final newline a clipped scalar at the end would lose its own: js-yaml reads those.
  if (!text.endsWith('\n') || text.includes('\t') || text.includes('\r') || text.charCodeAt(0) === 0xfeff) return undefined;
  const raw = text.split('\n');
  try {
    const reader = new Reader(raw);
    const value = reader.node(0);
    if (reader.more()) return undefined;
    return value;
  } catch (err) {
    if (err instanceof Outside) return undefined;
    throw err;
  }
}

const PLAIN_START = /^[^-?:,[\]{}#&*!|>'"%@`\s]/;
const KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;

class Reader {
  /** Index of the current line in `raw`. */
  private at = 0;
  /** The current line, as possibly shifted into a sequence item (`- key: v` → `key: v`). */
  private line: Line | undefined;

  constructor(private readonly raw: string[]) {
    this.skip();
  }

  more(): boolean {
    return this.line !== undefined;
  }

  /** Moves past blank and comment lines to the next content line. */
  private skip(): void {
    for (; this.at < this.raw.length; this.at++) {
      const text = this.raw[this.at]!;
      const content = text.trimStart();
      if (content === '' || content.startsWith('#')) continue;
      if (text.startsWith('---') || text.startsWith('...') || text.startsWith('%')) throw new Outside();
      this.line = { indent: text.length - content.length, text: content };
      return;
    }
    this.line = undefined;
  }

  private next(): void {
    this.at++;
    this.skip();
  }

  /** A mapping or a sequence starting at the current line, at its indentation. */
  node(minIndent: number): unknown {
    const line = this.line;
    if (!line || line.indent < minIndent) throw new Outside();
    return line.text.startsWith('- ') ? this.sequence(line.indent) : this.mapping(line.indent);
  }

  private sequence(indent: number): unknown[] {
    const items: unknown[] = [];
    while (this.line && this.line.indent === indent && this.line.text.startsWith('- ')) {
      const rest = this.line.text.slice(2);
      const spaces = rest.length - rest.trimStart().length;
      if (!KEY.test(rest.trimStart())) throw new Outside();
      // The item's first key, at the column it is written in.
      this.line = { indent: indent + 2 + spaces, text: rest.trimStart() };
      items.push(this.mapping(this.line.indent));
    }
    if (this.line && this.line.indent > indent) throw new Outside();
    return items;
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    while (this.line && this.line.indent === indent && !this.line.text.startsWith('- ')) {
      const match = KEY.exec(this.line.text);
      if (!match) throw new Outside();
      const key = match[1]!;
      if (Object.hasOwn(out, key) || key === '__proto__') throw new Outside();
      const value = (match[2] ?? '').trim();
      if (value === '') {
        this.next();
        const inner = this.line as Line | undefined;
        // A nested block, or a sequence at the key's own indentation.
        if (inner && (inner.indent > indent || (inner.indent === indent && inner.text.startsWith('- ')))) out[key] = this.node(inner.indent);
        else throw new Outside(); // an empty value: null, which the failsafe schema reads as ''
      } else if (value === '|' || value === '|-') {
        out[key] = this.literal(indent, value === '|-');
      } else {
        out[key] = scalar(match[2]!);
        this.next();
      }
    }
    if (this.line && this.line.indent > indent) throw new Outside();
    return out;
  }

  /** A literal block scalar after `key: |` (clip) or `|-` (strip), the key at `parent`. */
  private literal(parent: number, strip: boolean): string {
    const lines: string[] = [];
    let indent = -1;
    let i = this.at + 1;
    for (; i < this.raw.length; i++) {
      const text = this.raw[i]!;
      if (text === '') {
        if (indent < 0) throw new Outside(); // leading blank lines
        lines.push('');
        continue;
      }
      const content = text.trimStart();
      const at = text.length - content.length;
      if (content === '') throw new Outside(); // a line of spaces only
      if (indent < 0) {
        if (at <= parent) throw new Outside(); // an empty scalar
        indent = at;
      }
      if (at < indent) break;
      lines.push(text.slice(indent));
    }
    if (indent < 0) throw new Outside();
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    this.at = i;
    this.skip();
    const body = lines.join('\n');
    return strip ? body : `${body}\n`;
  }
}

/** A one-line plain or single-quoted scalar. */
function scalar(raw: string): string {
  const text = raw.trim();
  if (text.startsWith("'")) {
    const inner = text.slice(1, -1);
    if (text.length < 2 || !text.endsWith("'") || inner.replaceAll("''", '').includes("'")) throw new Outside();
    return inner.replaceAll("''", "'");
  }
  if (!PLAIN_START.test(text) && !(text.startsWith('-') && text.length > 1 && text[1] !== ' ')) throw new Outside();
  if (text.includes(': ') || text.includes(' #') || text.endsWith(':')) throw new Outside();
  return text;
}
