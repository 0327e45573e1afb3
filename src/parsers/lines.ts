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
