import { describe, expect, it } from 'vitest';
import { Problems } from '../../src/core/problems.js';
import { parseYamlItems, parseYamlObjects } from '../../src/parsers/yaml.js';
import { groupKindOf, groupOf, kindOf, nameOf, namespaceOf, refOf, uidOf, versionOf } from '../../src/parsers/k8s.js';

// Shape of must-gather-aws cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml
// (PROVENANCE: /work/shared/samples-real/PROVENANCE.md), trimmed.
const CLUSTER_VERSION = `---
apiVersion: config.openshift.io/v1
kind: ClusterVersion
metadata:
  creationTimestamp: "2021-08-03T09:10:22Z"
  generation: 2
  name: version
  resourceVersion: "34522"
  uid: 0b39e2c5-7a35-4a52-8f45-0f5c2b7bc6d1
spec:
  channel: stable-4.8
  clusterID: 3f2a4c1e-0000-0000-0000-000000000000
status:
  history:
  - completionTime: "2021-08-03T09:46:27Z"
    image: quay.io/openshift-release-dev/ocp-release@sha256:0000
    startedTime: 2021-08-03T09:10:37Z
    state: Completed
    verified: false
    version: 4.8.0-0.nightly-2021-07-31-065602
`;

const POD_LIST = `apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: etcd-0
    namespace: openshift-etcd
    creationTimestamp: null
    labels:
      app: etcd
      revision: 3
- apiVersion: v1
  kind: Pod
  metadata:
    name: etcd-1
    namespace: openshift-etcd
kind: PodList
metadata:
  resourceVersion: ""
`;

function parse(text: string, opts?: Parameters<typeof parseYamlItems>[3]) {
  const problems = new Problems();
  const items = [...parseYamlItems(text, 'f.yaml', problems, opts)];
  return { items, problems: problems.items };
}

