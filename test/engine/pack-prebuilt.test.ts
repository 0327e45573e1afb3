import { describe, it, expect } from 'vitest';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { parse } from '@bufbuild/cel';
import { equals } from '@bufbuild/protobuf';
import { ExprSchema } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { builtinRuleFiles, loadRules } from '../../src/engine/load.js';
import { packSharedFiles } from '../../src/engine/shared-signals.js';
import { packageText } from '../../src/core/assets.js';
import { documentKey, PACK_DOCUMENTS } from '../../src/engine/rule-source.js';
import { readDocumentsFile } from '../../src/engine/documents-file.js';
import { CEL_TREES, decodeExprTree } from '../../src/engine/cel.js';
import { literalsRequiredBy } from '../../src/engine/cel-literals.js';
import { compileTemplate } from '../../src/engine/templates.js';
import { needs } from '../helpers/needs.js';
import { tempDir } from '../helpers/archives.js';

// `npm run build` parses the pack's CEL ahead of time (scripts/pack-prebuilt.mjs); engine/cel.ts
// takes a tree from it by the expression's text, so each must be the tree the parser makes.
const BUILT = new URL(CEL_TREES, new URL('../../dist/engine/cel.js', import.meta.url));

describe('the pack CEL parsed at build time', () => {
  it.runIf(existsSync(BUILT))(`holds every where of the pack, each the tree parse() makes of its text ${needs('dist/engine/cel-parsed.jsonl: npm run build')}`, async () => {
    const file = readDocumentsFile(readFileSync(BUILT))!;
    expect(file.header['format']).toBe('mgsift-cel-trees/1');
    const trees = Object.fromEntries(file.keys.map((key) => [key, file.json(key)!]));
    const { rules } = await loadRules([], { deferCompile: true });
    const wheres = new Set(rules.flatMap((rule) => rule.signals.flatMap((signal) => ('where' in signal && signal.where ? [signal.where.source] : []))));
    expect(wheres.size).toBeGreaterThan(100);
    for (const where of wheres) expect(Object.keys(trees), where).toContain(where);
    for (const [text, encoded] of Object.entries(trees)) {
      expect(equals(ExprSchema, decodeExprTree(encoded), parse(text).expr!), text).toBe(true);
    }
  });
});

// The pack's YAML documents as JSON by the SHA-1 of each file's text (engine/rule-source.ts).
const DOCUMENTS = new URL(PACK_DOCUMENTS, new URL('../../dist/engine/rule-source.js', import.meta.url));

describe('the pack files parsed at build time', () => {
  it.runIf(existsSync(DOCUMENTS))(`hold every rule and shared-signals file, each the document js-yaml makes of its text ${needs('dist/engine/pack-parsed.jsonl: npm run build')}`, () => {
    const documents = readDocumentsFile(readFileSync(DOCUMENTS))!;
    expect(documents.header['format']).toBe('mgsift-pack-documents/1');
    const texts = [...builtinRuleFiles().map((path) => packageText(path)), ...packSharedFiles().map((f) => f.text)];
    expect(texts.length).toBeGreaterThan(100);
    for (const text of texts) {
      const json = documents.json(documentKey(text));
      expect(json, text.slice(0, 120)).toBeDefined();
      expect(JSON.parse(json!)).toEqual(yaml.load(text, { schema: yaml.JSON_SCHEMA }));
    }
  });
});

// The build stores a rule's document only when the file loads without an issue, and analysing
// then skips its schema and regex checks: a file edited since (another SHA-1) is checked again.
describe('the pack documents stored at build time', () => {
  it.runIf(existsSync(DOCUMENTS))(`are taken for unchanged files only: an edit after the build is checked as any rule ${needs('dist/engine/pack-parsed.jsonl: npm run build')}`, async () => {
    const built = (await import(new URL('../../dist/engine/load.js', import.meta.url).href)) as typeof import('../../src/engine/load.js');
    const path = builtinRuleFiles().find((p) => p.endsWith('/pod-crashlooping.yaml'))!;
    const text = packageText(path);
    expect(built.loadRuleText(path, text, true, true, undefined, true).issues).toEqual([]);
    const edited = text.replace('severity: warning', 'severity: warning\nowner: me');
    const issues = built.loadRuleText(path, edited, true, true, undefined, true).issues.map((i) => i.reason);
    expect(issues.join('\n')).toMatch(/owner/);
  });
});

