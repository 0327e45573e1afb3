import { basename, join } from 'node:path';
import { open, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Command, Option } from 'commander';
import { expandInputs } from '../analysis/inputs.js';
import { SEVERITIES, type Severity } from '../engine/findings.js';
import type { Report } from '../report/model.js';
import { archiveRow, batchExit, buildIndex, failedRow, isCut, jsonLine, renderIndexHtml, renderIndexJson, renderIndexMarkdown, type BatchIndex, type IndexRow } from '../report/index.js';
import { InputError } from '../sources/open.js';
import { truncationText } from '../report/common.js';
import { addLimitOptions, addThreadsOption } from './common.js';
import { collectList, collectRepeated, limitsFrom, threadsFrom, UsageError, type LimitFlags } from './options.js';
import { loadRulesOrFail, selectRules } from './rule-selection.js';
import { FORMATS, renderReport, type Format } from './formats.js';
import { MD_DEFAULT_LIMIT, type MarkdownOptions } from '../report/markdown.js';
import { isStdout, prepareOutput, undoOutput, writeAtomically, type OutputTarget } from './output.js';
import { Progress } from './progress.js';
import { analyses, type BatchSpec } from './batch.js';
import { addUpdateRisksOption, loadUpdateRisks, updateRisksDir } from './update-risks.js';

interface AnalyzeFlags extends LimitFlags {
  output: string;
  format: string;
  failOn: string;
  rules?: string[];
  only?: string[];
  exclude?: string[];
  jobs: string;
  threads?: string;
  ruleCosts?: boolean;
  quiet?: boolean;
  mdLimit?: string;
  mdFull?: boolean;
  updateRisks?: string;
}

/** One JSON line per archive, for aggregation in other tools; not a report format of its own. */
const JSONL = 'jsonl';

