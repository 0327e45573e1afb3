import { describeError, type Problem, type Problems } from '../core/problems.js';
import type { Limits } from '../core/limits.js';
import { LayoutDetector } from '../layout/classify.js';
import type { ClassifiedEntry } from '../layout/types.js';
import type { Pick } from '../parsers/yaml-block.js';
import { pickLines } from '../parsers/yaml-pick.js';
import { bufferBody, readAll, TooLargeError } from '../sources/bytes.js';
import { LongLineCounter } from '../parsers/lines.js';
import { contentPath, isSingleFile } from '../sources/open.js';
import type { Entry, InputPosition, Source } from '../sources/types.js';
import { isParallel, type EntryConsumer, type Need, type ObjectPlace, type WalkSummary } from './consumer.js';
import type { EntryPool } from './pool.js';
import { itemLines } from './item-lines.js';

export interface WalkOptions {
  problems: Problems;
  limits: Limits;
  /** Called now and then with how far the walk got, for a progress display. */
  onProgress?: ((progress: WalkProgress) => void) | undefined;
  /** Worker threads that read the entries; without, they are read on this thread. */
  pool?: EntryPool | undefined;
}

export interface WalkProgress {
  /** Bytes of entries read (decompressed). */
  bytesRead: number;
  /** Position in the input file, when the input is one file (an archive). */
  input?: InputPosition | undefined;
}

/**
 * One streaming pass over an input: every entry is classified from its path, and read,
 * parsed and handed out only when some consumer needs it. One bad file is a problem
 * recorded, never the end of the run.
 */
