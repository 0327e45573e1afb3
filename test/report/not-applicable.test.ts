import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRules, loadRuleText } from '../../src/engine/load.js';
import { buildReport } from '../../src/report/build.js';
import { nothingChecked, renderDiagnosisText } from '../../src/report/diagnosis.js';
import { renderHtml } from '../../src/report/html.js';
import { toJsonReport } from '../../src/report/json.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';

/** A 4.8.9 must-gather whose daemon logs have no aleph line (mco-old-boot-image reads it from 4.11 on). */
const AT_48 = fileURLToPath(new URL('../../rules/mco/mco-old-boot-image.fixtures/notapplicable-48-daemon-prints-no-aleph/input', import.meta.url));
const REASON =
  'the machine-config-daemon logs the boot image a node was installed from (CoreOS aleph version) from OpenShift 4.11; it is for OpenShift >=4.11.0-0; this cluster runs 4.8.9';

/** A rule the same archive can check (its MachineSets), so the report is not "nothing checked". */
const MACHINESETS = loadRuleText(
  'machinesets-seen.yaml',
  'id: machinesets-seen\ntitle: MachineSets without replicas\nseverity: warning\nstatus: experimental\ncomponent: demo\nsignals:\n  none:\n    resource:\n      group: machine.openshift.io\n      kind: MachineSet\n      where: "!has(object.spec.replicas)"\nmessage: x\n',
  false,
).rule!;

async function report(withChecked: boolean) {
  const { rules } = await loadRules();
  const selected = [...rules.filter((r) => r.id === 'mco-old-boot-image'), ...(withChecked ? [MACHINESETS] : [])];
  return buildReport(await analyzeInput(AT_48, { limits: DEFAULT_LIMITS, rules: selected }));
}

describe('rules not applicable in the report', () => {
  it('raise no "Read this first" and are listed with their reason in every format', async () => {
    const r = await report(true);
    expect(r.notChecked).toEqual([]);
    expect(r.notApplicable.map((n) => [n.ruleId, n.reason])).toEqual([['mco-old-boot-image', REASON]]);
    expect(r.banners.filter((b) => b.includes('could not be checked'))).toEqual([]);
    expect(nothingChecked(r)).toBeUndefined();

    const text = renderDiagnosisText(r);
    expect(text).not.toContain('Read this first');
    expect(text).toContain(`Rules not applicable (1):\n  mco-old-boot-image: ${REASON}\n`);
    expect(text).toContain('No problem found');

    const json = toJsonReport(r);
    expect(json.notChecked).toEqual([]);
    expect(json.notApplicable).toEqual([{ ruleId: 'mco-old-boot-image', title: expect.any(String), component: 'machine-config-operator', reason: REASON }]);

    const markdown = renderMarkdown(r);
    expect(markdown).not.toContain('Read this first');
    expect(markdown).toContain('## Rules not applicable');
    expect(markdown).toContain(`| mco-old-boot-image |`);
    expect(markdown).toContain('Every rule that applies here could be evaluated.');

    const html = renderHtml(r);
    expect(html).toContain('id="not-applicable"');
    expect(html).toContain('Rules not applicable');
    expect(html).toContain('it is for OpenShift &gt;&#x3D;4.11.0-0; this cluster runs 4.8.9');
    expect(html).not.toContain('could not be checked on this input');

    const junit = renderJunit(r, 'error');
    expect(junit).toMatch(/<testcase [^>]*name="mco-old-boot-image: [^"]*"[^>]*>\s*<skipped message="not applicable: the machine-config-daemon logs/);
  });

  it('a run where every rule is not applicable checked nothing, and says why', async () => {
    const r = await report(false);
    expect(nothingChecked(r)).toBe(`no rule could be checked (1 not applicable: mco-old-boot-image: ${REASON})`);
    expect(renderDiagnosisText(r)).toContain('Nothing checked: no rule could be checked on this input, so this report says nothing about the cluster\'s health (see "Rules not applicable").');
  });
});
