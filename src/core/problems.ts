/**
 * What could not be read, and why. Every stage records here instead of throwing, so a
 * broken file or a truncated archive still yields a partial result that says what it lacks.
 */
export type ProblemSeverity = 'warning' | 'error';

export interface Problem {
  severity: ProblemSeverity;
  /** Path inside the input the problem concerns; empty for the input as a whole. */
  path: string;
  /** One line, for a person. */
  reason: string;
}

/** Where and why reading the input stopped before its end. */
export interface InputStop {
  /** A limit (--max-entries, --max-total-bytes, the bomb guard), or damage: the container is cut or corrupt. */
  by: 'limit' | 'damage';
  /** The last entry reached, `(start)` when none was. */
  at: string;
  /** What stopped it, one line (`xz: Unexpected end of input`). */
  reason: string;
  /** Entries the container gave before it stopped (directories included). */
  entries: number;
  /** Bytes of the container's stream read (a tar's, after decompression), when the container is a stream. */
  streamBytes?: number | undefined;
}

export class Problems {
  readonly items: Problem[] = [];
  /** Set when the input stopped early: a limit, or a truncated or corrupt container. */
  stopped: InputStop | undefined;
  private readonly cap: number;
  /** Problems past the cap are counted, not kept, so a hostile archive cannot grow this list. */
  dropped = 0;

  constructor(cap = 1000) {
    this.cap = cap;
  }

  warn(path: string, reason: string): void {
    this.add({ severity: 'warning', path, reason });
  }

  error(path: string, reason: string): void {
    this.add({ severity: 'error', path, reason });
  }

  /** Records a problem at `index` among those kept (one found elsewhere, put in archive order). */
  insert(index: number, problem: Problem): void {
    if (this.items.length >= this.cap) this.dropped++;
    else this.items.splice(index, 0, problem);
  }

  private add(problem: Problem): void {
    if (this.items.length >= this.cap) this.dropped++;
    else this.items.push(problem);
  }
}

/** One line from any thrown value: the message, never a stack. */
export function describeError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n', 1)[0] ?? '';
}
