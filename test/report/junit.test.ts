import { describe, expect, it } from 'vitest';
import { attr, renderJunit, text } from '../../src/report/junit.js';
import type { Severity } from '../../src/engine/findings.js';
import { findAll, parseXml } from './xml.js';
import type { XmlElement } from './xml.js';
import { FINAL_SYNC_LINE, healthyReport, HOSTILE, manyEntriesReport, rollbackReport, SCRIPT, seed000Report } from './fixtures.js';

function suiteOf(xml: string): XmlElement {
  const root = parseXml(xml);
  expect(root.name).toBe('testsuites');
  const suites = findAll(root, 'testsuite');
  expect(suites).toHaveLength(1);
  const suite = suites[0];
  if (suite === undefined) throw new Error('no testsuite');
  expect(suite.attrs.name).toBe('mgsift');
  return suite;
}

function summary(suite: XmlElement): { tests: number; failures: number; skipped: number } {
  const cases = findAll(suite, 'testcase');
  const failures = cases.filter((c) => c.children.some((x) => x.name === 'failure')).length;
  const skipped = cases.filter((c) => c.children.some((x) => x.name === 'skipped')).length;
  expect(Number(suite.attrs.tests)).toBe(cases.length);
  expect(Number(suite.attrs.failures)).toBe(failures);
  expect(Number(suite.attrs.skipped)).toBe(skipped);
  expect(suite.attrs.errors).toBe('0');
  return { tests: cases.length, failures, skipped };
}

