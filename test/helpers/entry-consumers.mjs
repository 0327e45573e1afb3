// Consumers for the entry-pool tests (test/ingest/threads.test.ts), built the same way on the
// main thread and in each worker: a recorder of what it was handed, in order, which can throw
// on one entry or end its thread on another, or keep its thread from reading anything until
// released (`stallUntil`: an Int32 in a SharedArrayBuffer, waited on while 0).

/** Records objects and text per entry; a ParallelConsumer (its records are merged in archive order). */
export class Recorder {
  constructor(options) {
    this.options = options;
    this.events = [];
    this.taken = undefined;
    this.bytes = 0;
  }

  need(entry) {
    if (entry.kind === 'pod-log') return { text: true };
    return entry.kind === 'list' || entry.kind === 'namespaced-object' ? { objects: true } : undefined;
  }

  object(object, entry, place) {
    this.trip(entry);
    this.record(`object ${entry.path}:${place.line ?? ''} ${object.kind}/${object.metadata?.name ?? ''}`);
  }

  text(chunk, entry) {
    this.trip(entry);
    this.bytes += chunk.length;
  }

  endText(entry) {
    this.record(`text ${entry.path} ${this.bytes} bytes`);
    this.bytes = 0;
  }

  trip(entry) {
    if (this.options.throwOn && entry.path.endsWith(this.options.throwOn)) throw new Error('boom in a consumer');
    if (this.options.exitOn && entry.path.endsWith(this.options.exitOn)) process.exit(3);
  }

  record(event) {
    (this.taken ?? this.events).push(event);
  }

  keepEntriesApart() {
    this.taken = [];
  }

  takeEntry() {
    return this.taken.splice(0);
  }

  mergeEntry(taken) {
    this.events.push(...taken);
  }
}

export async function createConsumers(options) {
  if (options.failToStart) throw new Error('no consumers today');
  if (options.stallUntil) Atomics.wait(new Int32Array(options.stallUntil), 0, 0);
  return [new Recorder(options)];
}
