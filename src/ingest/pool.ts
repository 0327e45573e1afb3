/**
 * Worker threads that read entries: the main thread walks the container and hands each entry's
 * bytes to a worker, which runs `readEntry` with its own copy of the consumers (parsing YAML and
 * JSON, scanning logs) and answers with what the consumers took from it as plain data (see
 * `ParallelConsumer`), merged on the main thread in archive order by the walk.
 *
 * Bytes are copied once out of the decoder's chunks into blocks of {@link BLOCK_BYTES}, many
 * small files to a block, and each block is transferred (not cloned) with the entries it holds
 * in one message: a message per entry would cost more than most entries' parsing. At most
 * {@link BYTES_IN_FLIGHT_PER_THREAD} per thread are sent and not yet taken by a worker, so
 * reading the archive waits for the slowest reader and memory stays bounded. A worker that dies
 * ends the run with an error naming the entry it was reading (the bytes it held are gone, so it
 * cannot be replaced exactly); the pool never waits on a dead worker.
 */
import { Worker } from 'node:worker_threads';
import { describeError, type Problem } from '../core/problems.js';
import type { Limits } from '../core/limits.js';
import type { ClassifiedEntry } from '../layout/types.js';
import type { Entry } from '../sources/types.js';
import type { EntryConsumer, Need } from './consumer.js';
import { selfWorker } from '../core/assets.js';

/** Size of a block of entry bytes sent at once. */
export const BLOCK_BYTES = 256 * 1024;
/** Bytes sent to workers and not yet taken, per thread. */
export const BYTES_IN_FLIGHT_PER_THREAD = 4 * 1024 * 1024;
/** Entries sent and not yet merged, per thread (each holds what its consumers took until its turn). */
const ENTRIES_IN_FLIGHT_PER_THREAD = 256;
/** Entry parts gathered into one message at most. */
const PARTS_PER_MESSAGE = 128;

/** A module that builds a worker's consumers for one input, in the main thread's order. */
export interface ConsumerFactory {
  createConsumers(options: unknown): Promise<EntryConsumer[]>;
}

/** What a pool worker is started with. */
export interface EntryWorkerData {
  /**
   * URL of a module that is a {@link ConsumerFactory}; the single file, which has no module
   * files, leaves it out and gives its worker the module itself.
   */
  consumers?: string | undefined;
}

/** Tells an entry worker's data from a batch worker's, where one file starts both (the single file). */
export const ENTRY_WORKER_ROLE = 'mgsift-entry-worker';

/** What each worker is started with besides {@link EntryWorkerData}. */
export interface EntryWorkerStart extends EntryWorkerData {
  role: typeof ENTRY_WORKER_ROLE;
  /**
   * One Int32: the sequence number of the entry the worker is reading, so that a worker that
   * dies is told by the entry it died on (answers to the entries before it may not have left yet).
   */
  reading: SharedArrayBuffer;
}

/** One entry's answer: what each consumer took (by position), the bytes read and the problems. */
export interface EntryRead {
  bytes: number;
  /** Why the entry could not be read (the consumers are told on the main thread, in archive order). */
  failed?: string | undefined;
  /** Why part of it was not looked at (long lines cut); told as `failed` is. */
  unreadPart?: string | undefined;
  taken: unknown[];
  problems: Problem[];
  dropped: number;
}

/** A stretch of one entry's bytes in a block: the entry starts with it, ends with it, or both. */
export interface EntryPart {
  seq: number;
  start?: { path: string; size: number | undefined; classified: ClassifiedEntry; needs: (Need | undefined)[] } | undefined;
  offset: number;
  length: number;
  end?: { error?: string | undefined } | undefined;
}

/** Messages to a worker. */
export type ToWorker = { type: 'begin'; options: unknown; limits: Limits } | { type: 'parts'; block: ArrayBuffer | undefined; parts: EntryPart[] };

/** Messages from a worker: bytes taken from blocks, answers, and blocks no entry reads any more (given back to be filled again). */
export type FromWorker = { type: 'answers'; taken: number; answers: ({ seq: number } & EntryRead)[]; blocks: ArrayBuffer[] };

interface Pending {
  path: string;
  resolve: (read: EntryRead) => void;
  reject: (err: unknown) => void;
}

interface PoolWorker {
  worker: Worker;
  /** Bytes sent (or about to be) and not yet taken. */
  inFlight: number;
  pending: Map<number, Pending>;
  /** The block being filled, the parts it holds, and the part an entry is adding to. */
  block: Buffer | undefined;
  used: number;
  parts: EntryPart[];
  open: EntryPart | undefined;
}

export class WorkerStopped extends Error {}

export class EntryPool {
  private readonly workers: PoolWorker[] = [];
  private seq = 0;
  private inFlight = 0;
  private entries = 0;
  private failure: Error | undefined;
  private closing = false;
  private flushScheduled = false;
  private wake: { resolve: () => void; reject: (err: unknown) => void } | undefined;
  private readonly maxBytes: number;
  private readonly maxEntries: number;
  /** Blocks given back by workers: filling them again spares allocating (and collecting) a block per 256 KB. */
  private readonly free: ArrayBuffer[] = [];

  constructor(threads: number, data: EntryWorkerData) {
    this.maxBytes = threads * BYTES_IN_FLIGHT_PER_THREAD;
    this.maxEntries = threads * ENTRIES_IN_FLIGHT_PER_THREAD;
    for (let i = 0; i < threads; i++) this.workers.push(this.start(data));
  }