export async function walk(source: Source, consumers: readonly EntryConsumer[], options: WalkOptions): Promise<WalkSummary> {
  const { problems } = options;
  const detector = new LayoutDetector();
  const summary: WalkSummary = { layout: 'unknown', entries: 0, files: 0, bytesRead: 0, byKind: {}, podLogs: 0, podLogBytes: 0, roots: [] };
  const bare = isSingleFile(source);
  const coveredByList = new Set<string>();
  const pool = options.pool;
  // With a pool, entries are read in worker threads and what they yield is merged here in
  // archive order: a List's outcome (covered or not) may still be on its way.
  const inOrder = pool ? new InOrder(problems) : undefined;
  const pendingLists = new Map<string, number>();
  /** The first path of each logical log: one log per namespace, pod, container and stream. */
  const logicalLogs = new Map<string, string>();

  /** Tells the consumers that need an entry what its read left unread, in archive order. */
  const unread = (classified: ClassifiedEntry, needs: readonly (Need | undefined)[], reason: string): void => {
    consumers.forEach((consumer, i) => {
      if (needs[i]) consumer.unread?.(classified, reason);
    });
  };
  // What the read left unread: a failure, a cut by a limit, lines cut, and for an object file
  // its first parse problem (a part not parsed may lack what a rule seeks).
  const tellUnread = (classified: ClassifiedEntry, needs: readonly (Need | undefined)[], outcome: EntryOutcome, cut: string | undefined, parseProblem: string | undefined): void => {
    if (outcome.failed !== undefined) unread(classified, needs, outcome.failed);
    if (cut !== undefined) unread(classified, needs, cut);
    if (outcome.unreadPart !== undefined) unread(classified, needs, outcome.unreadPart);
    if (wantsObjects(classified, needs) && parseProblem !== undefined) unread(classified, needs, parseProblem);
  };
  const merged = (classified: ClassifiedEntry, needs: readonly (Need | undefined)[], bytes: number, clean: boolean): void => {
    if (wantsObjects(classified, needs) && classified.kind === 'list' && clean) coveredByList.add(listKey(classified));
    summary.bytesRead += bytes;
    if (classified.kind === 'pod-log') countPodLog(summary, bytes);
  };
  /** Hands an entry to the pool; what it yields is merged in its slot. Resolves once its bytes are handed over. */
  const readInPool = async (
    pool: EntryPool,
    inOrder: InOrder,
    entry: Entry,
    slot: number,
    classified: ClassifiedEntry,
    needs: readonly (Need | undefined)[],
  ): Promise<void> => {
    const { answer } = await pool.read(entry, classified, needs);
    const cut = entry.cutShort?.();
    void answer.then((read) => {
      inOrder.fill(slot, () => {
        for (const [i, consumer] of consumers.entries()) if (isParallel(consumer)) consumer.mergeEntry(read.taken[i]);
        const kept = read.problems.map((problem) => inOrder.record(problem));
        problems.dropped += read.dropped;
        tellUnread(classified, needs, read, cut, kept[0] ? read.problems[0]?.reason : undefined);
        merged(classified, needs, read.bytes, read.problems.length + read.dropped === 0);
        if (pendingLists.get(listKey(classified)) === slot) pendingLists.delete(listKey(classified));
      });
    }, (err: unknown) => inOrder.fail(err));
  };
  const held = new HeldEntries();

  for await (const entry of source.entries()) {
    // Held entries whose List has been merged since are read (or dropped) first: only this
    // loop hands entries to the pool, one after the other, so their bytes never interleave.
    if (held.ready) await held.flush(false);
    // Directory entries are an artifact of the container (zip often has none): not counted.
    if (entry.type === 'directory') {
      detector.addDirectory(entry.path);
      continue;
    }
    summary.entries++;
    options.onProgress?.({ bytesRead: summary.bytesRead, input: source.position?.() });
    // Told by what the file holds; reports name it as stored (`….log.gz`).
    const classified = { ...detector.add(contentPath(entry)), path: entry.path };
    if (bare && classified.kind === 'other') classified.kind = 'pod-log';
    if (entry.type !== 'file') {
      if (entry.type === 'symlink' || entry.type === 'hardlink') problems.warn(entry.path, `${entry.type} to '${entry.linkTarget ?? ''}' not followed`);
      else if (entry.type === 'other') problems.warn(entry.path, 'device, FIFO or socket entry not read');
      continue;
    }
    summary.files++;
    summary.byKind[classified.kind] = (summary.byKind[classified.kind] ?? 0) + 1;

    // A Prow job's artifacts hold a pod's log twice (gather-extra's pods/<ns>_<pod>_<container>.log
    // and the must-gather's logs/current.log), and two image roots of one must-gather may overlap:
    // the first copy in the input is read, the others are named and left, never counted twice.
    const logKey = logicalLogKey(classified);
    const firstCopy = logKey === undefined ? undefined : logicalLogs.get(logKey);
    if (firstCopy !== undefined) {
      problems.warn(entry.path, `skipped as duplicate: the same log (${classified.namespace}/${classified.pod}/${classified.container}, ${classified.logStream ?? 'current'}) was read from ${firstCopy}`);
      continue;
    }
    if (logKey !== undefined) logicalLogs.set(logKey, entry.path);

    const needs = consumers.map((consumer) => consumer.need(classified));
    if (entry.skipped !== undefined) {
      // With a pool, after what the entries before it yield (the first reason a rule is not checked is kept).
      const skipped = entry.skipped;
      if (inOrder) inOrder.fill(inOrder.reserve(), () => unread(classified, needs, skipped));
      else unread(classified, needs, skipped);
      continue;
    }
    const wantObjects = wantsObjects(classified, needs);
    const wantText = needs.some((need) => need?.text);
    // must-gather writes each object of a listed resource twice: in the List and in its own file.
    const mayBeDuplicate = !wantText && classified.kind !== 'list';
    const pendingList = mayBeDuplicate ? pendingLists.get(listKey(classified)) : undefined;
    if (pendingList !== undefined && pool && inOrder) {
      // Its List is still being read by a worker: rather than wait for it (every worker idle
      // meanwhile), its bytes are held and it is read, or dropped as a copy, once the List is merged.
      if (wantObjects && held.fits(entry.size)) {
        const slot = inOrder.reserve();
        const key = listKey(classified);
        await held.hold(entry, inOrder.through(pendingList).then(() => coveredByList.has(key)), {
          read: (heldEntry) => readInPool(pool, inOrder, heldEntry, slot, classified, needs),
          drop: () => inOrder.fill(slot, () => undefined),
        });
        continue;
      }
      // Those held before it come first (the List's turn may wait for theirs).
      await held.flush(true);
      await inOrder.through(pendingList);
    }
    const duplicate = mayBeDuplicate && coveredByList.has(listKey(classified));
    if ((!wantObjects && !wantText) || duplicate) {
      if (classified.kind === 'pod-log') countPodLog(summary, entry.size);
      continue;
    }
    if (pool && inOrder) {
      const slot = inOrder.reserve();
      if (wantObjects && classified.kind === 'list') pendingLists.set(listKey(classified), slot);
      await readInPool(pool, inOrder, entry, slot, classified, needs);
      continue;
    }
    const problemsBefore = problems.items.length + problems.dropped;
    const problemsKept = problems.items.length;
    const read = await readEntry(entry, classified, consumers, needs, {
      ...options,
      onRead: (bytes) => options.onProgress?.({ bytesRead: summary.bytesRead + bytes, input: source.position?.() }),
    });
    tellUnread(classified, needs, read, entry.cutShort?.(), problems.items[problemsKept]?.reason);
    merged(classified, needs, read.bytes, problems.items.length + problems.dropped === problemsBefore);
  }
  await held.flush(true);
  await inOrder?.drained();

  const report = detector.report();
  summary.layout = bare && report.layout === 'unknown' ? 'bare-log' : report.layout;
  summary.roots = report.roots.map((root) => root.path);
  for (const consumer of consumers) consumer.end?.(summary);
  return summary;
}