export function analyzeCommand(): Command {
  return addUpdateRisksOption(addThreadsOption(addLimitOptions(
    new Command('analyze')
      .description('apply the rule pack to each input and write its report; several inputs also get an index (index.html, .md, .json)')
      .argument(
        '<input...>',
        'directory, archive (.tar, .tar.gz, .tar.xz, .zip), log file, or a folder of archives; each archive is one analysis',
      )
      .option('-o, --output <path>', 'output folder; a file for one format (a name ending .html, .json, .md, .txt, .xml, .jsonl); - for stdout', 'mgsift-report')
      .option('--format <list>', `comma-separated: ${FORMATS.join(', ')}, ${JSONL} (one line per archive); default html,json, or the one -o's suffix names`, 'html,json')
      .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding is at or above this').choices([...SEVERITIES]).default('error'))
      .option('--rules <dir>', 'add a folder of rules (an existing id replaces the built-in rule); repeat for more', collectRepeated)
      .option('--only <ids-or-tags>', 'run only these rules (ids or tags, comma-separated or repeated)', collectList)
      .option('--exclude <ids-or-tags>', 'skip these rules (ids or tags, comma-separated or repeated)', collectList)
      .option('-j, --jobs <n>', 'analyse up to n inputs at once, each in its own worker thread', '1')
      .option('-q, --quiet', 'print nothing but errors')
      .option('--md-limit <chars>', `Markdown report: characters at most, sections sharing them in priority order (default: ${MD_DEFAULT_LIMIT})`)
      .option('--md-full', 'Markdown report: everything, with no size limit')
      .option('--rule-costs', "time each rule's matching and evaluation (reads on one thread) and list the costliest in the JSON report's stats.ruleCosts"),
  ))).action(async (inputs: string[], flags: AnalyzeFlags, command: Command) => {
    const jobs = Number(flags.jobs);
    if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError(`--jobs needs a whole number of at least 1, not '${flags.jobs}'`);
    // The diagnosis alone is for a terminal: stdout unless -o says otherwise.
    if (flags.format.trim().toLowerCase() === 'text' && command.getOptionValueSource('output') === 'default') flags.output = '-';
    const toStdout = isStdout(flags.output);
    const failOn = flags.failOn as Severity;
    const markdown = markdownOptions(flags);
    const loaded = await loadRulesOrFail(flags.rules ?? []);
    const rules = selectRules(loaded.rules, flags.only, flags.exclude);
    const chosen = new Set(rules.map((r) => r.id));
    const selection = flags.only || flags.exclude ? { only: flags.only ?? [], exclude: flags.exclude ?? [], leftOut: loaded.rules.filter((r) => !chosen.has(r.id)).map((r) => r.id) } : undefined;
    const riskData = await loadUpdateRisks(updateRisksDir(flags.updateRisks));
    const say = (line: string): void => {
      if (!flags.quiet && !toStdout) process.stderr.write(`${line}\n`);
    };
    const expansion = await expandInputs(inputs);
    const targets = expansion.inputs;
    const { threads, maxThreads, note } = threadsPerJob(threadsFrom(flags.threads), Math.min(jobs, targets.length));
    const spec: BatchSpec = { limits: limitsFrom(flags), ruleDirs: flags.rules ?? [], ruleIds: [...chosen], selection, updateRisksDir: riskData?.dir, threads, maxThreads, ruleCosts: flags.ruleCosts };
    const single = targets.length === 1;
    const formatGiven = command.getOptionValueSource('format') === 'cli';
    const { target, formats, jsonl } = await outputPlan(flags.output, flags.format, formatGiven, single);
    // The output is made and proved writable before the analysis; folders made for a run that
    // ends without a report are taken away again.
    const created = await prepareOutput(target);
    for (const note of loaded.notes) say(note);
    for (const note of expansion.notes) say(note);
    if (note) say(note);
    try {
      process.exitCode = await run();
    } catch (err) {
      await undoOutput(created);
      throw err;
    }

    async function run(): Promise<number> {
      const toFile = target.kind === 'file';
      const toFolder = target.kind === 'folder';
      const stems = single ? ['report'] : uniqueStems(targets);
      // Several JSON reports on stdout make one document: an array of them.
      const asArray = toStdout && !single && formats[0] === 'json';
      let printed = 0;
      const stdoutInOrder = inOrder((text) => {
        if (text === '') return;
        process.stdout.write(asArray ? `${printed++ === 0 ? '[\n' : ',\n'}${text.trimEnd()}` : text);
      });

      const writeReports = async (index: number, report: Report): Promise<string[]> => {
        if (toStdout) {
          stdoutInOrder(index, formats[0] === undefined ? '' : renderReport(report, formats[0], failOn, markdown));
          return [];
        }
        if (toFile) {
          if (formats[0] !== undefined) await writeAtomically(target.path, renderReport(report, formats[0], failOn, markdown));
          return formats[0] !== undefined ? [basename(target.path)] : [];
        }
        const files: string[] = [];
        for (const format of formats) {
          const file = `${stems[index]}.${extensionOf(format)}`;
          await writeAtomically(join(flags.output, file), renderReport(report, format, failOn, markdown));
          files.push(file);
        }
        return files;
      };

      const rows: IndexRow[] = [];
      const lines = jsonl ? await lineSink(toStdout ? '-' : toFile ? flags.output : join(flags.output, 'index.jsonl')) : undefined;
      try {
        const progress = (input: string): Progress => new Progress(input, !flags.quiet);
        for await (const { index, result: outcome } of analyses(targets, spec, { jobs, rules, riskData, progress })) {
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
            const partial = row.status === 'partial' ? ` (read in part: ${row.error ?? ''})` : row.status === 'nothing-checked' ? ' (nothing checked)' : '';
            say(`${input}: ${c.critical} critical, ${c.error} error, ${c.warning} warning, ${c.info} info; ${outcome.report.notChecked.length} not checked${outcome.report.checkedInPart.length > 0 ? `, ${outcome.report.checkedInPart.length} checked in part` : ''}${partial}${where}`);
            // The report is written (it says why), but a run that checked nothing is no green.
            // A cut archive is no green either: its report is of the part read.
            if (isCut(row)) process.stderr.write(`mgsift: error: ${input}: ${truncationText(row.truncated)}; the report covers the part read\n`);
            if (row.status === 'nothing-checked') process.stderr.write(`mgsift: error: ${input}: ${row.error ?? 'no rule could be checked'}\n`);
          }
          rows[index] = row;
          await lines?.write(jsonLine(row));
        }
      } finally {
        await lines?.close();
      }
      if (asArray) process.stdout.write(printed === 0 ? '[]\n' : '\n]\n');

      if (toFolder && !single) {
        const index = buildIndex(rows, failOn);
        const written = await writeIndex(index, flags.output);
        const s = index.summary;
        say(`index: ${s.archives} archives (${s.partial} read in part, ${s.nothingChecked} with nothing checked, ${s.failed} failed) → ${written.join(', ')}`);
      }
      return batchExit(rows, failOn).code;
    }
  });
}

