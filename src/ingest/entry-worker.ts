/**
 * A worker thread of the entry pool (`pool.ts`): for each input (`begin`) builds the same
 * consumers as the main thread, then reads each entry it is sent with `readEntry`, exactly as
 * the main thread would, and answers with what every consumer took from it. Messages are
 * handled one after the other, in the order they came.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Problems } from '../core/problems.js';
import type { Limits } from '../core/limits.js';
import type { Entry } from '../sources/types.js';
import { isParallel, type EntryConsumer } from './consumer.js';
import type { EntryWorkerData, FromWorker, ToWorker } from './pool.js';
import { readEntry } from './walk.js';

const port = parentPort;
if (port === null) throw new Error('entry-worker.js runs only as a worker thread');
const data = workerData as EntryWorkerData;
const factory = (await import(data.consumers)) as { createConsumers(options: unknown): Promise<EntryConsumer[]> };
let input: { consumers: EntryConsumer[]; limits: Limits } | undefined;

/** One entry's bytes as they arrive: the body `readEntry` reads. */
class Body implements AsyncIterable<Buffer> {
  private readonly blocks: Buffer[] = [];
  private ended = false;
  private error: string | undefined;
  private wake: (() => void) | undefined;

  push(block: Buffer): void {
    this.blocks.push(block);
    this.signal();
  }

  end(error: string | undefined): void {
    this.ended = true;
    this.error = error;
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    for (;;) {
      const block = this.blocks.shift();
      if (block) {
        port!.postMessage({ type: 'taken', bytes: block.length } satisfies FromWorker);
        yield block;
      } else if (this.ended) {
        if (this.error !== undefined) throw new Error(this.error);
        return;
      } else {
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    }
  }

  /** Blocks never read (the reader stopped early) are given back to the sender's count. */
  discard(): void {
    const bytes = this.blocks.reduce((n, b) => n + b.length, 0);
    this.blocks.length = 0;
    if (bytes > 0) port!.postMessage({ type: 'taken', bytes } satisfies FromWorker);
  }
}

const bodies = new Map<number, Body>();
let queue = Promise.resolve();

port.on('message', (message: ToWorker) => {
  if (message.type === 'block') {
    const body = bodies.get(message.seq);
    // A block for an entry already answered (its reader stopped early) is dropped.
    if (body) body.push(Buffer.from(message.block, 0, message.length));
    else port.postMessage({ type: 'taken', bytes: message.length } satisfies FromWorker);
    return;
  }
  if (message.type === 'end') {
    bodies.get(message.seq)?.end(message.error);
    return;
  }
  if (message.type === 'begin') {
    queue = queue.then(async () => {
      const consumers = await factory.createConsumers(message.options);
      for (const consumer of consumers) if (isParallel(consumer)) consumer.keepEntriesApart();
      input = { consumers, limits: message.limits };
    });
    return;
  }
  const body = new Body();
  bodies.set(message.seq, body);
  const entry: Entry = { path: message.path, type: 'file', size: message.size, body: () => body };
  queue = queue.then(async () => {
    if (!input) throw new Error('an entry came before its input began');
    const { consumers, limits } = input;
    const problems = new Problems();
    const bytes = await readEntry(entry, message.classified, consumers, message.needs, { problems, limits });
    const taken = consumers.map((consumer) => (isParallel(consumer) ? consumer.takeEntry() : undefined));
    port.postMessage({ type: 'read', seq: message.seq, bytes, taken, problems: problems.items, dropped: problems.dropped } satisfies FromWorker);
    // What came after the reader stopped, and what is still to come, is dropped.
    body.discard();
    bodies.delete(message.seq);
  });
});
