import { Command } from 'commander';
import { loadRules, loadRuleText, type RuleIssue } from '../engine/load.js';
import { FACT_NAMES } from '../engine/facts-view.js';
import { DEFAULT_LIMITS } from '../core/limits.js';
import { fixtureCases, runCase } from '../ruletest/fixtures.js';
import { readFile, stat } from 'node:fs/promises';
import type { Rule } from '../engine/rule.js';
import { UsageError } from './options.js';

export function rulesCommand(): Command {
  const rules = new Command('rules').description('list, lint and test rules');
  rules
    .command('list')
    .description('id, severity, status, component, title of every rule')
    .option('--rules <dir...>', 'also list rules from these folders')
    .action(async (flags: { rules?: string[] }) => {
      const loaded = await loadRules(flags.rules ?? []);
      const rows = [...loaded.rules].sort((a, b) => a.component.localeCompare(b.component) || a.id.localeCompare(b.id));
      for (const r of rows) process.stdout.write(`${r.id.padEnd(36)} ${r.severity.padEnd(8)} ${r.status.padEnd(12)} ${r.component.padEnd(26)} ${r.title}\n`);
      reportIssues(loaded.issues);
    });
  rules
    .command('lint')
    .description('check rules: schema, unique ids, regex safety, templates, fixtures present')
    .argument('[paths...]', 'rule folders or files (default: the built-in pack)')
    .action(async (paths: string[]) => {
      const { rules: loadedRules, issues } = await loadPaths(paths);
      for (const rule of loadedRules) issues.push(...(await lintRule(rule)));
      reportIssues(issues);
      process.stdout.write(`${loadedRules.length} rules, ${issues.length} problem(s)\n`);
      process.exitCode = issues.length > 0 ? 1 : 0;
    });
  rules
    .command('test')
    .description('run every rule on its fixtures (must fire / must stay quiet) through the analyze pipeline')
    .argument('[paths...]', 'rule folders or files (default: the built-in pack)')
    .option('--rule <id>', 'only this rule')
    .action(async (paths: string[], flags: { rule?: string }) => {
      const { rules: loadedRules, issues } = await loadPaths(paths);
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
            process.stdout.write(`PASS ${rule.id}/${fixture.name}\n`);
          } else {
            failed++;
            process.stdout.write(`FAIL ${rule.id}/${fixture.name}: ${failures.join('; ')}\n`);
          }
        }
      }
      process.stdout.write(`${passed} passed, ${failed} failed\n`);
      process.exitCode = failed > 0 ? 1 : 0;
    });
  return rules;
}

async function loadPaths(paths: readonly string[]): Promise<{ rules: Rule[]; issues: RuleIssue[] }> {
  if (paths.length === 0) {
    const loaded = await loadRules([]);
    return { rules: loaded.rules, issues: loaded.issues };
  }
  const rules: Rule[] = [];
  const issues: RuleIssue[] = [];
  const dirs: string[] = [];
  for (const path of paths) {
    if ((await stat(path)).isDirectory()) dirs.push(path);
    else {
      const { rule, issues: found } = loadRuleText(path, await readFile(path, 'utf8'), false);
      issues.push(...found);
      if (rule) rules.push(rule);
    }
  }
  if (dirs.length > 0) {
    const loaded = await loadRules(dirs, { builtin: false });
    rules.push(...loaded.rules);
    issues.push(...loaded.issues);
  }
  return { rules, issues };
}

/** Checks beyond the schema: fact names exist, fixtures that fire and that stay quiet. */
async function lintRule(rule: Rule): Promise<RuleIssue[]> {
  const issues: RuleIssue[] = [];
  for (const signal of rule.signals) {
    if (signal.type === 'fact' && !(FACT_NAMES as readonly string[]).includes(signal.fact)) {
      issues.push({ file: rule.file, line: 1, reason: `signal '${signal.name}': unknown fact '${signal.fact}' (known: ${FACT_NAMES.join(', ')})` });
    }
  }
  try {
    const cases = await fixtureCases(rule);
    if (!cases.some((c) => c.expect.fires)) issues.push({ file: rule.file, line: 1, reason: 'no fixture that must fire' });
    if (!cases.some((c) => !c.expect.fires && !c.expect.notChecked)) issues.push({ file: rule.file, line: 1, reason: 'no near-miss fixture that must stay quiet' });
  } catch (err) {
    issues.push({ file: rule.file, line: 1, reason: `fixtures: ${(err as Error).message}` });
  }
  return issues;
}

function reportIssues(issues: readonly RuleIssue[]): void {
  for (const issue of issues) process.stdout.write(`${issue.file}:${issue.line}: ${issue.reason}\n`);
}

