import { LiteralScanner, type Literal } from '../parsers/scan.js';
import type { LogSignal } from './rule.js';

/** A line that some signal's literal (or no-literal scope) selected for its regex. */
export interface CandidateLine {
  text: string;
  lineNo: number;
  signals: readonly LogSignal[];
}

/**
 * The rule engine's view of {@link LiteralScanner}: each signal's literals select lines for its
 * regex; signals without a literal see every line.
 */
export class LogScanner {
  private readonly scanner: LiteralScanner<LogSignal>;

  constructor(signals: readonly LogSignal[], maxLineBytes: number, onCandidate: (line: CandidateLine) => void) {
    const literals: Literal<LogSignal>[] = signals.flatMap((signal) => (signal.literals ?? []).map((text) => ({ text, tag: signal })));
    const everyLine = signals.filter((signal) => !signal.literals);
    this.scanner = new LiteralScanner(literals, everyLine, maxLineBytes, (line) => onCandidate({ text: line.text, lineNo: line.lineNo, signals: line.tags }));
  }

  push(chunk: Buffer): void {
    this.scanner.push(chunk);
  }

  end(): void {
    this.scanner.end();
  }
}
