import { describeError, type Problems } from '../core/problems.js';
import type { Limits } from '../core/limits.js';
import { LayoutDetector } from '../layout/classify.js';
import type { ClassifiedEntry } from '../layout/types.js';
import { parseYamlItems } from '../parsers/yaml.js';
import { parseJsonItems, parseJsonTextItems } from '../parsers/json.js';
import { readAll } from '../sources/bytes.js';
import { LongLineCounter } from '../parsers/lines.js';
import { isSingleFile } from '../sources/open.js';
import type { Entry, Source } from '../sources/types.js';
import type { EntryConsumer, Need, WalkSummary } from './consumer.js';
import { itemLines } from './item-lines.js';

export interface WalkOptions {
  problems: Problems;
  limits: Limits;
  /** Called with bytes read so far, for a progress display. */
  onProgress?: (bytesRead: number) => void;
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

  for await (const entry of source.entries()) {
    // Directory entries are an artifact of the container (zip often has none): not counted.
    if (entry.type === 'directory') {
      detector.addDirectory(entry.path);
      continue;
    }
    summary.entries++;
    const classified = detector.add(entry.path);
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
    if (!wantObjects && !wantText) {
      if (classified.kind === 'pod-log') countPodLog(summary, entry.size);
      continue;
    }
    let bytes = 0;
    try {
      bytes = wantObjects
        ? await readObjects(entry, classified, consumers, needs, options)
        : await readText(entry, classified, consumers, needs, options, summary.bytesRead);
    } catch (err) {
      problems.error(entry.path, `read failed: ${describeError(err)}`);
    }
    summary.bytesRead += bytes;
    if (classified.kind === 'pod-log') countPodLog(summary, bytes);
    options.onProgress?.(summary.bytesRead);
  }

  const report = detector.report();
  summary.layout = bare && report.layout === 'unknown' ? 'bare-log' : report.layout;
  summary.roots = report.roots.map((root) => root.path);
  for (const consumer of consumers) consumer.end?.(summary);
  return summary;
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
  before: number,
): Promise<number> {
  const readers = consumers.filter((_, i) => needs[i]?.text);
  const longLines = new LongLineCounter(options.limits.maxLineBytes);
  let bytes = 0;
  try {
    for await (const chunk of entry.body()) {
      bytes += chunk.length;
      longLines.push(chunk);
      for (const reader of readers) reader.text?.(chunk, classified);
      if (options.onProgress && bytes % (16 * 1024 * 1024) < chunk.length) options.onProgress(before + bytes);
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
