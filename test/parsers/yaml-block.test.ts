import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import yaml from 'js-yaml';
import fg from 'fast-glob';
import { OUTSIDE_SUBSET, parseBlockYaml, readBlockYaml } from '../../src/parsers/yaml-block.js';
import { openInput } from '../../src/sources/open.js';
import { readAll } from '../../src/sources/bytes.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { Problems } from '../../src/core/problems.js';
import { needsShared } from '../helpers/needs.js';

const jsYaml = (text: string): unknown => yaml.load(text, { schema: yaml.JSON_SCHEMA, json: true });
const fast = (text: string): unknown => parseBlockYaml(text, 256);

describe('parseBlockYaml', () => {
  it('reads the block style Kubernetes clients write, as js-yaml does', () => {
    const text = [
      'apiVersion: v1',
      'items:',
      '- apiVersion: v1',
      '  count: 3',
      '  eventTime: null',
      '  firstTimestamp: "2021-08-03T09:36:24Z"',
      "  message: 'Failed to update endpoint openshift-kube-apiserver/apiserver: Operation",
      '    cannot be fulfilled on endpoints "apiserver": the object has been modified; please',
      "    apply your changes, it''s fine'",
      '  plain: a long plain scalar that go-yaml',
      '    wrapped onto a second line',
      '  script: |',
      '    #!/bin/sh',
      '    echo "a: b"',
      '',
      '    exit 0',
      '  kept: |+',
      '    x',
      '',
      '  stripped: |-',
      '    y',
      '  escaped: "tab\\there \\u00e9 \\"quoted\\" \\',
      '    joined"',
      '  labels: {}',
      '  finalizers: []',
      '  ready: true',
      '  ratio: 0.5',
      '  octalish: 0755',
      '  on: yes',
      '  "quoted key": 1',
      '  containers:',
      '  - name: a',
      '    ports:',
      '    - containerPort: 8080 # a comment',
      '      protocol: TCP',
      '  - name: b',
      '- kind: Event',
      'kind: List',
    ].join('\n');
    const parsed = fast(text);
    expect(parsed).not.toBe(OUTSIDE_SUBSET);
    expect(parsed).toEqual(jsYaml(text));
    expect((parsed as { items: { message: string }[] }).items[0]!.message).toContain("modified; please apply your changes, it's fine");
  });

  it.each([
    ['anchors and aliases', 'a: &x 1\nb: *x\nc: &m\n  k: v\nd: *m\ne:\n  - &s [1, two]\n  - *s # again\n  - &f >-\n    folded\n  - *f\n'],
    ['one-line flow collections', "a: [1, 2]\nb: { c: 'x, y', d: [\"q\\u00e9\", null, true] } # note\nc:\n  - { namespace: ns, container: c }\n  - []\nd: [a:b, http://x/y, 'it''s']\ne: [1, 2, ]\n"],
    ['folded scalars', 'a: >\n  x\n  y\n\n  z\nb: >-\n  one\n    more indented\n  two\n\n\n  three\nc: >+\n  kept\n\nd: >-\n  first\n\n    deeper\n  last\n'],
  ])('reads %s as js-yaml does', (_name, text) => {
    const parsed = fast(text);
    expect(parsed).not.toBe(OUTSIDE_SUBSET);
    expect(parsed).toEqual(jsYaml(text));
  });

  it('gives an alias the anchored value itself, as js-yaml does', () => {
    const parsed = fast('a: &m\n  k: v\nb: *m\n') as { a: object; b: object };
    expect(parsed.b).toBe(parsed.a);
  });

  it('reads every rule file of the pack as js-yaml does', () => {
    const files = fg.sync('rules/**/*.yaml', { ignore: ['**/*.fixtures/**'] });
    expect(files.length).toBeGreaterThan(200);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const parsed = parseBlockYaml(text, 64, undefined, { uniqueKeys: true });
      expect(parsed, file).not.toBe(OUTSIDE_SUBSET);
      expect(parsed, file).toEqual(yaml.load(text, { schema: yaml.JSON_SCHEMA }));
    }
  });

  it('with uniqueKeys, leaves a key written twice to js-yaml (which refuses it)', () => {
    expect(parseBlockYaml('a: 1\na: 2\n', 64, undefined, { uniqueKeys: true })).toBe(OUTSIDE_SUBSET);
    expect(parseBlockYaml('a: { b: 1, b: 2 }\n', 64, undefined, { uniqueKeys: true })).toBe(OUTSIDE_SUBSET);
    expect(fast('a: 1\na: 2\n')).toEqual({ a: 2 });
  });

  it.each([
    ['an alias of no anchor', 'a: *x\n'],
    ['an anchored mapping on the item line', '- &x k: v\n'],
    ['a flow collection over two lines', 'a: [1,\n  2]\n'],
    ['an empty flow entry', 'a: [1, , 2]\n'],
    ['a flow key without a value', 'a: { b }\n'],
    ['a folded scalar opening with a blank line', 'a: >\n\n  x\n'],
    ['an indentation indicator', 'a: >2\n   x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['tabs', 'a:\n\tb: 1\n'],
    ['CRLF line ends', 'a: 1\r\nb: 2\r\n'],
    ['broken indentation', 'a:\n  b: 1\n c: 2\n'],
    ['a plain scalar holding ": "', 'a: b: c\n'],
    ['a bare scalar document', 'just text\n'],
    ['an unterminated quote', 'a: "open\n'],
  ])('leaves %s to js-yaml', (_name, text) => {
    expect(fast(text)).toBe(OUTSIDE_SUBSET);
  });

  it('gives up past the nesting limit instead of recursing', () => {
    const deep = Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' 1\n';
    expect(fast(deep)).toBe(OUTSIDE_SUBSET);
  });

  it('keeps __proto__ as data', () => {
    const parsed = fast('__proto__:\n  polluted: true\n') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__']);
  });

  it('agrees with js-yaml on whatever js-yaml writes in block style', () => {
    const scalar = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), fc.constantFrom('true', '0x1F', '1e3', '~', 'null', '- x', 'a: b', '#c', ' lead', 'trail ', 'multi\nline\n', ''));
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string({ minLength: 1 }), tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), tree, { minKeys: 1, maxKeys: 5 }), fc.integer({ min: 20, max: 120 }), (doc, lineWidth) => {
        const text = yaml.dump(doc, { schema: yaml.JSON_SCHEMA, lineWidth, noRefs: true });
        const parsed = fast(text);
        return parsed === OUTSIDE_SUBSET || isDeepStrictEqual(parsed, jsYaml(text));
      }),
      { numRuns: 2000, seed: 20261121 },
    );
  });

  it('agrees with js-yaml on whatever js-yaml writes with flow collections below the top', () => {
    const scalar = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), fc.constantFrom('a, b', '[x]', '{y}', 'k: v', 'a:b', "it's", '"q"', ' # c', '&a', '*b', ''));
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string({ minLength: 1 }), tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), tree, { minKeys: 1, maxKeys: 5 }), (doc) => {
        const text = yaml.dump(doc, { schema: yaml.JSON_SCHEMA, flowLevel: 1, lineWidth: -1, noRefs: true });
        const parsed = fast(text);
        return parsed === OUTSIDE_SUBSET || isDeepStrictEqual(parsed, jsYaml(text));
      }),
      { numRuns: 2000, seed: 20261130 },
    );
  });

  it('reads `key: value` lines written by hand as js-yaml does, or leaves them to it', () => {
    // The entries the reader takes in place (plain and quoted scalars, a key alone), beside everything
    // that must send a line to the full path: comments, `: ` and a final `:`, escapes, other
    // quotes, spaces Unicode trims, wrapped and indented continuations, blank lines, deeper lines.
    const key = fc.constantFrom('name', 'a_b', '0', 'null', 'true', 'k:x', 'x#y', 'ключ', 'a"b', '__proto__');
    const value = fc.oneof(
      fc.constantFrom('', 'v', 'two words', 'x #c', 'x# y', 'a: b', 'a:b', 'ends:', 'a\u00a0', 'é', '1e3', '0x1F', '~', 'null', 'true', '.5', '/p', '$x', '-1', '- x'),
      fc.constantFrom('"q"', '""', "''", "'s'", '"a\\"b"', '"\\t"', "'it''s'", '"x" # c', '"x" y', '"open', "'open", '"a"  ', '"é"', '"a: b"', "'#'"),
      fc.string({ maxLength: 6 }),
    );
    const line = fc.tuple(fc.constantFrom('', '  ', '    '), key, fc.constantFrom('', ' ', '  '), value, fc.constantFrom('', ' ', '\n', '\n   more', '\n\n  more', '\n  - x', '\n  x: 1', '\n- x'));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
        const text = lines.map(([indent, k, gap, v, after]) => `${indent}${k}:${gap}${v}${after}`).join('\n');
        const parsed = fast(text);
        if (parsed === OUTSIDE_SUBSET) return true;
        let expected: unknown;
        try {
          expected = jsYaml(text);
        } catch {
          return false; // js-yaml refuses it: the reader must not read it
        }
        return isDeepStrictEqual(parsed, expected);
      }),
      { numRuns: 4000, seed: 20261130 },
    );
  });

  it('reads every YAML document of the trimmed real must-gather as js-yaml does', () => {
    expectSameAsJsYaml(fg.sync('**/*.yaml', { cwd: 'test/fixtures/mg-mini', absolute: true }).map((file) => readFileSync(file, 'utf8')));
  });

  const realArchive = join('..', 'shared', 'samples-real', 'must-gather-aws.tar.xz');
  it.skipIf(!existsSync(realArchive))(`reads every YAML file of the real aws must-gather as js-yaml does, nearly all without falling back ${needsShared('samples-real/must-gather-aws.tar.xz')}`, async () => {
    const source = await openInput(realArchive, { limits: DEFAULT_LIMITS, problems: new Problems() });
    const texts: string[] = [];
    for await (const entry of source.entries()) {
      if (entry.type === 'file' && entry.path.endsWith('.yaml')) texts.push((await readAll(entry.body(), 64 * 1024 * 1024)).toString('utf8'));
    }
    const outside = expectSameAsJsYaml(texts);
    expect(outside / texts.length).toBeLessThan(0.02);
  }, 120_000);
});

