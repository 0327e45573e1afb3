import { readFileSync } from 'node:fs';
import picomatch from 'picomatch';
import { parseCondition, allOf, signalNames, type ConditionNode } from './condition.js';
import { compileCel, deferredCel, isPackExpression, type CelProgram } from './cel.js';
import { compileTemplate, deferredTemplate, isPackTemplate, type Template } from './templates.js';
import { requiredLiteral } from './literal.js';
import { unsafeRegexReason } from './regex-safety.js';
import { isValidRange } from '../facts/version.js';
import type { Severity } from './findings.js';
import type { EvidenceAge, LogSelector, ObjectTemplate, Resolution, Resolver, Rule, Signal, WindowTemplate } from './rule.js';
import { parseDuration } from '../core/duration.js';
import type { ExplainsEntry } from './diagnosis.js';
import { parseFieldPath } from './field-path.js';
import { pluralOf } from '../parsers/k8s.js';
import { packageFiles, packagePath, packageText } from '../core/assets.js';
import { schemaProblems } from './rule-schema.js';
import { authoringIssues, documentKey, escapeRegExp, fileStamp, lineOfPath, packDocumentUnchanged, parseRuleYaml, storableDocument, type BuiltDocuments, type FileStamp, type RuleIssue } from './rule-source.js';
import { folderSharedSignals, packSharedFiles, packSharedSignals, SHARED_DIR, resolveSharedSignals, type SharedSignal } from './shared-signals.js';
import { builtRulesText, folderFileName, readBuiltRules } from './built-rules.js';

export type { RuleIssue } from './rule-source.js';

const DEFAULT_MAX_EVIDENCE = 50;

export interface LoadedRules {
  rules: Rule[];
  issues: RuleIssue[];
  /** Notes for the user, e.g. a user rule replacing a built-in one. */
  notes: string[];
}

const FIXTURES = ['**/*.fixtures/**', '**/fixtures/**'];

/** Rule files under a folder: every `*.yaml` except fixtures and shared signals (`_shared/`). */
export async function ruleFiles(dir: string): Promise<string[]> {
  // fast-glob is loaded only for user folders: the built-in pack is listed without it.
  const { default: fg } = await import('fast-glob');
  const files = await fg(['**/*.yaml', '**/*.yml'], { cwd: dir, absolute: true, ignore: [...FIXTURES, `${SHARED_DIR}/**`] });
  return files.sort();
}

/** The built-in pack's rule files, as package paths (`rules/cvo/x.yaml`); not its shared signals. */
export function builtinRuleFiles(): string[] {
  const isRule = picomatch(['rules/**/*.yaml', 'rules/**/*.yml'], { ignore: [...FIXTURES, `rules/${SHARED_DIR}/**`] });
  // Fixture folders hold most of the pack's files (and folders): not walked at all.
  const isFixtures = (name: string): boolean => name === 'fixtures' || name.endsWith('.fixtures');
  return packageFiles('rules', isFixtures).filter((path) => isRule(path)).sort();
}

/**
 * Loads the built-in pack and any user folders. A user rule whose id exists replaces the
 * built-in one (and says so); a duplicate id within one origin is an issue. A user folder's
 * rules may use the built-in pack's shared signals and their folder's own. `deferCompile`
 * (analysing, not linting): the built-in pack's CEL and templates are parsed at first use.
 * `lint`: the issues of an unfinished file (placeholders, references that are not links) too.
 */
