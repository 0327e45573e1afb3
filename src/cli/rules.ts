import { Command } from 'commander';
import { buildRuleFolder, loadRules, loadRuleText, type RuleIssue } from '../engine/load.js';
import { BUILT_RULES_FILE } from '../engine/built-rules.js';
import { authoringIssues } from '../engine/rule-source.js';
import { FACT_NAMES } from '../engine/facts-view.js';
import { isSharedSignalsPath, readSharedSignals } from '../engine/shared-signals.js';
import { DEFAULT_LIMITS } from '../core/limits.js';
import { fixtureCases, runCase } from '../ruletest/fixtures.js';
import { ruleSkeleton, SkeletonError, type SkeletonSource } from '../ruletest/skeleton.js';
import { analyzeInput } from '../analysis/analyze.js';
import { access, mkdir, open, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Rule } from '../engine/rule.js';
import { conditionText } from '../engine/condition.js';
import { signalsFiringAlone } from '../engine/resolution.js';
import { isPlainObject as isRecord } from '../parsers/k8s.js';
import { UsageError } from './options.js';
import { writeAtomically } from './output.js';
import { alignedLines } from '../report/common.js';
import { requireFolders } from './rule-selection.js';

/** When a `severityWhen` entry applies: `not still_pending`, `updating and younger than 30m`. */
function whenText(entry: Rule['severityWhen'][number]): string {
  return [entry.condition ? conditionText(entry.condition) : '', entry.youngMs !== undefined ? `younger than ${entry.youngMs / 60_000}m` : ''].filter(Boolean).join(' and ');
}

/** The severity a rule fires at, marked `*` when `severityWhen` can give it another (all of them would not fit 120 columns). */
function severityCell(rule: Pick<Rule, 'severity' | 'severityWhen'>): string {
  return rule.severityWhen.some((w) => w.severity !== rule.severity) ? `${rule.severity}*` : rule.severity;
}

/** Lines of `text` at most `width` wide, broken between words, each after `indent`. */
function wrapped(text: string, indent: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(indent + line);
  return lines;
}

/** A table whose rows may carry lines under them. */
function tableWithLines(head: string[], rows: { cells: string[]; below: string[] }[]): string {
  const [headLine, ...lines] = alignedLines([head, ...rows.map((row) => row.cells)]);
  return `${[headLine, ...rows.flatMap((row, i) => [lines[i]!, ...row.below])].join('\n')}\n`;
}

/** What `rules list` prints: a table that fits a 120-column terminal, titles and conditions on their own lines. */
const LIST_WIDTH = 120;
const BELOW = '    ';

function rulesTable(rules: readonly Rule[], conditions: boolean): string {
  const rows = rules.map((r) => ({
    cells: [r.domain, r.id, severityCell(r), r.status, r.component],
    below: [
      ...wrapped(r.title, BELOW, LIST_WIDTH),
      ...(conditions ? r.severityWhen.flatMap((w) => wrapped(`${w.severity} when ${whenText(w)}`, `${BELOW}> `, LIST_WIDTH)) : []),
    ],
  }));
  const table = tableWithLines(['DOMAIN', 'ID', 'SEVERITY', 'STATUS', 'COMPONENT'], rows);
  const marked = !conditions && rules.some((r) => severityCell(r).endsWith('*'));
  return marked ? `${table}* another severity under a condition (severityWhen): --conditions lists them under each rule\n` : table;
}

/** A rule as `rules list --json` gives it. */
function ruleEntry(rule: Rule): object {
  return {
    id: rule.id,
    title: rule.title,
    severity: rule.severity,
    severityWhen: rule.severityWhen.map((w) => ({
      severity: w.severity,
      ...(w.condition ? { condition: conditionText(w.condition) } : {}),
      ...(w.youngMs !== undefined ? { youngerThanMinutes: w.youngMs / 60_000 } : {}),
    })),
    domain: rule.domain,
    status: rule.status,
    component: rule.component,
    references: rule.referenceSources,
  };
}

