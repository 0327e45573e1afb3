/**
 * An unbounded queue read as an async iterable: pushes never wait, a read waits for a push.
 * Closing with an error makes the reader throw it once the items before it are read.
 */
export class Channel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private closed = false;
  private error: string | undefined;
  private wake: (() => void) | undefined;

  push(item: T): void {
    this.items.push(item);
    this.signal();
  }

  close(error?: string): void {
    this.closed = true;
    this.error = error;
    this.signal();
  }

  /** Takes every item not read yet (a reader that stopped early leaves them). */
  drain(): T[] {
    return this.items.splice(0);
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      if (this.items.length > 0) yield this.items.shift() as T;
      else if (this.closed) {
        if (this.error !== undefined) throw new Error(this.error);
        return;
      } else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