describe('parseYamlItems', () => {
  it('parses one object with JSON-compatible types', () => {
    const { items, problems } = parse(CLUSTER_VERSION);
    expect(problems).toEqual([]);
    expect(items).toHaveLength(1);
    const o = items[0]!.object;
    expect(items[0]!.doc).toBe(0);
    expect(items[0]!.item).toBeUndefined();
    expect(kindOf(o)).toBe('ClusterVersion');
    expect(nameOf(o)).toBe('version');
    expect(uidOf(o)).toBe('0b39e2c5-7a35-4a52-8f45-0f5c2b7bc6d1');
    expect(groupOf(o)).toBe('config.openshift.io');
    expect(versionOf(o)).toBe('v1');
    const status = o['status'] as { history: Array<Record<string, unknown>> };
    // Unquoted timestamps stay strings, booleans are booleans.
    expect(status.history[0]!['startedTime']).toBe('2021-08-03T09:10:37Z');
    expect(status.history[0]!['verified']).toBe(false);
    expect(o.metadata?.['generation']).toBe(2);
  });

  it('keeps on/yes/no as strings', () => {
    const { items } = parse('kind: ConfigMap\ndata:\n  a: on\n  b: yes\n  c: no\n  d: ~\n  e: 0x10\n');
    expect(items[0]!.object['data']).toEqual({ a: 'on', b: 'yes', c: 'no', d: null, e: 16 });
  });

  it('expands a List into its items with their indexes', () => {
    const { items, problems } = parse(POD_LIST);
    expect(problems).toEqual([]);
    expect(items.map((i) => [i.doc, i.item, nameOf(i.object)])).toEqual([
      [0, 0, 'etcd-0'],
      [0, 1, 'etcd-1'],
    ]);
    const first = items[0]!.object;
    expect(namespaceOf(first)).toBe('openshift-etcd');
    expect(refOf(first)).toBe('Pod openshift-etcd/etcd-0');
    expect(groupOf(first)).toBe('');
    // `creationTimestamp: null` dropped, numeric label value made a string.
    expect(first.metadata).not.toHaveProperty('creationTimestamp');
    expect(first.metadata?.labels).toEqual({ app: 'etcd', revision: '3' });
  });

  it('reads several documents, skipping empty ones', () => {
    const text = `# leading comment\n---\n${CLUSTER_VERSION.replace('---\n', '')}---\n---\n# only a comment\n---\n${POD_LIST}...\n`;
    const { items, problems } = parse(text);
    expect(problems).toEqual([]);
    expect(items.map((i) => [i.doc, i.item, kindOf(i.object)])).toEqual([
      [0, undefined, 'ClusterVersion'],
      [3, 0, 'Pod'],
      [3, 1, 'Pod'],
    ]);
  });

  it('reports a broken document with its line in the file and keeps the others', () => {
    const text = [
      'kind: A', // line 1
      'metadata: {name: a}',
      '---',
      'kind: B',
      'metadata:',
      '  name: b',
      ' bad: indentation', // line 7
      '---',
      'kind: C',
      'metadata: {name: c}',
    ].join('\n');
    const { items, problems } = parse(text);
    expect(items.map((i) => nameOf(i.object))).toEqual(['a', 'c']);
    expect(items[1]!.doc).toBe(2);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.severity).toBe('error');
    expect(problems[0]!.path).toBe('f.yaml');
    expect(problems[0]!.reason).toMatch(/^YAML document 2: line 7, column \d+: /);
    expect(problems[0]!.reason).not.toContain('\n');
  });

  it('warns about documents and items that are not objects', () => {
    const { items, problems } = parse('just a string\n---\nkind: List\nitems:\n- 1\n- kind: X\n- [a]\n---\nkind: 5\n');
    expect(items.map((i) => kindOf(i.object))).toEqual(['X']);
    expect(problems.map((p) => p.reason)).toEqual([
      'YAML document 1 skipped: not an object (a string)',
      'YAML document 2: 2 items skipped (first: item 0: not an object (a number))',
      'YAML document 3 skipped: kind is a number, not a string',
    ]);
  });

  it('rejects an alias bomb (billion laughs) without expanding it', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    const names = 'abcdefghi';
    for (let i = 1; i < names.length; i++) {
      const prev = names[i - 1]!;
      lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const bomb = `${lines.join('\n')}\n`;
    const t0 = performance.now();
    const { items, problems } = parse(`kind: Good\n---\n${bomb}---\nkind: AlsoGood\n`);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(items.map((i) => kindOf(i.object))).toEqual(['Good', 'AlsoGood']);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.reason).toMatch(/^YAML document 2: rejected, its aliases expand it to more than \d+ nodes/);
  });

  it('rejects a long string repeated through aliases', () => {
    const refs = Array(2000).fill('*s').join(', ');
    const { items, problems } = parse(`kind: X\nbig: &s "${'z'.repeat(100_000)}"\nrefs: [${refs}]\n`);
    expect(items).toEqual([]);
    expect(problems[0]!.reason).toMatch(/alias bomb/);
  });

  it('reads a *List without items as empty', () => {
    const { items, problems } = parse('apiVersion: v1\nkind: PodList\nitems: null\n---\nkind: EventList\nmetadata: {}\n');
    expect(items).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('accepts modest use of anchors and aliases', () => {
    const { items, problems } = parse('kind: X\nbase: &b {cpu: 1, mem: 2}\nx: *b\ny: *b\nurl: "http://h/?a=1&b=2*3"\n');
    expect(problems).toEqual([]);
    expect(items[0]!.object['y']).toEqual({ cpu: 1, mem: 2 });
  });

  it('does not treat & and * inside strings as aliases', () => {
    const { items, problems } = parse("kind: ClusterRole\nrules:\n- verbs: ['*']\n  resources: ['*']\nnote: 'a & b'\n");
    expect(problems).toEqual([]);
    expect(items).toHaveLength(1);
  });

  it('reports absurd nesting instead of overflowing the stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const { items, problems } = parse(`kind: A\n---\nx: ${deep}\n---\nkind: B\n`);
    expect(items.map((i) => kindOf(i.object))).toEqual(['A', 'B']);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.reason).toMatch(/^YAML document 2: .*(maxDepth|too deep)/);
    const block = Array.from({ length: 5000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + ' 1\n';
    const r2 = parse(block);
    expect(r2.items).toEqual([]);
    expect(r2.problems).toHaveLength(1);
    expect(parse(block, { maxDepth: 10_000 }).problems).toHaveLength(1);
  });

  it('accepts duplicate keys (last wins) and a byte order mark', () => {
    const { items, problems } = parse('\ufeffkind: A\nkind: B\n');
    expect(problems).toEqual([]);
    expect(kindOf(items[0]!.object)).toBe('B');
  });

  it('keeps __proto__ as a plain key', () => {
    const { items } = parse('kind: A\n__proto__: {polluted: true}\n');
    const o = items[0]!.object;
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect((o as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('yields plain objects through parseYamlObjects', () => {
    const problems = new Problems();
    const objs = [...parseYamlObjects(POD_LIST, 'p.yaml', problems)];
    expect(objs.map(nameOf)).toEqual(['etcd-0', 'etcd-1']);
    expect(groupKindOf({ apiVersion: 'apps/v1', kind: 'Deployment' })).toBe('Deployment.apps');
  });

  it('handles empty and whitespace-only input', () => {
    expect(parse('').items).toEqual([]);
    expect(parse('\n\n# nothing\n').problems).toEqual([]);
    expect(parse('---\n').items).toEqual([]);
  });

  it('reads directives before the first document', () => {
    const { items, problems } = parse('%YAML 1.2\n---\nkind: A\n');
    expect(problems).toEqual([]);
    expect(kindOf(items[0]!.object)).toBe('A');
  });
});