/**
 * Which logical log a pod log is: namespace, pod, container and stream (a rotated file keeps
 * its own name; an `.insecure.log` is a fetch of its own). Undefined when the path does not tell them (a bare log).
 */
function logicalLogKey(entry: ClassifiedEntry): string | undefined {
  if (entry.kind !== 'pod-log' || !entry.namespace || !entry.pod || !entry.container) return undefined;
  const stream = entry.logStream === 'rotated' ? `rotated\0${entry.path.slice(entry.path.lastIndexOf('/') + 1)}` : (entry.logStream ?? 'current');
  // `current.insecure.log` is inspect's second try beside an empty or failed `current.log`: not a copy.
  const insecure = entry.rule === 'mg-pod-log-insecure' ? '\0insecure' : '';
  return `${entry.namespace}\0${entry.pod}\0${entry.container}\0${stream}${insecure}`;
}

/** Objects of one resource in one namespace (or cluster-wide) of one gather root. */
function listKey(entry: ClassifiedEntry): string {
  return `${entry.root ?? ''}\0${entry.namespace ?? ''}\0${entry.group ?? ''}\0${entry.resource ?? ''}`;
}

function countPodLog(summary: WalkSummary, bytes: number | undefined): void {
  summary.podLogs++;
  summary.podLogBytes += bytes ?? 0;
}

/** Whether some consumer needs the entry's objects and its format can hold objects (it is no plain text). */
function wantsObjects(classified: ClassifiedEntry, needs: readonly (Need | undefined)[]): boolean {
  return needs.some((need) => need?.objects) && classified.format !== 'text';
}

/** Total bytes of entries held while their List is read (see the walk), and the most one entry may hold. */
const HELD_MAX_BYTES = 8 * 1024 * 1024;
const HELD_ENTRY_MAX_BYTES = 1024 * 1024;

/** What becomes of an entry held: read (in the pool) when its List left it uncovered, else dropped. */
interface HeldFate {
  read(entry: Entry): Promise<void>;
  drop(): void;
}

interface Held {
  /** The entry, its body in memory (its `cutShort` still tells how the first read was cut). */
  entry: Entry;
  bytes: number;
  fate: HeldFate;
  /** Settles once the List is merged: whether it covered this entry. */
  covered: Promise<boolean>;
  outcome?: { covered: boolean } | { error: unknown } | undefined;
}

/**
 * Object files held in memory until their List is merged (within {@link HELD_MAX_BYTES}), in
 * archive order; each is read or dropped by {@link flush}, which the walk calls between entries.
 */