// A run takes a built-in file's document by the file's stamp (size, times) without reading it;
// a file whose times are not the stamped ones (edited, copied) is read and keyed by its text.
describe('the pack documents stamped at build time', () => {
  it.runIf(existsSync(DOCUMENTS))(`are taken unread while the file's stamp holds, and not for another file ${needs('dist/engine/pack-parsed.jsonl: npm run build')}`, async () => {
    const built = (await import(new URL('../../dist/engine/rule-source.js', import.meta.url).href)) as typeof import('../../src/engine/rule-source.js');
    const path = builtinRuleFiles().find((p) => p.endsWith('/pod-crashlooping.yaml'))!;
    const onDisk = fileURLToPath(new URL(`../../${path}`, import.meta.url));
    const stored = built.packDocumentUnchanged(path, onDisk);
    expect(stored).toBeDefined();
    expect(JSON.parse(stored!)).toEqual(yaml.load(readFileSync(onDisk, 'utf8'), { schema: yaml.JSON_SCHEMA }));
    const copy = join(tempDir(), 'pod-crashlooping.yaml');
    copyFileSync(onDisk, copy);
    expect(built.packDocumentUnchanged(path, copy), 'a copy: other times').toBeUndefined();
    expect(built.packDocumentUnchanged('rules/none/no-such-rule.yaml', onDisk), 'a file the build did not stamp').toBeUndefined();
  });
});

// The words each of the pack's expressions requires of a file, found at build time (engine/cel-literals.ts).
const WORDS = new URL('../../dist/engine/cel-words.json', import.meta.url);

describe('the words of the pack CEL found at build time', () => {
  it.runIf(existsSync(WORDS))(`hold every where of the pack, each with the words its tree requires ${needs('dist/engine/cel-words.json: npm run build')}`, async () => {
    const words = JSON.parse(readFileSync(WORDS, 'utf8')) as Record<string, string[] | null>;
    const { rules } = await loadRules([], { deferCompile: true });
    const wheres = new Set(rules.flatMap((rule) => rule.signals.flatMap((signal) => ('where' in signal && signal.where ? [signal.where.source] : []))));
    for (const where of wheres) expect(Object.keys(words), where).toContain(where);
    // These tests run the sources, which have no cel-words.json beside them: found from the trees.
    for (const [text, built] of Object.entries(words)) expect(built ?? undefined, text).toEqual(literalsRequiredBy(text));
    expect(Object.values(words).filter((w) => w !== null).length).toBeGreaterThan(100);
  });
});

// The pack's templates compiled at build time (engine/templates.ts): a run renders each from the
// code the build generated for it, and a user's copy of a built-in rule takes it too.
const TEMPLATES = new URL('../../dist/engine/pack-templates.json', import.meta.url);

describe('the pack templates compiled at build time', () => {
  it.runIf(existsSync(TEMPLATES))(`are the pack's templates with a mustache, each rendering from its stored code as from its text ${needs('dist/engine/pack-templates.json: npm run build')}`, async () => {
    const places = JSON.parse(readFileSync(TEMPLATES, 'utf8')) as Record<string, [number, number]>;
    const sources = Object.keys(places);
    expect(sources.length).toBeGreaterThan(300);
    const built = (await import(new URL('../../dist/engine/templates.js', import.meta.url).href)) as typeof import('../../src/engine/templates.js');
    // A context with a value wherever most templates look (a signal's items, a fact, a capture).
    const item = { name: 'a', namespace: 'ns', kind: 'Pod', text: 'x', count: 2, reason: 'R', message: 'm' };
    const context = { signals: new Proxy({}, { get: () => ({ items: [item, { ...item, name: 'b' }], count: 2 }) }), item, object: { metadata: { name: 'a', namespace: 'ns' } } };
    for (const source of sources) {
      expect(source).toContain('{{');
      expect(built.isPackTemplate(source)).toBe(true);
      // The sources here have no build output beside them: compiled from the text.
      const fromText = compileTemplate(source);
      const fromCode = built.compileTemplate(source);
      for (const given of [{}, context]) {
        const render = (template: (c: object) => string): string => {
          try {
            return template(given);
          } catch (err) {
            return `throws ${(err as Error).message}`;
          }
        };
        expect(render(fromCode), source.slice(0, 80)).toBe(render(fromText));
      }
    }
    const rule = yaml.load(packageText('rules/monitoring/prometheus-scrape-body-size-limit.yaml')) as { message: string; headline: string };
    expect(sources).toEqual(expect.arrayContaining([rule.message, rule.headline]));
  });
});
