import { describe, expect, it } from 'vitest';
import { pickLines } from '../../src/parsers/yaml-pick.js';
import { parseYamlItems } from '../../src/parsers/yaml.js';
import { Problems } from '../../src/core/problems.js';

const METADATA = { apiVersion: true, kind: true, metadata: true, items: { apiVersion: true, kind: true, metadata: true } } as const;

function picked(text: string): string | undefined {
  return pickLines(Buffer.from(text), METADATA)?.toString('utf8');
}

/** The objects of a text, each reduced to apiVersion, kind and metadata. */
function identities(text: string): unknown[] {
  return [...parseYamlItems(text, 'f.yaml', new Problems())].map(({ object, doc, item }) => ({ doc, item, apiVersion: object.apiVersion, kind: object.kind, metadata: object.metadata }));
}

const SECRETS = `apiVersion: v1
items:
- apiVersion: v1
  data:
    ca.crt: TFMwdExTMUNSVWRKVGlCRFJWSlVTVVpKUTBGVVJTMHRMUzB0Q2sxSlNVUk5ha05EUVdoeFowRjNTVUpCWjBsSlQzWnRWbXRuTVZaVGJqQjNSRkZaU2t0dldrbG9kbU5PUVZGRlRFSlJRWGRPZWtWVFRVSkJSMEV4VlVVS1EzaE5TV0l6UW14aWJrNXZ
  kind: Secret
  metadata:
    annotations:
      kubernetes.io/service-account.name: builder
      note: |
        a literal

        over lines
    name: builder-dockercfg-4lscf
    namespace: openshift-config
    ownerReferences:
    - apiVersion: v1
      kind: Secret
      name: builder-token-pcgbb
  type: kubernetes.io/dockercfg
- data:
    key: dmFsdWU=
  kind: Secret
  metadata:
    name: second
    namespace: openshift-config
- data:
    only: data
kind: List
metadata:
  resourceVersion: ""
`;

describe('pickLines', () => {
  it('keeps the identities of every List item and drops their data, item for item', () => {
    const text = picked(SECRETS)!;
    expect(text).not.toContain('ca.crt');
    expect(text).not.toContain('dmFsdWU=');
    expect(identities(text)).toEqual(identities(SECRETS));
    expect(identities(text)).toHaveLength(3);
    // An item with no picked key stays, as an empty map.
    expect(text).toContain('- {}\n');
  });

  it('keeps a sequence written at its key\'s own indentation with that key, and every document', () => {
    const text = `apiVersion: v1
kind: ConfigMap
metadata:
  finalizers:
  - a
  - b
  name: one
spec:
  list:
  - x: 1
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: two
`;
    expect(identities(picked(text)!)).toEqual(identities(text));
    expect(picked(text)).not.toContain('x: 1');
  });

  it('reads an empty List', () => {
    expect(identities(picked('apiVersion: v1\nitems: []\nkind: List\n')!)).toEqual([]);
  });

  it('gives up on what it does not know: JSON, quoted keys, flow collections', () => {
    expect(picked('{\n  "kind": "Secret"\n}\n')).toBeUndefined();
    expect(picked('"kind": Secret\n')).toBeUndefined();
    expect(picked('items: [a, b]\n')).toBeUndefined();
  });

  it('keeps items indented under `items:` whole (they are lines under a picked key)', () => {
    const text = 'apiVersion: v1\nitems:\n  - kind: Secret\n    data: x\n    metadata:\n      name: a\nkind: List\n';
    expect(identities(picked(text)!)).toEqual(identities(text));
  });
});
