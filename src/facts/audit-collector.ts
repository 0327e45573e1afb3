import type { Need, ParallelConsumer } from '../ingest/consumer.js';
import type { ClassifiedEntry } from '../layout/types.js';
import { AuditLineSplitter, parseAuditLine, scanAuditRequest } from '../parsers/audit.js';
import { AuditTally, DEFAULT_AUDIT_LIMITS, type AuditFile, type AuditFilter, type AuditLimits, type AuditState, type AuditSummary } from './audit.js';

export interface AuditCollectorOptions {
  maxLineBytes: number;
  filter?: AuditFilter | undefined;
  limits?: AuditLimits | undefined;
  /** The input is one file given alone: it is read as an audit log whatever its name. */
  bareInput?: boolean | undefined;
}

/** A file named as an audit log (`audit.log`, `audit-<time>.log`, `<node>-audit.log.gz`) outside a gather tree. */
const AUDIT_FILE_NAME = /(?:^|[/-])audit[^/]*\.log(?:\.gz)?$/;

/**
 * Reads the audit logs of an input into an {@link AuditTally}: the `audit_logs/<server>/` files
 * of a must-gather or gather-extra, and audit logs given alone or in a folder of their own.
 * Every line is looked at once, in the chunk it arrives in; nothing of a file is held but the
 * line being split.
 */
export class AuditCollector implements ParallelConsumer<AuditState> {
  readonly tally: AuditTally;
  private reading: { path: string; splitter: AuditLineSplitter; file: AuditFile } | undefined;

  constructor(private readonly options: AuditCollectorOptions) {
    this.tally = new AuditTally(options.filter, options.limits ?? DEFAULT_AUDIT_LIMITS);
  }

  need(entry: ClassifiedEntry): Need | undefined {
    // Lines are split here, long ones kept at both ends: no part of a line is left unread for the walk to tell.
    return isAuditLog(entry, this.options.bareInput === true) ? { text: true, wholeText: true } : undefined;
  }

  text(chunk: Buffer, entry: ClassifiedEntry): void {
    this.begin(entry).splitter.push(chunk);
  }

  endText(entry: ClassifiedEntry): void {
    this.begin(entry).splitter.end();
    this.reading = undefined;
  }

  /** A file read in part (a truncated `.gz`, a limit): the events read are kept, the file is named. */
  unread(entry: ClassifiedEntry, reason: string): void {
    const file = this.tally.state.files.findLast((f) => f.path === entry.path) ?? this.tally.file(entry.path, serverOf(entry), entry.node ?? '');
    file.notReadWhole ??= reason;
  }

  keepEntriesApart(): void {
    // Each entry's tally is taken whole: nothing to set up.
  }

  takeEntry(): AuditState {
    return this.tally.take();
  }

  mergeEntry(taken: AuditState): void {
    this.tally.merge(taken);
  }

  summary(): AuditSummary {
    return this.tally.summary();
  }

  private begin(entry: ClassifiedEntry): NonNullable<AuditCollector['reading']> {
    if (this.reading?.path === entry.path) return this.reading;
    const file = this.tally.file(entry.path, serverOf(entry), entry.node ?? '');
    const splitter = new AuditLineSplitter((line) => {
      if (line === '') return;
      const request = scanAuditRequest(line);
      if (request !== undefined) {
        this.tally.add(request, () => parseAuditLine(line), file);
        return;
      }
      // Not in the API server's field order: read whole, once.
      const event = parseAuditLine(line);
      if (event === undefined) this.tally.notEvent();
      else this.tally.add(event, () => event, file);
    }, this.options.maxLineBytes);
    this.reading = { path: entry.path, splitter, file };
    return this.reading;
  }
}

/** Whether an entry is an audit log: by its place in a gather tree, by its name, or given alone. */
export function isAuditLog(entry: ClassifiedEntry, bareInput: boolean): boolean {
  if (entry.kind === 'audit-log') return true;
  if (entry.kind !== 'pod-log' || entry.root !== undefined) return false;
  return bareInput || (entry.rule === 'bare-log' && AUDIT_FILE_NAME.test(entry.path));
}

/** The API server a file is of: its gather folder, else a parent folder named after one (`kube-apiserver/x-audit.log`). */
function serverOf(entry: ClassifiedEntry): string {
  if (entry.service !== undefined) return entry.service;
  return /(?:^|\/)([a-z-]*(?:apiserver|oauth-server))\/[^/]+$/.exec(entry.path)?.[1] ?? '';
}
