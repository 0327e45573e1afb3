import { anchorOf } from './byte-ranks.js';

/**
 * A literal that selects lines, with what a hit means to its owner. `accept`, when given, looks
 * at the bytes around a hit before any decoding (a klog level letter must start a header,
 * `level=` must be followed by `error`) and may refuse it.
 */
export interface Literal<T> {
  text: string;
  tag: T;
  accept?: ((buffer: Buffer, at: number, lineStart: number, lineEnd: number) => boolean) | undefined;
}

/** A line that some literal (or the every-line scope) selected, with the tags that selected it. */
export interface ScannedLine<T> {
  text: string;
  lineNo: number;
  tags: readonly T[];
}

interface Group<T> {
  needle: Buffer;
  /** What is searched for: the needle from its rarest byte (see {@link anchorOf}), `offset` bytes in. */
  anchor: Buffer;
  offset: number;
  members: { tag: T; accept: Literal<T>['accept'] }[];
}

/**
 * Finds lines in a stream of log bytes, ripgrep-style: each distinct literal is searched over
 * whole buffers (native `indexOf` for its anchor, the few bytes from its rarest one; the rest
 * compared at each anchor hit), and only the lines around hits are decoded. Identical
 * literals are searched once, so cost grows with distinct literals, not with their owners.
 * Tags in `everyLine` see every line.
 */
export class LiteralScanner<T> {
  private readonly groups: Group<T>[];
  private carry: Buffer | undefined;
  private lineBase = 1;

  constructor(
    literals: readonly Literal<T>[],
    private readonly everyLine: readonly T[],
    private readonly maxLineBytes: number,
    private readonly onLine: (line: ScannedLine<T>) => void,
  ) {
    const byText = new Map<string, Group<T>>();
    for (const literal of literals) {
      let group = byText.get(literal.text);
      if (!group) {
        const needle = needleOf(literal.text);
        byText.set(literal.text, (group = { needle, ...anchorOf(needle), members: [] }));
      }
      if (!group.members.some((m) => m.tag === literal.tag && m.accept === literal.accept)) group.members.push({ tag: literal.tag, accept: literal.accept });
    }
    this.groups = [...byText.values()];
  }

  push(chunk: Buffer): void {
    let start = 0;
    if (this.carry) {
      // Only the held partial line is copied, with the head of the chunk that ends it.
      const firstNewline = chunk.indexOf(10);
      if (firstNewline < 0) {
        this.keep(Buffer.concat([this.carry, chunk]));
        return;
      }
      const head = Buffer.concat([this.carry, chunk.subarray(0, firstNewline + 1)]);
      this.carry = undefined;
      this.scan(head, head.length);
      start = firstNewline + 1;
    }
    const lastNewline = chunk.lastIndexOf(10);
    if (lastNewline >= start) this.scan(chunk.subarray(start, lastNewline + 1), lastNewline + 1 - start);
    const rest = Math.max(start, lastNewline + 1);
    if (rest < chunk.length) this.keep(chunk.subarray(rest));
  }

  end(): void {
    if (this.carry && this.carry.length > 0) {
      const rest = this.carry;
      this.carry = undefined;
      this.scan(Buffer.concat([rest, Buffer.from('\n')]), rest.length + 1);
    }
  }

  /** A partial line waits for its end; beyond the line limit only its head is kept. */
  private keep(rest: Buffer): void {
    this.carry = Buffer.from(rest.length > this.maxLineBytes ? rest.subarray(0, this.maxLineBytes) : rest);
  }

  /** Scans `buffer[0, end)`, which ends with a newline. */
  private scan(buffer: Buffer, end: number): void {
    if (this.everyLine.length > 0) {
      this.scanEveryLine(buffer, end);
      return;
    }
    const hits = new Map<number, Set<T>>();
    for (const group of this.groups) this.findHits(group, buffer, end, hits);
    let counted = 0;
    let lineNo = this.lineBase;
    const starts = [...hits.keys()].sort((a, b) => a - b);
    for (const start of starts) {
      lineNo += countNewlines(buffer, counted, start);
      counted = start;
      this.emit(buffer, start, buffer.indexOf(10, start), lineNo, [...hits.get(start)!]);
    }
    this.lineBase = lineNo + countNewlines(buffer, counted, end);
  }

  /**
   * Adds the lines where `group` hits to `hits`. After a hit every member accepts, the search
   * goes on at the next line; after a refused one, right after it (a later hit on the same
   * line may be accepted). Line bounds are found once per line, whatever its number of hits.
   */
  private findHits(group: Group<T>, buffer: Buffer, end: number, hits: Map<number, Set<T>>): void {
    let lineStart = -1;
    let lineEnd = -1;
    let pos = nextHit(group, buffer, 0);
    while (pos >= 0 && pos < end) {
      if (pos > lineEnd) {
        lineStart = buffer.lastIndexOf(10, pos) + 1;
        lineEnd = buffer.indexOf(10, pos);
      }
      let accepted = 0;
      for (const member of group.members) {
        if (member.accept && !member.accept(buffer, pos, lineStart, lineEnd)) continue;
        let set = hits.get(lineStart);
        if (!set) hits.set(lineStart, (set = new Set()));
        set.add(member.tag);
        accepted++;
      }
      pos = nextHit(group, buffer, accepted === group.members.length ? lineEnd + 1 : pos + 1);
    }
  }

  /**
   * Every line is emitted; the literals are still searched over the whole buffer, once each
   * (searching each line for each literal would scan the buffer's rest per line and per literal).
   */
  private scanEveryLine(buffer: Buffer, end: number): void {
    const hits = new Map<number, Set<T>>();
    for (const group of this.groups) this.findHits(group, buffer, end, hits);
    let start = 0;
    while (start < end) {
      const lineEnd = buffer.indexOf(10, start);
      const tags = [...this.everyLine];
      for (const tag of hits.get(start) ?? []) if (!tags.includes(tag)) tags.push(tag);
      this.emit(buffer, start, lineEnd, this.lineBase, tags);
      this.lineBase++;
      start = lineEnd + 1;
    }
  }

  private emit(buffer: Buffer, start: number, lineEnd: number, lineNo: number, tags: T[]): void {
    let stop = Math.min(lineEnd, start + this.maxLineBytes);
    if (stop > start && buffer[stop - 1] === 13) stop--;
    this.onLine({ text: buffer.toString('utf8', start, stop), lineNo, tags });
  }
}

const needles = new Map<string, Buffer>();

/** The bytes of a literal, made once: scanners are made per log file. */
function needleOf(text: string): Buffer {
  let needle = needles.get(text);
  if (!needle) needles.set(text, (needle = Buffer.from(text, 'utf8')));
  return needle;
}

/** Where `group`'s needle next starts at or after `from`, or -1: its anchor is searched, the rest compared in place. */
function nextHit(group: Group<unknown>, buffer: Buffer, from: number): number {
  const { needle, anchor, offset } = group;
  for (let at = buffer.indexOf(anchor, from + offset); at >= 0; at = buffer.indexOf(anchor, at + 1)) {
    if (holdsAt(buffer, at - offset, needle)) return at - offset;
  }
  return -1;
}

function holdsAt(buffer: Buffer, start: number, needle: Buffer): boolean {
  if (start + needle.length > buffer.length) return false;
  for (let i = 0; i < needle.length; i++) if (buffer[start + i] !== needle[i]) return false;
  return true;
}

function countNewlines(buffer: Buffer, from: number, to: number): number {
  let n = 0;
  for (let pos = buffer.indexOf(10, from); pos >= 0 && pos < to; pos = buffer.indexOf(10, pos + 1)) n++;
  return n;
}
