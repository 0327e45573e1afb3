/**
 * Worker threads that read entries: the main thread walks the container and hands each entry's
 * bytes to a worker, which runs `readEntry` with its own copy of the consumers (parsing YAML and
 * JSON, scanning logs) and answers with what the consumers took from it as plain data (see
 * `ParallelConsumer`), merged on the main thread in archive order by the walk.
 *
 * Bytes go over in blocks of up to {@link BLOCK_BYTES}, each copied once out of the decoder's
 * chunks and then transferred (not cloned). At most {@link BYTES_IN_FLIGHT_PER_THREAD} per
 * thread are sent and not yet taken by a worker: reading the archive waits for the slowest
 * reader, so memory stays bounded whatever the archive. A worker that dies ends the run with
 * an error naming the entry (the bytes it held are gone, so it cannot be replaced exactly).
 */
import { Worker } from 'node:worker_threads';
import { describeError, type Problem } from '../core/problems.js';
import type { Limits } from '../core/limits.js';
import type { ClassifiedEntry } from '../layout/types.js';
import type { Entry } from '../sources/types.js';
import type { Need } from './consumer.js';

/** Largest block of an entry's bytes sent at once. */
export const BLOCK_BYTES = 1024 * 1024;
/** Bytes sent to workers and not yet taken, per thread. */
export const BYTES_IN_FLIGHT_PER_THREAD = 4 * 1024 * 1024;
/** Entries sent and not yet merged, per thread (each holds what its consumers took until its turn). */
const ENTRIES_IN_FLIGHT_PER_THREAD = 64;

/** What a pool worker is started with. */
export interface EntryWorkerData {
  /** Module (URL) whose `createConsumers(options)` builds the consumers, in the main thread's order. */
  consumers: string;
}

/** One entry's answer: what each consumer took (by position), the bytes read and the problems. */
export interface EntryRead {
  bytes: number;
  taken: unknown[];
  problems: Problem[];
  dropped: number;
}

/** Messages to a worker. */
export type ToWorker =
  | { type: 'begin'; options: unknown; limits: Limits }
  | { type: 'entry'; seq: number; path: string; size: number | undefined; classified: ClassifiedEntry; needs: (Need | undefined)[] }
  | { type: 'block'; seq: number; block: ArrayBuffer; length: number }
  | { type: 'end'; seq: number; error?: string | undefined };

/** Messages from a worker. */
export type FromWorker = { type: 'taken'; bytes: number } | ({ type: 'read'; seq: number } & EntryRead);

interface Pending {
  seq: number;
  path: string;
  resolve: (read: EntryRead) => void;
  reject: (err: unknown) => void;
}

interface PoolWorker {
  worker: Worker;
  /** Bytes sent and not yet taken. */
  inFlight: number;
  pending: Map<number, Pending>;
}

export class WorkerStopped extends Error {}

export class EntryPool {
  private readonly workers: PoolWorker[] = [];
  private seq = 0;
  private inFlight = 0;
  private entries = 0;
  private failure: Error | undefined;
  private closing = false;
  private wake: { resolve: () => void; reject: (err: unknown) => void } | undefined;
  private readonly maxBytes: number;
  private readonly maxEntries: number;

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
    for (const w of this.workers) w.worker.postMessage({ type: 'begin', options, limits } satisfies ToWorker);
  }

  /**
   * Sends one entry's bytes to the least busy worker; resolves once they are all sent, with
   * the promise of the worker's answer.
   */
  async read(entry: Entry, classified: ClassifiedEntry, needs: readonly (Need | undefined)[]): Promise<{ answer: Promise<EntryRead> }> {
    await this.room(0);
    const target = this.workers.reduce((a, b) => (b.pending.size * BLOCK_BYTES + b.inFlight < a.pending.size * BLOCK_BYTES + a.inFlight ? b : a));
    const seq = this.seq++;
    let finished = false;
    const answer = new Promise<EntryRead>((resolve, reject) => {
      target.pending.set(seq, { seq, path: entry.path, resolve, reject });
    });
    void answer.then(
      () => (finished = true),
      () => (finished = true),
    );
    this.entries++;
    target.worker.postMessage({ type: 'entry', seq, path: entry.path, size: entry.size, classified, needs: [...needs] } satisfies ToWorker);
    let block: Buffer | undefined;
    let used = 0;
    let copied = 0;
    const flush = async (): Promise<void> => {
      if (!block || used === 0) return;
      await this.room(used);
      this.inFlight += used;
      target.inFlight += used;
      const buffer = block.buffer as ArrayBuffer;
      target.worker.postMessage({ type: 'block', seq, block: buffer, length: used } satisfies ToWorker, [buffer]);
      block = undefined;
      used = 0;
    };
    let error: string | undefined;
    try {
      for await (const chunk of entry.body()) {
        // The worker stopped reading (a file past the parse limit): the rest is skipped here.
        if (finished) break;
        let at = 0;
        while (at < chunk.length) {
          // Sized to what the entry says is left: small files take small blocks.
          block ??= Buffer.allocUnsafeSlow(Math.min(BLOCK_BYTES, Math.max(chunk.length - at, (entry.size ?? BLOCK_BYTES) - copied)));
          const n = chunk.copy(block, used, at);
          used += n;
          at += n;
          copied += n;
          if (used === block.length) await flush();
        }
      }
      await flush();
    } catch (err) {
      if (err instanceof WorkerStopped) throw err;
      error = describeError(err);
    }
    target.worker.postMessage({ type: 'end', seq, error } satisfies ToWorker);
    return {
      answer: answer.finally(() => {
        this.entries--;
        this.signal();
      }),
    };
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }

  /** Waits until `bytes` more fit in flight (and one more entry). */
  private async room(bytes: number): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure;
      const fits = bytes === 0 ? this.entries < this.maxEntries : this.inFlight === 0 || this.inFlight + bytes <= this.maxBytes;
      if (fits) return;
      await new Promise<void>((resolve, reject) => (this.wake = { resolve, reject }));
    }
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.resolve();
  }

  private start(data: EntryWorkerData): PoolWorker {
    const worker = new Worker(new URL('./entry-worker.js', import.meta.url), { workerData: data });
    const self: PoolWorker = { worker, inFlight: 0, pending: new Map() };
    let crash: unknown;
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'taken') {
        self.inFlight -= message.bytes;
        this.inFlight -= message.bytes;
        this.signal();
        return;
      }
      const pending = self.pending.get(message.seq);
      self.pending.delete(message.seq);
      pending?.resolve({ bytes: message.bytes, taken: message.taken, problems: message.problems, dropped: message.dropped });
    });
    worker.on('error', (err) => (crash = err));
    worker.on('exit', (code) => {
      // Any end but `close` fails the run: entries could still be sent to this worker.
      if (this.failure === undefined && !this.closing) {
        const first = [...self.pending.values()][0];
        const why = crash !== undefined ? describeError(crash) : `exit code ${code}`;
        this.fail(new WorkerStopped(`a worker thread stopped (${why})${first ? ` while reading ${first.path}` : ''}; --threads 1 reads without worker threads`));
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
