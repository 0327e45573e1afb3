import { Problems } from '../core/problems.js';
import type { Limits } from '../core/limits.js';
import { InputError, isSingleFile, openInput } from '../sources/open.js';
import { walk } from '../ingest/walk.js';
import { AuditCollector } from '../facts/audit-collector.js';
import type { AuditFilter, AuditLimits, AuditSummary } from '../facts/audit.js';

export interface AuditReading {
  input: string;
  summary: AuditSummary;
  problems: Problems;
}

export interface AuditReadOptions {
  limits: Limits;
  filter?: AuditFilter | undefined;
  auditLimits?: AuditLimits | undefined;
}

/**
 * One streaming pass over an input's audit logs (`mgsift audit`): a must-gather or gather-extra
 * holding `audit_logs/`, an audit log given alone, or a folder of them. Nothing else is read.
 */
export async function readAuditLogs(input: string, options: AuditReadOptions): Promise<AuditReading> {
  const problems = new Problems();
  const source = await openInput(input, { limits: options.limits, problems });
  const collector = new AuditCollector({ maxLineBytes: options.limits.maxLineBytes, filter: options.filter, limits: options.auditLimits, bareInput: isSingleFile(source) });
  const walked = await walk(source, [collector], { problems, limits: options.limits });
  const summary = collector.summary();
  if (summary.files.length === 0) {
    const stopped = problems.stopped ? `; ${problems.stopped.at}: ${problems.stopped.reason}` : '';
    throw new InputError(`${input}: no audit log found (looked for audit_logs/<server>/<node>-audit*.log[.gz] and files named audit*.log[.gz]; ${walked.files} file(s) read)${stopped}`);
  }
  return { input, summary, problems };
}
