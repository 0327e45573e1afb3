/**
 * The lines of a block-YAML file that hold the keys a {@link Pick} names, cut from the bytes
 * before anything is decoded: a must-gather's `secrets.yaml` is mostly base64 data, and a reader
 * that wants each Secret's name need not turn the rest into text. The lines kept are the file's
 * own, in order, so the result parses to the same documents and List items (an item whose keys
 * are all left out stays, as `{}`), with only the picked keys.
 *
 * It knows the layout `oc` writes — top-level keys in column 0, a List's `items` as `- ` lines in
 * column 0 with their keys in column 2 — and gives up (undefined) on anything else; the caller
 * then parses the whole file.
 */
import type { Pick } from './yaml-block.js';

const NEWLINE = 10;
const SPACE = 32;
const HASH = 35;
const DASH = 45;
const CR = 13;
const KEY = /^[A-Za-z0-9_.\/-]+$/;

type Region = 'keep' | 'drop';

export function pickLines(bytes: Buffer, pick: Pick): Buffer | undefined {
  const out: Buffer[] = [];
  /** Column of the key whose value the lines below belong to, and whether they are kept. */
  let region: Region = 'keep';
  let regionCol = 0;
  /** The pick of the List items, while inside a picked sequence value at column 0. */
  let items: Pick | undefined;
  /** Index in `out` of the current item's `-` line when its first key was left out, until a key is kept. */
  let emptyItem = -1;
  const endItem = (): void => {
    if (emptyItem >= 0) out[emptyItem] = Buffer.from('- {}\n');
    emptyItem = -1;
  };
  for (let pos = 0; pos < bytes.length; ) {
    const newline = bytes.indexOf(NEWLINE, pos);
    const end = newline < 0 ? bytes.length : newline + 1;
    let col = 0;
    while (pos + col < end && bytes[pos + col] === SPACE) col++;
    const line = bytes.subarray(pos, end);
    pos = end;
    const first = line[col];
    // Blank lines, comments and lines under the current key go with it.
    if (first === undefined || first === NEWLINE || first === CR || first === HASH || col > regionCol) {
      if (region === 'keep') out.push(line);
      continue;
    }
    if (col === 0 && line.subarray(0, 3).toString('latin1') === '---') {
      // A new document: its top-level keys follow.
      if (line.subarray(3).toString('latin1').trim() !== '') return undefined;
      endItem();
      items = undefined;
      out.push(line);
      region = 'keep';
      regionCol = 0;
      continue;
    }
    const entry = first === DASH && (col + 1 === line.length || line[col + 1] === SPACE || line[col + 1] === NEWLINE || line[col + 1] === CR);
    if (entry && col === 0 && items) {
      // `- key: value`: the next List item.
      endItem();
      const keyed = keyOf(line.subarray(2));
      if (keyed === undefined) {
        // `-` alone: the item's keys follow in column 2.
        if (line.subarray(1).toString('latin1').trim() !== '') return undefined;
        out.push(Buffer.from('-\n'));
        emptyItem = out.length - 1;
        region = 'keep';
        regionCol = 0;
        continue;
      }
      const inner = Object.hasOwn(items, keyed) ? items[keyed] : undefined;
      if (inner !== undefined && inner !== true) return undefined;
      if (inner === true) out.push(line);
      else {
        out.push(Buffer.from('-\n'));
        emptyItem = out.length - 1;
      }
      region = inner === true ? 'keep' : 'drop';
      regionCol = 2;
      continue;
    }
    if (entry && col === regionCol) {
      // A sequence written at its key's own indentation: still that key's value.
      if (region === 'keep') out.push(line);
      continue;
    }
    const key = keyOf(line.subarray(col));
    if (key === undefined) return undefined;
    if (col === 2 && items) {
      const inner = Object.hasOwn(items, key) ? items[key] : undefined;
      if (inner !== undefined && inner !== true) return undefined;
      if (inner === true) {
        out.push(line);
        emptyItem = -1;
      }
      region = inner === true ? 'keep' : 'drop';
      regionCol = 2;
      continue;
    }
    if (col !== 0) return undefined;
    // A top-level key: the items of a List end here.
    endItem();
    items = undefined;
    const inner = Object.hasOwn(pick, key) ? pick[key] : undefined;
    if (inner !== undefined) out.push(line);
    region = inner !== undefined ? 'keep' : 'drop';
    regionCol = 0;
    if (inner !== undefined && inner !== true) {
      // A picked sequence: its `- ` lines follow in column 0; `[]` or nothing on the key's line.
      const rest = line.subarray(key.length + 1).toString('latin1').trim();
      if (rest === '' || rest.startsWith('#')) items = inner;
      else if (rest !== '[]' && rest !== 'null') return undefined;
    }
  }
  endItem();
  return Buffer.concat(out);
}

/** The key of a `key: value` or `key:` line, when it is a plain one this reader knows. */
function keyOf(text: Buffer): string | undefined {
  const colon = text.indexOf(':');
  if (colon <= 0) return undefined;
  const after = text[colon + 1];
  if (after !== undefined && after !== SPACE && after !== NEWLINE && after !== CR) return undefined;
  const key = text.subarray(0, colon).toString('latin1');
  return KEY.test(key) ? key : undefined;
}
