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
  // A plain iterator, not an async generator: every entry of an archive is peeked, and a
  // generator's own queue and ticks cost more than the forwarding itself.
  let pending: Buffer | undefined = head.length > 0 ? head : undefined;
  let finished = false;
  const replay: AsyncIterableIterator<Buffer> = {
    [Symbol.asyncIterator]() {
      return replay;
    },
    next(): Promise<IteratorResult<Buffer>> {
      if (pending !== undefined) {
        const value = pending;
        pending = undefined;
        return Promise.resolve({ done: false, value });
      }
      if (done || finished) return Promise.resolve({ done: true, value: undefined });
      return iterator.next().then(
        (next) => {
          if (next.done) {
            finished = true;
            return { done: true, value: undefined };
          }
          return { done: false, value: next.value };
        },
        (err: unknown) => {
          finished = true;
          throw err;
        },
      );
    },
    return(): Promise<IteratorResult<Buffer>> {
      // As a generator's return: the source is left for its owner to drain.
      pending = undefined;
      finished = true;
      return Promise.resolve({ done: true, value: undefined });
    },
  };
  return { head: head.subarray(0, Math.min(head.length, n)), body: replay };
}

/** A body larger than a caller's bound: the limit, not damage, stopped it. */
export class TooLargeError extends Error {}

/** Reads a whole body into memory, refusing more than `max` bytes (TooLargeError). */
export async function readAll(body: AsyncIterable<Buffer>, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += chunk.length;
    if (length > max) throw new TooLargeError(`larger than ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

/** The body of an entry that has none (directory, link, device). */
// eslint-disable-next-line require-yield
export async function* emptyBody(): AsyncGenerator<Buffer> {}

/** A body of bytes already in memory; with `failure`, one that fails after them, as the body they were read from did. */
export async function* bufferBody(bytes: Buffer, failure?: unknown): AsyncGenerator<Buffer> {
  if (bytes.length > 0 || failure === undefined) yield bytes;
  if (failure !== undefined) throw failure;
}
