import { readBuildOutput, readBuildOutputPart } from '../core/build-output.js';
import type Handlebars from 'handlebars';
import { handlebarsCompiler, handlebarsRuntime, type HandlebarsEnvironment } from '../core/handlebars.js';
import { binaryUnits } from '../core/bytes.js';
import { formatDuration, isoTime } from '../core/duration.js';
import { countedNames, listedNames } from './headline.js';

/**
 * Message, remediation and banner templates of rules: Handlebars on plain text (no HTML
 * escaping here; each renderer escapes for its own format). Helpers are small and generic;
 * OpenShift knowledge stays in facts.
 */
const HELPERS: Record<string, Handlebars.HelperDelegate> = Object.create(null) as Record<string, Handlebars.HelperDelegate>;

function helper(name: string, fn: Handlebars.HelperDelegate): void {
  HELPERS[name] = fn;
}

/** An isolated environment of `handlebars` with the helpers. */
function withHelpers(handlebars: HandlebarsEnvironment): HandlebarsEnvironment {
  const env = handlebars.create();
  env.registerHelper(HELPERS);
  return env;
}

/** Handlebars with its compiler, for a template compiled from its text; its runtime alone, for one compiled at build time. Each made at first use. */
let withCompiler: HandlebarsEnvironment | undefined;
let runtimeOnly: HandlebarsEnvironment | undefined;
const compilerEnvironment = (): HandlebarsEnvironment => (withCompiler ??= withHelpers(handlebarsCompiler()));
const runtimeEnvironment = (): HandlebarsEnvironment => (runtimeOnly ??= withHelpers(handlebarsRuntime()));

helper('join', (list: unknown, separator: unknown) =>
  Array.isArray(list) ? list.map(String).join(typeof separator === 'string' ? separator : ', ') : '',
);
helper('eq', (a: unknown, b: unknown) => a === b);
helper('ne', (a: unknown, b: unknown) => a !== b);
helper('gt', (a: unknown, b: unknown) => Number(a) > Number(b));
// Handlebars passes its options object last: only the arguments count.
helper('or', (...args: unknown[]) => args.slice(0, -1).some(Boolean));
helper('and', (...args: unknown[]) => args.slice(0, -1).every(Boolean));
helper('add', (...args: unknown[]) => args.slice(0, -1).reduce((sum: number, n) => sum + Number(n), 0));
helper('lower', (s: unknown) => String(s ?? '').toLowerCase());
helper('upper', (s: unknown) => String(s ?? '').toUpperCase());
helper('plural', (n: unknown, word: unknown) => `${String(n)} ${String(word)}${Number(n) === 1 ? '' : 's'}`);
helper('time', (ms: unknown) =>
  typeof ms === 'number' && Number.isFinite(ms) ? isoTime(ms) : 'unknown time',
);
// The same to the second (`2023-10-05T01:41:28Z`): a headline is a sentence, not a log line.
helper('isoSecond', (ms: unknown) =>
  typeof ms === 'number' && Number.isFinite(ms) ? isoTime(Math.floor(ms / 1000) * 1000) : 'unknown time',
);
helper('elapsed', (from: unknown, to: unknown) => {
  if (typeof from !== 'number' || typeof to !== 'number' || !Number.isFinite(from) || !Number.isFinite(to) || to < from) return 'an unknown time';
  return formatDuration(to - from);
});
// `time` inside [from, to]; `to` absent: still open (an update in progress).
helper('within', (time: unknown, from: unknown, to: unknown) => {
  if (typeof time !== 'number' || typeof from !== 'number' || time < from) return false;
  return typeof to !== 'number' || time <= to;
});
// Bytes in binary units (`7.60 GiB`, `110.5 MiB`), as etcdctl's table and the OpenShift docs give database sizes.
helper('byteSize', (n: unknown) => {
  const bytes = Number(n);
  if (!Number.isFinite(bytes)) return 'an unknown size';
  const [value, unit] = binaryUnits(bytes);
  return unit === 'B' ? `${value} B` : `${value.toFixed(2)} ${unit}`;
});
// `part` as a percentage of `whole`, one decimal (`95.0`).
helper('percentOf', (part: unknown, whole: unknown) => {
  const a = Number(part);
  const b = Number(whole);
  return Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? ((a / b) * 100).toFixed(1) : '?';
});
helper('includes', (list: unknown, value: unknown) => Array.isArray(list) && list.includes(value));
helper('unique', (list: unknown, key: unknown) => {
  if (!Array.isArray(list)) return [];
  const values = list.map((item) => (typeof key === 'string' && item && typeof item === 'object' ? (item as Record<string, unknown>)[key] : item));
  return [...new Set(values.filter((v) => v !== undefined && v !== null && v !== ''))];
});
// The first item of a list whose field `key` equals `value` (a node's own line among a log's, by its capture).
helper('find', (list: unknown, key: unknown, value: unknown) =>
  Array.isArray(list) && typeof key === 'string' ? list.find((item) => item && typeof item === 'object' && (item as Record<string, unknown>)[key] === value) : undefined,
);
// The first argument that holds a value: an item from one source, else from another.
helper('coalesce', (...args: unknown[]) => args.slice(0, -1).find((value) => value !== undefined && value !== null && value !== ''));
/** A field of an item, by a dotted path (`item.name`); the item itself without a path. */
function fieldOf(item: unknown, path: string | undefined): unknown {
  if (path === undefined) return item;
  return path.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), item);
}

