/**
 * JSON files of Kubernetes objects: one object, a List, a top-level array, or several values
 * one after another. Small bodies go through `JSON.parse`; a body over the threshold (a
 * gather-extra `events.json` can be tens of MB) is parsed with stream-json and its items
 * handed out one at a time, so memory stays flat whatever the file size.
 */
import Parser from 'stream-json/Parser.js';
import { describeError, type Problems } from '../core/problems.js';
import { SkipCounter, expandDocument, toK8sObject, type K8sObject, type ParsedObject, type PlainObject } from './k8s.js';

export const DEFAULT_JSON_STREAM_THRESHOLD = 8 * 1024 * 1024;
export const DEFAULT_JSON_MAX_DEPTH = 256;

export interface JsonOptions {
  /** Bodies larger than this (bytes) are streamed instead of `JSON.parse`d (default 8 MiB). */
  streamThreshold?: number;
  /** Deepest nesting accepted (default 256). */
  maxDepth?: number;
  /** Filled in while parsing: whether the body was streamed, how many bytes were read. */
  stats?: JsonStats;
}

export interface JsonStats {
  streamed: boolean;
  bytes: number;
}

type Chunk = Buffer | Uint8Array | string;

/**
 * Objects in a JSON body, Lists expanded, each with its document and item index. Never
 * throws for bad content: a broken document is reported to `problems` and what came before
 * it is kept.
 */
export async function* parseJsonItems(
  body: AsyncIterable<Chunk>,
  path: string,
  problems: Problems,
  opts: JsonOptions = {},
): AsyncGenerator<ParsedObject> {
  const threshold = opts.streamThreshold ?? DEFAULT_JSON_STREAM_THRESHOLD;
  const stats = opts.stats ?? { streamed: false, bytes: 0 };
  stats.streamed = false;
  stats.bytes = 0;
  const head: Buffer[] = [];
  const it = body[Symbol.asyncIterator]();
  let big = false;
  try {
    for (;;) {
      const r = await it.next();
      if (r.done) break;
      const buf = toBuffer(r.value);
      head.push(buf);
      stats.bytes += buf.length;
      if (stats.bytes > threshold) {
        big = true;
        break;
      }
    }
  } catch (err) {
    problems.error(path, `JSON read failed after ${stats.bytes} bytes: ${describeError(err)}`);
    return;
  }
  if (!big) {
    yield* parseJsonTextItems(Buffer.concat(head).toString('utf8'), path, problems, opts);
    return;
  }
  stats.streamed = true;
  yield* streamItems(head, it, path, problems, opts.maxDepth ?? DEFAULT_JSON_MAX_DEPTH, stats);
}

/** Objects in a JSON body (see `parseJsonItems`). */
export async function* parseJsonObjects(
  body: AsyncIterable<Chunk>,
  path: string,
  problems: Problems,
  opts?: JsonOptions,
): AsyncGenerator<K8sObject> {
  for await (const parsed of parseJsonItems(body, path, problems, opts)) yield parsed.object;
}

/** Objects in a JSON text already in memory, with `JSON.parse`. */
export function* parseJsonTextItems(text: string, path: string, problems: Problems, opts: JsonOptions = {}): Generator<ParsedObject> {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const maxDepth = opts.maxDepth ?? DEFAULT_JSON_MAX_DEPTH;
  const deep = jsonDepthExceeds(text, maxDepth);
  if (deep >= 0) {
    const { line, column } = lineColumn(text, deep);
    problems.error(path, `JSON rejected: nesting deeper than ${maxDepth} at line ${line}, column ${column}`);
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    if (text.trim() === '') return;
    problems.error(path, `JSON parse error: ${jsonErrorText(err, text)}`);
    return;
  }
  yield* expandDocument(value, 0, path, problems, 'JSON document');
}

