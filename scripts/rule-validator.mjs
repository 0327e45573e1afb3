#!/usr/bin/env node
// Writes dist/engine/rule-validator.cjs: the rule schema's validators (a rule, a file of shared
// signals) compiled ahead of time (ajv's standalone code), so `analyze` does not compile the
// schema at every start (about 70 ms of CPU). engine/rule-schema.ts uses them when their schema
// hash matches rules/schema.json and compiles the schema itself otherwise (the single-file
// build, a schema edited after the build).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const text = readFileSync(join(REPO, 'rules/schema.json'), 'utf8');
// The same options as engine/rule-schema.ts's own compile, plus the source ajv needs to print it.
const ajv = new Ajv2020({ allErrors: true, strict: false, code: { source: true } });
const schema = JSON.parse(text);
ajv.addSchema(schema);
const exports = Object.fromEntries(['rule', 'sharedSignalsFile'].map((kind) => [kind, `${schema.$id}#/$defs/${kind}`]));
const hash = createHash('sha256').update(text).digest('hex');
const out = join(REPO, 'dist/engine/rule-validator.cjs');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${standaloneCode.default(ajv, exports)}\nmodule.exports.schemaHash = ${JSON.stringify(hash)};\n`);
