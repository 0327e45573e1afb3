#!/usr/bin/env node
// What `npm run build` prepares of the built-in pack so that a run need not (each about 0.1-0.3 s
// of CPU at every start, much of a small analysis and of the test suite's hundreds of runs):
// - dist/engine/pack-parsed.jsonl: every pack file's YAML document as JSON, by the length and the
//   SHA-1 of its text, a line each (engine/documents-file.ts: a run decodes the documents it
//   needs, not all; engine/rule-source.ts takes one when the file's text is unchanged, or
//   without reading the file while its size and times are those stamped here, and
//   parses YAML otherwise: a rule edited after the build, a user's rules, the single-file
//   build); a rule file only when it loads without an issue (schema, regexes, CEL, templates:
//   engine/load.ts then skips those checks for it when analysing; `rules lint` always makes them);
// - dist/engine/cel-parsed.jsonl: the syntax tree (ParsedExpr.expr) of every CEL expression of the
//   pack (each rule's and shared signal's `where`), as JSON (64-bit integers as {"$bigint": "…"}),
//   a line each by its text (engine/documents-file.ts: a run decodes the trees it uses), so
//   engine/cel.ts neither loads the CEL parser nor protobuf for them;
// - dist/engine/pack-templates.json and .code: the pack's templates that hold a mustache, each
//   compiled here (the code Handlebars generates, in .code; the JSON gives each template's text
//   where its code lies), so that a run loads neither Handlebars' compiler nor compiles them, and
//   a user's copy of a built-in rule takes them too;
// - dist/engine/cel-words.json: the words each of those expressions requires of a file
//   (engine/cel-literals.ts), so that a start reads no syntax tree to find them.
import { readdirSync, readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import yaml from 'js-yaml';
import { parse } from '@bufbuild/cel';

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

// The templates' code of an earlier build is not used to compile this one's (engine/templates.ts
// takes a template's code from it when there is one).
for (const name of ['pack-templates.json', 'pack-templates.code']) rmSync(join(REPO, 'dist/engine', name), { force: true });

/** Whether a rule file loads without an issue, every check made now (the compiled engine's own loader). */
const { loadRuleText } = await import('../dist/engine/load.js');
const { SHARED_DIR } = await import('../dist/engine/shared-signals.js');
const { documentKey, fileStamp, storableDocument, PACK_DOCUMENTS } = await import('../dist/engine/rule-source.js');
const { documentsFileText } = await import('../dist/engine/documents-file.js');
const { CEL_TREES } = await import('../dist/engine/cel.js');
const loadsWhole = (file, text) => file.includes(`/${SHARED_DIR}/`) || loadRuleText(file, text, true).issues.length === 0;

const expressions = new Set();
const documents = new Map();
// Each stored file's stamp, by its package path: a run takes its document without reading it while the stamp holds.
const stamps = {};
for (const file of ruleFiles(rulesDir)) {
  try {
    const text = readFileSync(file, 'utf8');
    const document = yaml.load(text, { schema: yaml.JSON_SCHEMA });
    wheres(document, expressions);
    if (!loadsWhole(file, text)) continue;
    const json = storableDocument(document);
    if (json === undefined) continue;
    const key = documentKey(text);
    documents.set(key, json);
    stamps[relative(REPO, file).split(sep).join('/')] = fileStamp(file, key);
  } catch {
    // A file that does not load is `rules lint`'s to report; its expressions are parsed at run time.
  }
}
const trees = new Map();
for (const expression of [...expressions].sort()) {
  try {
    trees.set(expression, JSON.stringify(parse(expression).expr, (_key, value) => {
      if (typeof value === 'bigint') return { $bigint: value.toString() };
      if (value instanceof Uint8Array) throw new Error('a bytes literal: parsed at run time');
      return value;
    }));
  } catch {
    // A syntax error is the rule validator's and `rules lint`'s to report (and a bytes literal has
    // no JSON form): the text is parsed at run time.
  }
}
mkdirSync(join(REPO, 'dist/engine'), { recursive: true });
writeFileSync(new URL(CEL_TREES, pathToFileURL(join(REPO, 'dist/engine/cel.js'))), documentsFileText({ format: 'mgsift-cel-trees/1' }, trees));
// The form before the one above (one JSON of JSON strings), left by an earlier build: nothing reads it.
rmSync(join(REPO, 'dist/engine/cel-parsed.json'), { force: true });
writeFileSync(new URL(PACK_DOCUMENTS, pathToFileURL(join(REPO, 'dist/engine/rule-source.js'))), documentsFileText({ format: 'mgsift-pack-documents/1', files: stamps }, documents));
// The form before the one above (one JSON of JSON strings), left by an earlier build: nothing reads it.
rmSync(join(REPO, 'dist/engine/pack-parsed.json'), { force: true });
// Every template the pack's rules compiled above (each file loaded with every check made).
const { compiledTemplateSources, precompiledTemplate } = await import('../dist/engine/templates.js');
const templatePlaces = {};
const templateCode = [];
let codeBytes = 0;
for (const source of compiledTemplateSources().sort()) {
  const code = Buffer.from(precompiledTemplate(source), 'utf8');
  templatePlaces[source] = [codeBytes, code.length];
  templateCode.push(code);
  codeBytes += code.length;
}
writeFileSync(join(REPO, 'dist/engine/pack-templates.json'), JSON.stringify(templatePlaces));
writeFileSync(join(REPO, 'dist/engine/pack-templates.code'), Buffer.concat(templateCode));
// After the trees: the words each expression requires, read from them (null: none).
const { literalsRequiredBy } = await import('../dist/engine/cel-literals.js');
const words = Object.fromEntries([...expressions].sort().map((expression) => [expression, literalsRequiredBy(expression) ?? null]));
writeFileSync(join(REPO, 'dist/engine/cel-words.json'), JSON.stringify(words));
