import { describe, expect, it } from 'vitest';
import { cutTopLevelKey, ListItemStream, listItemDocument } from '../../src/parsers/yaml-list-items.js';

/** The items (as documents) and, for no oc List, the whole text, of a text fed in chunks of `size`. */
function inChunks(text: string, size: number): { items: string[]; whole?: string } {
  const items: string[] = [];
  const stream = new ListItemStream((item) => items.push(listItemDocument(item)));
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) stream.push(bytes.subarray(at, at + size));
  const { lastItem, whole } = stream.end();
  if (lastItem) items.push(listItemDocument(lastItem));
  return { items, ...(whole ? { whole: whole.toString() } : {}) };
}

describe('ListItemStream: the items of an oc List, cut in its bytes as they stream by', () => {
  const list =
    'apiVersion: v1\nitems:\n- apiVersion: v1\n  data:\n    ca.crt: |\n      line one\n\n      line two\n  kind: ConfigMap\n- kind: Secret\n  type: Opaque\n- kind: ConfigMap\n  data: {}\nkind: List\nmetadata:\n  resourceVersion: ""\n';
  const expected = ['apiVersion: v1\ndata:\n  ca.crt: |\n    line one\n\n    line two\nkind: ConfigMap', 'kind: Secret\ntype: Opaque', 'kind: ConfigMap\ndata: {}'];

  it('cuts each item and dedents it (block scalars, blank lines kept; the List keys left out), wherever the chunks split the text', () => {
    for (let size = 1; size <= list.length; size++) expect(inChunks(list, size), `chunks of ${size}`).toEqual({ items: expected });
    expect(inChunks('items:\n- a: 1\n- b: 2\n', 4)).toEqual({ items: ['a: 1', 'b: 2\n'] });
  });

  it('hands a text that is no oc List back whole', () => {
    const object = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n';
    for (const size of [1, 7, object.length]) expect(inChunks(object, size)).toEqual({ items: [], whole: object });
    expect(inChunks('apiVersion: v1\nitems: []\nkind: List\n', 5)).toEqual({ items: [], whole: 'apiVersion: v1\nitems: []\nkind: List\n' });
  });
});

describe('cutTopLevelKey: a top-level block mapping cut out of an object\'s text', () => {
  const cut = (text: string, key: string, margin: number): { section: string; rest: string } | undefined => {
    const result = cutTopLevelKey(Buffer.from(text), key, margin);
    return result && { section: result.section.toString(), rest: result.rest.toString() };
  };

  it('cuts a List item\'s section wherever the key is, blank lines of a block scalar kept', () => {
    const item = '- apiVersion: v1\n  data:\n    ca.crt: |\n      one\n\n      two\n  kind: ConfigMap\n  metadata:\n    name: a';
    expect(cut(item, 'data', 2)).toEqual({ section: 'data:\n    ca.crt: |\n      one\n\n      two\n  ', rest: '- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a' });
    expect(listItemDocument(Buffer.from(cut(item, 'data', 2)!.rest))).toBe('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a');
    expect(cut('- data:\n    k: v\n  kind: ConfigMap', 'data', 2)).toEqual({ section: 'data:\n    k: v\n  ', rest: '- kind: ConfigMap' });
    expect(cut('- kind: ConfigMap\n  data:\n    k: v\n', 'data', 2)).toEqual({ section: 'data:\n    k: v\n', rest: '- kind: ConfigMap\n  ' });
  });

  it('cuts a document\'s section at the margin', () => {
    expect(cut('data:\n  k: v\nkind: ConfigMap\n', 'data', 0)).toEqual({ section: 'data:\n  k: v\n', rest: 'kind: ConfigMap\n' });
  });

  it('leaves an object without the key, or with it inline or nested, alone', () => {
    expect(cut('- kind: ConfigMap\n  data: {}\n', 'data', 2)).toBeUndefined();
    expect(cut('- kind: ConfigMap\n  metadata:\n    data:\n      k: v\n', 'data', 2)).toBeUndefined();
    expect(cut('kind: ConfigMap\n', 'data', 0)).toBeUndefined();
  });
});