export function rulesCommand(): Command {
  const rules = new Command('rules').description('list, lint and test rules');
  rules
    .command('list')
    .description('every rule by domain: id, the severities it fires at, status, component, and its title below')
    .option('--rules <dir...>', 'also list rules from these folders')
    .option('--conditions', 'under each rule, when severityWhen gives it another severity')
    .option('--json', 'a JSON array: id, title, severity, severityWhen, domain, status, component, references')
    .action(async (flags: { rules?: string[]; conditions?: boolean; json?: boolean }) => {
      await requireFolders(flags.rules ?? []);
      const loaded = await loadRules(flags.rules ?? []);
      const rules = [...loaded.rules].sort((a, b) => a.domain.localeCompare(b.domain) || a.id.localeCompare(b.id));
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(rules.map(ruleEntry), null, 2)}\n`);
        // Problems go to stderr here, so that stdout stays one JSON document.
        reportIssues(loaded.issues, process.stderr);
        return;
      }
      process.stdout.write(rulesTable(rules, flags.conditions === true));
      reportIssues(loaded.issues);
    });
  rules
    .command('lint')
    .description('check rules: schema, unique ids, regex safety, templates, a one-line headline without loops, fixtures present, references are https links, no EDIT: placeholder left')
    .argument('[paths...]', 'rule folders or files (default: the built-in pack)')
    .option('--rules <dir...>', 'rule folders (the same as giving them as paths)')
    .action(async (paths: string[], flags: { rules?: string[] }) => {
      const { rules: loadedRules, issues } = await loadPaths([...paths, ...(flags.rules ?? [])], { lint: true });
      for (const rule of loadedRules) issues.push(...(await lintRule(rule)));
      issues.push(...(await unknownExplained(loadedRules)));
      reportIssues(issues);
      process.stdout.write(`${loadedRules.length} rules, ${issues.length} problem(s)\n`);
      process.exitCode = issues.length > 0 ? 1 : 0;
    });
  rules
    .command('build')
    .description(`check rule folders once for all their runs: writes <dir>/${BUILT_RULES_FILE}, from which \`analyze --rules <dir>\` takes each rule file unchanged since without parsing its YAML again`)
    .argument('<dirs...>', 'rule folders')
    .action(async (dirs: string[]) => {
      await requireFolders(dirs, '');
      let problems = 0;
      for (const dir of dirs) {
        const built = await buildRuleFolder(dir);
        reportIssues(built.issues);
        problems += built.issues.length;
        const path = join(dir, BUILT_RULES_FILE);
        await writeAtomically(path, built.text);
        const rest = built.files - built.stored;
        process.stdout.write(`${path}: ${built.stored} of ${built.files} rule files checked whole${rest > 0 ? `; ${rest} with problems are parsed and checked at every run` : ''}\n`);
      }
      process.exitCode = problems > 0 ? 1 : 0;
    });
  rules
    .command('test')
    .description('run every rule on its fixtures (must fire / must stay quiet) through the analyze pipeline')
    .argument('[paths...]', 'rule folders or files (default: the built-in pack)')
    .option('--rules <dir...>', 'rule folders (the same as giving them as paths)')
    .option('--rule <id>', 'only this rule')
    .action(async (paths: string[], flags: { rule?: string; rules?: string[] }) => {
      const { rules: loadedRules, issues } = await loadPaths([...paths, ...(flags.rules ?? [])]);
      reportIssues(issues);
      const selected = flags.rule ? loadedRules.filter((r) => r.id === flags.rule) : loadedRules;
      if (flags.rule && selected.length === 0) throw new UsageError(`no rule '${flags.rule}'`);
      let passed = 0;
      let failed = issues.length;
      for (const rule of selected) {
        const cases = await fixtureCases(rule);
        if (cases.length === 0) {
          failed++;
          process.stdout.write(`FAIL ${rule.id}: no fixtures\n`);
        }
        for (const fixture of cases) {
          const failures = await runCase(fixture, DEFAULT_LIMITS);
          if (failures.length === 0) {
            passed++;
            // What kind of case passed: a near miss whose failure is over says so.
            process.stdout.write(`PASS ${rule.id}/${fixture.name}${fixture.expect.resolved ? ' (resolved: history)' : ''}\n`);
          } else {
            failed++;
            process.stdout.write(`FAIL ${rule.id}/${fixture.name}: ${failures.join('; ')}\n`);
          }
        }
      }
      process.stdout.write(`${passed} passed, ${failed} failed\n`);
      process.exitCode = failed > 0 ? 1 : 0;
    });
  rules
    .command('new')
    .description('write a rule skeleton, with fixtures, for a template of the unrecognised-errors digest')
    .argument('<input>', 'a JSON report written by `mgsift analyze`, or an input to analyze')
    .requiredOption('--from <template-id>', "the template's id, from the report's Unrecognised errors section")
    .option('--dir <rules-dir>', 'folder of user rules to write into (for --rules)', 'mgsift-rules')
    .option('--id <rule-id>', 'id of the new rule (default: made from the component and the template)')
    .action(async (input: string, flags: { from: string; dir: string; id?: string }) => {
      const found = await findTemplate(input, flags.from);
      let skeleton;
      try {
        skeleton = ruleSkeleton(found.source, { ruleId: flags.id, bareInput: found.bareInput, origin: input });
      } catch (err) {
        if (err instanceof SkeletonError) throw new UsageError(err.message);
        throw err;
      }
      const targets = skeleton.files.map((file) => ({ path: join(flags.dir, file.path), content: file.content }));
      for (const target of targets) {
        if (await exists(target.path)) throw new UsageError(`${target.path} exists; choose another rule id with --id`);
      }
      for (const target of targets) {
        await mkdir(dirname(target.path), { recursive: true });
        await writeAtomically(target.path, target.content);
      }
      process.stdout.write(`${targets[0]!.path}: rule ${skeleton.ruleId} for template ${flags.from}, with fixtures; edit it, then run\n`);
      process.stdout.write(`  mgsift rules test --rules ${flags.dir} --rule ${skeleton.ruleId}\n`);
    });
  return rules;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * The template with this id, from a JSON report (its digest section) or else by analysing the
 * input (digest only: ids depend on the lines, not on the rules).
 */
async function findTemplate(input: string, id: string): Promise<{ source: SkeletonSource; bareInput: boolean }> {
  const report = await readReport(input);
  if (report) {
    const digest = report['digest'];
    if (!isRecord(digest) || !Array.isArray(digest['components'])) {
      throw new UsageError(`${input} is a report without an Unrecognised errors section (made by an older mgsift?)`);
    }
    for (const component of digest['components'] as unknown[]) {
      if (!isRecord(component) || typeof component['name'] !== 'string' || !Array.isArray(component['templates'])) continue;
      const row = (component['templates'] as unknown[]).find((t) => isRecord(t) && t['id'] === id);
      const source = row === undefined ? undefined : templateRow(row, component['name']);
      if (source) return { source, bareInput: isRecord(report['input']) && report['input']['layout'] === 'bare-log' };
    }
    throw new UsageError(`no template '${id}' in ${input} (the JSON report lists at most 50 templates per component)`);
  }
  const analysis = await analyzeInput(input, { limits: DEFAULT_LIMITS, digest: true });
  for (const component of analysis.digest?.components ?? []) {
    const template = component.templates.find((t) => t.id === id);
    if (template) return { source: template, bareInput: analysis.summary.layout === 'bare-log' };
  }
  throw new UsageError(`no template '${id}' in the digest of ${input}`);
}

/** The input as a parsed JSON report, or undefined when it is not one (then it is an input to analyze). */
async function readReport(input: string): Promise<Record<string, unknown> | undefined> {
  if (!(await stat(input)).isFile()) return undefined;
  const handle = await open(input);
  let head: string;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
    head = buffer.toString('utf8', 0, bytesRead).trimStart();
  } finally {
    await handle.close();
  }
  if (!head.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(await readFile(input, 'utf8'));
  } catch {
    return undefined;
  }
  return isRecord(value) && typeof value['schemaVersion'] === 'string' ? value : undefined;
}

