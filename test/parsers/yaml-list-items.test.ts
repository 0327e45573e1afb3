import { describe, expect, it } from 'vitest';
import { ListItemStream, listItemDocument } from '../../src/parsers/yaml-list-items.js';

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
