import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import yaml from 'js-yaml';
import { builtinRuleFiles } from '../../src/engine/load.js';
import { needs } from '../helpers/needs.js';

// `npm run build` compiles the rule schema ahead of time (scripts/rule-validator.mjs); the
// precompiled validator must say exactly what ajv's own compile says, for good and bad rules.
const BUILT = new URL('../../dist/engine/rule-validator.cjs', import.meta.url);

describe('the precompiled rule-schema validators', () => {
  it.runIf(existsSync(BUILT))(`give the same verdict and errors as compiling the schema ${needs('dist/engine/rule-validator.cjs: npm run build')}`, () => {
    type V = ((doc: unknown) => boolean) & { errors?: unknown };
    const built = createRequire(import.meta.url)(BUILT.pathname) as Record<'rule' | 'sharedSignalsFile', V>;
    const schema = JSON.parse(readFileSync(new URL('../../rules/schema.json', import.meta.url), 'utf8')) as { $id: string };
    const ajv = new Ajv2020({ allErrors: true, strict: false }).addSchema(schema);
    const compiled = (kind: string): V => ajv.getSchema(`${schema.$id}#/$defs/${kind}`) as V;
    const docs: unknown[] = builtinRuleFiles().map((path) => yaml.load(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')));
    expect(docs.length).toBeGreaterThan(10);
    const first = docs[0] as Record<string, unknown>;
    docs.push({ ...first, owner: 'me' }, { ...first, id: 'Not Kebab' }, { ...first, severity: 'loud', signals: 3 }, { title: 1 }, [], 'text', null);
    const shared: unknown[] = [
      yaml.load(readFileSync(new URL('../../rules/_shared/signals.yaml', import.meta.url), 'utf8')),
      { sharedSignals: { Bad_Name: { fact: { name: 'cluster' } } } },
      { sharedSignals: { x: { use: 'y' } } },
      { signals: {} },
    ];
    for (const [kind, list] of [['rule', docs], ['sharedSignalsFile', shared]] as const) {
      for (const doc of list) {
        expect(built[kind](doc)).toBe(compiled(kind)(doc));
        expect(built[kind].errors).toEqual(compiled(kind).errors);
      }
    }
  });
});