/** How many names a helper shows: its argument, at least one (three when not a number). */
function shownOf(n: unknown): number {
  return Math.max(1, Number.isFinite(Number(n)) ? Number(n) : 3);
}

/** The distinct non-empty values of a list (of the field at `path` of each item), as text. */
function distinctValues(list: unknown, path: string | undefined): string[] {
  if (!Array.isArray(list)) return [];
  const values = list.map((item) => fieldOf(item, path ?? (item && typeof item === 'object' ? 'name' : undefined)));
  // A capture holds a group's distinct values joined with `, ` (see `match` in rules/README.md), a
  // condition's message a list with `,`: each counts.
  const texts = values.filter((v) => v !== undefined && v !== null && v !== '' && typeof v !== 'object').flatMap((v) => String(v).split(/,\s*/));
  return [...new Set(texts.filter((t) => t !== ''))];
}

// The first `n` distinct names of a list and how many more (`a, b, c and 4 more`), for a headline
// that names what it is about without listing it all. Objects give their `name` (or the field at `path`).
helper('names', (list: unknown, n: unknown, ...rest: unknown[]) => {
  const names = distinctValues(list, typeof rest[0] === 'string' ? rest[0] : undefined);
  return listedNames(names, shownOf(n));
});
// Names with their count and kind, for a headline: `ClusterOperator dns`, or `3 ClusterOperators (a, b and c)`
// with the first `n` named (`{{objects signals.degraded.items "ClusterOperator" 3}}`; a path as for `names`).
helper('objects', (list: unknown, kind: unknown, n: unknown, ...rest: unknown[]) => {
  const names = distinctValues(list, typeof rest[0] === 'string' ? rest[0] : undefined);
  if (names.length === 0) return '';
  return countedNames(String(kind), names, shownOf(n));
});
// How many distinct names a list holds (as `names` reads them): `{{plural (count about) 'node'}}`.
helper('count', (list: unknown, ...rest: unknown[]) => distinctValues(list, typeof rest[0] === 'string' ? rest[0] : undefined).length);
// The items of a list whose field `key` equals `value` (`{{names (filter about 'kind' 'Node') 3}}`).
helper('filter', (list: unknown, key: unknown, value: unknown) =>
  Array.isArray(list) && typeof key === 'string' ? list.filter((item) => fieldOf(item, key) === value) : [],
);
// A text's first line cut at a word to about `n` characters (`…` marks the cut): an error quoted in a headline.
helper('clip', (text: unknown, n: unknown) => {
  const line = String(text ?? '').split('\n', 1)[0]!.replace(/\s+/g, ' ').trim();
  const max = Number.isFinite(Number(n)) ? Number(n) : 80;
  if (line.length <= max) return line;
  const room = line.slice(0, max);
  const word = room.lastIndexOf(' ');
  return `${(word > max / 2 ? room.slice(0, word) : room).replace(/[\s,;:(]+$/, '')}…`;
});
// The innermost cause of a Go error chain (`Get "https://…": dial tcp: lookup x: no such host` → `no such host`):
// what a headline quotes of an error.
helper('cause', (text: unknown) => {
  const line = String(text ?? '').split('\n', 1)[0]!.trim();
  // A hint in parentheses after it (`(Client.Timeout exceeded while awaiting headers)`) is left to the message.
  return line.slice(line.lastIndexOf(': ') + 1).replace(/\s*\([^()]*\)$/, '').trim();
});
// Whether a text, or any item's `text` in a list (a signal's items), holds one of the words: a
// hint said only for the error it is about (`{{#if (textHas signals.x.items "is forbidden")}}`).
helper('textHas', (value: unknown, ...rest: unknown[]) => {
  const words = rest.slice(0, -1).filter((word): word is string => typeof word === 'string' && word !== '');
  const texts = Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item : fieldOf(item, 'text'))) : [value];
  return texts.some((text) => typeof text === 'string' && words.some((word) => text.includes(word)));
});
// A verb agreeing with a count: `{{verb n "waits" "wait"}}`.
helper('verb', (n: unknown, one: unknown, many: unknown) => String(Number(n) === 1 ? one : many));
helper('split', (s: unknown, separator: unknown) =>
  String(s ?? '')
    .split(typeof separator === 'string' ? separator : ',')
    .map((part) => part.trim().replace(/^"|"$/g, ''))
    .filter(Boolean),
);

