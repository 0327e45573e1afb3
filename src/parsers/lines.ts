/**
 * Splits a stream of chunks into lines, counting line numbers. A line longer than
 * `maxLineBytes` is cut (the rest of it skipped), so one 200 MB "line" cannot exhaust memory.
 */
export class LineSplitter {
  private carry: Buffer | undefined;
  private lineNo = 0;
  private skipping = false;
  /** Lines cut at the limit. */
  cut = 0;

  constructor(
    private readonly onLine: (line: string, lineNo: number) => void,
    private readonly maxLineBytes: number,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) break;
      this.finish(chunk.subarray(start, nl));
      start = nl + 1;
    }
    if (start < chunk.length) this.hold(chunk.subarray(start));
  }

  end(): void {
    if (this.carry || this.skipping) this.finish(Buffer.alloc(0));
  }

  private hold(rest: Buffer): void {
    if (this.skipping) return;
    const carried = this.carry ? Buffer.concat([this.carry, rest]) : Buffer.from(rest);
    if (carried.length > this.maxLineBytes) {
      this.carry = carried.subarray(0, this.maxLineBytes);
      this.skipping = true;
    } else {
      this.carry = carried;
    }
  }

  private finish(tail: Buffer): void {
    let line: Buffer;
    if (this.skipping) {
      line = this.carry ?? Buffer.alloc(0);
      this.cut++;
    } else {
      line = this.carry ? Buffer.concat([this.carry, tail]) : tail;
      if (line.length > this.maxLineBytes) {
        line = line.subarray(0, this.maxLineBytes);
        this.cut++;
      }
    }
    this.carry = undefined;
    this.skipping = false;
    this.lineNo++;
    let end = line.length;
    if (end > 0 && line[end - 1] === 13) end--; // CRLF
    this.onLine(line.toString('utf8', 0, end), this.lineNo);
  }
}

/**
 * Counts lines longer than `maxLineBytes` in a stream of chunks without splitting it into
 * lines: it only asks whether each line's first `maxLineBytes` bytes hold a newline, so a log of
 * short lines costs one backwards search per `maxLineBytes` of text.
 */
export class LongLineCounter {
  /** Bytes of the current line seen in earlier chunks. */
  private open = 0;
  /** The current line is already counted. */
  private counted = false;
  count = 0;

  constructor(private readonly maxLineBytes: number) {}

  push(chunk: Buffer): void {
    let start = -this.open; // the current line's start, relative to this chunk
    for (;;) {
      const limit = start + this.maxLineBytes; // the byte that makes the line too long
      if (limit >= chunk.length) break;
      if (limit >= 0) {
        const newline = chunk.lastIndexOf(10, limit);
        if (newline >= 0 && newline >= start) {
          start = newline + 1;
          this.counted = false;
          continue;
        }
      }
      if (!this.counted) this.count++;
      this.counted = true;
      const end = chunk.indexOf(10, Math.max(limit, 0));
      if (end < 0) break;
      start = end + 1;
      this.counted = false;
    }
    const last = chunk.lastIndexOf(10);
    if (last >= 0 && last >= start) {
      this.open = chunk.length - last - 1;
      this.counted = false;
    } else {
      this.open = chunk.length - start;
    }
  }
}