export async function loadRules(userDirs: readonly string[] = [], options: { builtin?: boolean; deferCompile?: boolean; lint?: boolean } = {}): Promise<LoadedRules> {
  const result: LoadedRules = { rules: [], issues: [], notes: [] };
  // Analysing, a built-in file the build finds unchanged by its stamp is not read (`rules lint` reads every file).
  const builtin = builtinRuleFiles().map((path) => {
    const file = packagePath(path);
    const text = (): string => packageText(path);
    return { file, read: async () => text(), stored: () => storedRule(options.lint ? undefined : packDocumentUnchanged(path, file), text) };
  });
  type Origin = { files: { file: string; read: () => Promise<string>; stored?: () => StoredRule | undefined }[]; builtin: boolean; shared: ReadonlyMap<string, SharedSignal>; built?: BuiltDocuments | undefined };
  const origins: Origin[] = [];
  const lintFiles = (files: readonly { file: string; text: string }[]): void => {
    if (options.lint) for (const { file, text } of files) result.issues.push(...authoringIssues(file, text));
  };
  if (options.builtin !== false) {
    const shared = packSharedSignals();
    result.issues.push(...shared.issues);
    if (options.lint) lintFiles(packSharedFiles());
    origins.push({ files: builtin, builtin: true, shared: shared.signals });
  }
  for (const dir of userDirs) {
    const shared = await folderSharedSignals(dir);
    result.issues.push(...shared.issues);
    lintFiles(shared.files);
    // `rules lint` checks every file whole: a build is not read.
    const built = options.lint ? {} : readBuiltRules(dir, shared.files);
    if (built.note !== undefined) result.notes.push(built.note);
    // Read one after the other, synchronously: a promise per small file costs more than the read.
    // A file the build finds unchanged by its stamp is not read.
    const files = (await ruleFiles(dir)).map((file) => {
      const text = (): string => readFileSync(file, 'utf8');
      return { file, read: async () => text(), stored: () => storedRule(built.documents?.unchanged(folderFileName(dir, file), file), text) };
    });
    origins.push({ files, builtin: false, shared: shared.signals, built: built.documents });
  }
  const byId = new Map<string, Rule>();
  for (const origin of origins) {
    const seenHere = new Map<string, string>();
    for (const { file, read, stored } of origin.files) {
      const source: RuleText = stored?.() ?? (await read());
      const text = typeof source === 'string' ? source : undefined;
      const { rule, issues } = loadRuleText(file, source, origin.builtin, options.deferCompile === true && origin.builtin, origin.shared, options.lint !== true, origin.built);
      result.issues.push(...issues);
      if (text !== undefined) lintFiles([{ file, text }]);
      if (!rule) continue;
      const twin = seenHere.get(rule.id);
      if (twin) {
        result.issues.push({ file, line: lineOfPath(text ?? (await read()), ['id']), reason: `duplicate id '${rule.id}' (also in ${twin})` });
        continue;
      }
      seenHere.set(rule.id, file);
      const replaced = byId.get(rule.id);
      if (replaced && replaced.builtin && !rule.builtin) result.notes.push(`rule ${rule.id} from ${file} replaces the built-in rule`);
      byId.set(rule.id, rule);
    }
  }
  result.rules = [...byId.values()];
  return result;
}

/**
 * `mgsift rules build`: a folder's rule files loaded with every check made, and the text of its
 * build (built-rules.ts), which holds the documents of those that loaded without an issue.
 */
export async function buildRuleFolder(dir: string): Promise<{ text: string; files: number; stored: number; issues: RuleIssue[] }> {
  const shared = await folderSharedSignals(dir);
  const issues = [...shared.issues];
  const documents = new Map<string, string>();
  const stamps: Record<string, FileStamp> = {};
  const files = await ruleFiles(dir);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const loaded = loadRuleText(file, text, false, false, shared.signals);
    issues.push(...loaded.issues);
    const parsed = loaded.rule && parseRuleYaml(file, text);
    const json = parsed && 'document' in parsed ? storableDocument(parsed.document) : undefined;
    if (json === undefined) continue;
    const key = documentKey(text);
    documents.set(key, json);
    stamps[folderFileName(dir, file)] = fileStamp(file, key);
  }
  return { text: builtRulesText(documents, shared.files, stamps), files: files.length, stored: documents.size, issues };
}

/** A rule file's document as its build stored it, for a file known unchanged since (not read); `text` reads the file. */
interface StoredRule {
  stored: string;
  text: () => string;
}

/** What a rule is loaded from: the file's text, or its stored document. */
export type RuleText = string | StoredRule;

