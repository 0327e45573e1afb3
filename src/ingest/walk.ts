import { describeError, type Problems } from '../core/problems.js';
import type { Limits } from '../core/limits.js';
import { LayoutDetector } from '../layout/classify.js';
import type { ClassifiedEntry } from '../layout/types.js';
import { parseYamlItems } from '../parsers/yaml.js';
import { parseJsonItems, parseJsonTextItems } from '../parsers/json.js';
import { readAll } from '../sources/bytes.js';
import { LongLineCounter } from '../parsers/lines.js';
import { contentPath, isSingleFile } from '../sources/open.js';
import type { Entry, InputPosition, Source } from '../sources/types.js';
import type { EntryConsumer, Need, WalkSummary } from './consumer.js';
import { itemLines } from './item-lines.js';

export interface WalkOptions {
  problems: Problems;
  limits: Limits;
  /** Called now and then with how far the walk got, for a progress display. */
  onProgress?: (progress: WalkProgress) => void;
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

  for await (const entry of source.entries()) {
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

    const needs = consumers.map((consumer) => consumer.need(classified));
    const wantObjects = needs.some((need) => need?.objects) && classified.format !== 'text';
    const wantText = needs.some((need) => need?.text);
    // must-gather writes each object of a listed resource twice: in the List and in its own file.
    const duplicate = !wantText && classified.kind !== 'list' && coveredByList.has(listKey(classified));
    if ((!wantObjects && !wantText) || duplicate) {
      if (classified.kind === 'pod-log') countPodLog(summary, entry.size);
      continue;
    }
    let bytes = 0;
    const problemsBefore = problems.items.length + problems.dropped;
    try {
      bytes = wantObjects
        ? await readObjects(entry, classified, consumers, needs, options)
        : await readText(entry, classified, consumers, needs, options, (read) => options.onProgress?.({ bytesRead: summary.bytesRead + read, input: source.position?.() }));
    } catch (err) {
      problems.error(entry.path, `read failed: ${describeError(err)}`);
    }
    if (wantObjects && classified.kind === 'list' && problems.items.length + problems.dropped === problemsBefore) {
      coveredByList.add(listKey(classified));
    }
    summary.bytesRead += bytes;
    if (classified.kind === 'pod-log') countPodLog(summary, bytes);
  }

  const report = detector.report();
  summary.layout = bare && report.layout === 'unknown' ? 'bare-log' : report.layout;
  summary.roots = report.roots.map((root) => root.path);
  for (const consumer of consumers) consumer.end?.(summary);
  return summary;
}

/** Objects of one resource in one namespace (or cluster-wide) of one gather root. */
function listKey(entry: ClassifiedEntry): string {
  return `${entry.root ?? ''}\0${entry.namespace ?? ''}\0${entry.group ?? ''}\0${entry.resource ?? ''}`;
}

function countPodLog(summary: WalkSummary, bytes: number | undefined): void {
  summary.podLogs++;
  summary.podLogBytes += bytes ?? 0;
}

async function readText(
  entry: Entry,
  classified: ClassifiedEntry,
  consumers: readonly EntryConsumer[],
  needs: readonly (Need | undefined)[],
  options: WalkOptions,
  onRead: (bytes: number) => void,
): Promise<number> {
  const readers = consumers.filter((_, i) => needs[i]?.text);
  const longLines = new LongLineCounter(options.limits.maxLineBytes);
  let bytes = 0;
  try {
    for await (const chunk of entry.body()) {
      bytes += chunk.length;
      longLines.push(chunk);
      for (const reader of readers) reader.text?.(chunk, classified);
      if (bytes % (16 * 1024 * 1024) < chunk.length) onRead(bytes);
    }
  } finally {
    for (const reader of readers) reader.endText?.(classified);
    if (longLines.count > 0) {
      options.problems.warn(entry.path, `${longLines.count} line(s) longer than ${options.limits.maxLineBytes} bytes cut (--max-line-bytes)`);
    }
  }
  return bytes;
}

async function readObjects(
  entry: Entry,
  classified: ClassifiedEntry,
  consumers: readonly EntryConsumer[],
  needs: readonly (Need | undefined)[],
  options: WalkOptions,
): Promise<number> {
  const { problems } = options;
  const objectReaders = consumers.filter((_, i) => needs[i]?.objects);
  const textReaders = consumers.filter((_, i) => needs[i]?.text);
  if (classified.format === 'json' && textReaders.length === 0) {
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
    problems.warn(entry.path, `not parsed: ${describeError(err)} (--max-parse-bytes)`);
    return undefined;
  });
  if (!buffer) return 0;
  for (const reader of textReaders) {
    reader.text?.(buffer, classified);
    reader.endText?.(classified);
  }
  const text = buffer.toString('utf8');
  const bytes = buffer.length;
  buffer = undefined; // the text replaces it: free it before the parse builds its objects
  const lines = itemLines(text);
  const items = classified.format === 'json' ? parseJsonTextItems(text, entry.path, problems) : parseYamlItems(text, entry.path, problems);
  for (const parsed of items) {
    const place = { line: lines(parsed.doc, parsed.item) };
    for (const reader of objectReaders) reader.object?.(parsed.object, classified, place);
  }
  return bytes;
}
