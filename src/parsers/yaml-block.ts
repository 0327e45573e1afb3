/**
 * A fast reader for the YAML that Kubernetes clients write (`oc get -o yaml`, must-gather):
 * go-yaml's block style — mappings, `- ` sequences, plain, quoted and `|` scalars, empty `[]`
 * and `{}`, long scalars wrapped onto indented lines. It reads events and pods about twice as
 * fast as js-yaml, which matters because must-gathers hold hundreds of MB of it. What people
 * write by hand in rule files is read too: `>` scalars, one-line flow collections (`[a, b]`,
 * `{ key: value }`), anchors and aliases.
 *
 * It gives up (returns `OUTSIDE_SUBSET`) on anything else — tags, flow collections over several
 * lines, more-indented lines in a `>` scalar, tabs, CR line ends, anything malformed — and the caller then
 * parses the document with js-yaml, which also words the error. Scalars resolve exactly as
 * js-yaml's JSON schema does (its own type resolvers are used).
 */
import yaml from 'js-yaml';
import { detachString } from '../core/detach.js';

export const OUTSIDE_SUBSET: unique symbol = Symbol('outside the block-YAML subset');

/** No value read with its key (see `simpleKey`). */
const NO_SCALAR = Symbol('no scalar');

class OutsideSubset extends Error {}

/** js-yaml 4 exports its scalar types; the bundled typings do not declare them. */
const { types } = yaml as unknown as { types: Record<'null' | 'bool' | 'int' | 'float', yaml.Type> };
/** The JSON schema's implicit scalar types, in js-yaml's order: those spelt as words, those as numbers. */
const WORD_TYPES = [types.null, types.bool];
const NUMBER_TYPES = [types.int, types.float];
/** First characters a plain scalar may not start with (YAML indicators this reader does not handle). */
const INDICATORS = new Set(['?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`']);
const SPACE = 32;
const NEWLINE = 10;
const COLON = 58;
const HASH = 35;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const BACKSLASH = 92;

/** A letter, a digit or `_`: what a key `simpleKey` reads, or its plain value, may start with. */
function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** A plain scalar's first character that is no indicator, quote, sign or space: a word character, `/`, `.` or `$`. */
function isPlainStartCode(c: number): boolean {
  return isWordCode(c) || c === 47 || c === 46 || c === 36;
}

/**
 * The keys of a mapping to read (`true`: the whole value; a nested pick for a mapping value, or
 * for each item of a sequence value); the others are stepped over without being parsed.
 */
export interface Pick {
  readonly [key: string]: Pick | true;
}

export interface BlockYamlOptions {
  /** A key written twice in one mapping is left to js-yaml (which refuses it unless in its `json` mode). */
  uniqueKeys?: boolean;
}

/**
 * Parses one YAML document (without its `---` line, or with a bare one), or says it cannot;
 * collections nested deeper than `maxDepth` are left to js-yaml's own limit. With `pick`, only
 * the keys it names are read: what is stepped over is not checked either, so a document the
 * whole parse would refuse may give its picked keys.
 */
export function parseBlockYaml(text: string, maxDepth: number, pick?: Pick, options: BlockYamlOptions = {}): unknown {
  const read = readBlockYaml(text, maxDepth, pick, options);
  return read === OUTSIDE_SUBSET ? read : read.value;
}

/**
 * {@link parseBlockYaml}, saying too whether the document names any `&anchor`: without one it
 * holds no alias, so no part of it is shared (nothing for an alias-bomb check to walk).
 */
export function readBlockYaml(text: string, maxDepth: number, pick?: Pick, options: BlockYamlOptions = {}): { value: unknown; anchors: boolean } | typeof OUTSIDE_SUBSET {
  if (text.includes('\r') || text.includes('\t') || text.charCodeAt(0) === 0xfeff) return OUTSIDE_SUBSET;
  try {
    const reader = new BlockReader(text, maxDepth, options.uniqueKeys === true);
    const value = reader.document(pick);
    return { value, anchors: reader.namedAnchors };
  } catch (err) {
    if (err instanceof OutsideSubset || err instanceof RangeError) return OUTSIDE_SUBSET;
    throw err;
  }
}

