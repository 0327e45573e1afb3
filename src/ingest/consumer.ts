import type { ClassifiedEntry } from '../layout/types.js';
import type { K8sObject } from '../parsers/k8s.js';
import type { Pick } from '../parsers/yaml-block.js';

/** What a consumer needs of an entry, decided from its classified path before a byte is read. */
export interface Need {
  /**
   * Parsed Kubernetes objects (YAML or JSON files; Lists expanded). A {@link Pick}: only the keys
   * of the document it names (a List's items under `items`) are read, when no other consumer
   * needs more (a YAML file is then parsed faster; the objects may hold more).
   */
  objects?: boolean | Pick;
  /**
   * With `objects`: the objects are wanted only from a file holding one of these words (the
   * consumer could match nothing else); a YAML file without any is read but not parsed for it.
   */
  objectsIfContains?: readonly string[] | undefined;
  /** Raw bytes (logs and other text), chunk by chunk. */
  text?: boolean;
  /**
   * With `text`: the consumer reads the text whole, as items or a document, not as lines cut at
   * --max-line-bytes; a long line in it is no part left unread.
   */
  wholeText?: boolean;
}

/** Where an object sat in its file. */
export interface ObjectPlace {
  /** 1-based line where the object starts, when it can be told cheaply. */
  line: number | undefined;
}

/**
 * A stage that reads the archive (facts, rule engine, inventory). The walker asks every
 * consumer what it needs of each entry and reads, parses and hands out only that.
 */
export interface EntryConsumer {
  need(entry: ClassifiedEntry): Need | undefined;
  object?(object: K8sObject, entry: ClassifiedEntry, place: ObjectPlace): void;
  text?(chunk: Buffer, entry: ClassifiedEntry): void;
  /** The entry's text is complete (called after the last `text` chunk, also when none came). */
  endText?(entry: ClassifiedEntry): void;
  /**
   * An entry this consumer needs could not be read, or only in part (a limit, a read or parse
   * failure): what it would have held is unknown.
   */
  unread?(entry: ClassifiedEntry, reason: string): void;
  /** After the last entry: the layout of the whole input is known. */
  end?(summary: WalkSummary): void;
}

export interface WalkSummary {
  layout: import('../layout/types.js').LayoutKind;
  /** Entries other than directories. */
  entries: number;
  files: number;
  bytesRead: number;
  /** Every entry's classification counts, by kind. */
  byKind: Record<string, number>;
  podLogs: number;
  podLogBytes: number;
  roots: string[];
}

/**
 * A consumer whose per-entry work can run in a worker thread (see `pool.ts`). In the worker,
 * after `keepEntriesApart`, what each entry yields is held back and handed over by `takeEntry`
 * as plain data; on the main thread `mergeEntry` adds it, entry after entry in archive order,
 * through the same code that adds what an entry read on this thread yields.
 */
export interface ParallelConsumer<T = unknown> extends EntryConsumer {
  /** Absent when the consumer holds nothing per entry that it must keep apart. */
  keepEntriesApart?(): void;
  /** What the entry just read yielded (structured-cloneable); the consumer forgets it. */
  takeEntry(): T;
  mergeEntry(taken: T): void;
}

export function isParallel(consumer: EntryConsumer): consumer is ParallelConsumer {
  return 'takeEntry' in consumer && 'mergeEntry' in consumer;
}

/**
 * A {@link ParallelConsumer} whose objects each yield a record that `add` keeps: on this thread
 * at once; in a worker thread the records are held back per entry and added on the main thread,
 * in archive order, by the same `add`.
 */
export abstract class RecordingConsumer<R> implements ParallelConsumer<R[]> {
  /** In a worker thread: the records of the entry being read. */
  private taken: R[] | undefined;

  abstract need(entry: ClassifiedEntry): Need | undefined;

  protected abstract add(record: R): void;

  /** Whether this runs in a worker thread, its records held back for the main thread. */
  protected get apart(): boolean {
    return this.taken !== undefined;
  }

  /** What an object yields: added now, or held back for the main thread. */
  protected record(record: R): void {
    if (this.taken) this.taken.push(record);
    else this.add(record);
  }

  keepEntriesApart(): void {
    this.taken = [];
  }

  takeEntry(): R[] {
    return this.taken?.splice(0) ?? [];
  }

  mergeEntry(taken: R[]): void {
    for (const record of taken) this.add(record);
  }
}
