import type { LogSignal } from './rule.js';

/** A line that some signal's literal (or no-literal scope) selected for its regex. */
export interface CandidateLine {
  text: string;
  lineNo: number;
  signals: readonly LogSignal[];
}

interface LiteralGroup {
  needle: Buffer;
  signals: LogSignal[];
}

/**
 * Finds candidate lines in a stream of log bytes, ripgrep-style: each distinct literal is
 * searched over whole buffers (native `indexOf`), and only lines around hits are decoded and
 * handed to the regexes. Identical literals of many rules are searched once, so cost grows
 * with distinct literals, not with rules. Signals without a literal see every line.
 */
export class LogScanner {
  private readonly groups: LiteralGroup[];
  private readonly everyLine: LogSignal[];
  private carry: Buffer | undefined;
  private lineBase = 1;

  constructor(
    signals: readonly LogSignal[],
    private readonly maxLineBytes: number,
    private readonly onCandidate: (line: CandidateLine) => void,
  ) {
    const byLiteral = new Map<string, LogSignal[]>();
    const everyLine: LogSignal[] = [];
    for (const signal of signals) {
      if (!signal.literals) {
        everyLine.push(signal);
        continue;
      }
      for (const literal of signal.literals) {
        const list = byLiteral.get(literal) ?? [];
        if (!list.includes(signal)) list.push(signal);
        byLiteral.set(literal, list);
      }
    }
    this.groups = [...byLiteral].map(([literal, list]) => ({ needle: Buffer.from(literal, 'utf8'), signals: list }));
    this.everyLine = everyLine;
  }

  push(chunk: Buffer): void {
    let start = 0;
    if (this.carry) {
      // Only the line that straddles the chunk boundary is copied, never the whole chunk.
      const newline = chunk.indexOf(10);
      if (newline < 0) {
        this.keep(Buffer.concat([this.carry, chunk]));
        return;
      }
      const line = Buffer.concat([this.carry, chunk.subarray(0, newline + 1)]);
      this.carry = undefined;
      this.scan(line, line.length);
      start = newline + 1;
    }
    const lastNewline = chunk.lastIndexOf(10);
    if (lastNewline < start) {
      if (start < chunk.length) this.keep(chunk.subarray(start));
      return;
    }
    this.scan(chunk.subarray(start, lastNewline + 1), lastNewline + 1 - start);
    if (lastNewline + 1 < chunk.length) this.keep(chunk.subarray(lastNewline + 1));
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
    const hits = new Map<number, Set<LogSignal>>();
    for (const group of this.groups) {
      let pos = buffer.indexOf(group.needle, 0);
      while (pos >= 0 && pos < end) {
        const start = buffer.lastIndexOf(10, pos) + 1;
        let set = hits.get(start);
        if (!set) hits.set(start, (set = new Set()));
        for (const signal of group.signals) set.add(signal);
        const lineEnd = buffer.indexOf(10, pos);
        pos = buffer.indexOf(group.needle, lineEnd + 1);
      }
    }
    let counted = 0;
    let lineNo = this.lineBase;
    const starts = [...hits.keys()].sort((a, b) => a - b);
    for (const start of starts) {
      lineNo += countNewlines(buffer, counted, start);
      counted = start;
      const lineEnd = buffer.indexOf(10, start);
      this.emit(buffer, start, lineEnd, lineNo, [...hits.get(start)!]);
    }
    this.lineBase = lineNo + countNewlines(buffer, counted, end);
  }

  private scanEveryLine(buffer: Buffer, end: number): void {
    let start = 0;
    while (start < end) {
      const lineEnd = buffer.indexOf(10, start);
      const signals = [...this.everyLine];
      for (const group of this.groups) {
        const at = buffer.indexOf(group.needle, start);
        if (at >= 0 && at < lineEnd) for (const s of group.signals) if (!signals.includes(s)) signals.push(s);
      }
      this.emit(buffer, start, lineEnd, this.lineBase, signals);
      this.lineBase++;
      start = lineEnd + 1;
    }
  }

  private emit(buffer: Buffer, start: number, lineEnd: number, lineNo: number, signals: LogSignal[]): void {
    let stop = Math.min(lineEnd, start + this.maxLineBytes);
    if (stop > start && buffer[stop - 1] === 13) stop--;
    this.onCandidate({ text: buffer.toString('utf8', start, stop), lineNo, signals });
  }
}

function countNewlines(buffer: Buffer, from: number, to: number): number {
  let n = 0;
  for (let pos = buffer.indexOf(10, from); pos >= 0 && pos < to; pos = buffer.indexOf(10, pos + 1)) n++;
  return n;
}