  /**
   * Starts an input: each worker builds fresh consumers from `options` (one pool can read
   * several inputs one after the other, its workers started once).
   */
  begin(options: unknown, limits: Limits): void {
    this.flush();
    for (const w of this.workers) w.worker.postMessage({ type: 'begin', options, limits } satisfies ToWorker);
  }

  /**
   * Hands one entry's bytes to the least busy worker; resolves once they are all handed over,
   * with the promise of the worker's answer.
   */
  async read(entry: Entry, classified: ClassifiedEntry, needs: readonly (Need | undefined)[]): Promise<{ answer: Promise<EntryRead> }> {
    await this.room(0);
    const target = this.workers.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
    const seq = this.seq++;
    let finished = false;
    const answer = new Promise<EntryRead>((resolve, reject) => target.pending.set(seq, { path: entry.path, resolve, reject }));
    answer.then(
      () => (finished = true),
      () => (finished = true),
    );
    this.entries++;
    const start = { path: entry.path, size: entry.size, classified, needs: [...needs] };
    let part: EntryPart | undefined;
    // The part of the block being filled that the entry adds to: a new one when the last left
    // with its block (full, or sent while this thread waited for the body's next chunk).
    const current = (): EntryPart => {
      if (part && target.open === part) return part;
      if (!target.block) {
        const reused = this.free.pop();
        target.block = reused ? Buffer.from(reused) : Buffer.allocUnsafeSlow(BLOCK_BYTES);
        target.used = 0;
      }
      part = { seq, start: part ? undefined : start, offset: target.used, length: 0 };
      target.parts.push(part);
      target.open = part;
      return part;
    };
    let error: string | undefined;
    try {
      for await (const chunk of entry.body()) {
        // The worker stopped reading (a file past the parse limit): the rest is skipped here.
        if (finished) break;
        let at = 0;
        while (at < chunk.length) {
          const into = current();
          const n = chunk.copy(target.block!, target.used, at);
          target.used += n;
          into.length += n;
          at += n;
          target.inFlight += n;
          this.inFlight += n;
          if (target.used === BLOCK_BYTES) {
            this.send(target);
            await this.room(1);
          }
        }
      }
    } catch (err) {
      if (err instanceof WorkerStopped) throw err;
      error = describeError(err);
    }
    current().end = { error };
    target.open = undefined;
    if (target.parts.length >= PARTS_PER_MESSAGE) this.send(target);
    else this.scheduleFlush();
    return {
      answer: answer.finally(() => {
        this.entries--;
        this.signal();
      }),
    };
  }

  /** A worker died: this pool reads nothing more. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Sends every gathered part (before waiting on answers that need them). */
  flush(): void {
    for (const w of this.workers) if (w.parts.length > 0) this.send(w);
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }

  private send(w: PoolWorker): void {
    const block = w.block;
    const buffer = block && w.used > 0 ? (block.buffer as ArrayBuffer) : undefined;
    // A block sent with room left keeps being filled by the next entries only if it was not sent.
    w.worker.postMessage({ type: 'parts', block: buffer, parts: w.parts } satisfies ToWorker, buffer ? [buffer] : []);
    if (buffer) w.block = undefined;
    w.parts = [];
    w.open = undefined;
  }

  /** Parts gathered while this thread works are sent as soon as it waits for anything. */
  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  /** Waits until `bytes` more fit in flight (0: one more entry). */
  private async room(bytes: number): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure;
      const fits = bytes === 0 ? this.entries < this.maxEntries : this.inFlight + bytes <= this.maxBytes;
      if (fits) return;
      this.flush();
      await new Promise<void>((resolve, reject) => (this.wake = { resolve, reject }));
    }
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.resolve();
  }

  private start(data: EntryWorkerData): PoolWorker {
    const reading = new Int32Array(new SharedArrayBuffer(4)).fill(-1);
    // The single file starts a copy of itself; the dev build, its worker script.
    const itself = selfWorker();
    const worker = new Worker(itself?.script ?? new URL('./entry-worker.js', import.meta.url), {
      eval: itself?.eval ?? false,
      workerData: { ...data, role: ENTRY_WORKER_ROLE, reading: reading.buffer as SharedArrayBuffer } satisfies EntryWorkerStart,
    });
    const self: PoolWorker = { worker, inFlight: 0, pending: new Map(), block: undefined, used: 0, parts: [], open: undefined };
    let crash: unknown;
    worker.on('message', (message: FromWorker) => {
      self.inFlight -= message.taken;
      this.inFlight -= message.taken;
      for (const block of message.blocks) if (this.free.length < this.maxBytes / BLOCK_BYTES) this.free.push(block);
      for (const { seq, ...read } of message.answers) {
        const pending = self.pending.get(seq);
        self.pending.delete(seq);
        pending?.resolve(read);
      }
      this.signal();
    });
    worker.on('error', (err) => (crash = err));
    worker.on('exit', (code) => {
      // Any end but `close` fails the run: entries could still be sent to this worker.
      if (this.failure === undefined && !this.closing) {
        const at = self.pending.get(Atomics.load(reading, 0)) ?? [...self.pending.values()][0];
        const why = crash !== undefined ? describeError(crash) : `exit code ${code}`;
        this.fail(new WorkerStopped(`a worker thread stopped (${why})${at ? ` while reading ${at.path}` : ''}; --threads 1 reads without worker threads`));
      }
    });
    return self;
  }

  private fail(err: Error): void {
    this.failure = err;
    for (const w of this.workers) {
      for (const pending of w.pending.values()) pending.reject(err);
      w.pending.clear();
    }
    const wake = this.wake;
    this.wake = undefined;
    wake?.reject(err);
  }
}