describe('renderJunit', () => {
  it.each([
    ['info', 2],
    ['warning', 1],
    ['error', 0],
    ['critical', 0],
  ] as [Severity, number][])('seed 000, --fail-on %s: %i failures, 3 skipped (2 not checked, 1 checked in part), 7 tests', (failOn, failures) => {
    const suite = suiteOf(renderJunit(seed000Report(), failOn));
    expect(summary(suite)).toEqual({ tests: 7, failures, skipped: 3 });
  });

  it('rollback: counts follow the threshold', () => {
    expect(summary(suiteOf(renderJunit(rollbackReport(), 'critical')))).toEqual({ tests: 5, failures: 1, skipped: 1 });
    // One failure per root cause: the ovnkube finding is a symptom of the rollback (in its failure text).
    expect(summary(suiteOf(renderJunit(rollbackReport(), 'warning')))).toEqual({ tests: 5, failures: 2, skipped: 1 });
    expect(summary(suiteOf(renderJunit(healthyReport(), 'info')))).toEqual({ tests: 3, failures: 0, skipped: 0 });
    expect(summary(suiteOf(renderJunit(manyEntriesReport(), 'warning')))).toEqual({ tests: 7, failures: 1, skipped: 3 });
  });

  it('one failure per root cause, its symptoms in the failure text; a symptom passes and names its root', () => {
    const cases = findAll(suiteOf(renderJunit(rollbackReport(), 'warning')), 'testcase');
    const root = cases.find((c) => c.attrs.name?.startsWith('unsupported-y-stream-rollback: '));
    const failure = root?.children.find((c) => c.name === 'failure');
    expect(failure?.text).toContain('Symptoms it explains (testcases of their own, passing):\n→ [warning] ovnkube-leader-lost: ovnkube-master exited 2 times with "No longer leader" since 2023-08-16T08:05:42Z · ovnkube-master lost leadership and exited (at 2023-08-16 08:05:42Z, inside the rollback');
    const symptom = cases.find((c) => c.attrs.name?.startsWith('ovnkube-leader-lost: '));
    expect(symptom?.children.map((c) => c.name)).toEqual(['system-out']);
    expect(symptom?.children[0]?.text).toMatch(/^Explained by root cause unsupported-y-stream-rollback/);
  });

  it('names testcases mgsift.<component> / "<ruleId>: <title>", failure has message and first evidence', () => {
    const suite = suiteOf(renderJunit(seed000Report(), 'warning'));
    const cases = findAll(suite, 'testcase');
    const sync = cases.find((c) => c.attrs.name?.startsWith('cvo-final-sync-lost: '));
    expect(sync?.attrs.classname).toBe('mgsift.cluster-version-operator');
    expect(sync?.attrs.name).toBe('cvo-final-sync-lost: Outgoing CVO exited before its final ClusterVersion status sync');
    const failure = sync?.children.find((c) => c.name === 'failure');
    expect(failure?.attrs.type).toBe('warning');
    expect(failure?.attrs.message).toMatch(/^\[warning\] The update to 4\.6\.8/);
    expect(failure?.text).toContain(FINAL_SYNC_LINE);
    expect(failure?.text).toContain('previous.log:10234');
    expect(failure?.text).toContain('(2 more evidence items in the full report)');
    // Lower findings pass, their message in system-out.
    const churn = cases.find((c) => c.attrs.name?.startsWith('cvo-pod-churn: '));
    expect(churn?.children.map((c) => c.name)).toEqual(['system-out']);
    expect(churn?.children[0]?.text).toContain('The CVO pod was replaced 13 times');
    // Rules not checked are skipped with their reason.
    const skipped = cases.find((c) => c.attrs.name?.startsWith('olm-staging-registry: '));
    expect(skipped?.children[0]?.name).toBe('skipped');
    expect(skipped?.children[0]?.attrs.message).toContain('No InstallPlan objects in the archive | <img src=x onerror=alert(1)>');
    // A rule checked in part is skipped too, never passed.
    const inPart = cases.find((c) => c.attrs.name?.startsWith('pod-crashlooping: '));
    expect(inPart?.children[0]?.name).toBe('skipped');
    expect(inPart?.children[0]?.attrs.message).toBe('checked in part: nothing found in what was gathered, but Pod objects of namespaces other than <img src=x onerror=alert(1)> were not gathered');
    // Passed rules are empty testcases.
    const passed = cases.find((c) => c.attrs.name?.startsWith('mco-ignition-spec-rollback: '));
    expect(passed?.children).toEqual([]);
    // Banners and problems in the suite's system-out; properties carry the identity.
    const out = suite.children.find((c) => c.name === 'system-out');
    expect(out?.text).toContain(`BANNER: Banner from the archive: ${SCRIPT}`);
    expect(out?.text).toContain('line 88123 cut at 65536 bytes');
    const props = Object.fromEntries(findAll(suite, 'property').map((p) => [p.attrs.name, p.attrs.value]));
    expect(props['cluster.id']).toBe('c2d5e0f8-6b1a-4c1e-9f3e-7a2b3c4d5e6f');
    expect(props['cluster.platform']).toBe('AWS <img src=x onerror=alert(1)>');
    expect(props['fail-on']).toBe('warning');
  });

  it('escapes hostile text and replaces characters illegal in XML 1.0', () => {
    const report = seed000Report();
    const sync = report.findings.find((f) => f.ruleId === 'cvo-final-sync-lost');
    if (sync === undefined) throw new Error('fixture');
    sync.message = `first "line" & 'quote' ${HOSTILE}\u0001\u0008\u000b\u000c\u001f\ufffe\ud800 tail\r\nsecond line ]]>`;
    sync.evidence.unshift({ signal: 's', file: `a]]>b${SCRIPT}`, text: `x\u0000y ]]> <![CDATA[ z` });
    const xml = renderJunit(report, 'warning');
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
    expect(xml).not.toContain('<script');
    expect(xml).not.toContain(']]>');
    const suite = suiteOf(xml); // throws if not well-formed
    const failure = findAll(suite, 'failure')[0];
    expect(failure?.attrs.message).toContain(`[warning] first "line" & 'quote' ${SCRIPT}`);
    expect(failure?.attrs.message).toContain('\u2400 nul');
    expect(failure?.text).toContain('x\u2400y ]]> <![CDATA[ z');
    expect(failure?.text).toContain('second line ]]>');
    expect(text('a\u0000<b>&')).toBe('a\u2400&lt;b&gt;&amp;');
    expect(attr('"\'\n\t')).toBe('&quot;&apos;&#10;&#9;');
  });

  it('is deterministic and starts with the XML declaration', () => {
    const xml = renderJunit(seed000Report(), 'error');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(renderJunit(seed000Report(), 'error')).toBe(xml);
  });

  it('the test XML reader rejects what is not well-formed', () => {
    expect(() => parseXml('<a><b></a></b>')).toThrow();
    expect(() => parseXml('<a x="1" x="2"/>')).toThrow();
    expect(() => parseXml('<a x="<"/>')).toThrow();
    expect(() => parseXml('<a>&nbsp;</a>')).toThrow();
    expect(() => parseXml('<a>\u0000</a>')).toThrow();
    expect(() => parseXml('<a>]]></a>')).toThrow();
    expect(() => parseXml('<a/><b/>')).toThrow();
    expect(() => parseXml('<a>x &amp; y &#10;</a>')).not.toThrow();
  });
});
