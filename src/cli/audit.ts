import { Command, Option } from 'commander';
import { readAuditLogs } from '../analysis/audit.js';
import { DEFAULT_AUDIT_LIMITS, type AuditFilter } from '../facts/audit.js';
import { renderAuditJson, renderAuditMarkdown, renderAuditText, type AuditDoc } from '../report/audit.js';
import { parseDuration } from '../core/duration.js';
import { addLimitOptions } from './common.js';
import { isStdout, prepareOutput, undoOutput, writeAtomically } from './output.js';
import { limitsFrom, parseCount, timeBound, UsageError, type LimitFlags } from './options.js';

const AUDIT_FORMATS = ['text', 'md', 'json'] as const;
type AuditFormat = (typeof AUDIT_FORMATS)[number];

interface AuditFlags extends LimitFlags {
  user?: string;
  verb?: string;
  resource?: string;
  namespace?: string;
  since?: string;
  until?: string;
  all?: boolean;
  maxChanges?: string;
  rows?: string;
  format: AuditFormat;
  output?: string;
}

export function auditCommand(): Command {
  return addLimitOptions(
    new Command('audit')
      .description("read the API servers' audit logs: changes by people and non-platform accounts, throttled (429) and refused (401, 403) clients, the busiest clients")
      .argument('<input>', 'must-gather or gather-extra (directory or archive) holding audit_logs/, an audit log (.log, .log.gz), or a folder of them')
      .option('--user <name>', 'only requests of this user (system:admin, alice, system:serviceaccount:ns:name)')
      .option('--verb <verb>', 'only requests of this verb (get, list, watch, create, update, patch, delete, deletecollection)')
      .option('--resource <resource>', 'only requests on this resource: its plural (machineconfigpools), optionally /name (machineconfigpools/worker)')
      .option('--namespace <ns>', 'only requests on objects of this namespace')
      .option('--since <time>', 'only requests from this time: ISO 8601, or a duration before the newest event (2h, 90m, 1d12h)')
      .option('--until <time>', 'only requests up to this time: ISO 8601, or a duration before the newest event')
      .option('--all', "list changes by the platform's own accounts too (nodes, control-plane components, service accounts of openshift-* and kube-* namespaces)")
      .option('--max-changes <n>', 'changes listed, the newest first', String(DEFAULT_AUDIT_LIMITS.maxChanges))
      .option('--rows <n>', 'rows of the throttled, refused and busiest-clients tables', String(DEFAULT_AUDIT_LIMITS.maxRows))
      .addOption(new Option('--format <format>', 'output format').choices([...AUDIT_FORMATS]).default('text'))
      .option('-o, --output <file>', 'write to this file instead of stdout'),
  ).action(async (input: string, flags: AuditFlags) => {
    const limits = limitsFrom(flags);
    const auditLimits = { maxChanges: parseCount(flags.maxChanges ?? String(DEFAULT_AUDIT_LIMITS.maxChanges)), maxRows: parseCount(flags.rows ?? String(DEFAULT_AUDIT_LIMITS.maxRows)) };
    const target = flags.output === undefined || isStdout(flags.output) ? ({ kind: 'stdout' } as const) : ({ kind: 'file', path: flags.output } as const);
    const created = await prepareOutput(target);
    try {
      const filter = { ...staticFilter(flags), ...(await timeFilter(input, flags, limits)) };
      const reading = await readAuditLogs(input, { limits, filter, auditLimits });
      const doc: AuditDoc = { input, filters: describeFilters(flags), summary: reading.summary, problems: reading.problems.items };
      const text = { text: renderAuditText, md: renderAuditMarkdown, json: renderAuditJson }[flags.format](doc);
      if (target.kind === 'file') await writeAtomically(target.path, text);
      else process.stdout.write(text);
    } catch (err) {
      await undoOutput(created);
      throw err;
    }
  });
}

function staticFilter(flags: AuditFlags): AuditFilter {
  const [resource, ...name] = flags.resource?.split('/') ?? [];
  if (flags.resource !== undefined && (resource === '' || name.length > 1 || name[0] === '')) throw new UsageError(`--resource: '${flags.resource}' is neither a plural resource nor plural/name`);
  return { user: flags.user, verb: flags.verb, resource, name: name[0], namespace: flags.namespace, all: flags.all === true };
}

/**
 * `--since`/`--until`. A duration counts back from the newest event, which only a first pass
 * over the logs can tell: it is made only when a duration is given.
 */
async function timeFilter(input: string, flags: AuditFlags, limits: ReturnType<typeof limitsFrom>): Promise<AuditFilter> {
  const bounds = [flags.since, flags.until];
  const needsAnchor = bounds.some((b) => b !== undefined && !/^\d{4}-\d{2}-\d{2}/.test(b.trim()) && parseDuration(b.trim()) !== undefined);
  const anchor = needsAnchor ? newest(await readAuditLogs(input, { limits, auditLimits: { maxChanges: 1, maxRows: 1 } })) : undefined;
  return {
    since: flags.since !== undefined ? timeBound('--since', flags.since, anchor) : undefined,
    until: flags.until !== undefined ? timeBound('--until', flags.until, anchor) : undefined,
  };
}

function newest(reading: Awaited<ReturnType<typeof readAuditLogs>>): number | undefined {
  const last = reading.summary.window?.last;
  return last !== undefined ? Date.parse(last) : undefined;
}

function describeFilters(flags: AuditFlags): string[] {
  const out: string[] = [];
  if (flags.user !== undefined) out.push(`user ${flags.user}`);
  if (flags.verb !== undefined) out.push(`verb ${flags.verb}`);
  if (flags.resource !== undefined) out.push(`resource ${flags.resource}`);
  if (flags.namespace !== undefined) out.push(`namespace ${flags.namespace}`);
  if (flags.since !== undefined) out.push(`since ${flags.since}`);
  if (flags.until !== undefined) out.push(`until ${flags.until}`);
  if (flags.all === true) out.push('platform changes included');
  return out;
}