class BlockReader {
  /** Start of the current line. */
  private pos = 0;
  /** End of the current line (index of its newline, or the text length). */
  private end = 0;
  /** Column where the current line's content starts (after indentation or a consumed `- `). */
  private col = 0;
  private depth = 0;
  /** The value of the line `simpleKey` read whole, until `mapping` takes it. */
  private scalar: unknown = NO_SCALAR;
  /** Values named by `&anchor` so far. */
  private anchors: Map<string, unknown> | undefined;

  /** Whether the document read named an anchor (an alias needs one). */
  get namedAnchors(): boolean {
    return this.anchors !== undefined;
  }

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly uniqueKeys: boolean,
  ) {
    this.setLine(0);
  }

  document(pick: Pick | undefined): unknown {
    if (this.text.startsWith('---')) {
      if (trimSpaces(this.text.slice(3, this.end)) !== '') fail();
      this.nextLine();
    }
    if (!this.skipBlank()) return null;
    const value = this.node(this.col, pick);
    if (this.skipBlank()) fail();
    return value;
  }

  private setLine(pos: number): void {
    this.pos = pos;
    const newline = this.text.indexOf('\n', pos);
    this.end = newline < 0 ? this.text.length : newline;
    let col = pos;
    while (col < this.end && this.text.charCodeAt(col) === SPACE) col++;
    this.col = col - pos;
  }

  private nextLine(): boolean {
    if (this.end >= this.text.length) {
      this.pos = this.end = this.text.length;
      this.col = 0;
      return false;
    }
    this.setLine(this.end + 1);
    return true;
  }

  private atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  /** Moves to the next line with content (skipping blank and comment lines); false at the end. */
  private skipBlank(): boolean {
    for (;;) {
      if (this.atEnd()) return false;
      const first = this.pos + this.col;
      if (first < this.end && this.text.charCodeAt(first) !== 35 /* # */) return true;
      if (!this.nextLine()) return false;
    }
  }

  private content(): string {
    return this.text.slice(this.pos + this.col, this.end);
  }

  private node(indent: number, pick?: Pick): unknown {
    if (++this.depth > this.maxDepth) fail();
    const line = this.content();
    const value = isSequenceEntry(line) ? this.sequence(indent, pick) : this.mapping(indent, pick);
    this.depth--;
    return value;
  }

  /** `pick` applies to each item that is a mapping. */
  private sequence(indent: number, pick?: Pick): unknown[] {
    const items: unknown[] = [];
    while (this.skipBlank() && this.col === indent && isSequenceEntry(this.content())) {
      const rest = this.content().slice(1);
      const spaces = rest.length - trimLeadingSpaces(rest).length;
      const itemCol = indent + 1 + spaces;
      const body = trimSpaces(rest.slice(spaces));
      if (isSequenceEntry(body)) fail();
      if (body !== '' && !isFlowStart(body) && !isNodeProperty(body) && entryKeyEnd(body) >= 0) {
        this.col = itemCol;
        if (++this.depth > this.maxDepth) fail();
        items.push(this.mapping(itemCol, pick));
        this.depth--;
      } else {
        items.push(this.valueAfter(body, indent, itemCol, false, pick));
      }
    }
    if (!this.atEnd() && this.col > indent && this.skipBlank()) fail();
    return items;
  }

  private mapping(indent: number, pick?: Pick): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    while (this.skipBlank() && this.col >= indent) {
      if (this.col > indent) fail();
      // The common line read in place (`simpleKey`); any other cut and read in full.
      let key = this.simpleKey(indent);
      let rest = '';
      let column = 0;
      if (key === undefined) {
        const line = this.content();
        const keyEnd = entryKeyEnd(line);
        if (keyEnd < 0) fail();
        key = keyText(line.slice(0, keyEnd));
        let restStart = keyEnd + 1;
        while (line.charCodeAt(restStart) === SPACE) restStart++;
        rest = line.slice(restStart);
        column = this.col + line.length - rest.length;
      }
      const inner = pick && Object.hasOwn(pick, key) ? pick[key] : undefined;
      let value: unknown;
      if (this.scalar !== NO_SCALAR) {
        value = this.scalar;
        this.scalar = NO_SCALAR;
        this.nextLine();
        if (pick && inner === undefined) continue;
      } else {
        if (pick && inner === undefined) {
          this.stepOver(rest, indent, column);
          continue;
        }
        value = this.valueAfter(rest, indent, column, true, inner === true ? undefined : inner);
      }
      if (this.uniqueKeys && Object.hasOwn(object, key)) fail();
      setProperty(object, key, value);
    }
    return object;
  }

  /**
   * The key of the lines most lines of a List are, read from the text in place: `key: plain scalar`
   * (the value whole on this line, no comment) and `key: "quoted"` (closed on this line, no escape),
   * whose value it leaves in `scalar`, and `key:` alone (a block after it, which `mapping` reads as
   * any), the key unquoted and without spaces. Undefined, with nothing read, for any other line,
   * which `mapping` cuts and reads in full. What it accepts it reads as that path does: it stops
   * short of everything that path treats apart (an indicator, `: ` or ` #` in a plain value, a value
   * that ends in `:`, a blank or deeper line after a plain value, an escape or a second quote).
   */
  private simpleKey(indent: number): string | undefined {
    const text = this.text;
    const start = this.pos + this.col;
    const end = this.end;
    const first = text.charCodeAt(start);
    if (!isWordCode(first)) return undefined;
    let hash = first;
    let colon = start + 1;
    for (;;) {
      if (colon >= end) return undefined;
      const c = text.charCodeAt(colon);
      if (c === COLON) break;
      if (c === SPACE) return undefined;
      hash = (Math.imul(hash, 31) + c) | 0;
      colon++;
    }
    let value = colon + 1;
    if (value < end && text.charCodeAt(value) !== SPACE) return undefined;
    while (value < end && text.charCodeAt(value) === SPACE) value++;
    if (value >= end) return keyAt(text, start, colon, hash);
    let valueEnd = end;
    while (text.charCodeAt(valueEnd - 1) === SPACE) valueEnd--;
    const opening = text.charCodeAt(value);
    if (opening === DOUBLE_QUOTE || opening === SINGLE_QUOTE) {
      // Quoted, closed at the line's end, with no escape (`\` or `''`) or other quote before.
      let close = value + 1;
      while (close < valueEnd) {
        const c = text.charCodeAt(close);
        if (c === opening || (c === BACKSLASH && opening === DOUBLE_QUOTE)) break;
        close++;
      }
      if (close !== valueEnd - 1 || text.charCodeAt(close) !== opening) return undefined;
      this.scalar = text.slice(value + 1, close);
      return keyAt(text, start, colon, hash);
    }
    if (!isPlainStartCode(opening) || text.charCodeAt(valueEnd - 1) === COLON) return undefined;
    for (let i = value + 1; i < valueEnd; i++) {
      const c = text.charCodeAt(i);
      if ((c === HASH && text.charCodeAt(i - 1) === SPACE) || (c === COLON && text.charCodeAt(i + 1) === SPACE)) return undefined;
    }
    // The next line must end a plain value: one with content, no deeper than this key (or none).
    let next = end + 1;
    if (next < text.length) {
      const lineStart = next;
      while (next < text.length && text.charCodeAt(next) === SPACE) next++;
      if (next >= text.length || text.charCodeAt(next) === NEWLINE || next - lineStart > indent) return undefined;
    }
    this.scalar = resolvePlain(text.slice(value, valueEnd));
    return keyAt(text, start, colon, hash);
  }

  /**
   * The value after `key:` or `- ` (`rest`, starting at `column`): an `&anchor` first names it
   * for later `*alias`es (which give the same value, as js-yaml's do); then the value on this
   * line, or (nothing after) the block on the lines after.
   */
  private valueAfter(rest: string, parentIndent: number, column: number, sequenceMayShareIndent: boolean, pick: Pick | undefined): unknown {
    let anchor: string | undefined;
    if (rest[0] === '&') {
      const property = /^&([^\s,[\]{}]+)(?: +|$)/.exec(rest) ?? fail();
      anchor = property[1]!;
      column += property[0].length;
      rest = rest.slice(property[0].length);
    }
    let value: unknown;
    if (rest === '' || rest.startsWith('#')) {
      this.nextLine();
      value = this.blockValue(parentIndent, sequenceMayShareIndent, pick);
    } else if (rest[0] === '*') {
      const name = stripComment(rest).slice(1);
      if (!/^[^\s,[\]{}]+$/.test(name) || !this.anchors?.has(name)) fail();
      value = this.anchors.get(name);
      this.nextLine();
    } else {
      value = this.inlineValue(rest, parentIndent, column);
    }
    if (anchor !== undefined) (this.anchors ??= new Map()).set(anchor, value);
    return value;
  }

  /** A value on the lines after `key:` or `-`: a nested block, or null. */
  private blockValue(parentIndent: number, sequenceMayShareIndent: boolean, pick?: Pick): unknown {
    if (!this.skipBlank()) return null;
    if (this.col > parentIndent) return this.node(this.col, pick);
    if (sequenceMayShareIndent && this.col === parentIndent && isSequenceEntry(this.content())) return this.sequence(parentIndent, pick);
    return null;
  }

  /**
   * Steps over a mapping value not picked, starting with `rest` (the text after `key:`): its
   * lines are those indented deeper than the key (and a sequence at the key's own indentation),
   * but a quoted scalar, which may wrap onto any line, is read to its closing quote.
   */
  private stepOver(rest: string, indent: number, column: number): void {
    const first = rest[0];
    if (first === '"' || first === "'") {
      this.quoted(first, column);
      return;
    }
    const block = rest === '' || rest.startsWith('#');
    this.nextLine();
    // Deeper lines; after `key:` also `- item` lines at the key's own indentation (its sequence).
    while (this.skipBlank() && (this.col > indent || (block && this.col === indent && isSequenceEntry(this.content())))) this.nextLine();
  }


  /** A value starting on the current line at column `column`; `parentIndent` bounds continuation lines. */
  private inlineValue(text: string, parentIndent: number, column: number): unknown {
    const first = text[0]!;
    if (first === '"' || first === "'") return this.quoted(first, column);
    if (first === '|' || first === '>') return this.blockScalar(text, parentIndent);
    if (isFlowStart(text)) {
      const value = flowCollection(text, this.uniqueKeys);
      this.nextLine();
      return value;
    }
    if (startsWithIndicator(text) || text.startsWith('- ') || text === '-') fail();
    return this.plain(text, parentIndent);
  }

  private plain(firstLine: string, parentIndent: number): unknown {
    // A comment ends a plain scalar: a deeper line after one is an error js-yaml words.
    let commented = firstLine.includes(' #');
    let value = stripComment(firstLine);
    checkPlain(value);
    this.nextLine();
    let breaks = 0;
    while (!this.atEnd()) {
      // Told from the line's bounds first: most often it is the next key, and is not cut out.
      if (this.pos + this.col >= this.end) {
        breaks++;
        if (!this.nextLine()) break;
        continue;
      }
      if (this.col <= parentIndent) break;
      if (commented) fail();
      const lineText = this.content();
      if (lineText.startsWith('#')) fail();
      commented = lineText.includes(' #');
      const part = stripComment(lineText);
      checkPlain(part);
      value += breaks > 0 ? '\n'.repeat(breaks) : ' ';
      value += part;
      breaks = 0;
      this.nextLine();
    }
    return resolvePlain(value);
  }

  /** A single- or double-quoted scalar, possibly wrapped over several lines. */
  private quoted(quote: string, column: number): string {
    const text = this.text;
    let i = this.pos + column + 1;
    let out = '';
    let chunkStart = i;
    for (;;) {
      if (i >= text.length) fail();
      const c = text.charCodeAt(i);
      if (quote === "'" && c === 39) {
        if (text.charCodeAt(i + 1) === 39) {
          out += text.slice(chunkStart, i + 1);
          i += 2;
          chunkStart = i;
          continue;
        }
        out += text.slice(chunkStart, i);
        break;
      }
      if (quote === '"' && c === 34) {
        out += text.slice(chunkStart, i);
        break;
      }
      if (quote === '"' && c === 92 /* \ */) {
        out += text.slice(chunkStart, i);
        const next = text[i + 1];
        if (next === '\n') {
          // Escaped line break: join without a space, dropping the next line's indentation.
          i += 2;
          while (text.charCodeAt(i) === SPACE) i++;
          chunkStart = i;
          continue;
        }
        const [decoded, length] = unescape(text, i + 1);
        out += decoded;
        i += 1 + length;
        chunkStart = i;
        continue;
      }
      if (c === NEWLINE) {
        // Line folding drops the spaces that end the line (only raw ones: escaped spaces stay).
        let lineEnd = i;
        while (lineEnd > chunkStart && text.charCodeAt(lineEnd - 1) === SPACE) lineEnd--;
        out += text.slice(chunkStart, lineEnd);
        let breaks = 0;
        i++;
        for (;;) {
          while (text.charCodeAt(i) === SPACE) i++;
          if (text.charCodeAt(i) !== NEWLINE) break;
          breaks++;
          i++;
        }
        out += breaks > 0 ? '\n'.repeat(breaks) : ' ';
        chunkStart = i;
        continue;
      }
      i++;
    }
    // After the closing quote: only spaces and a comment may follow on that line.
    const closing = i;
    const lineEnd = text.indexOf('\n', closing);
    const tail = trimSpaces(trimLeadingSpaces(text.slice(closing + 1, lineEnd < 0 ? text.length : lineEnd)));
    if (tail !== '' && !tail.startsWith('#')) fail();
    this.setLine(text.lastIndexOf('\n', closing) + 1);
    this.nextLine();
    return out;
  }

  /**
   * A `|` (literal) or `>` (folded) block scalar, with `-` or `+` chomping. A folded scalar's
   * lines are joined by a space, and by a line break per blank line between them; one with a
   * more-indented line (kept as written there) is left to js-yaml.
   */
  private blockScalar(header: string, parentIndent: number): string {
    const indicator = stripComment(header);
    if (!/^[|>][-+]?$/.test(indicator)) fail();
    const folded = indicator[0] === '>';
    const chomp = indicator[1];
    this.nextLine();
    let leadingBlanks = 0;
    let contentIndent = -1;
    // The lines from the first with content to the last taken, cut from the text at once.
    let regionStart = 0;
    let regionEnd = 0;
    while (!this.atEnd()) {
      const lineLength = this.end - this.pos;
      const blank = this.col === lineLength;
      if (contentIndent < 0) {
        if (blank) {
          if (this.col > parentIndent + 1) fail(); // leading blank lines longer than the indentation: leave to js-yaml
          if (folded) fail(); // leading blank lines of a folded scalar: leave to js-yaml
          leadingBlanks++;
          if (!this.nextLine()) break;
          continue;
        }
        if (this.col <= parentIndent) break;
        contentIndent = this.col;
        regionStart = this.pos;
      }
      if (blank) {
        if (folded && lineLength > contentIndent) fail(); // spaces past the indentation: content js-yaml folds its own way
      } else if (this.col < contentIndent) break;
      regionEnd = this.end;
      if (!this.nextLine()) break;
    }
    if (contentIndent < 0) return chomp === '+' ? '\n'.repeat(leadingBlanks) : '';
    // Each line without its indentation (a blank line: without the spaces it has), joined by breaks.
    const joined = '\n'.repeat(leadingBlanks) + dedent(this.text.slice(regionStart, regionEnd), contentIndent);
    // Empty lines at the end are the chomping's (a line of spaces past the indentation is content).
    let contentEnd = joined.length;
    while (joined.charCodeAt(contentEnd - 1) === NEWLINE) contentEnd--;
    const trailingBreaks = joined.length - contentEnd;
    const body = folded ? fold(joined.slice(0, contentEnd).split('\n')) : joined.slice(0, contentEnd);
    if (chomp === '-') return body;
    if (chomp === '+') return body + '\n'.repeat(trailingBreaks + 1);
    return body + '\n';
  }
}