function toBuffer(chunk: Chunk): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/**
 * Index of the first bracket that opens nesting deeper than `max`, or -1. Strings are skipped
 * with indexOf, so this costs a fraction of `JSON.parse`.
 */
export function jsonDepthExceeds(text: string, max: number): number {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      let j = text.indexOf('"', i + 1);
      while (j > 0) {
        let backslashes = 0;
        for (let k = j - 1; text.charCodeAt(k) === 92; k--) backslashes++;
        if ((backslashes & 1) === 0) break;
        j = text.indexOf('"', j + 1);
      }
      if (j < 0) return -1; // unterminated: JSON.parse will say so
      i = j;
    } else if (c === 123 || c === 91) {
      if (++depth > max) return i;
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return -1;
}

function lineColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < pos; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: pos - lineStart + 1 };
}

/** V8's message on one line, with the position as line/column when V8 gives one. */
function jsonErrorText(err: unknown, text: string): string {
  const message = describeError(err).replace(/[\u0000-\u001f\u007f]/g, ' ');
  const m = /at position (\d+)/.exec(message);
  if (!m) return message;
  const { line, column } = lineColumn(text, Number(m[1]));
  return `${message} (line ${line}, column ${column})`;
}

// ---- streaming ----

interface Token {
  name: string;
  value?: string | undefined;
}

/**
 * Builds one value from stream-json tokens (packed values). Unlike stream-json's Assembler,
 * stores a `__proto__` key as an own property, as `JSON.parse` does, instead of replacing
 * the object's prototype.
 */
class ValueBuilder {
  private readonly stack: Array<unknown[] | PlainObject> = [];
  private readonly keys: Array<string | null> = [];
  private cur: unknown[] | PlainObject | undefined;
  private key: string | null = null;
  value: unknown = undefined;

  /** Feeds one token; true when the value is complete. */
  consume(t: Token): boolean {
    switch (t.name) {
      case 'startObject':
      case 'startArray': {
        if (this.cur !== undefined) {
          this.stack.push(this.cur);
          this.keys.push(this.key);
        }
        this.cur = t.name === 'startObject' ? {} : [];
        this.key = null;
        return false;
      }
      case 'endObject':
      case 'endArray': {
        const done = this.cur;
        const parent = this.stack.pop();
        if (parent === undefined) {
          this.value = done;
          this.cur = undefined;
          return true;
        }
        this.cur = parent;
        this.key = this.keys.pop() ?? null;
        return this.save(done);
      }
      case 'keyValue':
        this.key = t.value ?? '';
        return false;
      case 'stringValue':
        return this.save(t.value ?? '');
      case 'numberValue':
        return this.save(Number(t.value));
      case 'nullValue':
        return this.save(null);
      case 'trueValue':
        return this.save(true);
      case 'falseValue':
        return this.save(false);
      default:
        return false;
    }
  }

  private save(v: unknown): boolean {
    const cur = this.cur;
    if (cur === undefined) {
      this.value = v;
      return true;
    }
    if (Array.isArray(cur)) {
      cur.push(v);
    } else if (this.key === '__proto__') {
      Object.defineProperty(cur, '__proto__', { value: v, writable: true, enumerable: true, configurable: true });
    } else {
      cur[this.key ?? ''] = v;
    }
    this.key = null;
    return false;
  }
}

/**
 * Turns stream-json tokens into objects: the items of a top-level `items` array or of a
 * top-level array are assembled one by one; any other top-level object is assembled whole.
 */
class ItemAssembler {
  /** Completed objects waiting to be handed out. */
  readonly queue: ParsedObject[] = [];
  /** Set when parsing must stop (nesting too deep outside an item). */
  fatal: string | undefined;

  private depth = 0;
  private doc = -1;
  private top: 'object' | 'array' | undefined;
  private topAsm: ValueBuilder | undefined;
  private pendingItemsKey = false;
  private sawItems = false;
  private inItems = false;
  private itemLevel = 0;
  private elem: ValueBuilder | undefined;
  private inElement = false;
  private skipping = false;
  private elemIndex = 0;
  private readonly skipped = new SkipCounter();