class HeldEntries {
  private bytes = 0;
  private readonly queue: Held[] = [];

  /** Whether an entry of this size (undefined: unknown) may be held now. */
  fits(size: number | undefined): boolean {
    return size !== undefined && size <= HELD_ENTRY_MAX_BYTES && this.bytes + size <= HELD_MAX_BYTES;
  }

  /**
   * Reads the entry's body into one buffer of its own (the decoder's chunks it came in are
   * larger, and would stay alive with it), to be read again, failing where it failed.
   */
  async hold(entry: Entry, covered: Promise<boolean>, fate: HeldFate): Promise<void> {
    const chunks: Buffer[] = [];
    let failure: unknown;
    try {
      for await (const chunk of entry.body()) chunks.push(chunk);
    } catch (err) {
      failure = err;
    }
    const bytes = Buffer.concat(chunks);
    const held: Held = { entry: { ...entry, body: () => bufferBody(bytes, failure) }, bytes: bytes.length, fate, covered };
    covered.then(
      (value) => (held.outcome = { covered: value }),
      (err: unknown) => (held.outcome = { error: err }),
    );
    this.bytes += held.bytes;
    this.queue.push(held);
  }

  /** Whether the first entry held can be read or dropped now. */
  get ready(): boolean {
    return this.queue[0]?.outcome !== undefined;
  }

  /** Reads or drops the entries held whose List was merged, in order; with `all`, waits for every one. */
  async flush(all: boolean): Promise<void> {
    while (this.queue.length > 0) {
      const held = this.queue[0]!;
      if (held.outcome === undefined) {
        if (!all) return;
        await held.covered.catch(() => undefined);
        continue;
      }
      this.queue.shift();
      this.bytes -= held.bytes;
      if ('error' in held.outcome) throw held.outcome.error;
      if (held.outcome.covered) held.fate.drop();
      else await held.fate.read(held.entry);
    }
  }
}

/**
 * Reads one entry into the consumers that need it (`needs`, one per consumer): parsed objects
 * or text chunks. A failure is a problem recorded, never thrown. Runs on the main thread, or in
 * a worker thread for the pool (`entry-worker.ts`) with the same consumers there.
 */
export async function readEntry(
  entry: Entry,
  classified: ClassifiedEntry,
  consumers: readonly EntryConsumer[],
  needs: readonly (Need | undefined)[],
  options: ReadOptions,
): Promise<EntryOutcome> {
  try {
    return wantsObjects(classified, needs) ? { bytes: await readObjects(entry, classified, consumers, needs, options) } : await readText(entry, classified, consumers, needs, options);
  } catch (err) {
    // What the consumers would have taken from it is unknown: the walk tells them (`unread`), in archive order.
    const failed = `read failed: ${describeError(err)}`;
    options.problems.error(entry.path, failed);
    return { bytes: 0, failed };
  }
}

export interface EntryOutcome {
  bytes: number;
  /** Why nothing of it could be read (a read failure). */
  failed?: string | undefined;
  /** Why part of what was read was not looked at (lines cut at --max-line-bytes). */
  unreadPart?: string | undefined;
}

export interface ReadOptions {
  problems: Problems;
  limits: Limits;
  /** Called now and then with the bytes of the entry read so far. */
  onRead?: ((bytes: number) => void) | undefined;
}

async function readText(
  entry: Entry,
  classified: ClassifiedEntry,
  consumers: readonly EntryConsumer[],
  needs: readonly (Need | undefined)[],
  options: ReadOptions,
): Promise<EntryOutcome> {
  const readers = consumers.filter((_, i) => needs[i]?.text);
  // Only a reader of lines cuts them at --max-line-bytes.
  const longLines = needs.some((need) => need?.text && !need.wholeText) ? new LongLineCounter(options.limits.maxLineBytes) : undefined;
  let bytes = 0;
  let unreadPart: string | undefined;
  try {
    for await (const chunk of entry.body()) {
      bytes += chunk.length;
      longLines?.push(chunk);
      for (const reader of readers) reader.text?.(chunk, classified);
      if (bytes % (16 * 1024 * 1024) < chunk.length) options.onRead?.(bytes);
    }
  } finally {
    for (const reader of readers) reader.endText?.(classified);
    if (longLines && longLines.count > 0) {
      // The rest of each long line was never scanned: a rule's line could be there.
      unreadPart = `${longLines.count} line(s) longer than ${options.limits.maxLineBytes} bytes cut (--max-line-bytes): the rest of each was not read`;
      options.problems.warn(entry.path, unreadPart);
    }
  }
  return { bytes, unreadPart };
}