/** A digest template row of a JSON report, checked field by field. */
function templateRow(row: unknown, component: string): SkeletonSource | undefined {
  if (!isRecord(row) || !isRecord(row['example'])) return undefined;
  const { id, pattern, level, template, count } = row;
  const { file, line, text } = row['example'];
  if (typeof id !== 'string' || typeof pattern !== 'string' || typeof level !== 'string' || typeof template !== 'string' || typeof count !== 'number') return undefined;
  if (typeof file !== 'string' || typeof line !== 'number' || typeof text !== 'string') return undefined;
  return { id, component, pattern, level, template, count, example: { file, line, text } };
}

/** Rules from folders and files (none: the built-in pack); `lint`: with the issues of unfinished files. */
async function loadPaths(paths: readonly string[], options: { lint?: boolean } = {}): Promise<{ rules: Rule[]; issues: RuleIssue[] }> {
  if (paths.length === 0) {
    const loaded = await loadRules([], { lint: options.lint });
    return { rules: loaded.rules, issues: loaded.issues };
  }
  const rules: Rule[] = [];
  const issues: RuleIssue[] = [];
  const dirs: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) throw new UsageError(`${path}: no such rule folder or file`);
    if (info.isDirectory()) {
      dirs.push(path);
      continue;
    }
    const text = await readFile(path, 'utf8');
    if (options.lint) issues.push(...authoringIssues(path, text));
    if (isSharedSignalsPath(path)) issues.push(...readSharedSignals([{ file: path, text }]).issues);
    else {
      const { rule, issues: found } = loadRuleText(path, text, false);
      issues.push(...found);
      if (rule) rules.push(rule);
    }
  }
  if (dirs.length > 0) {
    const loaded = await loadRules(dirs, { builtin: false, lint: options.lint });
    rules.push(...loaded.rules);
    issues.push(...loaded.issues);
  }
  return { rules, issues };
}