/** Every document either parses as js-yaml reads it or falls back; returns how many fell back. */
function expectSameAsJsYaml(texts: readonly string[]): number {
  let outside = 0;
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) {
    for (const doc of text.split(/^(?=---(?:[ \n]|$))/m)) {
      if (!/^[ \t]*[^\s#%]/m.test(doc)) continue;
      const parsed = fast(doc);
      if (parsed === OUTSIDE_SUBSET) outside++;
      else expect(parsed).toEqual(jsYaml(doc));
    }
  }
  return outside;
}

describe('parseBlockYaml with a pick', () => {
  it('reads only the keys picked and steps over the rest: quoted values wrapped over lines as Go\'s YAML writes them, a sequence at the key\'s own indentation', () => {
    const text = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: a',
      '  annotations:',
      '    note: "a quoted value',
      '      wrapped: onto a line that looks like a key"',
      '  namespace: ns',
      'message: "a top-level quoted value',
      '  kind: wrapped onto a line that looks like a key"',
      'finalizers:',
      '- one',
      '- two',
      'data:',
      '  key: value',
      '',
    ].join('\n');
    const pick = { kind: true, metadata: { name: true, namespace: true }, data: true } as const;
    expect(parseBlockYaml(text, 256, pick)).toEqual({ kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' }, data: { key: 'value' } });
    // What is picked reads as the whole parse does.
    const whole = yaml.load(text) as { kind: string; metadata: { name: string; namespace: string }; data: unknown };
    expect(parseBlockYaml(text, 256, pick)).toEqual({ kind: whole.kind, metadata: { name: whole.metadata.name, namespace: whole.metadata.namespace }, data: whole.data });
  });
});

describe('readBlockYaml', () => {
  it('says whether a document names an anchor: only then can aliases share parts of it', () => {
    expect(readBlockYaml('kind: X\nbase: &b {cpu: 1}\nx: *b\n', 64)).toEqual({ value: { kind: 'X', base: { cpu: 1 }, x: { cpu: 1 } }, anchors: true });
    // `&` and `*` in values are text: no anchor, nothing shared.
    expect(readBlockYaml('kind: X\nurl: "http://h/?a=1&b=2*3"\nnote: a & b * c\n', 64)).toEqual({ value: { kind: 'X', url: 'http://h/?a=1&b=2*3', note: 'a & b * c' }, anchors: false });
  });
});
