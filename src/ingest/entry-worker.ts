/**
 * A worker thread of the entry pool (`pool.ts`): for each input (`begin`) builds the same
 * consumers as the main thread, then reads each entry it is sent with `readEntry`, exactly as
 * the main thread would, and answers with what every consumer took from it. Entries are read
 * one after the other, in the order they came; answers go back in batches.
 *
 * The dev build starts this script as the worker, which imports the consumers' module named in
 * its data; the single file starts itself, and its entry point calls {@link serveEntries} with
 * the consumers it bundles.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Problems } from '../core/problems.js';
import type { Limits } from '../core/limits.js';
import type { Entry } from '../sources/types.js';
import { isParallel, type EntryConsumer } from './consumer.js';
import type { ConsumerFactory, EntryPart, EntryWorkerStart, FromWorker, ToWorker } from './pool.js';
import { readEntry } from './walk.js';
import { Channel } from '../core/channel.js';

const port = parentPort;
if (port === null) throw new Error('entry-worker.js runs only as a worker thread');
const data = workerData as EntryWorkerStart;
const reading = new Int32Array(data.reading);
let factory: ConsumerFactory | undefined;
let input: { consumers: EntryConsumer[]; limits: Limits } | undefined;

/** Reads the entries the pool sends, with consumers built by `consumers` (messages wait in the port until then). */
export function serveEntries(consumers: ConsumerFactory): void {
  factory = consumers;
  port!.on('message', onMessage);
}

if (data.consumers !== undefined) {
  import(data.consumers).then((module: ConsumerFactory) => serveEntries(module), fatal);
}

/** Answers and bytes taken, sent together: when enough gathered, or when this thread waits. */
const outbox: FromWorker = { type: 'answers', taken: 0, answers: [], blocks: [] };
let outboxScheduled = false;
function flushOutbox(): void {
  if (outbox.taken === 0 && outbox.answers.length === 0 && outbox.blocks.length === 0) return;
  port!.postMessage(outbox, outbox.blocks);
  outbox.taken = 0;
  outbox.answers = [];
  outbox.blocks = [];
}

/** Parts of each block not yet read to the end of their entry: at 0 the block goes back. */
const blockUsers = new Map<ArrayBuffer, number>();
function release(blocks: readonly ArrayBuffer[]): void {
  for (const block of blocks) {
    const users = (blockUsers.get(block) ?? 1) - 1;
    if (users > 0) blockUsers.set(block, users);
    else {
      blockUsers.delete(block);
      outbox.blocks.push(block);
    }
  }
}
function post(taken: number, answer?: FromWorker['answers'][number]): void {
  outbox.taken += taken;
  if (answer) outbox.answers.push(answer);
  if (outbox.taken >= 1024 * 1024 || outbox.answers.length >= 64) flushOutbox();
  else if (!outboxScheduled) {
    outboxScheduled = true;
    setImmediate(() => {
      outboxScheduled = false;
      flushOutbox();
    });
  }
}

/** One entry's bytes as they arrive: the body `readEntry` reads; each block read counts as taken. */
class Body extends Channel<Buffer> {
  /** Blocks this entry's parts came in: given back once the entry is answered (nothing keeps views into them). */
  readonly sources: ArrayBuffer[] = [];

  override async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    for await (const block of super[Symbol.asyncIterator]()) {
      post(block.length);
      yield block;
    }
  }

  /** Blocks never read (the reader stopped early) count as taken. */
  discard(): void {
    post(this.drain().reduce((n, b) => n + b.length, 0));
  }
}

const bodies = new Map<number, Body>();
let queue = Promise.resolve();

/** An error here is a bug: it ends the thread, and the pool the run, rather than leave entries unanswered. */
function fatal(err: unknown): void {
  setImmediate(() => {
    throw err;
  });
}

function startEntry(seq: number, start: NonNullable<EntryPart['start']>): Body {
  const body = new Body();
  bodies.set(seq, body);
  const entry: Entry = { path: start.path, type: 'file', size: start.size, body: () => body };
  queue = queue
    .then(async () => {
      if (!input) throw new Error('an entry came before its input began');
      const { consumers, limits } = input;
      Atomics.store(reading, 0, seq);
      const problems = new Problems();
      const { bytes, failed, unreadPart } = await readEntry(entry, start.classified, consumers, start.needs, { problems, limits });
      const taken = consumers.map((consumer) => (isParallel(consumer) ? consumer.takeEntry() : undefined));
      // What came after the reader stopped, and what is still to come, is dropped.
      body.discard();
      bodies.delete(seq);
      release(body.sources);
      post(0, { seq, bytes, failed, unreadPart, taken, problems: problems.items, dropped: problems.dropped });
    })
    .catch(fatal);
  return body;
}

function onMessage(message: ToWorker): void {
  if (message.type === 'begin') {
    queue = queue
      .then(async () => {
        const consumers = await factory!.createConsumers(message.options);
        for (const consumer of consumers) if (isParallel(consumer)) consumer.keepEntriesApart?.();
        input = { consumers, limits: message.limits };
      })
      .catch(fatal);
    return;
  }
  const block = message.block;
  let users = 0;
  for (const part of message.parts) {
    const body = part.start ? startEntry(part.seq, part.start) : bodies.get(part.seq);
    if (part.length > 0) {
      // A part of an entry already answered (its reader stopped early) is dropped.
      if (body && block) {
        body.push(Buffer.from(block, part.offset, part.length));
        body.sources.push(block);
        users++;
      } else {
        post(part.length);
      }
    }
    if (part.end) body?.close(part.end.error);
  }
  if (block && users > 0) blockUsers.set(block, users);
  else if (block) release([block]);
}
