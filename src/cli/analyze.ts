import { basename, join } from 'node:path';
import { Command, Option } from 'commander';
import { analyzeInput } from '../analysis/analyze.js';
import { buildReport } from '../report/build.js';
import { SEVERITIES, severityRank, type Severity } from '../engine/findings.js';
import type { Rule } from '../engine/rule.js';
import { addLimitOptions } from './common.js';
import { limitsFrom, UsageError, type LimitFlags } from './options.js';
import { loadRulesOrFail, selectRules } from './rule-selection.js';
import { FORMATS, renderReport, type Format } from './formats.js';
import { writeAtomically, prepareOutputDir } from './output.js';
import { Progress } from './progress.js';

interface AnalyzeFlags extends LimitFlags {
  output: string;
  format: string;
  failOn: string;
  rules?: string[];
  only?: string[];
  exclude?: string[];
  quiet?: boolean;
}

export function analyzeCommand(): Command {
  return addLimitOptions(
    new Command('analyze')
      .description('apply the rule pack to each input and write its report')
      .argument('<input...>', 'directory, archive (.tar, .tar.gz, .tar.xz, .zip) or log file; each is one analysis')
      .option('-o, --output <path>', 'output folder (or a file for one format; - for stdout)', 'mgsift-report')
      .option('--format <list>', `comma-separated: ${FORMATS.join(', ')}`, 'html,json')
      .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding is at or above this').choices([...SEVERITIES]).default('error'))
      .option('--rules <dir...>', 'add a folder of rules (an existing id replaces the built-in rule)')
      .option('--only <id-or-tag...>', 'run only these rules (ids or tags)')
      .option('--exclude <id-or-tag...>', 'skip these rules (ids or tags)')
      .option('-q, --quiet', 'print nothing but errors'),
  ).action(async (inputs: string[], flags: AnalyzeFlags) => {
    const formats = parseFormats(flags.format);
    const toStdout = flags.output === '-';
    if (toStdout && formats.length !== 1) throw new UsageError('-o - writes one format to stdout: pass --format with exactly one');
    const limits = limitsFrom(flags);
    const failOn = flags.failOn as Severity;
    const loaded = await loadRulesOrFail(flags.rules ?? []);
    const rules: Rule[] = selectRules(loaded.rules, flags.only, flags.exclude);
    const say = (line: string): void => {
      if (!flags.quiet && !toStdout) process.stderr.write(`${line}\n`);
    };
    for (const note of loaded.notes) say(note);

    let failed = false;
    for (const input of inputs) {
      const progress = new Progress(input, !flags.quiet);
      const analysis = await analyzeInput(input, { limits, rules, digest: true, onProgress: (bytes) => progress.update(bytes) });
      progress.done();
      const report = buildReport(analysis);
      if (report.findings.some((f) => severityRank(f.severity) >= severityRank(failOn))) failed = true;
      if (toStdout) {
        process.stdout.write(renderReport(report, formats[0]!, failOn));
        continue;
      }
      const written: string[] = [];
      const single = inputs.length === 1;
      if (single && formats.length === 1 && /\.[a-z]+$/i.test(flags.output)) {
        await writeAtomically(flags.output, renderReport(report, formats[0]!, failOn));
        written.push(flags.output);
      } else {
        await prepareOutputDir(flags.output);
        const stem = single ? 'report' : reportStem(input);
        for (const format of formats) {
          const file = join(flags.output, `${stem}.${extensionOf(format)}`);
          await writeAtomically(file, renderReport(report, format, failOn));
          written.push(file);
        }
      }
      const c = report.counts;
      say(`${input}: ${c.critical} critical, ${c.error} error, ${c.warning} warning, ${c.info} info; ${report.notChecked.length} not checked → ${written.join(', ')}`);
    }
    process.exitCode = failed ? 1 : 0;
  });
}

function parseFormats(text: string): Format[] {
  const formats = text.split(',').map((f) => f.trim().toLowerCase()).filter(Boolean);
  for (const format of formats) if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`unknown format '${format}' (use ${FORMATS.join(', ')})`);
  if (formats.length === 0) throw new UsageError('--format needs at least one format');
  return [...new Set(formats)] as Format[];
}

function extensionOf(format: Format): string {
  return format === 'junit' ? 'junit.xml' : format;
}

/** A file-name stem from an input path: `case/must-gather.tar.gz` → `must-gather`. */
export function reportStem(input: string): string {
  const name = basename(input.replace(/[\\/]+$/, '')).replace(/\.(tar\.gz|tar\.xz|tgz|txz|tar|zip|gz|xz|log)$/i, '');
  return name.replace(/[^A-Za-z0-9._-]+/g, '_') || 'input';
}
