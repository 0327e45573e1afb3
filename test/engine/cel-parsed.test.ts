import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { parse } from '@bufbuild/cel';
import { fromBinary, equals } from '@bufbuild/protobuf';
import { ParsedExprSchema } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { loadRules } from '../../src/engine/load.js';
import { needs } from '../helpers/needs.js';

// `npm run build` parses the pack's CEL ahead of time (scripts/cel-parsed.mjs); engine/cel.ts
// takes a tree from it by the expression's text, so each must be the tree the parser makes.
const BUILT = new URL('../../dist/engine/cel-parsed.json', import.meta.url);

describe('the pack CEL parsed at build time', () => {
  it.runIf(existsSync(BUILT))(`holds every where of the pack, each the tree parse() makes of its text ${needs('dist/engine/cel-parsed.json: npm run build')}`, async () => {
    const trees = JSON.parse(readFileSync(BUILT, 'utf8')) as Record<string, string>;
    const { rules } = await loadRules([], { deferCompile: true });
    const wheres = new Set(rules.flatMap((rule) => rule.signals.flatMap((signal) => ('where' in signal && signal.where ? [signal.where.source] : []))));
    expect(wheres.size).toBeGreaterThan(100);
    for (const where of wheres) expect(Object.keys(trees), where).toContain(where);
    for (const [text, encoded] of Object.entries(trees)) {
      expect(equals(ParsedExprSchema, fromBinary(ParsedExprSchema, Buffer.from(encoded, 'base64')), parse(text)), text).toBe(true);
    }
  });
});