function storedRule(stored: string | undefined, text: () => string): StoredRule | undefined {
  return stored === undefined ? undefined : { stored, text };
}

function storedDocument(source: StoredRule): { document: unknown; prebuilt: true } | undefined {
  try {
    return { document: JSON.parse(source.stored) as unknown, prebuilt: true };
  } catch {
    return undefined;
  }
}

interface RawRule {
  id: string;
  title: string;
  severity: Severity;
  status: Rule['status'];
  component: string;
  tags?: string[];
  references?: string[];
  falsepositives?: string;
  applies?: { versions?: string; inputs?: string[]; platforms?: string[]; platformsExcept?: string[]; capabilities?: string[]; because?: string };
  signals: Record<string, RawSignal>;
  condition?: string;
  message: string;
  headline?: string;
  remediation?: string;
  banner?: string;
  per?: string;
  severityWhen?: { condition?: string; young?: string; severity: Severity }[];
  maxEvidence?: number;
  about?: RawObject[];
  mentions?: RawObject[];
  windows?: { signal?: string; from: string; to?: string; label: string }[];
  explains?: { rules?: string[]; kinds?: string[]; by?: 'object' | 'time'; because?: string }[];
}

interface RawObject {
  signal?: string;
  kind?: string;
  namespace?: string;
  name?: string;
}

interface RawResolution {
  resolvedBy?: ({ signal: string; object?: Omit<RawObject, 'signal'>; later?: boolean } | { quietFor: string })[];
  persists?: string;
}

interface RawSignal {
  log?: { files: Record<string, string | boolean>[]; regex: string; literal?: string | string[]; level?: string | string[]; ignoreCase?: boolean; presence?: string; tail?: number; afterInstall?: boolean | string } & RawResolution;
  resource?: {
    group?: string;
    kind: string | string[];
    resource?: string;
    namespace?: string;
    name?: string;
    where?: string;
    match?: { field: string; regex: string; required?: boolean };
    summary?: string;
    since?: string;
    age?: { atLeast?: string; under?: string };
  };
  event?: {
    reason?: string;
    message?: string;
    literal?: string;
    namespace?: string;
    involvedKind?: string;
    involvedName?: string;
    where?: string;
    afterInstall?: boolean;
    countAbove?: number;
    age?: { atLeast?: string; under?: string };
  } & RawResolution;
  fact?: { name: string; where?: string; summary?: string };
}

/** A rule's domain: the folder its file is in (`rules/etcd/etcd-slow-disk.yaml` → `etcd`). */
export function domainOf(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts.length > 1 ? parts[parts.length - 2]! : '';
}

/**
 * Parses, validates and compiles one rule file (`source`: its text, or the document a build, the
 * pack's or a folder's, stored for it, the file known unchanged); every problem is an issue with its line. Its
 * signals may use `shared` ones (default: the built-in pack's). `trustPackTexts` (anything but
 * `rules lint`): what the pack's build checked is not checked again (scripts/pack-prebuilt.mjs).
 * `folder`: a rule folder's build (built-rules.ts), from which an unchanged file's document is
 * taken instead of its YAML parsed, its CEL and templates then compiled at first use.
 */
