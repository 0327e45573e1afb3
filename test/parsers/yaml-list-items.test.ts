import { describe, expect, it } from 'vitest';
import { listItemRanges, listItemText } from '../../src/parsers/yaml-list-items.js';

const items = (text: string): string[] | undefined => {
  const bytes = Buffer.from(text);
  return listItemRanges(bytes)?.map((range) => listItemText(bytes, range));
};

describe('listItemRanges: the items of an oc List, cut in its bytes', () => {
  it('cuts each item and dedents it, block scalars and blank lines kept', () => {
    const list = 'apiVersion: v1\nitems:\n- apiVersion: v1\n  data:\n    ca.crt: |\n      line one\n\n      line two\n  kind: ConfigMap\n- kind: Secret\n  type: Opaque\nkind: List\nmetadata:\n  resourceVersion: ""\n';
    expect(items(list)).toEqual(['apiVersion: v1\ndata:\n  ca.crt: |\n    line one\n\n    line two\nkind: ConfigMap', 'kind: Secret\ntype: Opaque']);
    expect(items('items:\n- a: 1\n- b: 2\n')).toEqual(['a: 1', 'b: 2\n']);
  });

  it('an empty List has no items; other shapes are left to the parser', () => {
    expect(items('apiVersion: v1\nitems:\nkind: List\n')).toEqual([]);
    expect(items('apiVersion: v1\nitems: []\nkind: List\n')).toBeUndefined();
    expect(items('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n')).toBeUndefined();
    expect(items('items:\n- a: 1\n---\nitems:\n- b: 2\n')).toBeUndefined();
  });
});