const DEDENTS = new Map<number, RegExp>();

/** Lines without their first `indent` spaces (fewer where a line has fewer). */
function dedent(text: string, indent: number): string {
  if (indent === 0) return text;
  let pattern = DEDENTS.get(indent);
  if (!pattern) DEDENTS.set(indent, (pattern = new RegExp(`^ {0,${indent}}`, 'gm')));
  return text.replace(pattern, '');
}

function fail(): never {
  throw new OutsideSubset();
}

/**
 * A folded scalar's lines (past its indentation), as js-yaml folds them: two lines are joined
 * by a space, or by a break per blank line between; a more-indented line keeps its breaks.
 */
function fold(lines: readonly string[]): string {
  let out = '';
  let blanks = 0;
  let read = false;
  let moreIndented = false;
  for (const line of lines) {
    if (line === '') {
      blanks++;
      continue;
    }
    if (line.charCodeAt(0) === SPACE) {
      out += '\n'.repeat(read ? 1 + blanks : blanks);
      moreIndented = true;
    } else if (moreIndented) {
      out += '\n'.repeat(blanks + 1);
      moreIndented = false;
    } else if (blanks > 0) out += '\n'.repeat(blanks);
    else if (read) out += ' ';
    out += line;
    read = true;
    blanks = 0;
  }
  return out;
}