  constructor(
    private readonly path: string,
    private readonly problems: Problems,
    private readonly maxDepth: number,
  ) {}

  token(t: Token): void {
    const name = t.name;
    const opens = name === 'startObject' || name === 'startArray';
    const closes = name === 'endObject' || name === 'endArray';

    if (this.inElement) {
      if (opens) {
        if (++this.depth > this.maxDepth && !this.skipping) {
          this.skipping = true;
          this.elem = undefined;
        }
      } else if (closes) {
        this.depth--;
      }
      if (!this.skipping) this.elem?.consume(t);
      if (this.depth === this.itemLevel) this.finishElement();
      return;
    }

    if (this.depth === 0) {
      this.startDocument(t, name);
      return;
    }

    if ((this.top === 'array' && this.depth === 1) || (this.inItems && this.depth === 2)) {
      if (closes) {
        this.depth--;
        if (this.top === 'array') this.endDocument();
        else this.inItems = false;
        return;
      }
      this.inElement = true;
      this.skipping = false;
      this.elem = new ValueBuilder();
      this.elem.consume(t);
      if (opens) {
        if (++this.depth > this.maxDepth) {
          this.skipping = true;
          this.elem = undefined;
        }
      } else {
        this.finishElement();
      }
      return;
    }

    // Inside the top-level object, outside its items.
    if (this.depth === 1 && name === 'keyValue' && t.value === 'items' && !this.sawItems) {
      this.pendingItemsKey = true;
      return;
    }
    if (this.pendingItemsKey) {
      this.pendingItemsKey = false;
      if (name === 'startArray') {
        this.sawItems = true;
        this.inItems = true;
        this.itemLevel = 2;
        this.elemIndex = 0;
        this.depth++;
        return;
      }
      this.topAsm?.consume({ name: 'keyValue', value: 'items' });
    }
    if (opens && ++this.depth > this.maxDepth) {
      this.fatal = `nesting deeper than ${this.maxDepth} in JSON document ${this.doc + 1}`;
      return;
    }
    if (closes) this.depth--;
    this.topAsm?.consume(t);
    if (this.depth === 0) this.endDocument();
  }

  private startDocument(t: Token, name: string): void {
    this.doc++;
    this.sawItems = false;
    this.inItems = false;
    this.elemIndex = 0;
    if (name === 'startObject') {
      this.top = 'object';
      this.topAsm = new ValueBuilder();
      this.topAsm.consume(t);
      this.depth = 1;
    } else if (name === 'startArray') {
      this.top = 'array';
      this.itemLevel = 1;
      this.depth = 1;
    } else {
      this.top = undefined;
      this.problems.warn(this.path, `JSON document ${this.doc + 1} skipped: a scalar, not an object`);
    }
  }

  private finishElement(): void {
    this.inElement = false;
    const index = this.elemIndex++;
    if (this.skipping) {
      this.skipped.add(index, `nesting deeper than ${this.maxDepth}`);
    } else if (this.elem !== undefined) {
      const object = toK8sObject(this.elem.value);
      if (typeof object === 'string') this.skipped.add(index, object);
      else this.queue.push({ object, doc: this.doc, item: index });
    }
    this.elem = undefined;
    this.skipping = false;
  }

  private endDocument(): void {
    const where = `JSON document ${this.doc + 1}`;
    if (this.top === 'object' && this.topAsm !== undefined) {
      const value: unknown = this.topAsm.value;
      const kind = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['kind'] : undefined;
      if (!this.sawItems && typeof kind === 'string' && kind.endsWith('List') && (value as Record<string, unknown>)['items'] == null) {
        // an empty List
      } else if (!this.sawItems) {
        const object = toK8sObject(value);
        if (typeof object === 'string') this.problems.warn(this.path, `${where} skipped: ${object}`);
        else this.queue.push({ object, doc: this.doc, item: undefined });
      } else if (typeof kind === 'string' && !kind.endsWith('List')) {
        this.problems.warn(this.path, `${where}: kind ${kind} has a top-level items array; its items were read as a List's`);
      }
    }
    this.skipped.report(this.problems, this.path, where);
    this.top = undefined;
    this.topAsm = undefined;
  }

