/**
 * The blocked-edges reader against js-yaml (failsafe schema): every file of the
 * cincinnati-graph-data copy (skipped when absent) reads the same, or is left to js-yaml.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseEdgeYaml } from '../../src/risks/edge-yaml.js';
import { needsShared } from '../helpers/needs.js';

const FOLDER = fileURLToPath(new URL('../../../shared/datasets/cincinnati-graph-data/blocked-edges/', import.meta.url));
const load = (text: string): unknown => yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA });

describe('parseEdgeYaml', () => {
  it.skipIf(!existsSync(FOLDER))(`reads every blocked-edges file as js-yaml does, or leaves it to js-yaml ${needsShared('datasets/cincinnati-graph-data/blocked-edges/')}`, () => {
    const names = readdirSync(FOLDER).filter((n) => n.endsWith('.yaml'));
    let left = 0;
    for (const name of names) {
      const text = readFileSync(join(FOLDER, name), 'utf8');
      const mine = parseEdgeYaml(text);
      if (mine === undefined) left++;
      else expect(mine, name).toEqual(load(text));
    }
    console.log(`${names.length - left} of ${names.length} blocked-edges files read without js-yaml`);
    expect(left).toBeLessThan(names.length / 10);
  });

  it('reads the shapes the files use', () => {
    const text = [
      'to: 4.10.1',
      "from: 4\\.9\\..*",
      '# a comment',
      'url: https://example.com/x',
      "name: 'It''s'",
      'message: |-',
      '  Line one',
      '',
      '    indented # kept',
      'matchingRules:',
      '- type: PromQL',
      '  promql:',
      '    promql: |',
      '      topk(1,',
      '        a{x="y"}',
      '      )',
      '',
      '- type: Always',
      '',
    ].join('\n');
    expect(parseEdgeYaml(text)).toEqual(load(text));
    expect((parseEdgeYaml(text) as { to: string }).to).toBe('4.10.1');
  });

  it.each([
    ['folded', 'message: >\n  a\n  b\n'],
    ['kept', 'message: |+\n  a\n\n'],
    ['flow', 'matchingRules: [{type: Always}]\n'],
    ['wrapped plain', 'message: a\n  b\n'],
    ['double quotes', 'name: "a\\tb"\n'],
    ['trailing comment', 'to: 4.1 # x\n'],
    ['duplicate key', 'to: a\nto: b\n'],
    ['no final newline', 'message: |\n  a'],
    ['empty value', 'fixedIn:\nto: a\n'],
    ['anchor', 'to: &a x\n'],
  ])('leaves %s to js-yaml', (_, text) => {
    expect(parseEdgeYaml(text)).toBeUndefined();
  });
});