/** Checks beyond the schema: fact names exist, fixtures that fire and that stay quiet. */
async function lintRule(rule: Rule): Promise<RuleIssue[]> {
  const issues: RuleIssue[] = [];
  if (rule.headline === undefined) issues.push({ file: rule.file, line: 1, reason: 'no headline: say in one line what happened (objects, cause, since when), e.g. `{{plural (count about) "node"}} ({{names about 3}}) … since {{time since}}`' });
  for (const signal of rule.signals) {
    if (signal.type === 'fact' && !(FACT_NAMES as readonly string[]).includes(signal.fact)) {
      issues.push({ file: rule.file, line: 1, reason: `signal '${signal.name}': unknown fact '${signal.fact}' (known: ${FACT_NAMES.join(', ')})` });
    }
  }
  const unresolved = signalsFiringAlone(rule).filter((s) => s.resolution.resolvers.length === 0 && s.resolution.persists === undefined);
  for (const signal of unresolved) {
    issues.push({ file: rule.file, line: 1, reason: `signal '${signal.name}': ${signal.type === 'log' ? 'log lines' : 'events'} alone make this rule fire, so say what shows the failure over (resolvedBy) or why it persists (persists)` });
  }
  const resolvable = rule.signals.some((s) => (s.type === 'log' || s.type === 'event') && s.resolution.resolvers.length > 0);
  try {
    const cases = await fixtureCases(rule);
    if (!cases.some((c) => c.expect.fires)) issues.push({ file: rule.file, line: 1, reason: 'no fixture that must fire' });
    if (!cases.some((c) => !c.expect.fires && !c.expect.notChecked && !c.expect.notApplicable)) issues.push({ file: rule.file, line: 1, reason: 'no near-miss fixture that must stay quiet' });
    if (resolvable && !cases.some((c) => c.expect.resolved)) issues.push({ file: rule.file, line: 1, reason: 'resolvedBy without a near-miss fixture where the failure is resolved (expect: resolved: true)' });
  } catch (err) {
    issues.push({ file: rule.file, line: 1, reason: `fixtures: ${(err as Error).message}` });
  }
  return issues;
}

/** `explains.rules` naming a rule that is neither linted here nor built in (a typo links nothing). */
async function unknownExplained(rules: readonly Rule[]): Promise<RuleIssue[]> {
  const named = rules.flatMap((rule) => rule.explains.flatMap((entry) => entry.rules.map((id) => ({ rule, id }))));
  const known = new Set(rules.map((r) => r.id));
  if (named.some(({ id }) => !known.has(id))) for (const rule of (await loadRules()).rules) known.add(rule.id);
  return named
    .filter(({ id }) => !known.has(id))
    .map(({ rule, id }) => ({ file: rule.file, line: 1, reason: `explains names rule '${id}', which is neither here nor built in` }));
}

function reportIssues(issues: readonly RuleIssue[], out: NodeJS.WritableStream = process.stdout): void {
  for (const issue of issues) out.write(`${issue.file}:${issue.line}: ${issue.reason}\n`);
}

