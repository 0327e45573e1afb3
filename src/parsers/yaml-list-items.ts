/**
 * The items of a Kubernetes List as `oc` writes it (`items:` at the margin, each item a `- ` line
 * followed by lines indented two spaces), cut apart in the file's bytes, so that a reader can
 * look at an item before paying for its decoding and parse (`listItemText` then makes it a
 * document of its own). Undefined for any other shape (a single object, several documents, a
 * flow sequence): the caller then parses the file whole.
 */
export function listItemRanges(bytes: Buffer): [start: number, end: number][] | undefined {
  const start = bytes.subarray(0, ITEMS.length - 1).equals(ITEMS.subarray(1)) ? 0 : bytes.indexOf(ITEMS) + 1;
  if (start === 0 && !bytes.subarray(0, ITEMS.length - 1).equals(ITEMS.subarray(1))) return undefined;
  if (bytes.includes(DOCUMENT_START)) return undefined;
  const first = start + ITEMS.length - 1;
  if (first >= bytes.length || bytes[first] !== DASH) return bytes[first] === undefined || startsMarginKey(bytes, first) ? [] : undefined;
  if (bytes[first + 1] !== SPACE) return undefined;
  const ranges: [number, number][] = [];
  let at = first;
  for (;;) {
    const next = bytes.indexOf(ITEM_START, at);
    if (next < 0) break;
    ranges.push([at, next]);
    at = next + 1;
  }
  // The last item ends at the List's own keys (`kind: List`, `metadata:`): the first line at the margin that opens no item.
  let end = at;
  while (end < bytes.length) {
    const newline = bytes.indexOf(NEWLINE, end);
    if (newline < 0) {
      end = bytes.length;
      break;
    }
    if (startsMarginKey(bytes, newline + 1)) {
      end = newline;
      break;
    }
    end = newline + 1;
  }
  ranges.push([at, end]);
  return ranges;
}

/** An item of `listItemRanges` as a document: the `- ` and the two spaces of its other lines removed. */
export function listItemText(bytes: Buffer, [start, end]: readonly [number, number]): string {
  return bytes.toString('utf8', start + 2, end).replace(/\n {2}/g, '\n');
}

const ITEMS = Buffer.from('\nitems:\n');
const ITEM_START = Buffer.from('\n- ');
const DOCUMENT_START = Buffer.from('\n---');
const NEWLINE = 0x0a;
const DASH = 0x2d;
const SPACE = 0x20;

/** A line at the margin that is no item and no item's continuation. */
function startsMarginKey(bytes: Buffer, at: number): boolean {
  const c = bytes[at];
  return c !== undefined && c !== SPACE && c !== DASH && c !== NEWLINE;
}