/**
 * `--jobs × --threads` stays within the cores: each job gets at most cores ÷ jobs threads (at
 * least 1); an explicit `--threads` above that is lowered, with a note.
 */
function threadsPerJob(threads: number | 'auto', jobs: number): { threads: number | 'auto'; maxThreads: number; note?: string } {
  if (jobs <= 1) return { threads, maxThreads: Infinity };
  const cores = availableParallelism();
  const maxThreads = Math.max(1, Math.floor(cores / jobs));
  if (threads === 'auto' || threads <= maxThreads) return { threads, maxThreads };
  return { threads: maxThreads, maxThreads, note: `--threads ${threads} lowered to ${maxThreads}: --jobs ${jobs} × --threads stays within the ${cores} cores` };
}

/** The report format a file name's suffix names: `r.html`, `r.junit.xml`, `fleet.jsonl`. */
const SUFFIX_FORMATS: Record<string, Format | typeof JSONL> = {
  html: 'html',
  htm: 'html',
  json: 'json',
  md: 'md',
  markdown: 'md',
  xml: 'junit',
  jsonl: JSONL,
  txt: 'text',
};

function suffixFormat(path: string): Format | typeof JSONL | undefined {
  const suffix = /\.([A-Za-z]+)$/.exec(path)?.[1]?.toLowerCase();
  return suffix === undefined ? undefined : SUFFIX_FORMATS[suffix];
}

/**
 * What `-o` and `--format` ask for, checked before anything is read. `-` (or /dev/stdout) is
 * stdout, one format; a name with a report suffix is one file (its format is the suffix's
 * unless --format names it); anything else, or an existing folder, is a folder. Several inputs
 * go to one file only as jsonl, and to stdout as jsonl, md (one report after another) or json
 * (one array); html and JUnit documents do not concatenate.
 */
async function outputPlan(output: string, formatText: string, formatGiven: boolean, single: boolean): Promise<{ target: OutputTarget; formats: Format[]; jsonl: boolean }> {
  const isFolder = output.endsWith('/') || (await stat(output).then((info) => info.isDirectory(), () => false));
  const suffix = isFolder ? undefined : suffixFormat(output);
  const parsed = parseFormats(!formatGiven && suffix !== undefined ? suffix : formatText);
  const names = [...parsed.formats, ...(parsed.jsonl ? [JSONL] : [])];
  if (isStdout(output)) {
    if (names.length !== 1) throw new UsageError('-o - writes one format to stdout: pass --format with exactly one');
    if (!single && (names[0] === 'html' || names[0] === 'junit')) {
      throw new UsageError(`-o -: several ${names[0]} reports do not make one document; use -o <folder>, or --format jsonl, json or md`);
    }
    return { target: { kind: 'stdout' }, ...parsed };
  }
  if (suffix === undefined) return { target: { kind: 'folder', path: output }, ...parsed };
  if (names.length !== 1) throw new UsageError(`-o ${output} names one file; --format ${formatText} makes ${names.length} (use -o <folder>)`);
  if (names[0] !== suffix) throw new UsageError(`-o ${output} names a ${suffix} file; --format says ${names[0]}`);
  if (!single && suffix !== JSONL) throw new UsageError(`-o ${output}: several inputs do not fit one ${suffix} file; use -o <folder>, or --format jsonl -o <name>.jsonl`);
  return { target: { kind: 'file', path: output }, ...parsed };
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

function markdownOptions(flags: AnalyzeFlags): MarkdownOptions {
  if (flags.mdFull === true && flags.mdLimit !== undefined) throw new UsageError('--md-full and --md-limit do not go together: pick one');
  if (flags.mdLimit === undefined) return { full: flags.mdFull === true };
  const limit = Number(flags.mdLimit);
  if (!/^\d+$/.test(flags.mdLimit.trim()) || !Number.isSafeInteger(limit) || limit < 1000) {
    throw new UsageError(`--md-limit needs a whole number of characters, at least 1000, not '${flags.mdLimit}'`);
  }
  return { limit };
}
