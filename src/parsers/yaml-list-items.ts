/**
 * The items of a Kubernetes List as `oc` writes it (`items:` at the margin, each item a `- ` line
 * followed by lines indented two spaces), cut apart in the file's bytes, so that a reader can
 * look at an item before paying for its decoding and parse. Anything else (a single object,
 * several documents, a flow sequence) is left to the caller's parser, whole.
 */
const ITEMS = Buffer.from('\nitems:\n');
const ITEM_START = Buffer.from('\n- ');
const NEWLINE = 0x0a;
const DASH = 0x2d;
const SPACE = 0x20;

/** A line at the margin that is no item and no item's continuation. */
function startsMarginKey(bytes: Buffer, at: number): boolean {
  const c = bytes[at];
  return c !== undefined && c !== SPACE && c !== DASH && c !== NEWLINE;
}

/**
 * Items of an oc List from bytes that arrive in chunks: each complete item is handed out as soon as
 * the next one begins, as a view of its chunk where it lies in one (`onItem` must not keep it),
 * so a reader holds one chunk and one item, never a copy of the whole file. A text that turns
 * out to be no oc List is kept whole and handed out by `end`.
 */
export class ListItemStream {
  /** Bytes not yet handed out: the List's head until `items:`, then the item being read (a copy). */
  private pending: Buffer = Buffer.alloc(0);
  private inItems = false;

  constructor(private readonly onItem: (item: Buffer) => void) {}

  push(chunk: Buffer): void {
    if (!this.inItems) {
      // The first chunk is held as it is (a file of one chunk, the most, is never copied).
      this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
      const head = this.pending.subarray(0, ITEMS.length - 1).equals(ITEMS.subarray(1)) ? 0 : this.pending.indexOf(ITEMS) + 1;
      if (head === 0 && !this.pending.subarray(0, ITEMS.length - 1).equals(ITEMS.subarray(1))) return;
      const first = head + ITEMS.length - 1;
      if (this.pending.length < first + 2) return;
      if (this.pending[first] !== DASH || this.pending[first + 1] !== SPACE) return; // no oc List (or an empty one): kept whole
      this.inItems = true;
      chunk = this.pending.subarray(first);
      this.pending = Buffer.alloc(0);
    } else if (this.pending.length > 0) {
      // The item begun in an earlier chunk ends at the first item start of this one (which may
      // straddle the two: "\n" | "- " or "\n-" | " ").
      const tail = this.pending.subarray(-2).toString('latin1');
      const straddle = tail.endsWith('\n') && chunk.subarray(0, 2).toString('latin1') === '- ' ? 1 : tail === '\n-' && chunk[0] === SPACE ? 2 : 0;
      if (straddle > 0) {
        this.onItem(this.pending.subarray(0, this.pending.length - straddle));
        chunk = straddle === 2 ? Buffer.concat([Buffer.from('-'), chunk]) : chunk;
        this.pending = Buffer.alloc(0);
      } else {
        const next = chunk.indexOf(ITEM_START);
        if (next < 0) {
          this.pending = Buffer.concat([this.pending, chunk]);
          return;
        }
        this.onItem(Buffer.concat([this.pending, chunk.subarray(0, next)]));
        this.pending = Buffer.alloc(0);
        chunk = chunk.subarray(next + 1);
      }
    }
    // Every item but the last one begun in this chunk is complete.
    let at = 0;
    for (;;) {
      const next = chunk.indexOf(ITEM_START, at + 1);
      if (next < 0) break;
      this.onItem(chunk.subarray(at, next));
      at = next + 1;
    }
    // What is left is copied, so the chunk it came from is not kept alive by a view of it.
    this.pending = Buffer.from(chunk.subarray(at));
  }

  /** The last item (up to the List's own keys) or, for a text that was no oc List, the whole text. */
  end(): { lastItem?: Buffer; whole?: Buffer } {
    const pending = this.pending;
    this.pending = Buffer.alloc(0);
    if (!this.inItems) return { whole: pending };
    let end = 0;
    while (end < pending.length) {
      const newline = pending.indexOf(NEWLINE, end);
      if (newline < 0) return { lastItem: pending };
      if (startsMarginKey(pending, newline + 1)) return { lastItem: pending.subarray(0, newline) };
      end = newline + 1;
    }
    return { lastItem: pending };
  }
}

/**
 * An item of `ListItemStream` as a document: the `- ` and the two spaces of its other lines
 * removed (`from` 0: a part of an item that does not begin with `- `, as `cutTopLevelKey`'s section).
 */
export function listItemDocument(item: Buffer, from = 2): string {
  return item.toString('utf8', from).replace(/\n {2}/g, '\n');
}

/**
 * One top-level block mapping of an object's text cut out (`key:` alone on its line, its lines
 * indented further), with its top-level keys `margin` spaces in (two for a `ListItemStream` item,
 * zero for a document): the key's section and the text without it, so that objects sharing the
 * section (copies of one ConfigMap in every namespace) are parsed apart from it, once. Undefined
 * when the object has no such key, or writes it inline (`data: {}`).
 */
export function cutTopLevelKey(bytes: Buffer, key: string, margin: number): { section: Buffer; rest: Buffer } | undefined {
  const head = Buffer.from(`${key}:\n`);
  // The key's line: first in the text (after a List item's `- `), or after a newline and the margin.
  let start = margin === 2 && bytes[0] === DASH && bytes[1] === SPACE ? 2 : 0;
  if (!bytes.subarray(start, start + head.length).equals(head)) {
    const found = bytes.indexOf(Buffer.from(`\n${' '.repeat(margin)}${key}:\n`));
    if (found < 0) return undefined;
    start = found + 1 + margin;
  }
  // The section ends where a line holds a character at the margin (the next top-level key); an
  // empty line inside a block scalar does not end it.
  let end = bytes.length;
  for (let newline = bytes.indexOf(NEWLINE, start); newline >= 0; newline = bytes.indexOf(NEWLINE, newline + 1)) {
    const line = newline + 1;
    let spaces = 0;
    while (spaces < margin && bytes[line + spaces] === SPACE) spaces++;
    const next = bytes[line + spaces];
    if (next !== undefined && next !== NEWLINE && (spaces < margin || next !== SPACE)) {
      end = line + spaces;
      break;
    }
  }
  return { section: bytes.subarray(start, end), rest: Buffer.concat([bytes.subarray(0, start), bytes.subarray(end)]) };
}
