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
const COLON = 58;
const KEY = /^[A-Za-z0-9_.\/-]+$/;

type Region = 'keep' | 'drop';

export function pickLines(bytes: Buffer, pick: Pick): Buffer | undefined {
  const out: Buffer[] = [];
  /** Start of the run of kept lines not yet copied to `out` (runs are copied whole). */
  let run = -1;
  const keep = (start: number): void => {
    if (run < 0) run = start;
  };
  const cut = (at: number): void => {
    if (run >= 0 && at > run) out.push(bytes.subarray(run, at));
    run = -1;
  };
  const add = (text: string, at: number): number => {
    cut(at);
    out.push(Buffer.from(text));
    return out.length - 1;
  };
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
    const start = pos;
    pos = end;
    let at = start;
    while (at < end && bytes[at] === SPACE) at++;
    const col = at - start;
    const first = bytes[at];
    // Blank lines, comments and lines under the current key go with it.
    if (first === undefined || first === NEWLINE || first === CR || first === HASH || col > regionCol) {
      if (region === 'keep') keep(start);
      else cut(start);
      continue;
    }
    if (col === 0 && first === DASH && bytes[start + 1] === DASH && bytes[start + 2] === DASH) {
      // A new document: its top-level keys follow.
      if (!blank(bytes, start + 3, end)) return undefined;
      cut(start);
      endItem();
      items = undefined;
      keep(start);
      region = 'keep';
      regionCol = 0;
      continue;
    }
    const next = bytes[at + 1];
    const entry = first === DASH && (next === undefined || next === SPACE || next === NEWLINE || next === CR);
    if (entry && col === 0 && items) {
      // `- key: value`: the next List item.
      cut(start);
      endItem();
      const keyed = keyOf(bytes, start + 2, end);
      if (keyed === undefined) {
        // `-` alone: the item's keys follow in column 2.
        if (!blank(bytes, start + 1, end)) return undefined;
        emptyItem = add('-\n', start);
        region = 'keep';
        regionCol = 0;
        continue;
      }
      const inner = Object.hasOwn(items, keyed) ? items[keyed] : undefined;
      if (inner !== undefined && inner !== true) return undefined;
      if (inner === true) keep(start);
      else emptyItem = add('-\n', start);
      region = inner === true ? 'keep' : 'drop';
      regionCol = 2;
      continue;
    }
    if (entry && col === regionCol) {
      // A sequence written at its key's own indentation: still that key's value.
      if (region === 'keep') keep(start);
      else cut(start);
      continue;
    }
    const key = keyOf(bytes, at, end);
    if (key === undefined) return undefined;
    if (col === 2 && items) {
      const inner = Object.hasOwn(items, key) ? items[key] : undefined;
      if (inner !== undefined && inner !== true) return undefined;
      if (inner === true) {
        keep(start);
        emptyItem = -1;
      } else cut(start);
      region = inner === true ? 'keep' : 'drop';
      regionCol = 2;
      continue;
    }
    if (col !== 0) return undefined;
    // A top-level key: the items of a List end here.
    cut(start);
    endItem();
    items = undefined;
    const inner = Object.hasOwn(pick, key) ? pick[key] : undefined;
    if (inner !== undefined) keep(start);
    region = inner !== undefined ? 'keep' : 'drop';
    regionCol = 0;
    if (inner !== undefined && inner !== true) {
      // A picked sequence: its `- ` lines follow in column 0; `[]` or nothing on the key's line.
      const rest = bytes.toString('latin1', start + key.length + 1, end).trim();
      if (rest === '' || rest.startsWith('#')) items = inner;
      else if (rest !== '[]' && rest !== 'null') return undefined;
    }
  }
  cut(bytes.length);
  endItem();
  return Buffer.concat(out);
}

/** The key of a `key: value` or `key:` line starting at `start`, when it is a plain one this reader knows. */
function keyOf(bytes: Buffer, start: number, end: number): string | undefined {
  const colon = bytes.indexOf(COLON, start);
  if (colon <= start || colon >= end) return undefined;
  const after = colon + 1 < end ? bytes[colon + 1] : undefined;
  if (after !== undefined && after !== SPACE && after !== NEWLINE && after !== CR) return undefined;
  const key = bytes.toString('latin1', start, colon);
  return KEY.test(key) ? key : undefined;
}

function blank(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i] !== SPACE && bytes[i] !== NEWLINE && bytes[i] !== CR) return false;
  return true;
}
