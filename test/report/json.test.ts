import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { renderJson } from '../../src/report/json.js';
import { REPORT_SCHEMA_VERSION } from '../../src/report/model.js';
import type { Report } from '../../src/report/model.js';
import { healthyReport, HOSTILE, manyEntriesReport, reverseKeys, rollbackReport, seed000Report } from './fixtures.js';

type Schema = Record<string, unknown>;
const schema = JSON.parse(readFileSync(new URL('../../schema/report.schema.json', import.meta.url), 'utf8')) as Schema;
const ajv = new Ajv2020({ strict: true, allErrors: true });
const validate = ajv.compile(schema);

const fixtures: [string, () => Report][] = [
  ['seed 000', seed000Report],
  ['rollback', rollbackReport],
  ['healthy', healthyReport],
  ['many entries', manyEntriesReport],
];

function errorsOf(value: unknown): string {
  validate(value);
  return ajv.errorsText(validate.errors);
}

describe('renderJson', () => {
  it.each(fixtures)('%s: validates against schema/report.schema.json', (_name, make) => {
    const text = renderJson(make());
    const value: unknown = JSON.parse(text);
    expect(validate(value), errorsOf(value)).toBe(true);
  });

  it.each(fixtures)('%s: is byte-stable, whatever the input key order', (_name, make) => {
    const a = renderJson(make());
    expect(renderJson(make())).toBe(a);
    expect(renderJson(reverseKeys(make()))).toBe(a);
    expect(a.endsWith('}\n')).toBe(true);
    expect(a).toContain(`\n  "schemaVersion": "${REPORT_SCHEMA_VERSION}",\n`); // 2-space indent
  });

  it('differs only in generatedAt and stats.durationMs between two runs', () => {
    const first = seed000Report();
    const second = seed000Report();
    second.generatedAt = '2030-01-01T00:00:00.000Z';
    second.stats = { ...second.stats, durationMs: 99_999 };
    const strip = (text: string): string =>
      text.replace(/"generatedAt": "[^"]*"/, '"generatedAt": ""').replace(/"durationMs": [0-9.]+/, '"durationMs": 0');
    expect(renderJson(first)).not.toBe(renderJson(second));
    expect(strip(renderJson(first))).toBe(strip(renderJson(second)));
  });

  it('sorts lists whose order carries no meaning, keeps history and evidence order', () => {
    const report = seed000Report();
    const shuffled = seed000Report();
    shuffled.findings.reverse();
    shuffled.notChecked.reverse();
    shuffled.passed.reverse();
    shuffled.problems.reverse();
    shuffled.facts.timeline.reverse();
    expect(renderJson(shuffled)).toBe(renderJson(report));
    const out = JSON.parse(renderJson(report)) as {
      findings: { ruleId: string; severity: string }[];
      facts: { history: { version: string }[] };
    };
    expect(out.findings.map((f) => f.ruleId)).toEqual(['cvo-final-sync-lost', 'cvo-pod-churn']);
    expect(out.facts.history.map((h) => h.version)).toEqual(['4.5.21', '4.6.8']);
  });

  it('writes keys in the order the schema documents', () => {
    const check = (value: unknown, node: Schema | undefined, path: string): void => {
      if (node === undefined) return;
      const ref = node.$ref;
      if (typeof ref === 'string') {
        const target = ref.replace('#/$defs/', '');
        check(value, (schema.$defs as Record<string, Schema>)[target], path);
        return;
      }
      if (Array.isArray(value)) {
        value.forEach((v, i) => check(v, node.items as Schema | undefined, `${path}[${i}]`));
        return;
      }
      if (value === null || typeof value !== 'object') return;
      const props = node.properties as Record<string, Schema> | undefined;
      if (props === undefined) return;
      const documented = Object.keys(props);
      const written = Object.keys(value);
      const expected = documented.filter((k) => written.includes(k));
      expect(written, path).toEqual(expected);
      for (const key of written) check((value as Record<string, unknown>)[key], props[key], `${path}.${key}`);
    };
    for (const [, make] of fixtures) check(JSON.parse(renderJson(make())), schema, '$');
  });

  it('keeps archive text exactly (JSON escapes control characters)', () => {
    const text = renderJson(seed000Report());
    expect(text).not.toContain('\u0000');
    const out = JSON.parse(text) as { findings: { evidence: { text: string }[] }[] };
    const all = out.findings.flatMap((f) => f.evidence.map((e) => e.text));
    expect(all.some((t) => t.includes(HOSTILE))).toBe(true);
  });

  it('the schema pins the model version and rejects what the model cannot hold', () => {
    expect((schema.properties as Record<string, { const?: string }>).schemaVersion?.const).toBe(REPORT_SCHEMA_VERSION);
    const good = JSON.parse(renderJson(seed000Report())) as Record<string, unknown>;
    const bad = (mutate: (r: Record<string, any>) => void): boolean => {
      const copy = structuredClone(good) as Record<string, any>;
      mutate(copy);
      return validate(copy);
    };
    expect(validate(good)).toBe(true);
    expect(bad((r) => (r.extra = 1))).toBe(false);
    expect(bad((r) => (r.findings[0].severity = 'fatal'))).toBe(false);
    expect(bad((r) => delete r.counts.info)).toBe(false);
    expect(bad((r) => (r.findings[0].evidence[0].match = [1]))).toBe(false);
    expect(bad((r) => (r.findings[0].evidence[0].surprise = true))).toBe(false);
    expect(bad((r) => (r.facts.history[0].rollback = 'x-stream'))).toBe(false);
    expect(bad((r) => (r.collectedAt = 'yesterday'))).toBe(false);
    expect(bad((r) => (r.problems[0].severity = 'info'))).toBe(false);
  });
});
