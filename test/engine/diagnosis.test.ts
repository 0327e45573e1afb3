import { describe, it, expect } from 'vitest';
import { joinFindings, type DiagnosisNode, type LinkSubject } from '../../src/engine/diagnosis.js';
import { fieldValues, parseFieldPath } from '../../src/engine/field-path.js';

function subject(id: string, parts: Partial<LinkSubject> = {}): LinkSubject {
  return { id, rule: id, title: `title of ${id}`, headline: `headline of ${id}`, severity: 'error', about: [], mentions: [], times: [], windows: [], explains: [], ...parts };
}

/** A chain as `root > child > grandchild` lines, for short assertions. */
function shape(nodes: DiagnosisNode[], depth = 0): string[] {
  return nodes.flatMap((n) => [`${'  '.repeat(depth)}${n.ruleId}`, ...shape(n.explains, depth + 1)]);
}

const pool = { kind: 'MachineConfigPool', name: 'worker' };
const operator = { kind: 'ClusterOperator', name: 'machine-config' };
const node = { kind: 'Node', name: 'worker-0' };

describe('joinFindings', () => {
  it('follows what each finding names: drain → pool → operator → ClusterVersion', () => {
    const { links, diagnosis } = joinFindings([
      subject('cv-failing', { about: [{ kind: 'ClusterVersion', name: 'version' }], mentions: [operator] }),
      subject('co-degraded', { about: [operator], mentions: [pool], explains: [{ rules: [], kinds: ['ClusterVersion'], by: 'object' }] }),
      subject('pool-degraded', { about: [pool], mentions: [node], explains: [{ rules: [], kinds: ['ClusterOperator'], by: 'object' }] }),
      subject('drain', { about: [pool, node], explains: [{ rules: ['pool-degraded'], kinds: [], by: 'object' }] }),
    ]);
    expect(shape(diagnosis.roots)).toEqual(['drain', '  pool-degraded', '    co-degraded', '      cv-failing']);
    expect(links).toEqual([
      { cause: 'co-degraded', effect: 'cv-failing', reason: 'names ClusterOperator machine-config' },
      { cause: 'drain', effect: 'pool-degraded', reason: 'both about MachineConfigPool worker' },
      { cause: 'pool-degraded', effect: 'co-degraded', reason: 'names MachineConfigPool worker' },
    ]);
    expect(diagnosis.cyclesBroken).toEqual([]);
  });

  it('a kind entry needs the other finding to name the object; sharing it is for rules listed by id', () => {
    const both = { about: [operator] };
    const kindOnly = joinFindings([subject('a', { ...both, explains: [{ rules: [], kinds: ['ClusterOperator'], by: 'object' }] }), subject('b', both)]);
    expect(kindOnly.links).toEqual([]);
    const byRule = joinFindings([subject('a', { ...both, explains: [{ rules: ['b'], kinds: [], by: 'object' }] }), subject('b', both)]);
    expect(byRule.links).toEqual([{ cause: 'a', effect: 'b', reason: 'both about ClusterOperator machine-config' }]);
  });

  it('joins on time inside a window, and states the window', () => {
    const from = Date.parse('2023-10-05T01:24:51Z');
    const { links } = joinFindings([
      subject('rollback', { windows: [{ from, to: from + 3_600_000, label: 'the rollback 4.14 → 4.13' }], explains: [{ rules: ['churn', 'late'], kinds: [], by: 'time' }] }),
      subject('churn', { times: [from + 60_000 * 16] }),
      subject('late', { times: [from + 2 * 3_600_000] }),
    ]);
    expect(links).toEqual([
      { cause: 'rollback', effect: 'churn', reason: 'at 2023-10-05 01:40:51Z, inside the rollback 4.14 → 4.13 (2023-10-05 01:24:51Z – 2023-10-05 02:24:51Z)' },
    ]);
  });

  it('a rule may say why in its own words', () => {
    const { links } = joinFindings([
      subject('specific', { about: [operator], explains: [{ rules: ['generic'], kinds: [], by: 'object', because: 'its evidence includes the rollback' }] }),
      subject('generic', { about: [operator] }),
    ]);
    expect(links[0]?.reason).toBe('its evidence includes the rollback');
  });

  it('breaks a cycle deterministically, whatever the input order, and says so', () => {
    const mutual = (id: string, other: string): LinkSubject =>
      subject(id, { about: [operator], explains: [{ rules: [other], kinds: [], by: 'object' }] });
    const one = joinFindings([mutual('a-rule', 'b-rule'), mutual('b-rule', 'a-rule')]);
    const two = joinFindings([mutual('b-rule', 'a-rule'), mutual('a-rule', 'b-rule')]);
    expect(one).toEqual(two);
    expect(shape(one.diagnosis.roots)).toEqual(['a-rule', '  b-rule']);
    expect(one.diagnosis.cyclesBroken).toEqual([
      'b-rule and a-rule explain each other; kept a-rule → b-rule (found first), dropped b-rule → a-rule',
    ]);
  });

  it('keeps the longest chain: a link implied by a longer one is dropped', () => {
    const { links } = joinFindings([
      subject('root', { about: [pool, operator], explains: [{ rules: ['mid', 'leaf'], kinds: [], by: 'object' }] }),
      subject('mid', { about: [pool], explains: [{ rules: ['leaf'], kinds: [], by: 'object' }] }),
      subject('leaf', { about: [operator], mentions: [pool] }),
    ]);
    expect(links.map((l) => `${l.cause}>${l.effect}`)).toEqual(['mid>leaf', 'root>mid']);
  });

  it('roots: most severe chain first; an info finding is a root only when it explains a problem', () => {
    const { diagnosis } = joinFindings([
      subject('warn-root', { severity: 'warning', about: [node], explains: [{ rules: ['critical-symptom'], kinds: [], by: 'object' }] }),
      subject('critical-symptom', { severity: 'critical', about: [node] }),
      subject('error-root', { severity: 'error' }),
      subject('info-alone', { severity: 'info' }),
      subject('info-cause', { severity: 'info', about: [pool], explains: [{ rules: ['warn-symptom'], kinds: [], by: 'object' }] }),
      subject('warn-symptom', { severity: 'warning', about: [pool] }),
    ]);
    expect(diagnosis.roots.map((r) => r.ruleId)).toEqual(['warn-root', 'error-root', 'info-cause']);
  });

  it('a finding of several objects is explained only in the parts a link touches; the rest stays a root', () => {
    const ingress = { kind: 'ClusterOperator', name: 'ingress' };
    const cv = { kind: 'ClusterVersion', name: 'version' };
    const { links, diagnosis } = joinFindings([
      subject('pool-degraded', { about: [pool], explains: [{ rules: [], kinds: ['ClusterOperator'], by: 'object' }] }),
      subject('co-degraded', {
        about: [ingress, operator],
        parts: [
          { about: [ingress], mentions: [], times: [], since: 2000 },
          { about: [operator], mentions: [pool], times: [], since: 1000 },
        ],
        explains: [{ rules: [], kinds: ['ClusterVersion'], by: 'object' }],
      }),
      // ClusterVersion Failing names ingress only: the pool does not explain it.
      subject('cv-failing', { about: [cv], mentions: [ingress] }),
    ]);
    expect(links.map((l) => `${l.cause}>${l.effect}`)).toEqual(['co-degraded>cv-failing', 'pool-degraded>co-degraded']);
    expect(shape(diagnosis.roots)).toEqual(['co-degraded', '  cv-failing', 'pool-degraded', '  co-degraded']);
    const [ingressRoot, poolRoot] = diagnosis.roots;
    expect(ingressRoot?.about).toEqual([ingress]);
    expect(ingressRoot?.since).toBe(2000);
    expect(poolRoot?.explains[0]?.about).toEqual([operator]);
    expect(poolRoot?.explains[0]?.explains).toEqual([]);
  });

  it('a link implied part by part is dropped; one through another part is kept', () => {
    const ingress = { kind: 'ClusterOperator', name: 'ingress' };
    const cv = { kind: 'ClusterVersion', name: 'version' };
    const { links } = joinFindings([
      subject('root', { about: [pool, cv], explains: [{ rules: ['co', 'cv-failing'], kinds: [], by: 'object' }] }),
      subject('co', {
        about: [ingress, operator],
        parts: [
          { about: [ingress], mentions: [], times: [] },
          { about: [operator], mentions: [pool], times: [] },
        ],
        explains: [{ rules: [], kinds: ['ClusterVersion'], by: 'object' }],
      }),
      subject('cv-failing', { about: [cv], mentions: [ingress] }),
    ]);
    // root → co (operator part) → cv-failing rests on the ingress part: root → cv-failing stays.
    expect(links.map((l) => `${l.cause}>${l.effect}`)).toEqual(['co>cv-failing', 'root>co', 'root>cv-failing']);
  });

  it('no findings, no roots', () => {
    expect(joinFindings([]).diagnosis).toEqual({ roots: [], cyclesBroken: [] });
  });
});