/** The object parsers (js-yaml, stream-json), loaded at the first object read: `mgsift audit` reads none. */
let objectParsers: Promise<typeof import('../parsers/yaml.js') & typeof import('../parsers/json.js')> | undefined;
function loadObjectParsers(): NonNullable<typeof objectParsers> {
  objectParsers ??= Promise.all([import('../parsers/yaml.js'), import('../parsers/json.js')]).then(([yamlParser, jsonParser]) => ({ ...yamlParser, ...jsonParser }));
  return objectParsers;
}

async function readObjects(
  entry: Entry,
  classified: ClassifiedEntry,
  consumers: readonly EntryConsumer[],
  needs: readonly (Need | undefined)[],
  options: ReadOptions,
): Promise<number> {
  const { problems } = options;
  const { parseJsonItems, parseJsonTextItems, parseYamlItems } = await loadObjectParsers();
  const textReaders = consumers.filter((_, i) => needs[i]?.text);
  if (classified.format === 'json' && textReaders.length === 0) {
    // Streamed as it is read: too late to look for a need's words first, so every need is served.
    const objectReaders = consumers.filter((_, i) => needs[i]?.objects);
    let bytes = 0;
    async function* counted(): AsyncGenerator<Buffer> {
      for await (const chunk of entry.body()) {
        bytes += chunk.length;
        yield chunk;
      }
    }
    for await (const parsed of parseJsonItems(counted(), entry.path, problems)) {
      for (const reader of objectReaders) reader.object?.(parsed.object, classified, { line: undefined });
    }
    return bytes;
  }
  // YAML is parsed whole (js-yaml does not stream): files above the parse limit are skipped.
  let buffer: Buffer | undefined = await readAll(entry.body(), Math.min(options.limits.maxParseBytes, options.limits.maxEntryBytes)).catch((err: unknown) => {
    // Only a file over the bound is the parse limit's doing; a broken stream (a truncated .xz) is not.
    if (err instanceof TooLargeError) problems.warn(entry.path, `not parsed: ${describeError(err)} (--max-parse-bytes)`);
    else problems.warn(entry.path, `not parsed: read failed: ${describeError(err)}`);
    return undefined;
  });
  if (!buffer) return 0;
  for (const reader of textReaders) {
    reader.text?.(buffer, classified);
    reader.endText?.(classified);
  }
  const bytes = buffer.length;
  const held = buffer;
  const parsedFor = needs.map((need) => (need?.objects && containsAny(held, need.objectsIfContains) ? need : undefined));
  const objectReaders = consumers.filter((_, i) => parsedFor[i]);
  if (objectReaders.length === 0) return bytes;
  // Only some keys wanted (identities, a few fields): the lines that hold them are cut from the bytes, the rest never decoded.
  const pick = classified.format !== 'json' ? pickOf(parsedFor) : undefined;
  const picked = pick ? pickLines(buffer, topLevel(pick)) : undefined;
  const text = (picked ?? buffer).toString('utf8');
  // Lines are told in the file as it is (the picked lines keep its documents and items).
  const whole = picked ? buffer : undefined;
  buffer = undefined; // the text replaces it: free it before the parse builds its objects
  const lines = itemLines(whole ? () => whole.toString('utf8') : text);
  const items = classified.format === 'json' ? parseJsonTextItems(text, entry.path, problems) : parseYamlItems(text, entry.path, problems, pick ? { pick } : {});
  for (const parsed of items) {
    // Told when a reader asks: indexing the file's lines is wasted on objects no rule cites.
    const place = new LazyPlace(lines, parsed.doc, parsed.item);
    for (const reader of objectReaders) reader.object?.(parsed.object, classified, place);
  }
  return bytes;
}