  /** Called at the end of input: reports what was left open. */
  finish(): void {
    this.skipped.report(this.problems, this.path, `JSON document ${this.doc + 1}`);
  }

  get open(): boolean {
    return this.depth > 0;
  }
}

async function* streamItems(
  head: Buffer[],
  rest: AsyncIterator<Chunk>,
  path: string,
  problems: Problems,
  maxDepth: number,
  stats: JsonStats,
): AsyncGenerator<ParsedObject> {
  const parser = new Parser({ packValues: true, streamValues: false, jsonStreaming: true });
  const asm = new ItemAssembler(path, problems, maxDepth);
  let failure: Error | undefined;
  let ended = false;
  parser.on('data', (t: Token) => {
    if (asm.fatal !== undefined) return;
    try {
      asm.token(t);
    } catch (err) {
      asm.fatal = describeError(err);
    }
  });
  const done = new Promise<void>((resolve) => {
    parser.once('end', () => {
      ended = true;
      resolve();
    });
    parser.once('close', () => resolve());
    parser.once('error', (err: Error) => {
      failure ??= err;
      resolve();
    });
  });
  const write = (buf: Buffer): Promise<void> =>
    new Promise<void>((resolve) => {
      parser.write(buf, (err) => {
        if (err) failure ??= err;
        resolve();
      });
    });

  let fed = 0;
  let items = 0;
  let bodyDone = false;
  const stopped = (): boolean => failure !== undefined || asm.fatal !== undefined;
  try {
    let bom = true;
    for (const buf of head) {
      await write(bom ? stripBom(buf) : buf);
      bom = false;
      fed += buf.length;
      for (const parsed of drain(asm.queue)) {
        items++;
        yield parsed;
      }
      if (stopped()) break;
    }
    while (!stopped()) {
      let r: IteratorResult<Chunk>;
      try {
        r = await rest.next();
      } catch (err) {
        problems.error(path, `JSON read failed after ${fed} bytes: ${describeError(err)}`);
        return;
      }
      if (r.done) {
        bodyDone = true;
        break;
      }
      const buf = toBuffer(r.value);
      stats.bytes += buf.length;
      await write(buf);
      fed += buf.length;
      for (const parsed of drain(asm.queue)) {
        items++;
        yield parsed;
      }
    }
    if (!stopped()) {
      parser.end();
      await done;
    }
    for (const parsed of drain(asm.queue)) {
      items++;
      yield parsed;
    }
    if (asm.fatal !== undefined) {
      problems.error(path, `JSON rejected after ${items} objects: ${asm.fatal}`);
    } else if (failure !== undefined) {
      problems.error(path, `JSON parse error after ${items} objects, within the first ${fed} bytes: ${describeError(failure)}`);
    } else if (!ended || asm.open) {
      problems.error(path, `JSON ended early after ${items} objects`);
    }
    asm.finish();
  } finally {
    if (!parser.destroyed) parser.destroy();
    if (!bodyDone) {
      try {
        await rest.return?.();
      } catch {
        // the body's own cleanup failed: nothing more to read anyway
      }
    }
  }
}

function stripBom(buf: Buffer): Buffer {
  return buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.subarray(3) : buf;
}

/** Empties a queue in order (the queue may grow while being drained). */
function* drain<T>(queue: T[]): Generator<T> {
  let i = 0;
  try {
    while (i < queue.length) yield queue[i++] as T;
  } finally {
    queue.splice(0, i);
  }
}
