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
  async function* replay(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head: head.subarray(0, Math.min(head.length, n)), body: replay() };
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

/** A body of bytes already in memory. */
export async function* bufferBody(bytes: Buffer): AsyncGenerator<Buffer> {
  yield bytes;
}
