import { describe, expect, it } from 'vitest';
import { RuleEngine } from '../../src/engine/engine.js';
import { loadRuleText } from '../../src/engine/load.js';
import type { Rule } from '../../src/engine/rule.js';
import { classifyPath } from '../../src/layout/classify.js';

/** A rule over ConfigMaps with the scope given (namespace, name, where), as a rule file writes it. */
function configMapRule(id: string, scope: string): Rule {
  const text = `id: ${id}
title: ${id}
severity: warning
status: experimental
component: demo
signals:
  config:
    resource: { kind: ConfigMap, ${scope} }
message: found
`;
  const { rule, issues } = loadRuleText(`${id}.yaml`, text, false);
  expect(issues).toEqual([]);
  return rule!;
}

const MG = 'must-gather.local.1/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0/';
const configMaps = (namespace: string) => classifyPath(`${MG}namespaces/${namespace}/core/configmaps.yaml`);
const need = (rules: Rule[], namespace: string) => new RuleEngine(rules, { maxLineBytes: 65536, bareInput: false }).need(configMaps(namespace));

describe("the rule engine's need of a resource file: only files that could hold a signal's objects are parsed", () => {
  it("leaves a namespace's file unparsed when every signal of its place names another namespace", () => {
    const monitoring = configMapRule('monitoring-config', 'namespace: openshift-monitoring, name: cluster-monitoring-config');
    expect(configMaps('default').namespace).toBe('default');
    expect(need([monitoring], 'default')).toBeUndefined();
    expect(need([monitoring], 'openshift-monitoring')).toEqual({ objects: true, objectsIfContains: ['cluster-monitoring-config'] });
  });

  it("asks the file to hold the object's name, or one of the words a where requires; a signal requiring nothing reads every file", () => {
    const named = configMapRule('named', 'name: kube-root-ca.crt');
    const where = configMapRule('where', `where: "has(object.data) && object.data.exists(k, k == 'ca-bundle.crt')"`);
    const anything = configMapRule('anything', `where: "size(object.data) > 3"`);
    expect(need([named, where], 'default')).toEqual({ objects: true, objectsIfContains: ['kube-root-ca.crt', 'ca-bundle.crt'] });
    expect(need([named, anything], 'default')).toEqual({ objects: true, objectsIfContains: undefined });
    // A signal of another namespace adds neither its words nor its need for every file.
    const elsewhere = configMapRule('elsewhere', `namespace: openshift-config, where: "size(object.data) > 3"`);
    expect(need([named, elsewhere], 'default')).toEqual({ objects: true, objectsIfContains: ['kube-root-ca.crt'] });
  });

  it('reads a list of every namespace (no namespace in its path) for a signal of one namespace', () => {
    const monitoring = configMapRule('monitoring-config', 'namespace: openshift-monitoring, name: cluster-monitoring-config');
    const everyNamespace = classifyPath('gather-extra/artifacts/configmaps.json');
    expect(everyNamespace).toMatchObject({ kind: 'list', resource: 'configmaps' });
    expect(everyNamespace.namespace).toBeUndefined();
    const engine = new RuleEngine([monitoring], { maxLineBytes: 65536, bareInput: false });
    expect(engine.need(everyNamespace)).toEqual({ objects: true, objectsIfContains: ['cluster-monitoring-config'] });
  });
});
