import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { AuditTally, REPORT_AUDIT_LIMITS } from '../../src/facts/audit.js';
import { parseAuditLine, scanAuditRequest } from '../../src/parsers/audit.js';
import { auditMarkdownSection, reportAudit, type AuditAbout } from '../../src/report/audit.js';
import type { ObjectRef } from '../../src/engine/diagnosis.js';
import type { Finding } from '../../src/engine/findings.js';

/** Real-shape audit events (test/fixtures/audit/build.mjs); the archive was collected at 09:30. */
const LOG = new URL('../fixtures/audit/who-changed-audit.log', import.meta.url).pathname;
const COLLECTED = Date.parse('2026-03-14T09:30:00Z');

function summaryOfLog(): NonNullable<Parameters<typeof reportAudit>[0]> {
  const tally = new AuditTally({}, REPORT_AUDIT_LIMITS);
  const file = tally.file(LOG, 'kube-apiserver', 'master-0.lab.example.net');
  for (const line of readFileSync(LOG, 'utf8').split('\n')) {
    const request = line === '' ? undefined : scanAuditRequest(line);
    if (request !== undefined) tally.add(request, () => parseAuditLine(line), file);
  }
  return tally.summary();
}

/** A finding about `object` whose first evidence is at `since` (none when undefined). */
function finding(ruleId: string, object: ObjectRef, since?: string): Finding {
  const evidence = [{ signal: 's', file: 'f.yaml', text: 'evidence', ...(since !== undefined ? { time: Date.parse(since) } : {}) }];
  return { ruleId, severity: 'warning', title: ruleId, headline: ruleId, component: 'c', tags: [], message: '', remediation: '', references: [], evidence, evidenceDropped: 0, about: [object], explains: [], explainedBy: [] };
}

const summary = summaryOfLog();
const desired = { version: '4.15.3', force: true };
const findings = [
  finding('mco-pool-paused-update-pending', { kind: 'MachineConfigPool', name: 'worker' }, '2026-03-14T09:00:00Z'),
  finding('workload-deployment-unavailable', { kind: 'Deployment', namespace: 'shop-legacy', name: 'api' }, '2026-03-14T09:03:40Z'),
  finding('default-scc-modified', { kind: 'SecurityContextConstraints', name: 'anyuid' }),
  finding('clusterversion-update-stalled', { kind: 'ClusterVersion', name: 'version' }, '2026-03-14T08:53:00Z'),
  finding('node-cordoned', { kind: 'Node', name: 'worker-2.lab.example.net' }, '2026-03-14T09:12:48Z'),
];
const about = reportAudit(summary, findings, { collectedAt: COLLECTED, desired })!.about;
const of = (ruleId: string): AuditAbout | undefined => about.find((a) => a.finding === ruleId);
const who = (a: AuditAbout | undefined): string[] => (a?.changes ?? []).map((c) => `${c.time} ${c.user} ${c.verb} ${c.resource}/${c.name}`);

describe('who changed the objects the findings are about, within the time that matters', () => {
  it('a pool paused by a person: the pause in the hour before the finding, not one long before, not the controller', () => {
    expect(of('mco-pool-paused-update-pending')?.object).toBe('machineconfigpools/worker');
    expect(who(of('mco-pool-paused-update-pending'))).toEqual(['2026-03-14T08:40:03.512Z alice patch machineconfigpools/worker']);
  });

  it('a namespace deleted: named for the objects that lived in it', () => {
    const a = of('workload-deployment-unavailable');
    expect(a?.object).toBe('namespaces/shop-legacy/deployments/api');
    expect(who(a)).toEqual(['2026-03-14T09:03:12.300Z dave@example.com delete namespaces/shop-legacy']);
    expect(a?.note).toBe("dave@example.com's delete came 28 s before what the finding shows began (2026-03-14 09:03:40Z).");
  });

  it('a default SCC edited (a finding without a time: any time before the collection)', () => {
    expect(of('default-scc-modified')?.object).toBe('securitycontextconstraints/anyuid');
    expect(who(of('default-scc-modified'))).toEqual(['2026-03-14T08:58:00.220Z erin@example.com update securitycontextconstraints/anyuid']);
  });

  it('a ClusterVersion update by a person: who and when; force only as the object shows it', () => {
    const a = of('clusterversion-update-stalled');
    expect(who(a)).toEqual(['2026-03-14T08:52:19.003Z alice patch clusterversions/version']);
    expect(a?.note).toMatch(/says who updated it and when, not what changed \(no request body at the Metadata level\)\. The ClusterVersion now asks for 4\.15\.3 with force: true/);
    const unforced = reportAudit(summary, [findings[3]!], { collectedAt: COLLECTED, desired: { version: '4.15.3', force: false } })!.about[0];
    expect(unforced?.note).toMatch(/now asks for 4\.15\.3\.$/);
    expect(unforced?.note).not.toMatch(/force/);
  });

  it('a node cordoned by hand: the patch near when it became unschedulable, not one after the collection', () => {
    const a = of('node-cordoned');
    expect(who(a)).toEqual(['2026-03-14T09:12:47.402Z dave@example.com patch nodes/worker-2.lab.example.net']);
    expect(a?.note).toMatch(/^dave@example\.com's patch came 1 s before what the finding shows began/);
  });

  it('says so in the report section', () => {
    const md = auditMarkdownSection(reportAudit(summary, findings, { collectedAt: COLLECTED, desired })!).join('\n');
    expect(md).toMatch(/namespaces\/shop-legacy\/deployments\/api \(workload-deployment-unavailable\): dave@example\.com delete \(200\) at 2026-03-14 09:03:12\.300Z from 10\.0\.4\.41, oc\/4\.14\.0 [^\n]*\(namespaces\/shop-legacy\)\. dave@example\.com's delete came 28 s before/);
  });
});