/** An anchor or an alias (`&name`, `*name`) where a value starts. */
function isNodeProperty(text: string): boolean {
  return text[0] === '&' || text[0] === '*';
}

function isFlowStart(text: string): boolean {
  return text[0] === '[' || text[0] === '{';
}

/**
 * A flow collection written whole on its line (`[a, 'b']`, `{ key: value }`, nested), then
 * only spaces or a comment. Plain scalars resolve as in block context; a collection over
 * several lines, an empty entry, `? ` keys or a key without a value are left to js-yaml.
 */
function flowCollection(line: string, uniqueKeys: boolean): unknown {
  const reader = new FlowReader(line, uniqueKeys);
  const value = reader.collection();
  reader.skipSpaces();
  const tail = line.slice(reader.at);
  if (tail !== '' && !(tail.startsWith('#') && line[reader.at - 1] === ' ')) fail();
  return value;
}

class FlowReader {
  at = 0;

  constructor(
    private readonly line: string,
    private readonly uniqueKeys: boolean,
  ) {}

  skipSpaces(): void {
    while (this.line.charCodeAt(this.at) === SPACE) this.at++;
  }

  collection(): unknown[] | Record<string, unknown> {
    const open = this.line[this.at++];
    const close = open === '[' ? ']' : '}';
    const sequence: unknown[] = [];
    const mapping: Record<string, unknown> = {};
    for (;;) {
      this.skipSpaces();
      if (this.line[this.at] === close) {
        this.at++;
        return open === '[' ? sequence : mapping;
      }
      if (open === '[') sequence.push(this.value());
      else {
        const key = this.key();
        if (this.uniqueKeys && Object.hasOwn(mapping, key)) fail();
        setProperty(mapping, key, this.value());
      }
      this.skipSpaces();
      const next = this.line[this.at];
      if (next === ',') this.at++;
      else if (next !== close) fail();
    }
  }