export type Template = (context: object) => string;

export class TemplateError extends Error {}

/**
 * One template per source, compiled or deferred: a template is a pure function of its source,
 * rules repeat many, and the engine renders one shared by several signals once per object.
 */
const templates = new Map<string, { template: Template; compiled: Template | undefined }>();

function templateOf(source: string): { template: Template; compiled: Template | undefined } {
  let entry = templates.get(source);
  if (!entry) {
    const held: { template: Template; compiled: Template | undefined } = {
      template: (context) => (held.compiled ??= compileTemplateSource(source))(context),
      compiled: undefined,
    };
    templates.set(source, (entry = held));
  }
  return entry;
}

/** Compiles a template now (an error throws TemplateError). */
export function compileTemplate(source: string): Template {
  const entry = templateOf(source);
  entry.compiled ??= compileTemplateSource(source);
  return entry.template;
}

/** The sources of the templates compiled so far (the build lists the pack's: `isPackTemplate`). */
export function compiledTemplateSources(): string[] {
  return [...templates].flatMap(([source, entry]) => (entry.compiled !== undefined && source.includes('{{') ? [source] : []));
}

/**
 * The pack's templates with a mustache, each compiled when the pack was built
 * (scripts/pack-prebuilt.mjs): by its text, where the code Handlebars generated for it lies in
 * `pack-templates.code` (bytes from, length). A run thus loads neither Handlebars' compiler nor
 * compiles the templates it renders, and reads the code of those alone (3.7 MB for all).
 */
let packTemplates: Readonly<Record<string, readonly [number, number]>> | undefined;

function packTemplatePlace(source: string): readonly [number, number] | undefined {
  // Without it (the tests' sources, the single file) every template is compiled from its text.
  packTemplates ??= readBuildOutput<Record<string, [number, number]>>('./pack-templates.json', import.meta.url, {});
  return Object.hasOwn(packTemplates, source) ? packTemplates[source] : undefined;
}

