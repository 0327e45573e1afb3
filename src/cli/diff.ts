import { availableParallelism } from 'node:os';
import { Command, Option } from 'commander';
import { SEVERITIES, type Severity } from '../engine/findings.js';
import { compareReports, newAtOrAbove } from '../diff/compare.js';
import { DIFF_FORMATS, renderDiff, type DiffFormat } from '../report/diff.js';
import { toolInfo } from '../report/build.js';
import type { Report } from '../report/model.js';
import { InputError } from '../sources/open.js';
import { addLimitOptions, addThreadsOption } from './common.js';
import { collectList, collectRepeated, limitsFrom, threadsFrom, UsageError, type LimitFlags } from './options.js';
import { loadRulesOrFail, selectRules } from './rule-selection.js';
import { isStdout, prepareOutput, undoOutput, writeAtomically } from './output.js';
import { analyses, type BatchSpec } from './batch.js';
import { addUpdateRisksOption, loadUpdateRisks, updateRisksDir } from './update-risks.js';

interface DiffFlags extends LimitFlags {
  output: string;
  format?: string;
  failOn: string;
  rules?: string[];
  only?: string[];
  exclude?: string[];
  threads?: string;
  updateRisks?: string;
}

const SUFFIXES: Record<string, DiffFormat> = { txt: 'text', md: 'md', html: 'html', htm: 'html', json: 'json' };

export function diffCommand(): Command {
  return addUpdateRisksOption(addThreadsOption(addLimitOptions(
    new Command('diff')
      .description('analyse two inputs of one cluster (an older and a newer upload) and report what changed: findings new, resolved and persisting, the state that moved, new error templates')
      .argument('<old>', 'the earlier input: directory, archive or log file')
      .argument('<new>', 'the later input')
      .option('-o, --output <path>', 'a file (its format from the suffix: .txt, .md, .html, .json) or - for stdout', '-')
      .addOption(new Option('--format <format>', 'output format (default: text, or the one -o\'s suffix names)').choices([...DIFF_FORMATS]))
      .addOption(new Option('--fail-on <severity>', 'exit 1 when NEW has a new finding at or above this').choices([...SEVERITIES]).default('error'))
      .option('--rules <dir>', 'add a folder of rules (an existing id replaces the built-in rule); repeat for more', collectRepeated)
      .option('--only <ids-or-tags>', 'run only these rules (ids or tags, comma-separated or repeated)', collectList)
      .option('--exclude <ids-or-tags>', 'skip these rules (ids or tags, comma-separated or repeated)', collectList),
  ))).action(async (oldInput: string, newInput: string, flags: DiffFlags) => {
    const toStdout = isStdout(flags.output);
    const suffix = toStdout ? undefined : SUFFIXES[/\.([A-Za-z]+)$/.exec(flags.output)?.[1]?.toLowerCase() ?? ''];
    if (!toStdout && suffix === undefined) throw new UsageError(`-o ${flags.output}: name a file ending .txt, .md, .html or .json, or - for stdout`);
    if (flags.format && suffix && flags.format !== suffix) throw new UsageError(`--format ${flags.format} does not match -o ${flags.output}`);
    const format = (flags.format as DiffFormat | undefined) ?? suffix ?? 'text';
    const loaded = await loadRulesOrFail(flags.rules ?? []);
    const rules = selectRules(loaded.rules, flags.only, flags.exclude);
    const riskData = await loadUpdateRisks(updateRisksDir(flags.updateRisks));
    // Both analyses at once where the cores allow: each then reads its input on its own thread.
    const jobs = availableParallelism() > 1 ? 2 : 1;
    const spec: BatchSpec = { limits: limitsFrom(flags), ruleDirs: flags.rules ?? [], ruleIds: rules.map((r) => r.id), threads: threadsFrom(flags.threads), maxThreads: jobs > 1 ? Math.max(1, Math.floor(availableParallelism() / 2)) : Infinity };
    const created = await prepareOutput(toStdout ? { kind: 'stdout' } : { kind: 'file', path: flags.output });
    try {
      const reports: Report[] = [];
      for await (const { index, result } of analyses([oldInput, newInput], spec, { jobs, rules, riskData })) {
        if ('error' in result) throw result.cause ?? new InputError(`${index === 0 ? oldInput : newInput}: ${result.error}`);
        reports[index] = result.report;
      }
      const diff = compareReports(reports[0]!, reports[1]!);
      for (const warning of diff.warnings) process.stderr.write(`mgsift: warning: ${warning}\n`);
      const text = renderDiff(diff, format, toolInfo());
      if (toStdout) process.stdout.write(text);
      else await writeAtomically(flags.output, text);
      // A cut or corrupt input is an input error, as in analyze: its report covers the part read.
      const cut = reports.some((r) => r.input.truncated?.by === 'damage');
      process.exitCode = cut ? 2 : newAtOrAbove(diff, flags.failOn as Severity) ? 1 : 0;
    } catch (err) {
      await undoOutput(created);
      throw err;
    }
  });
}
