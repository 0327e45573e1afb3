/**
 * Shared signals (`rules/_shared/*.yaml`): a rule's signal `use: <name>` takes one, its own
 * fields laid over it, at load time; the engine sees whole signals.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinRuleFiles, loadRules, loadRuleText } from '../../src/engine/load.js';
import { packSharedSignals, readSharedSignals } from '../../src/engine/shared-signals.js';
import type { FactSignal, ResourceSignal } from '../../src/engine/rule.js';

const HEAD = 'id: shared-demo\ntitle: Shared demo\nseverity: warning\nstatus: experimental\ncomponent: demo\nmessage: demo\n';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A rule folder with these files (path → text). */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mgsift-shared-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('shared signals', () => {
  it('the pack has shared signals, without problems, and none of its files is a rule', () => {
    const shared = packSharedSignals();
    expect(shared.issues).toEqual([]);
    expect([...shared.signals.keys()]).toContain('cluster-updating');
    expect(builtinRuleFiles().filter((path) => path.includes('_shared'))).toEqual([]);
  });

  it('a signal takes a shared one whole, or with fields overridden (a mapping merges key by key)', () => {
    const text = `${HEAD}signals:
  updating: { use: cluster-updating }
  recent:
    description: Degraded for less than 5 minutes.
    use: clusteroperator-degraded
    resource:
      name: etcd
      age: { under: 5m }
condition: recent and not updating
`;
    const { rule, issues } = loadRuleText('shared-demo.yaml', text, false);
    expect(issues).toEqual([]);
    const [updating, recent] = rule!.signals as [FactSignal, ResourceSignal];
    expect(updating).toMatchObject({ type: 'fact', name: 'updating', fact: 'cluster' });
    expect(updating.where).toBeDefined();
    // The override's fields, and the shared signal's others (kind, since, where, match) kept.
    expect(recent).toMatchObject({ type: 'resource', name: 'recent', kinds: ['ClusterOperator'], objectName: 'etcd', age: { underMs: 300_000 } });
    expect(recent.age?.atLeastMs).toBeUndefined();
    expect(recent.since).toBeDefined();
    expect(recent.where).toBeDefined();
    expect(recent.match?.required).toBe(false);
  });

  it('an unknown shared name is one error naming the rule file, the line and the names known', () => {
    const text = `${HEAD}signals:\n  updating: { use: cluster-updatin }\n`;
    const { rule, issues } = loadRuleText('typo.yaml', text, false);
    expect(rule).toBeUndefined();
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: 'typo.yaml', line: 8 });
    expect(issues[0]!.reason).toMatch(/^signal 'updating' uses unknown shared signal 'cluster-updatin' \(known: .*cluster-updating.*\)$/);
  });

  it('an override of another type, or one the schema refuses, is an error that names the shared signal', () => {
    const foreign = loadRuleText('foreign.yaml', `${HEAD}signals:\n  updating:\n    use: cluster-updating\n    resource: { kind: Pod }\n`, false);
    expect(foreign.issues.map((i) => i.reason)).toEqual(["signal 'updating' overrides resource, but shared signal 'cluster-updating' is a fact signal"]);
    const bad = loadRuleText('bad.yaml', `${HEAD}signals:\n  recent:\n    use: clusteroperator-degraded\n    resource: { age: { under: soon } }\n`, false);
    expect(bad.rule).toBeUndefined();
    expect(bad.issues.map((i) => i.reason).join('\n')).toContain("/signals/recent/resource/age/under must match pattern");
    expect(bad.issues.every((i) => i.reason.endsWith("(signal 'recent' uses shared signal 'clusteroperator-degraded')"))).toBe(true);
  });

  it("a user rule folder's rules use the pack's shared signals and the folder's own; its _shared/ is not a rule", async () => {
    const dir = folder({
      '_shared/signals.yaml': 'sharedSignals:\n  my-pods:\n    resource: { kind: Pod, namespace: my-app }\nreferences: [https://kubernetes.io/docs/concepts/workloads/pods/]\n',
      'mine/my-rule.yaml': `${HEAD.replace('shared-demo', 'my-rule')}signals:\n  updating: { use: cluster-updating }\n  pods: { use: my-pods }\ncondition: pods and not updating\n`,
    });
    const loaded = await loadRules([dir], { builtin: false });
    expect(loaded.issues).toEqual([]);
    expect(loaded.rules.map((r) => r.id)).toEqual(['my-rule']);
    expect(loaded.rules[0]!.signals.map((s) => [s.name, s.type])).toEqual([
      ['updating', 'fact'],
      ['pods', 'resource'],
    ]);
    expect(loaded.rules[0]!.signals[1]).toMatchObject({ kinds: ['Pod'], namespace: 'my-app' });
  });

  it('a shared name defined twice, or a shared file the schema refuses, is an issue of that file', () => {
    const twice = readSharedSignals([{ file: 'mine.yaml', text: 'sharedSignals:\n  cluster-updating:\n    fact: { name: cluster }\nreferences: [https://github.com/openshift/api]\n' }], packSharedSignals());
    expect(twice.issues).toEqual([{ file: 'mine.yaml', line: 2, reason: expect.stringMatching(/^shared signal 'cluster-updating' is also defined in .*signals\.yaml$/) as unknown }]);
    const refused = readSharedSignals([{ file: 'bad.yaml', text: 'sharedSignals:\n  Bad_Name:\n    fact: { name: cluster }\n' }]);
    expect(refused.issues.map((i) => i.reason).join('\n')).toContain('must match pattern');
    expect(refused.signals.size).toBe(0);
  });
});
