import { basename, join } from 'node:path';
import { open } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { expandInputs } from '../analysis/inputs.js';
import { SEVERITIES, type Severity } from '../engine/findings.js';
import type { Report } from '../report/model.js';
import { archiveRow, buildIndex, failedRow, isFailing, jsonLine, renderIndexHtml, renderIndexJson, renderIndexMarkdown, type BatchIndex, type IndexRow } from '../report/index.js';
import { InputError } from '../sources/open.js';
import { addLimitOptions } from './common.js';
import { limitsFrom, UsageError, type LimitFlags } from './options.js';
import { loadRulesOrFail, selectRules } from './rule-selection.js';
import { FORMATS, renderReport, type Format } from './formats.js';
import { writeAtomically, prepareOutputDir } from './output.js';
import { Progress } from './progress.js';
import { analyses, type BatchSpec } from './batch.js';

interface AnalyzeFlags extends LimitFlags {
  output: string;
  format: string;
  failOn: string;
  rules?: string[];
  only?: string[];
  exclude?: string[];
  jobs: string;
  quiet?: boolean;
}

/** One JSON line per archive, for aggregation in other tools; not a report format of its own. */
const JSONL = 'jsonl';

export function analyzeCommand(): Command {
  return addLimitOptions(
    new Command('analyze')
      .description('apply the rule pack to each input and write its report; several inputs also get an index (index.html, .md, .json)')
      .argument(
        '<input...>',
        'directory, archive (.tar, .tar.gz, .tar.xz, .zip), log file, or a folder of archives; each archive is one analysis',
      )
      .option('-o, --output <path>', 'output folder (or a file for one format; - for stdout)', 'mgsift-report')
      .option('--format <list>', `comma-separated: ${FORMATS.join(', ')}, ${JSONL} (one line per archive)`, 'html,json')
      .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding is at or above this').choices([...SEVERITIES]).default('error'))
      .option('--rules <dir...>', 'add a folder of rules (an existing id replaces the built-in rule)')
      .option('--only <id-or-tag...>', 'run only these rules (ids or tags)')
      .option('--exclude <id-or-tag...>', 'skip these rules (ids or tags)')
      .option('-j, --jobs <n>', 'analyse up to n inputs at once, each in its own worker thread', '1')
      .option('-q, --quiet', 'print nothing but errors'),
  ).action(async (inputs: string[], flags: AnalyzeFlags, command: Command) => {
    const { formats, jsonl } = parseFormats(flags.format);
    // The diagnosis alone is for a terminal: stdout unless -o says otherwise.
    if (formats.length === 1 && formats[0] === 'text' && !jsonl && command.getOptionValueSource('output') === 'default') flags.output = '-';
    const jobs = Number(flags.jobs);
    if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError(`--jobs needs a whole number of at least 1, not '${flags.jobs}'`);
    const outputs = formats.length + (jsonl ? 1 : 0);
    const toStdout = flags.output === '-';
    if (toStdout && outputs !== 1) throw new UsageError('-o - writes one format to stdout: pass --format with exactly one');
    const failOn = flags.failOn as Severity;
    const loaded = await loadRulesOrFail(flags.rules ?? []);
    const rules = selectRules(loaded.rules, flags.only, flags.exclude);
    const spec: BatchSpec = { limits: limitsFrom(flags), ruleDirs: flags.rules ?? [], ruleIds: rules.map((r) => r.id) };
    const say = (line: string): void => {
      if (!flags.quiet && !toStdout) process.stderr.write(`${line}\n`);
    };
    for (const note of loaded.notes) say(note);
    const expansion = await expandInputs(inputs);
    for (const note of expansion.notes) say(note);
    const targets = expansion.inputs;
    const single = targets.length === 1;

    // Where things go: stdout; one named file (one format, and one input unless it is jsonl);
    // else a folder with a report per archive (and an index for several).
    const toFile = !toStdout && outputs === 1 && (single || jsonl) && /\.[a-z]+$/i.test(flags.output);
    const toFolder = !toStdout && !toFile;
    // Several inputs: the folder first (the jsonl sink lives there); one input: only once its
    // report exists, so an unreadable input leaves nothing behind.
    if (toFolder && !single) await prepareOutputDir(flags.output);
    const stems = single ? ['report'] : uniqueStems(targets);
    const stdoutInOrder = inOrder((text) => process.stdout.write(text));

    const writeReports = async (index: number, report: Report): Promise<string[]> => {
      if (toStdout) {
        stdoutInOrder(index, formats[0] === undefined ? '' : renderReport(report, formats[0], failOn));
        return [];
      }
      if (toFile) {
        if (formats[0] !== undefined) await writeAtomically(flags.output, renderReport(report, formats[0], failOn));
        return formats[0] !== undefined ? [basename(flags.output)] : [];
      }
      await prepareOutputDir(flags.output);
      const files: string[] = [];
      for (const format of formats) {
        const file = `${stems[index]}.${extensionOf(format)}`;
        await writeAtomically(join(flags.output, file), renderReport(report, format, failOn));
        files.push(file);
      }
      return files;
    };

    const rows: IndexRow[] = [];
    const lines = jsonl ? await lineSink(toStdout ? '-' : toFile ? flags.output : join(flags.output, 'index.jsonl')) : undefined;
    try {
      const progress = (input: string): Progress => new Progress(input, !flags.quiet);
      for await (const { index, result: outcome } of analyses(targets, spec, { jobs, rules, progress })) {
        const input = targets[index]!;
        let row: IndexRow;
        if ('error' in outcome) {
          // One input alone fails as it always did: exit 2 with one line (and --debug's stack).
          if (single) throw outcome.cause ?? new InputError(outcome.error);
          row = failedRow(input, outcome.error);
          if (toStdout) stdoutInOrder(index, '');
          process.stderr.write(`mgsift: error: ${outcome.error.includes(input) ? outcome.error : `${input}: ${outcome.error}`}\n`);
        } else {
          const files = await writeReports(index, outcome.report);
          row = archiveRow(input, outcome.report, files);
          const c = outcome.report.counts;
          const where = files.length > 0 ? ` → ${files.map((f) => (toFolder ? join(flags.output, f) : flags.output)).join(', ')}` : '';
          const partial = row.status === 'partial' ? ` (read in part: ${row.error ?? ''})` : '';
          say(`${input}: ${c.critical} critical, ${c.error} error, ${c.warning} warning, ${c.info} info; ${outcome.report.notChecked.length} not checked${partial}${where}`);
        }
        rows[index] = row;
        await lines?.write(jsonLine(row));
      }
    } finally {
      await lines?.close();
    }

    if (toFolder && !single) {
      const index = buildIndex(rows, failOn);
      const written = await writeIndex(index, flags.output);
      const s = index.summary;
      say(`index: ${s.archives} archives (${s.partial} read in part, ${s.failed} failed) → ${written.join(', ')}`);
    }
    // 2 only when nothing could be analysed; else 1 when any archive holds a finding at or above --fail-on.
    const analysed = rows.filter((row) => row.status !== 'failed').length;
    process.exitCode = analysed === 0 ? 2 : rows.some((row) => isFailing(row, failOn)) ? 1 : 0;
  });
}

