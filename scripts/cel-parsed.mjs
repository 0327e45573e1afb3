#!/usr/bin/env node
// Writes dist/engine/cel-parsed.json: the syntax tree of every CEL expression in the built-in
// pack (each rule's and shared signal's `where`), parsed ahead of time, so `analyze` decodes
// them (about 0.06 ms each) instead of parsing them (a few tenths of a millisecond warm, more
// while the parser is cold). engine/cel.ts uses a tree when the expression's text is a key and
// parses the text otherwise (the single-file build, a user's rules, a rule edited after the build).
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { parse } from '@bufbuild/cel';
import { toBinary } from '@bufbuild/protobuf';
import { ParsedExprSchema } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const rulesDir = join(REPO, 'rules');

function ruleFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name.endsWith('.fixtures') ? [] : ruleFiles(join(dir, e.name))) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Every `where` string anywhere in a document. */
function wheres(node, out) {
  if (Array.isArray(node)) for (const item of node) wheres(item, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'where' && typeof value === 'string') out.add(value);
      else wheres(value, out);
    }
  }
  return out;
}

const expressions = new Set();
for (const file of ruleFiles(rulesDir)) {
  try {
    wheres(yaml.load(readFileSync(file, 'utf8'), { schema: yaml.JSON_SCHEMA }), expressions);
  } catch {
    // A file that does not load is `rules lint`'s to report; its expressions are parsed at run time.
  }
}
const trees = {};
for (const expression of [...expressions].sort()) {
  try {
    trees[expression] = Buffer.from(toBinary(ParsedExprSchema, parse(expression))).toString('base64');
  } catch {
    // A syntax error is the rule validator's and `rules lint`'s to report: the text is parsed at run time.
  }
}
const out = join(REPO, 'dist/engine/cel-parsed.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(trees));