  /** A mapping key and its `: ` (the value follows). */
  private key(): string {
    const first = this.line[this.at];
    const key = first === '"' || first === "'" ? this.quoted() : String(this.plain(true));
    if (this.line[this.at] !== ':' || this.line.charCodeAt(this.at + 1) !== SPACE) fail();
    this.at += 2;
    return key;
  }

  private value(): unknown {
    this.skipSpaces();
    const first = this.line[this.at];
    if (first === '[' || first === '{') return this.collection();
    if (first === '"' || first === "'") return this.quoted();
    return this.plain(false);
  }

  /** A plain scalar, up to a flow indicator (and for a key, its `: `). */
  private plain(isKey: boolean): unknown {
    const start = this.at;
    const line = this.line;
    while (this.at < line.length) {
      const c = line[this.at]!;
      if (c === ',' || c === '[' || c === ']' || c === '{' || c === '}') break;
      if (c === ':' && (this.at + 1 === line.length || line[this.at + 1] === ' ' || isKey)) break;
      if (c === '#' && line[this.at - 1] === ' ') fail();
      this.at++;
    }
    const text = trimSpaces(line.slice(start, this.at));
    if (text === '' || startsWithIndicator(text) || text.startsWith('- ') || text === '-') fail();
    return resolvePlain(text);
  }

