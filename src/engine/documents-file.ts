/**
 * Rule documents a build stored, read without parsing them all: a line of JSON (the header, whose
 * `documents` says where each document lies, by its key), then each document's JSON on a line of
 * its own. The built-in pack's (`npm run build`: dist/engine/pack-parsed.jsonl) and a rule
 * folder's (`mgsift rules build`: built-rules.ts). A run decodes the bytes of a document when it
 * asks for it: the same documents as one JSON of JSON strings took 55 ms to parse for 1,845 of them.
 */

/** Where each document's JSON lies: bytes from the end of the header's line, and how many. */
type DocumentPlaces = Record<string, [number, number]>;

/** The file's text: `header` with the places of `documents` (JSON by key) added, then the documents. */
export function documentsFileText(header: Record<string, unknown>, documents: ReadonlyMap<string, string>): string {
  const places: DocumentPlaces = {};
  let at = 0;
  for (const [key, json] of documents) {
    const length = Buffer.byteLength(json);
    places[key] = [at, length];
    at += length + 1;
  }
  return `${[JSON.stringify({ ...header, documents: places }), ...documents.values()].join('\n')}\n`;
}

export interface DocumentsFile {
  /** The header's own fields (its `documents` among them). */
  header: Record<string, unknown>;
  keys: string[];
  /** A document's JSON by its key; undefined for a key the file does not hold. */
  json(key: string): string | undefined;
}

/**
 * The documents of such a file's bytes; undefined when they are not such a file: its first line
 * JSON but no object, or a place outside the file (a file with a header alone holds no
 * document). A first line that is no JSON throws JSON's error.
 */
export function readDocumentsFile(bytes: Buffer): DocumentsFile | undefined {
  const newline = bytes.indexOf(NEWLINE);
  const parsed: unknown = JSON.parse(bytes.toString('utf8', 0, newline < 0 ? bytes.length : newline));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const header = parsed as Record<string, unknown>;
  const body = newline < 0 ? bytes.length : newline + 1;
  const places = header['documents'];
  const inFile = (place: unknown): place is [number, number] => {
    if (!Array.isArray(place)) return false;
    const [start, length] = place as unknown[];
    return Number.isSafeInteger(start) && Number.isSafeInteger(length) && (start as number) >= 0 && (length as number) >= 0 && body + (start as number) + (length as number) <= bytes.length;
  };
  if (typeof places !== 'object' || places === null || !Object.values(places).every(inFile)) return undefined;
  const held = places as DocumentPlaces;
  return {
    header,
    keys: Object.keys(held),
    json: (key) => {
      if (!Object.hasOwn(held, key)) return undefined;
      const [start, length] = held[key]!;
      return bytes.toString('utf8', body + start, body + start + length);
    },
  };
}

const NEWLINE = 0x0a;