export function loadRuleText(
  file: string,
  source: RuleText,
  builtin: boolean,
  deferCompile = false,
  shared: ReadonlyMap<string, SharedSignal> = packSharedSignals().signals,
  trustPackTexts = false,
  folder?: BuiltDocuments,
): { rule?: Rule; issues: RuleIssue[] } {
  const issues: RuleIssue[] = [];
  // A document a build stored for a file known unchanged: the file is read only to place an
  // issue, or should the stored JSON not parse.
  let text: string | undefined;
  const textOf = (): string => (text ??= typeof source === 'string' ? source : source.text());
  const at = (path: readonly string[], reason: string): void => {
    issues.push({ file, line: lineOfPath(textOf(), path), reason });
  };
  const parsed = (typeof source === 'string' ? undefined : storedDocument(source)) ?? parseRuleYaml(file, textOf(), folder);
  if ('issue' in parsed) return { issues: [parsed.issue] };
  // A built-in file the build checked whole (unchanged since), when analysing: its schema and
  // regexes are not checked again at every start (`rules lint` checks them all). A rule folder's
  // build is checked as its YAML would be (the folder is less trusted, SECURITY.md, its build as
  // much as its rules), and compiles its CEL and templates at first use, as the pack's.
  const checkedAtBuild = deferCompile && trustPackTexts && parsed.prebuilt;
  const compileLater = deferCompile || (trustPackTexts && parsed.prebuilt && folder !== undefined);
  // The pack's own texts in a user's rule (a copy of a built-in one), when analysing: compiled at first use, as the pack's.
  const cel = (expression: string): CelProgram =>
    compileLater || (trustPackTexts && isPackExpression(expression)) ? deferredCel(expression) : compileCel(expression);
  const resolved = resolveSharedSignals(parsed.document, shared);
  for (const { path, reason } of resolved.problems) at(path, reason);
  if (issues.length > 0) return { issues };
  for (const { path, reason } of checkedAtBuild ? [] : schemaProblems('rule', resolved.document)) {
    // A problem in a signal that uses a shared one may come from either: both are named.
    const use = path[0] === 'signals' && path[1] !== undefined ? resolved.uses.get(path[1]) : undefined;
    at(path, use === undefined ? reason : `${reason} (signal '${path[1]}' uses shared signal '${use}')`);
  }
  if (issues.length > 0) return { issues };
  const document = resolved.document;
  const raw = document as RawRule;

  const compile = <T>(path: string[], make: () => T): T | undefined => {
    try {
      return make();
    } catch (err) {
      at(path, (err as Error).message.split('\n', 1)[0] ?? 'invalid');
      return undefined;
    }
  };
  const template = (path: string[], source: string | undefined): Template | undefined =>
    source === undefined ? undefined : compile(path, () => (compileLater || (trustPackTexts && isPackTemplate(source)) ? deferredTemplate : compileTemplate)(source));
  const regex = (path: string[], source: string | undefined, flags = ''): RegExp | undefined => {
    if (source === undefined) return undefined;
    const unsafe = checkedAtBuild ? undefined : regexVerdict(source, flags);
    if (unsafe) {
      at(path, `regex ${unsafe}`);
      return undefined;
    }
    return compiledRegex(source, flags);
  };
  const evidenceAge = (path: string[], age: { atLeast?: string; under?: string }, hasSince: boolean): EvidenceAge | undefined => {
    if (!hasSince) return void at(path, 'age needs since: the field that says when the evidence began');
    const spans = { atLeast: age.atLeast, under: age.under };
    const ms: Record<string, number | undefined> = {};
    for (const [key, text] of Object.entries(spans)) {
      if (text === undefined) continue;
      ms[key] = parseDuration(text);
      if (ms[key] === undefined) return void at([...path, key], `age.${key}: '${text}' is not a duration such as 10m or 1h30m`);
    }
    return { atLeastMs: ms['atLeast'], underMs: ms['under'] };
  };

  const names = Object.keys(raw.signals);
  const resolution = (path: string[], given: RawResolution): Resolution => {
    const resolvers: Resolver[] = [];
    (given.resolvedBy ?? []).forEach((entry, i) => {
      const entryPath = [...path, 'resolvedBy', String(i)];
      if ('quietFor' in entry) {
        // The schema holds quietFor to the duration syntax parseDuration reads.
        resolvers.push({ type: 'quiet', quietForMs: parseDuration(entry.quietFor)! });
        return;
      }
      if (!names.includes(entry.signal) || entry.signal === path[1]) return void at(entryPath, `resolvedBy names ${entry.signal === path[1] ? 'its own signal' : `unknown signal '${entry.signal}'`}`);
      const object = entry.object && {
        kind: template([...entryPath, 'object', 'kind'], entry.object.kind),
        namespace: template([...entryPath, 'object', 'namespace'], entry.object.namespace),
        name: template([...entryPath, 'object', 'name'], entry.object.name),
      };
      resolvers.push({ type: 'signal', signal: entry.signal, object, later: entry.later ?? true });
    });
    return { resolvers, persists: given.persists };
  };

  const signals: Signal[] = [];
  for (const [name, spec] of Object.entries(raw.signals)) {
    const base = ['signals', name];
    if (spec.log) {
      const log = spec.log;
      const flags = log.ignoreCase ? 'i' : '';
      const re = regex([...base, 'log', 'regex'], log.regex, flags);
      if (!re) continue;
      const given = log.literal === undefined ? undefined : ([] as string[]).concat(log.literal);
      if (given && !log.ignoreCase) {
        for (const literal of given) {
          if (!log.regex.includes(literal) && !log.regex.includes(escapeRegExp(literal))) {
            at([...base, 'log', 'literal'], `literal '${literal}' does not occur in the regex`);
          }
        }
      }
      const derived = requiredLiteral(log.regex);
      const files = compiledSelectors(log.files);
      const presenceRe = regex([...base, 'log', 'presence'], log.presence, flags);
      const presenceLiteral = log.presence === undefined ? undefined : requiredLiteral(log.presence);
      signals.push({
        type: 'log',
        name,
        written: writtenText('log', log),
        files,
        regex: re,
        literals: log.ignoreCase ? undefined : (given ?? (derived ? [derived] : undefined)),
        levels: log.level === undefined ? undefined : new Set(([] as string[]).concat(log.level)),
        presence: presenceRe && {
          type: 'log',
          name,
          files,
          regex: presenceRe,
          literals: log.ignoreCase || !presenceLiteral ? undefined : [presenceLiteral],
          levels: undefined,
          presence: undefined,
          resolution: NO_RESOLUTION,
        },
        tail: log.tail,
        // The schema holds a string to the duration syntax parseDuration reads.
        afterInstall: log.afterInstall === undefined || log.afterInstall === false ? undefined : { settleMs: log.afterInstall === true ? 0 : parseDuration(log.afterInstall)! },
        resolution: resolution([...base, 'log'], log),
      });
    } else if (spec.resource) {
      const r = spec.resource;
      const where = r.where === undefined ? undefined : compile([...base, 'resource', 'where'], () => cel(r.where!));
      if (r.where !== undefined && !where) continue;
      const matchPath = r.match && compile([...base, 'resource', 'match', 'field'], () => parseFieldPath(r.match!.field));
      const matchRe = r.match && regex([...base, 'resource', 'match', 'regex'], r.match.regex, 'g');
      if (r.match && (!matchPath || !matchRe)) continue;
      const sincePath = r.since === undefined ? undefined : compile([...base, 'resource', 'since'], () => parseFieldPath(r.since!));
      if (r.since !== undefined && !sincePath) continue;
      const age = r.age && evidenceAge([...base, 'resource', 'age'], r.age, r.since !== undefined);
      if (r.age && !age) continue;
      const kinds = typeof r.kind === 'string' ? [r.kind] : r.kind;
      if (r.resource !== undefined && kinds.length > 1) {
        at([...base, 'resource', 'resource'], 'resource (a plural) names the files of one kind: with several kinds, leave it out');
        continue;
      }
      signals.push({
        type: 'resource',
        name,
        written: writtenText('resource', r),
        group: r.group === undefined || r.group === 'core' ? '' : r.group,
        kinds,
        resources: r.resource !== undefined ? [r.resource] : kinds.map(pluralOf),
        namespace: r.namespace,
        objectName: r.name,
        where,
        match: r.match && matchPath && matchRe ? { path: matchPath, regex: matchRe, required: r.match.required ?? true } : undefined,
        summary: template([...base, 'resource', 'summary'], r.summary),
        since: sincePath,
        age,
      });
    } else if (spec.event) {
      const e = spec.event;
      const where = e.where === undefined ? undefined : compile([...base, 'event', 'where'], () => cel(e.where!));
      if (e.where !== undefined && !where) continue;
      // An event's time is when it was last seen.
      const age = e.age && evidenceAge([...base, 'event', 'age'], e.age, true);
      if (e.age && !age) continue;
      signals.push({
        type: 'event',
        name,
        written: writtenText('event', e),
        reason: regex([...base, 'event', 'reason'], e.reason),
        message: regex([...base, 'event', 'message'], e.message),
        literal: e.literal ?? (e.message ? requiredLiteral(e.message) : undefined),
        namespace: e.namespace,
        involvedKind: e.involvedKind,
        involvedName: regex([...base, 'event', 'involvedName'], e.involvedName),
        where,
        afterInstall: e.afterInstall ?? false,
        countAbove: e.countAbove,
        age,
        resolution: resolution([...base, 'event'], e),
      });
    } else if (spec.fact) {
      const f = spec.fact;
      const where = f.where === undefined ? undefined : compile([...base, 'fact', 'where'], () => cel(f.where!));
      if (f.where !== undefined && !where) continue;
      signals.push({ type: 'fact', name, written: writtenText('fact', f), fact: f.name, where, summary: template([...base, 'fact', 'summary'], f.summary) });
    }
  }

  const condition = (path: string[], source: string | undefined): ConditionNode | undefined => {
    if (source === undefined) return allOf(names);
    const node = compile(path, () => parseCondition(source));
    if (!node) return undefined;
    for (const used of signalNames(node)) if (!names.includes(used)) at(path, `condition names unknown signal '${used}'`);
    return node;
  };
  const mainCondition = condition(['condition'], raw.condition);
  // An entry with only `young` has no condition (it always holds); one whose condition did not
  // compile is left out (the issue is reported).
  const severityWhen = (raw.severityWhen ?? []).flatMap((entry, i) => {
    const node = entry.condition === undefined ? undefined : condition(['severityWhen', String(i), 'condition'], entry.condition);
    if (entry.condition !== undefined && !node) return [];
    // The schema holds young to the duration syntax parseDuration reads.
    return [{ condition: node, youngMs: entry.young === undefined ? undefined : parseDuration(entry.young), severity: entry.severity }];
  });
  if (raw.applies?.versions !== undefined && !isValidRange(raw.applies.versions)) {
    at(['applies', 'versions'], `invalid version range '${raw.applies.versions}'`);
  }
  if (raw.applies?.platforms !== undefined && raw.applies.platformsExcept !== undefined) {
    at(['applies', 'platformsExcept'], 'platforms and platformsExcept together: name the platforms the rule is for, or those it is not for');
  }
  const objects = (field: 'about' | 'mentions'): ObjectTemplate[] =>
    (raw[field] ?? []).map((entry, i) => {
      const path = [field, String(i)];
      if (entry.signal !== undefined && !names.includes(entry.signal)) at(path, `${field} names unknown signal '${entry.signal}'`);
      if (entry.signal === undefined && entry.name === undefined) at(path, `${field} entry needs a signal or a name`);
      return {
        signal: entry.signal,
        kind: template([...path, 'kind'], entry.kind),
        namespace: template([...path, 'namespace'], entry.namespace),
        name: template([...path, 'name'], entry.name),
      };
    });
  const about = objects('about');
  const mentions = objects('mentions');
  const windows: WindowTemplate[] = [];
  (raw.windows ?? []).forEach((entry, i) => {
    const path = ['windows', String(i)];
    if (entry.signal !== undefined && !names.includes(entry.signal)) at(path, `windows names unknown signal '${entry.signal}'`);
    const from = template([...path, 'from'], entry.from);
    const label = template([...path, 'label'], entry.label);
    if (from && label) windows.push({ signal: entry.signal, from, to: template([...path, 'to'], entry.to), label });
  });
  const explains: ExplainsEntry[] = (raw.explains ?? []).map((entry, i) => {
    if (entry.by === 'time' && windows.length === 0) at(['explains', String(i)], 'explains by time needs windows');
    return { rules: entry.rules ?? [], kinds: entry.kinds ?? [], by: entry.by ?? 'object', because: entry.because };
  });
  if (explains.some((e) => e.by === 'object') && about.length === 0) at(['explains'], 'explains by object needs about');
  const message = template(['message'], raw.message);
  const headline = template(['headline'], raw.headline);
  const remediation = template(['remediation'], raw.remediation);
  const banner = template(['banner'], raw.banner);
  const per = template(['per'], raw.per);
  const references = (raw.references ?? []).map((source, i) => template(['references', String(i)], source));
  if (issues.length > 0 || !mainCondition || !message) return { issues };

  return {
    issues,
    rule: {
      id: raw.id,
      title: raw.title,
      severity: raw.severity,
      status: raw.status,
      component: raw.component,
      tags: raw.tags ?? [],
      references: references.filter((r): r is Template => r !== undefined),
      referenceSources: raw.references ?? [],
      falsepositives: raw.falsepositives ?? '',
      applies: { ...raw.applies },
      signals,
      condition: mainCondition,
      severityWhen,
      message,
      headline,
      remediation,
      banner,
      per,
      maxEvidence: raw.maxEvidence ?? DEFAULT_MAX_EVIDENCE,
      about,
      mentions,
      windows,
      explains,
      file,
      domain: domainOf(file),
      builtin,
    },
  };
}