  /** A quoted scalar closed on this line. */
  private quoted(): string {
    const close = closingQuote(this.line, this.at);
    if (close < 0) fail();
    const raw = this.line.slice(this.at, close + 1);
    this.at = close + 1;
    return unquote(raw);
  }
}

function isSequenceEntry(line: string): boolean {
  return line.charCodeAt(0) === 45 /* - */ && (line.length === 1 || line.charCodeAt(1) === SPACE);
}

/** Index of the `:` that ends a mapping key on this line, or -1 when the line is no entry. */
function entryKeyEnd(line: string): number {
  const first = line[0];
  if (first === '"' || first === "'") {
    const close = closingQuote(line, 0);
    if (close < 0) return -1; // a quoted scalar wrapped onto more lines: a value, never a key
    return line[close + 1] === ':' && (close + 2 === line.length || line[close + 2] === ' ') ? close + 1 : -1;
  }
  const colon = line.indexOf(': ');
  const end = colon >= 0 ? colon : line.endsWith(':') ? line.length - 1 : -1;
  if (end <= 0) return -1;
  const comment = line.indexOf(' #');
  if (startsWithIndicator(line) || (comment >= 0 && comment + 2 <= end)) fail();
  return end;
}

/** `?` and `:` start a plain scalar when a non-space follows (`:5000`); the others never do. */
function startsWithIndicator(text: string): boolean {
  const first = text[0]!;
  if (first === '?' || first === ':') return text.length === 1 || text[1] === ' ';
  return INDICATORS.has(first);
}

