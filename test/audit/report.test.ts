import { describe, expect, it } from 'vitest';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { tempDir } from '../helpers/archives.js';
import { mgsift } from '../helpers/cli.js';

const AUDIT_FIXTURE = new URL('../fixtures/audit/must-gather.local.5512', import.meta.url).pathname;
/** A must-gather whose worker pool is paused with a rendered config pending (the rule's firing fixture). */
const PAUSED = new URL('../../rules/mco/mco-pool-paused-update-pending.fixtures/fires-paused-with-pending-config/input', import.meta.url).pathname;
const schema = JSON.parse(readFileSync(new URL('../../schema/report.schema.json', import.meta.url), 'utf8')) as object;

const imageOf = (root: string): string => join(root, readdirSync(root).find((n) => n.startsWith('quay-io'))!);

/**
 * The paused-pool must-gather with the audit fixture's audit_logs/ in its image folder, and its
 * collection time (`timestamp`): a change after the collection is no cause of what was collected.
 */
function pausedWithAudit(): string {
  const dir = tempDir('mgsift-audit-report-');
  cpSync(PAUSED, dir, { recursive: true });
  const top = join(dir, readdirSync(dir)[0]!);
  cpSync(join(imageOf(AUDIT_FIXTURE), 'audit_logs'), join(imageOf(top), 'audit_logs'), { recursive: true });
  cpSync(join(AUDIT_FIXTURE, 'timestamp'), join(top, 'timestamp'));
  return top;
}

interface ReportJson {
  findings: { ruleId: string }[];
  audit?: { window: { first: string; last: string } | null; changes: unknown[]; about: { finding: string; object: string; changes: { user: string; verb: string; time: string }[] }[] };
}

describe('the report with audit logs', () => {
  const input = pausedWithAudit();
  const out = tempDir('mgsift-audit-out-');
  const run = mgsift(['analyze', input, '-o', out, '--format', 'json,md,html']);

  it('says who changed the object a finding is about', () => {
    expect(run.stderr).not.toMatch(/mgsift: error/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ReportJson;
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.findings.map((f) => f.ruleId)).toContain('mco-pool-paused-update-pending');
    const pool = report.audit?.about.find((a) => a.object === 'machineconfigpools/worker');
    expect(pool).toEqual(expect.objectContaining({ finding: 'mco-pool-paused-update-pending', changes: [expect.objectContaining({ user: 'alice', verb: 'patch', time: '2026-03-14T08:40:03.512Z' })] }));
  });

  it('has an Audit section in Markdown and HTML, and the audit window on the identity line', () => {
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/\| Audit logs \| 2026-03-14 01:10:00\.120Z to 2026-03-14 09:29:58\.001Z \(6 files, 156 requests\) \|/);
    expect(md).toMatch(/^## Audit$/m);
    expect(md).toMatch(/machineconfigpools\/worker \(mco-pool-paused-update-pending[^)]*\): alice patch \(200\) at 2026-03-14 08:40:03\.512Z from 10\.0\.4\.17/);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toMatch(/<section id="audit"/);
    expect(html).toMatch(/<dt>Audit logs<\/dt><dd class="path">2026-03-14 01:10:00\.120Z to 2026-03-14 09:29:58\.001Z/);
    expect(html).toMatch(/<td>system:serviceaccount:batch-reports:report-exporter<\/td><td>100<\/td>/);
  });

  it('has no Audit section without audit logs', () => {
    const plainOut = tempDir('mgsift-audit-out-');
    expect(mgsift(['analyze', PAUSED, '-o', plainOut, '--format', 'json,md']).stderr).not.toMatch(/mgsift: error/);
    expect((JSON.parse(readFileSync(join(plainOut, 'report.json'), 'utf8')) as ReportJson).audit).toBeUndefined();
    expect(readFileSync(join(plainOut, 'report.md'), 'utf8')).not.toMatch(/^## Audit$/m);
  });
});
