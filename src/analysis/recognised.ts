import type { Need, ParallelConsumer, WalkSummary } from '../ingest/consumer.js';
import type { ClassifiedEntry } from '../layout/types.js';
import { LogShape } from '../parsers/log-shape.js';
import type { Problems } from '../core/problems.js';

/**
 * Looks at the first lines of every file that would be read as a bare log — the input given as
 * one file, or a `*.log` outside any gather root — and tells which of them are logs (see
 * `LogShape` for what it looks for). A file that is no log is no evidence of anything.
 */
export class BareLogRecogniser implements ParallelConsumer<{ logs: number; notLogs: number }> {
  private readonly shapes = new Map<string, LogShape>();
  logs = 0;
  notLogs = 0;

  constructor(readonly bareInput: boolean) {}

  takeEntry(): { logs: number; notLogs: number } {
    const taken = { logs: this.logs, notLogs: this.notLogs };
    this.logs = 0;
    this.notLogs = 0;
    return taken;
  }

  mergeEntry(taken: { logs: number; notLogs: number }): void {
    this.logs += taken.logs;
    this.notLogs += taken.notLogs;
  }

  need(entry: ClassifiedEntry): Need | undefined {
    return this.candidate(entry) ? { text: true } : undefined;
  }

  text(chunk: Buffer, entry: ClassifiedEntry): void {
    if (!this.candidate(entry)) return;
    let shape = this.shapes.get(entry.path);
    if (shape === undefined) {
      shape = new LogShape();
      this.shapes.set(entry.path, shape);
    }
    shape.push(chunk);
  }

  endText(entry: ClassifiedEntry): void {
    if (!this.candidate(entry)) return;
    const shape = this.shapes.get(entry.path) ?? new LogShape();
    shape.end();
    if (shape.isLog()) this.logs++;
    else this.notLogs++;
    this.shapes.delete(entry.path);
  }

  private candidate(entry: ClassifiedEntry): boolean {
    return entry.kind === 'pod-log' && (this.bareInput || (entry.rule === 'bare-log' && entry.root === undefined));
  }
}

/**
 * Why an input holds nothing mgsift can analyse, or undefined when it holds a must-gather,
 * inspect or gather-extra tree, or at least one file that reads as a log. The one line names
 * what was found instead, and the first thing that could not be read.
 */
export function nothingRecognised(summary: WalkSummary, logs: BareLogRecogniser, problems: Problems): string | undefined {
  if (summary.layout === 'must-gather' || summary.layout === 'inspect' || summary.layout === 'gather-extra') return undefined;
  if (logs.logs > 0) return undefined;
  const found: string[] = [];
  if (logs.bareInput) found.push(summary.bytesRead === 0 ? (problems.items.length > 0 ? '1 file that could not be read' : 'an empty file') : '1 file of unknown content (its first lines carry no log times or klog headers)');
  else if (logs.notLogs > 0) found.push(`${count(logs.notLogs, '.log file')} without log times or klog headers`);
  const unknown = logs.bareInput ? 0 : summary.files - logs.notLogs;
  if (unknown > 0) found.push(`${count(unknown, 'file')} of unknown content`);
  const others = summary.entries - summary.files;
  if (others > 0) found.push(`${count(others, 'link or special file', 'links or special files')}, not followed`);
  const first = problems.items.find((p) => p.severity === 'error') ?? problems.items[0];
  const broken = first ? `; ${first.path ? `${first.path}: ` : ''}${first.reason}` : '';
  return `no must-gather, inspect or gather-extra tree, and no log: found ${found.length > 0 ? found.join(', ') : 'nothing'}${broken}`;
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