function isEscaped(line: string, at: number): boolean {
  let slashes = 0;
  for (let i = at - 1; i >= 0 && line[i] === '\\'; i--) slashes++;
  return slashes % 2 === 1;
}

/**
 * Keys by their text as written: a file repeats a few hundred keys thousands of times, and one
 * met before is not resolved again (about 5 % of the parse of an events or pods List).
 */
const KEYS = new Map<string, string>();
const MAX_KEYS = 4096;

function keyText(raw: string): string {
  const known = KEYS.get(raw);
  if (known !== undefined) return known;
  const key = resolveKey(raw);
  // Kept past this file: copies, not views into its text.
  if (KEYS.size < MAX_KEYS) KEYS.set(detachString(raw), detachString(key));
  return key;
}

/**
 * The last key seen at each of these slots (by a hash of its text), told from the text in place:
 * most keys of a List are the few its items repeat, and this spares cutting and hashing each one
 * again for `KEYS`.
 */
const KEY_SLOTS = 1024;
const slotRaw: (string | undefined)[] = new Array<string | undefined>(KEY_SLOTS).fill(undefined);
const slotKey: string[] = new Array<string>(KEY_SLOTS).fill('');

/** `keyText` of `text[start, end)`, whose characters hash to `hash`. */
function keyAt(text: string, start: number, end: number, hash: number): string {
  const slot = hash & (KEY_SLOTS - 1);
  const raw = slotRaw[slot];
  if (raw !== undefined && raw.length === end - start && text.startsWith(raw, start)) return slotKey[slot]!;
  const cut = detachString(text.slice(start, end));
  const key = keyText(cut);
  slotRaw[slot] = cut;
  slotKey[slot] = key;
  return key;
}

