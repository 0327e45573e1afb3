/**
 * Rules that repeat an expression share its compiled copy, and the engine runs it once per
 * object (pack × 10 in the bench): the findings are each rule's own, as when nothing is shared.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRuleText } from '../../src/engine/load.js';
import type { ResourceSignal, Rule } from '../../src/engine/rule.js';

const RULES = fileURLToPath(new URL('../../rules/', import.meta.url));
const CRASHLOOP = `${RULES}health/pod-crashlooping.yaml`;
const CRASHLOOP_INPUT = `${RULES}health/pod-crashlooping.fixtures/fires-crashloop-flapping-init/input`;
const REJECTED = `${RULES}cvo/cvo-status-rejected-capabilities.yaml`;

/** A shipped rule under another id, its text otherwise unchanged (or changed by `edit`). */
function clone(file: string, id: string, edit: (text: string) => string = (t) => t): Rule {
  const text = edit(readFileSync(file, 'utf8').replace(/^id: \S+$/m, `id: ${id}`));
  const { rule, issues } = loadRuleText(`${id}.yaml`, text, false);
  expect(issues).toEqual([]);
  return rule!;
}

const whereOf = (rule: Rule): ResourceSignal['where'] => (rule.signals.find((s) => s.type === 'resource') as ResourceSignal).where;

describe('rules that repeat an expression', () => {
  it('share its compiled CEL program, template and regex; a different expression has its own', () => {
    const [a, b] = [clone(CRASHLOOP, 'a'), clone(CRASHLOOP, 'b')];
    const other = clone(CRASHLOOP, 'c', (t) => t.replace("startsWith('openshift-')", "startsWith('kube-')"));
    expect(whereOf(a)).toBe(whereOf(b));
    expect(whereOf(other)).not.toBe(whereOf(a));
    expect(a.message).toBe(b.message);
    const [x, y] = [clone(REJECTED, 'x'), clone(REJECTED, 'y')];
    const regexOf = (rule: Rule): RegExp | undefined => rule.signals.find((s) => s.type === 'log')?.regex;
    expect(regexOf(x)).toBeDefined();
    expect(regexOf(x)).toBe(regexOf(y));
  });

  it('run a shared program once per object, and each rule still makes its own finding', async () => {
    const [a, b] = [clone(CRASHLOOP, 'a'), clone(CRASHLOOP, 'b')];
    const where = whereOf(a)!;
    let calls = 0;
    const counted: typeof where = Object.assign(
      (bindings: Record<string, unknown>) => {
        calls++;
        return where(bindings);
      },
      { source: where.source },
    );
    for (const rule of [a, b]) (rule.signals.find((s) => s.type === 'resource') as { where: typeof where }).where = counted;

    const alone = await analyzeInput(CRASHLOOP_INPUT, { limits: DEFAULT_LIMITS, rules: [a] });
    const callsAlone = calls;
    calls = 0;
    const both = await analyzeInput(CRASHLOOP_INPUT, { limits: DEFAULT_LIMITS, rules: [a, b] });
    expect(callsAlone).toBeGreaterThan(0);
    expect(calls).toBe(callsAlone);

    const findings = both.result!.findings;
    expect(findings.map((f) => f.ruleId).sort()).toEqual(['a', 'b']);
    const strip = (f: (typeof findings)[number]): unknown => ({ ...f, ruleId: undefined, explains: undefined, explainedBy: undefined });
    expect(strip(findings[0]!)).toEqual(strip(findings[1]!));
    expect(strip(findings.find((f) => f.ruleId === 'a')!)).toEqual(strip(alone.result!.findings[0]!));
  });
});
