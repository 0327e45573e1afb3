/**
 * In a worker thread the engine sends what each entry held to the main thread, which keeps the
 * first copy of an object in archive order. A worker sends an object's evidence for a signal
 * once: a later copy (the own file after its List, another image folder) would be dropped.
 */
import { describe, expect, it } from 'vitest';
import { RuleEngine, type EngineTaken } from '../../src/engine/engine.js';
import { loadRuleText } from '../../src/engine/load.js';
import type { Rule } from '../../src/engine/rule.js';
import { FactsCollector } from '../../src/facts/collector.js';
import { classifyPath } from '../../src/layout/classify.js';
import type { K8sObject } from '../../src/parsers/k8s.js';

function pendingPodsRule(maxEvidence: number, id = 'pods-pending'): Rule {
  const text = `id: ${id}
title: Pods pending
severity: warning
status: experimental
component: demo
signals:
  pending:
    resource:
      kind: Pod
      where: "has(object.status.phase) && object.status.phase == 'Pending'"
      summary: "{{object.metadata.namespace}}/{{object.metadata.name}} {{object.status.reason}}"
condition: pending
maxEvidence: ${maxEvidence}
message: "{{count signals.pending.items}} pending"
`;
  const { rule, issues } = loadRuleText(`${id}.yaml`, text, false);
  expect(issues).toEqual([]);
  return rule!;
}

const pod = (name: string, reason: string): K8sObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', uid: `uid-${name}` }, status: { phase: 'Pending', reason } });
const podsFile = (image: number) => classifyPath(`must-gather.local.1/quay-io-image-${image}/namespaces/ns/core/pods.yaml`);
/** Two image folders: the second holds the first's pods again (one with another reason), and one of its own. */
const ENTRIES = [
  { entry: podsFile(1), objects: [pod('a', 'first'), pod('b', 'first')] },
  { entry: podsFile(2), objects: [pod('a', 'second copy'), pod('b', 'second copy'), pod('c', 'own')] },
];

/** `copies` rules hold the one signal, written alike in each (the engine matches it once). */
function analyse(maxEvidence: number, inWorker: boolean, copies = 1): { result: ReturnType<RuleEngine['finish']>; sent: number } {
  const rules = Array.from({ length: copies }, (_, i) => pendingPodsRule(maxEvidence, i === 0 ? 'pods-pending' : `pods-pending-copy-${i}`));
  const options = { maxLineBytes: 65536, bareInput: false };
  const main = new RuleEngine(rules, options);
  const worker = new RuleEngine(rules, options);
  if (inWorker) worker.keepEntriesApart();
  let sent = 0;
  for (const { entry, objects } of ENTRIES) {
    const reader = inWorker ? worker : main;
    reader.need(entry);
    objects.forEach((object, i) => reader.object(object, entry, { line: i + 1 }));
    if (!inWorker) continue;
    const taken = structuredClone(worker.takeEntry()) as EngineTaken;
    sent += taken.held.length;
    main.mergeEntry(taken);
  }
  return { result: main.finish(new FactsCollector(65536).facts()), sent };
}

describe('objects held in a worker thread', () => {
  it('are sent once per signal, and the findings equal those of one thread (the first copy kept), within and past maxEvidence', () => {
    for (const maxEvidence of [10, 1]) {
      const alone = analyse(maxEvidence, false);
      const merged = analyse(maxEvidence, true);
      expect(merged.result.findings, `maxEvidence ${maxEvidence}`).toEqual(alone.result.findings);
      expect(merged.sent).toBe(3);
    }
    const { findings } = analyse(10, false).result;
    expect(findings[0]!.evidence.map((e) => e.text)).toEqual(['ns/a first', 'ns/b first', 'ns/c own']);
    expect(analyse(1, true).result.findings[0]!.evidenceDropped).toBe(2);
  });

  it('for a signal written alike in two rules are sent once, and each rule finds what one thread finds', () => {
    for (const maxEvidence of [10, 1]) {
      const alone = analyse(maxEvidence, false, 2);
      const merged = analyse(maxEvidence, true, 2);
      expect(merged.result.findings, `maxEvidence ${maxEvidence}`).toEqual(alone.result.findings);
      expect(merged.sent).toBe(3);
      expect(merged.result.findings.map((f) => f.ruleId)).toEqual(['pods-pending', 'pods-pending-copy-1']);
      expect(merged.result.findings[1]!.evidence).toEqual(merged.result.findings[0]!.evidence);
    }
  });
});