function resolveKey(raw: string): string {
  const first = raw[0];
  return first === "'" || first === '"' ? unquote(raw) : String(resolvePlain(trimSpaces(raw)));
}

/**
 * Where the quoted scalar opening at `open` closes on this line (a `''` in single quotes and an
 * escaped `"` in double quotes do not close it), or -1.
 */
function closingQuote(line: string, open: number): number {
  const quote = line[open]!;
  for (let from = open + 1; ; ) {
    const close = line.indexOf(quote, from);
    if (close < 0) return -1;
    if (quote === "'" && line[close + 1] === "'") from = close + 2;
    else if (quote === '"' && isEscaped(line, close)) from = close + 1;
    else return close;
  }
}

/** A quoted scalar written on one line, quotes included, as its text. */
function unquote(raw: string): string {
  return raw[0] === "'" ? raw.slice(1, -1).replaceAll("''", "'") : unescapeAll(raw.slice(1, -1));
}

/** Plain-scalar text may not hold a `: ` or end in `:` (js-yaml reads those as a broken mapping). */
function checkPlain(text: string): void {
  if (text.includes(': ') || text.endsWith(':')) fail();
}

function stripComment(text: string): string {
  const hash = text.indexOf(' #');
  return trimSpaces(hash >= 0 ? text.slice(0, hash) : text);
}

/**
 * Without the spaces that end it. YAML's white space is the space and the tab, and tabs are left
 * to js-yaml; `trimEnd` would also take Unicode's other spaces (a no-break space ending a value),
 * which are content to YAML.
 */
function trimSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === SPACE) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** Without the spaces that start it (see `trimSpaces`). */
function trimLeadingSpaces(text: string): string {
  let start = 0;
  while (text.charCodeAt(start) === SPACE) start++;
  return start === 0 ? text : text.slice(start);
}

function resolvePlain(text: string): unknown {
  const c = text.charCodeAt(0);
  // Only `~` and these letters can start a null or a bool; only a sign, a dot or a digit an int or a float (JSON schema).
  const types =
    c === 126 /* ~ */ || c === 110 /* n */ || c === 78 /* N */ || c === 116 /* t */ || c === 84 /* T */ || c === 102 /* f */ || c === 70 /* F */
      ? WORD_TYPES
      : c === 43 /* + */ || c === 45 /* - */ || c === 46 /* . */ || (c >= 48 && c <= 57)
        ? NUMBER_TYPES
        : undefined;
  if (types) {
    for (const type of types) if (type.resolve(text)) return type.construct(text);
  }
  return text;
}

/** Sets a key as js-yaml does: later duplicates win, `__proto__` is an own property. */
function setProperty(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b',
  ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };

/** Decodes the escape after a backslash at `at`: the text and how many characters it used. */
function unescape(text: string, at: number): [string, number] {
  const c = text[at] ?? fail();
  const simple = SIMPLE_ESCAPES[c];
  if (simple !== undefined) return [simple, 1];
  const length = HEX_LENGTH[c];
  if (length === undefined) fail();
  const hex = text.slice(at + 1, at + 1 + length);
  if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== length) fail();
  const code = parseInt(hex, 16);
  if (code > 0x10ffff) fail();
  return [String.fromCodePoint(code), 1 + length];
}

function unescapeAll(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '\\') {
      out += text[i];
      continue;
    }
    const [decoded, length] = unescape(text, i + 1);
    out += decoded;
    i += length;
  }
  return out;
}