const NO_RESOLUTION: Resolution = { resolvers: [], persists: undefined };

/** One string per text: a copy of a rule keeps the original's, not another as long. */
const writtenTexts = new Map<string, Map<string, string>>();

/** What a signal is compiled from, as text: its type and its body as JSON (not its description: it matches nothing). */
function writtenText(type: Signal['type'], body: object): string {
  // Looked up by the body's JSON under its type: a copy's text is not joined to its type (a new
  // string, copied again to be hashed) only to be found and dropped.
  const json = JSON.stringify(body);
  const ofType = writtenTexts.get(type) ?? writtenTexts.set(type, new Map()).get(type)!;
  let text = ofType.get(json);
  if (text === undefined) ofType.set(json, (text = `${type} ${json}`));
  return text;
}

/**
 * Regexes by source and flags: rules that repeat one share it, and the engine runs it once per
 * line or object. Sharing is safe: regexes are run with `exec`/`test` without the `g` and `y`
 * flags (no `lastIndex` state), or with `matchAll`, which runs on a copy.
 */
const regexes = new Map<string, RegExp>();

function compiledRegex(source: string, flags: string): RegExp {
  const key = `${flags}/${source}`;
  let regex = regexes.get(key);
  if (!regex) regexes.set(key, (regex = new RegExp(source, flags)));
  return regex;
}