describe('field paths', () => {
  const mcp = {
    metadata: { annotations: { 'machineconfiguration.openshift.io/reason': 'failed to drain node' } },
    status: {
      conditions: [
        { type: 'NodeDegraded', status: 'True', message: 'Node a is reporting: "x"' },
        { type: 'Degraded', status: 'True', message: '' },
        { type: 'Updated', status: 'False', message: 'not yet' },
      ],
    },
  };
  it('selects list elements by a key, fans out over lists, and reads quoted keys', () => {
    expect(fieldValues(mcp, parseFieldPath('status.conditions[type=NodeDegraded].message'))).toEqual(['Node a is reporting: "x"']);
    expect(fieldValues(mcp, parseFieldPath('status.conditions[status=True].message'))).toEqual(['Node a is reporting: "x"', '']);
    expect(fieldValues(mcp, parseFieldPath('status.conditions.type'))).toEqual(['NodeDegraded', 'Degraded', 'Updated']);
    expect(fieldValues(mcp, parseFieldPath('metadata.annotations["machineconfiguration.openshift.io/reason"]'))).toEqual(['failed to drain node']);
    expect(fieldValues(mcp, parseFieldPath('status.missing.message'))).toEqual([]);
  });
  it('refuses a path it cannot read', () => {
    expect(() => parseFieldPath('status..conditions')).toThrow(/cannot read/);
    expect(() => parseFieldPath('[type=x]')).toThrow(/cannot read/);
  });
});