/** `index.html`, `index.md` and `index.json` in the output folder; returns their paths. */
async function writeIndex(index: BatchIndex, dir: string): Promise<string[]> {
  const pages: [string, string][] = [
    ['index.html', renderIndexHtml(index)],
    ['index.md', renderIndexMarkdown(index)],
    ['index.json', renderIndexJson(index)],
  ];
  for (const [file, text] of pages) await writeAtomically(join(dir, file), text);
  return pages.map(([file]) => join(dir, file));
}

function parseFormats(text: string): { formats: Format[]; jsonl: boolean } {
  const names = [...new Set(text.split(',').map((f) => f.trim().toLowerCase()).filter(Boolean))];
  if (names.length === 0) throw new UsageError('--format needs at least one format');
  for (const name of names) {
    if (name !== JSONL && !(FORMATS as readonly string[]).includes(name)) throw new UsageError(`unknown format '${name}' (use ${FORMATS.join(', ')}, ${JSONL})`);
  }
  return { formats: names.filter((name): name is Format => name !== JSONL), jsonl: names.includes(JSONL) };
}

function extensionOf(format: Format): string {
  return format === 'junit' ? 'junit.xml' : format === 'text' ? 'txt' : format;
}

/** A file-name stem from an input path: `case/must-gather.tar.gz` → `must-gather`. */
export function reportStem(input: string): string {
  const name = basename(input.replace(/[\\/]+$/, '')).replace(/\.(tar\.gz|tar\.xz|tgz|txz|tar|zip|gz|xz|log)$/i, '');
  return name.replace(/[^A-Za-z0-9._-]+/g, '_') || 'input';
}

/**
 * One stem per input, in input order: two `must-gather.tar.gz` from different folders become
 * `must-gather` and `must-gather-2`; `index` is kept for the index. Compared without case, for
 * file systems that ignore it.
 */
function uniqueStems(inputs: readonly string[]): string[] {
  const taken = new Set(['index']);
  return inputs.map((input) => {
    const stem = reportStem(input);
    let name = stem;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem}-${n}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

/** Calls `write` with texts put at positions 0, 1, 2 … in that order, whatever order they come in. */
function inOrder(write: (text: string) => void): (position: number, text: string) => void {
  const waiting = new Map<number, string>();
  let next = 0;
  return (position, text) => {
    waiting.set(position, text);
    for (let ready = waiting.get(next); ready !== undefined; ready = waiting.get(next)) {
      write(ready);
      waiting.delete(next++);
    }
  };
}

/** Where `--format jsonl` lines go, each as soon as its archive is done: stdout (`-`) or a file. */
async function lineSink(target: string): Promise<{ write(line: string): Promise<void>; close(): Promise<void> }> {
  if (target === '-') {
    return { write: async (line) => void process.stdout.write(line), close: async () => undefined };
  }
  const handle = await open(target, 'w');
  return {
    write: async (line) => void (await handle.write(line)),
    close: () => handle.close(),
  };
}