/** Why a regex is refused (or undefined), by source and flags: a regex is checked once, however many rules write it. */
const regexVerdicts = new Map<string, string | undefined>();

function regexVerdict(source: string, flags: string): string | undefined {
  const key = `${flags}/${source}`;
  if (!regexVerdicts.has(key)) regexVerdicts.set(key, unsafeRegexReason(source, flags));
  return regexVerdicts.get(key);
}

const selectorLists = new Map<string, readonly LogSelector[]>();

/** A signal's file selectors, one list per text: signals that read the same files share it (and the engine its verdict per file). */
function compiledSelectors(raw: readonly Record<string, string | boolean>[]): readonly LogSelector[] {
  const key = JSON.stringify(raw);
  let list = selectorLists.get(key);
  if (!list) selectorLists.set(key, (list = raw.map(compileSelector)));
  return list;
}

function compileSelector(raw: Record<string, string | boolean>): LogSelector {
  const glob = (value: string | boolean | undefined): RegExp | undefined =>
    typeof value === 'string' ? picomatch.makeRe(value, { dot: true }) : undefined;
  const text = (value: string | boolean | undefined): string | undefined => (typeof value === 'string' ? value : undefined);
  return {
    namespace: text(raw['namespace']),
    pod: glob(raw['pod']),
    container: text(raw['container']),
    stream: text(raw['stream']),
    path: glob(raw['path']),
    pathGlob: text(raw['path']),
    bare: raw['bare'] === true ? true : undefined,
  };
}