/** The code the build generated for a pack template; undefined for any other (or if it cannot be read: compiled from its text). */
function packTemplateCode(source: string): string | undefined {
  const place = packTemplatePlace(source);
  if (place === undefined) return undefined;
  try {
    return readBuildOutputPart('./pack-templates.code', import.meta.url, place[0], place[1]);
  } catch {
    return undefined;
  }
}

/**
 * Whether a template is one of the pack's own, compiled when it was built: a user's copy of a
 * built-in rule then takes it at first render, as the pack does (`rules lint` compiles all).
 */
export function isPackTemplate(source: string): boolean {
  return packTemplatePlace(source) !== undefined;
}

/** The options every rule template is compiled with, at build time or at run time. */
const COMPILE_OPTIONS: CompileOptions = { noEscape: true, strict: false };

/** The code Handlebars generates for a template (what `pack-templates.code` holds); a syntax error throws. */
export function precompiledTemplate(source: string): string {
  return compilerEnvironment().precompile(source, COMPILE_OPTIONS) as string;
}

/**
 * A template parsed at its first render (see `deferredCel`: the same reasoning, for the
 * built-in pack when analysing; most rules never fire, so most templates never render).
 */
export function deferredTemplate(source: string): Template {
  return templateOf(source).template;
}

/** A bare `{{name}}` where `name` is a helper: Handlebars calls the helper, the author meant the field (a capture named `count`). */
function helperNamedField(program: hbs.AST.Program): string | undefined {
  for (const statement of program.body) {
    if (statement.type === 'MustacheStatement') {
      const { path, params, hash } = statement as hbs.AST.MustacheStatement;
      if (path.type === 'PathExpression' && params.length === 0 && !hash) {
        const name = (path as hbs.AST.PathExpression).original;
        if (Object.hasOwn(HELPERS, name) && !BUILT_IN_HELPERS.has(name)) return name;
      }
    }
    if (statement.type === 'BlockStatement') {
      const block = statement as hbs.AST.BlockStatement;
      const found = helperNamedField(block.program) ?? (block.inverse && helperNamedField(block.inverse));
      if (found) return found;
    }
  }
  return undefined;
}

/** Handlebars' own block helpers (`{{else}}` is no mustache; these never stand bare). */
const BUILT_IN_HELPERS = new Set(['if', 'unless', 'each', 'with', 'lookup', 'log', 'blockHelperMissing', 'helperMissing']);

function compileTemplateSource(source: string): Template {
  // Without a mustache the text renders as itself (noEscape): most remediation blocks, never parsed.
  if (!source.includes('{{')) {
    const text = source.trim();
    return () => text;
  }
  const code = packTemplateCode(source);
  let compiled: HandlebarsTemplateDelegate;
  if (code !== undefined) {
    // Compiled by the build from this very text; it runs as `compile` would have made it.
    compiled = runtimeEnvironment().template(new Function(`return ${code}`)() as TemplateSpecification);
  } else {
    try {
      const handlebars = compilerEnvironment();
      // Syntax errors now, at load; the code is generated from this parse at first render (most rules never fire).
      const parsed = handlebars.parseWithoutProcessing(source);
      const shadowed = helperNamedField(parsed);
      if (shadowed) throw new Error(`{{${shadowed}}} calls the helper ${shadowed}, not a field: a field of that name is {{this.${shadowed}}}`);
      compiled = handlebars.compile(parsed, COMPILE_OPTIONS);
    } catch (err) {
      throw new TemplateError(`template: ${(err as Error).message.split('\n').slice(0, 2).join(' ')}`);
    }
  }
  return (context) => {
    try {
      return compiled(context, { allowProtoPropertiesByDefault: false }).trim();
    } catch (err) {
      throw new TemplateError(`template failed: ${(err as Error).message.split('\n', 1)[0]}`);
    }
  };
}
