/** Small helpers over streamed bodies (`AsyncIterable<Buffer>`). */

export interface Peeked {
  head: Buffer;
  /** The whole body again, `head` included, readable once. */
  body: AsyncIterable<Buffer>;
}

/** Reads at least `n` bytes (or the whole body if shorter) without losing them. */
export async function peek(body: AsyncIterable<Buffer>, n: number): Promise<Peeked> {
  const iterator = body[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < n) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  return { head: head.subarray(0, Math.min(head.length, n)), body: new Replay(head, iterator, done) };
}

/**
 * The bytes a peek took, then the rest of their source. A plain iterator, not an async
 * generator or closures: every entry of an archive is peeked, and a generator's own queue and
 * ticks cost more than the forwarding itself.
 */
class Replay implements AsyncIterableIterator<Buffer> {
  private pending: Buffer | undefined;
  private finished: boolean;

  constructor(
    head: Buffer,
    private readonly source: AsyncIterator<Buffer>,
    sourceDone: boolean,
  ) {
    this.pending = head.length > 0 ? head : undefined;
    this.finished = sourceDone;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Buffer> {
    return this;
  }

  next(): Promise<IteratorResult<Buffer>> {
    const pending = this.pending;
    if (pending !== undefined) {
      this.pending = undefined;
      return Promise.resolve({ done: false, value: pending });
    }
    if (this.finished) return DONE;
    return this.source.next().then(
      (next) => {
        if (next.done) this.finished = true;
        return next;
      },
      (err: unknown) => {
        this.finished = true;
        throw err;
      },
    );
  }

  /** As a generator's return: the source is left for its owner to drain. */
  return(): Promise<IteratorResult<Buffer>> {
    this.pending = undefined;
    this.finished = true;
    return DONE;
  }
}

/** The end of a body, for plain iterators over bodies (one settled promise, shared). */
export const DONE: Promise<IteratorResult<Buffer>> = Promise.resolve({ done: true, value: undefined });

/** A body larger than a caller's bound: the limit, not damage, stopped it. */
export class TooLargeError extends Error {}

/**
 * Reads a whole body into memory, refusing more than `max` bytes (TooLargeError). A body that
 * came in one chunk is that chunk (a view of its source's buffer: not to be kept past its use).
 */
export async function readAll(body: AsyncIterable<Buffer>, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += chunk.length;
    if (length > max) throw new TooLargeError(`larger than ${max} bytes`);
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
}

/** The body of an entry that has none (directory, link, device). */
// eslint-disable-next-line require-yield
export async function* emptyBody(): AsyncGenerator<Buffer> {}

/** A body of bytes already in memory; with `failure`, one that fails after them, as the body they were read from did. */
export async function* bufferBody(bytes: Buffer, failure?: unknown): AsyncGenerator<Buffer> {
  if (bytes.length > 0 || failure === undefined) yield bytes;
  if (failure !== undefined) throw failure;
}