/** Whether the bytes hold one of the words (no words: no condition). */
function containsAny(bytes: Buffer, words: readonly string[] | undefined): boolean {
  return words === undefined || words.some((word) => bytes.includes(word));
}

/** An object's line, worked out when asked (one shape for all: no closure per object). */
class LazyPlace implements ObjectPlace {
  constructor(
    private readonly lines: (doc: number, item: number | undefined) => number | undefined,
    private readonly doc: number,
    private readonly item: number | undefined,
  ) {}

  get line(): number | undefined {
    return this.lines(this.doc, this.item);
  }
}

/**
 * What the consumers' needs read of a YAML document, when none needs it whole: their pick when
 * they agree on one (one consumer picks today), else undefined (the document is read whole).
 */
function pickOf(needs: readonly (Need | undefined)[]): Pick | undefined {
  let out: Pick | undefined;
  for (const need of needs) {
    const objects = need?.objects;
    if (objects === true) return undefined;
    if (!objects) continue;
    if (out !== undefined && out !== objects) return undefined;
    out = objects;
  }
  return out;
}

const TOP_LEVEL = new WeakMap<Pick, Pick>();

/** A pick as `pickLines` cuts lines: top-level keys whole, List items' keys whole (the parse picks deeper). */
function topLevel(pick: Pick): Pick {
  let out = TOP_LEVEL.get(pick) as Record<string, Pick | true> | undefined;
  if (out) return out;
  out = {};
  TOP_LEVEL.set(pick, out);
  for (const [key, inner] of Object.entries(pick)) {
    out[key] = key === 'items' && inner !== true ? Object.fromEntries(Object.keys(inner).map((k) => [k, true])) : true;
  }
  return out;
}

/**
 * Runs what entries yield in archive order when they are read elsewhere: each entry read by
 * the pool takes a slot, filled when its worker answers; a slot runs once every slot before
 * it has. A problem found here (a link not followed) is placed among the entries' own.
 */
class InOrder {
  private readonly slots = new Map<number, { mark: number; run: (() => void) | undefined }>();
  private reserved = 0;
  private done = 0;
  /** Problems placed by slots run so far (the others were recorded by this thread as they came). */
  private inserted = 0;
  private current: { mark: number } | undefined;
  private failure: unknown;
  private readonly waiting = new Set<{ slot: number; resolve: () => void; reject: (err: unknown) => void }>();

  constructor(private readonly problems: Problems) {}

  reserve(): number {
    this.slots.set(this.reserved, { mark: this.problems.items.length - this.inserted, run: undefined });
    return this.reserved++;
  }

  fill(slot: number, run: () => void): void {
    const filled = this.slots.get(slot);
    if (filled) filled.run = run;
    for (let next = this.slots.get(this.done); next?.run !== undefined; next = this.slots.get(this.done)) {
      this.slots.delete(this.done++);
      this.current = next;
      next.run();
      this.current = undefined;
    }
    for (const wait of this.waiting) {
      if (wait.slot < this.done) {
        this.waiting.delete(wait);
        wait.resolve();
      }
    }
  }

  /**
   * A problem of the entry whose slot runs, placed after the problems this thread recorded
   * before that entry came, as when the entry is read here.
   */
  record(problem: Problem): boolean {
    const before = this.problems.items.length;
    this.problems.insert((this.current?.mark ?? before) + this.inserted, problem);
    if (this.problems.items.length === before) return false;
    this.inserted++;
    return true;
  }

  /** Waits until `slot` (and every one before it) has run. */
  through(slot: number): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (slot < this.done) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiting.add({ slot, resolve, reject }));
  }

  drained(): Promise<void> {
    return this.reserved === 0 ? Promise.resolve() : this.through(this.reserved - 1);
  }

  fail(err: unknown): void {
    this.failure ??= err;
    for (const wait of this.waiting) wait.reject(err);
    this.waiting.clear();
  }
}
