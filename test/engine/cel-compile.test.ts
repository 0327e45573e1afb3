import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCel, interpretedCelProgram, parseCel } from '../../src/engine/cel.js';
import { compileToJs } from '../../src/engine/cel-compile.js';
import { loadRules } from '../../src/engine/load.js';
import { parseYamlItems } from '../../src/parsers/yaml.js';
import { parseJsonTextItems } from '../../src/parsers/json.js';
import { Problems } from '../../src/core/problems.js';

/** Objects whose fields are missing, null, of the wrong type: where CEL's errors decide. */
const ODD_OBJECTS: unknown[] = [
  {},
  { kind: 'Pod', metadata: null, status: 'x' },
  { kind: 'Pod', metadata: { name: 7, namespace: null, labels: ['a'], annotations: { a: null } }, status: { phase: ['Running'], conditions: 'none' } },
  { kind: 'Pod', metadata: { name: 'constructor', namespace: 'openshift-etcd' }, status: { conditions: [{ type: 'Ready', status: true }, null, 'x'], containerStatuses: { a: 1 } } },
  { kind: 'Node', metadata: { name: 'n' }, status: { conditions: [{ type: 'Ready', status: 'False', message: null, lastTransitionTime: 3 }] } },
  { kind: 'ClusterOperator', status: { conditions: [{ type: 'Degraded', status: 'True', message: 5 }], versions: [{ name: 'operator', version: 4.14 }] } },
  { a: { b: { c: null } }, spec: { replicas: '3' }, status: { replicas: 3.5, readyReplicas: 3 } },
];

/** Objects of the pack's fixtures, by kind (a few of each: the firing and the quiet shapes). */
function fixtureObjects(perKind: number): Map<string, unknown[]> {
  const byKind = new Map<string, unknown[]>();
  const problems = new Problems();
  const visit = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = statSync(path);
      if (stat.isDirectory()) visit(path);
      else if (/\.(ya?ml|json)$/.test(name) && stat.size < 300_000 && !name.startsWith('expect')) {
        const text = readFileSync(path, 'utf8');
        const items = name.endsWith('.json') ? parseJsonTextItems(text, path, problems) : parseYamlItems(text, path, problems);
        try {
          for (const { object } of items) {
            const list = byKind.get(String(object.kind)) ?? [];
            if (list.length < perKind) list.push(object);
            byKind.set(String(object.kind), list);
          }
        } catch {
          // Not Kubernetes data (a rule file, a fixture's notes): nothing to take.
        }
      }
    }
  };
  visit('rules');
  return byKind;
}

describe('CEL compiled to JavaScript', () => {
  it('gives the interpreter’s verdict for every where of the pack on the fixtures’ objects and odd ones', async () => {
    const { rules } = await loadRules();
    const objects = fixtureObjects(15);
    const all = [...objects.values()].flat();
    let compared = 0;
    let compiled = 0;
    for (const rule of rules) {
      for (const signal of rule.signals) {
        if (signal.type !== 'resource' && signal.type !== 'event') continue;
        if (!signal.where) continue;
        const expression = signal.where.source;
        const fast = compileToJs(parseCel(expression).expr!, {});
        if (fast) compiled++;
        const program = compileCel(expression);
        const interpreted = interpretedCelProgram(expression);
        const kinds = signal.type === 'resource' ? signal.kinds : ['Event'];
        const sample = [...kinds.flatMap((kind) => objects.get(kind) ?? []), ...ODD_OBJECTS, ...all.filter((_, i) => i % 53 === 0)];
        for (const object of sample) {
          expect(program({ object }), `${rule.id}.${signal.name}: ${expression}\non ${JSON.stringify(object).slice(0, 300)}`).toBe(interpreted({ object }));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1500);
    // Most of the pack runs compiled: the rest uses arithmetic, times or `type`.
    expect(compiled).toBeGreaterThan(100);
  });

  it('absorbs errors, keeps int and double apart and reads times as the interpreter does', () => {
    const cases: [string, unknown][] = [
      ["object.missing == 'x' || object.a == 1", { a: 1 }],
      ["object.a == 1 || object.missing == 'x'", { a: 1 }],
      ["!(object.missing == 'x' && object.a == 2)", { a: 1 }],
      ["!(object.missing == 'x' || object.a == 2)", { a: 1 }],
      ['object.l.exists(x, x.b == 1)', { l: [{}, { b: 1 }] }],
      ['object.l.all(x, x.b == 1)', { l: [{ b: 1 }, {}] }],
      ['object.l.exists_one(x, x.b == 1)', { l: [{ b: 1 }, { b: 2 }] }],
      ['object.l.map(x, x.b).exists(v, v == 2)', { l: [{ b: 1 }, { b: 2 }] }],
      ['size(object.l.filter(x, x.b > 1)) == 1', { l: [{ b: 1 }, { b: 2 }] }],
      ['has(object.a.b)', { a: { b: null } }],
      ['has(object.a.b)', { a: 'x' }],
      ["'b' in object.a", { a: { b: null } }],
      ['object.n == 3.0 && object.n > 2', { n: 3 }],
      ['object.n * 2 > 4', { n: 3 }],
      ['object.n * 2.0 > 4.0', { n: 3 }],
      ['object.n * 2.0 > 4.0', { n: 3.5 }],
      ['object.n + 1 >= object.m', { n: 3, m: 4 }],
      ["object.s + 'x' == 'ax'", { s: 'a' }],
      ['0.9 * 16.0 * 1073741824.0 > 1.0', {}],
      ["timestamp(object.b) > timestamp(object.a)", { a: '2021-08-03T09:29:13Z', b: '2021-08-03T09:29:13.5Z' }],
      ["timestamp(object.b) - timestamp(object.a) > duration('1800s')", { a: '2021-08-03T09:29:13Z', b: '2021-08-03T10:29:13+01:00' }],
      ["timestamp(object.b) - timestamp(object.a) > duration('30m')", { a: '2021-08-03T09:29:13Z', b: '2021-08-03T10:29:13Z' }],
      ['timestamp(object.a) > timestamp(object.a)', { a: 'yesterday' }],
      ['type(object.a) == string', { a: 'x' }],
      ['type(object.a) == string', { a: 1 }],
      ['type(object.a) == int', { a: 1 }],
      ['type(object.a) == double', { a: 1.5 }],
      ['type(object.a) == map || type(object.a) == list', { a: [] }],
    ];
    for (const [expression, object] of cases) {
      expect(compileToJs(parseCel(expression).expr!, {}), expression).toBeDefined();
      expect(compileCel(expression)({ object }), `${expression} on ${JSON.stringify(object)}`).toBe(interpretedCelProgram(expression)({ object }));
    }
  });
});
