/**
 * Every `mgsift …` command line in the README's code blocks runs as written: each is run with the
 * built CLI, in README order, each code block in a scratch folder of its own (so `-o out/` then
 * `rules new … out/report.json` work as in the README), its inputs swapped for bundled ones (the table below). A line fails on
 * exit 2 or a crash: a usage error, an option the CLI does not know, an input it refuses. A line
 * naming a path nothing here stands in for is skipped, with that path in its test name.
 */
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/archives.js';
import { mgsift } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SAMPLES = join(ROOT, 'samples');
/** A must-gather with findings, a digest (for `rules new --from <id>`), CVO pods and a history. */
const ARCHIVE = join(SAMPLES, 'mco-ignition-rollback.tar.gz');
/** A folder of blocked-edges files, as `--update-risks` takes (a rule fixture's). */
const RISKS = join(ROOT, 'rules/update/update-risk-applies.fixtures/fires-always/blocked-edges');

/** A folder of two archives, for the batch examples. */
const folderOfArchives = join(tempDir('mgsift-readme-'), 'stand-in-queue');
mkdirSync(folderOfArchives);
for (const name of ['healthy.tar.gz', 'cvo-final-sync-lost.tar.gz']) cpSync(join(SAMPLES, name), join(folderOfArchives, name));

/** README path → what runs instead. Paths the command writes (`-o out/`, `--dir my-rules/`) stay: they land in the scratch folder. */
const SWAPS: Record<string, string> = {
  'must-gather.tar.gz': ARCHIVE,
  'must-gather.tar.xz': ARCHIVE,
  'must-gather-metal.tar.xz': ARCHIVE,
  'mg.tar.gz': ARCHIVE,
  'mg.tar.xz': ARCHIVE,
  'a.tar.gz': join(SAMPLES, 'healthy.tar.gz'),
  'b.tar.xz': join(SAMPLES, 'cvo-final-sync-lost.tar.gz'),
  'case-folder/': join(ROOT, 'test/fixtures/mg-mini'),
  'queue/': folderOfArchives,
  'ci-fleet/': folderOfArchives,
  '~/src/cincinnati-graph-data': RISKS,
};
/** `--rules my-rules/` before `rules new` made it: a bundled folder of rules. */
const BUNDLED_RULES = join(ROOT, 'rules/cvo');

/** The CLI as the README names it: on PATH, the single file, or the dev build. */
const PROGRAM = /^(mgsift|\.\/mgsift-[\w.-]+-linux-x64|node dist\/cli\/main\.js)$/;

interface ReadmeCommand {
  /** The line as the README has it. */
  line: string;
  /** Which code block it is in: each block runs in a scratch folder of its own. */
  block: number;
  args: string[];
  env: Record<string, string>;
}

/** Shell words of one command: quotes kept together, stopped at a comment, a pipe or `&&`. */
function commands(line: string): string[][] {
  const out: string[][] = [[]];
  const re = /'([^']*)'|"([^"]*)"|(&&|\||;|#.*$)|(\S+)/g;
  for (const m of line.matchAll(re)) {
    const [, single, double, operator, word] = m;
    if (operator?.startsWith('#') === true) break;
    if (operator === '|') out.push(['|']);
    else if (operator !== undefined) out.push([]);
    else out[out.length - 1]!.push(single ?? double ?? word ?? '');
  }
  return out.filter((words) => words.length > 0 && words[0] !== '|');
}

/** Every CLI command line in the README's code blocks (`$ ` prompts in output blocks too), with the variables exported above it. */
function readmeCommands(): ReadmeCommand[] {
  const found: ReadmeCommand[] = [];
  let inBlock = false;
  let block = 0;
  let env: Record<string, string> = {};
  for (const raw of readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n')) {
    if (raw.startsWith('```')) {
      inBlock = !inBlock;
      block++;
      env = {};
      continue;
    }
    if (!inBlock) continue;
    const line = raw.replace(/^\$ /, '');
    for (const words of commands(line)) {
      if (words[0] === 'export' && words[1]?.includes('=') === true) {
        const [name, value] = words[1].split(/=(.*)/s) as [string, string];
        env = { ...env, [name]: value };
        continue;
      }
      const program = words[0] === 'node' ? words.slice(0, 2).join(' ') : words[0] ?? '';
      if (!PROGRAM.test(program)) continue;
      found.push({ line: line.trim(), block, args: words.slice(program.split(' ').length), env });
    }
  }
  return found;
}

/** The digest's first template id in a report, for `rules new --from <id> report.json`. */
function firstTemplateId(reportPath: string): string {
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as { digest?: { components?: { templates?: { id: string }[] }[] } };
  const id = report.digest?.components?.[0]?.templates?.[0]?.id;
  if (id === undefined) throw new Error(`${reportPath} has no digest template`);
  return id;
}

/** Where each code block runs, and what its lines before wrote there (`-o out/`, `--dir my-rules/`): later lines may read it. */
interface Scratch {
  dir: string;
  written: string[];
}
const isWritten = (scratch: Scratch, path: string): boolean =>
  scratch.written.some((w) => path === w || path.startsWith(w.endsWith('/') ? w : `${w}/`));

/**
 * The arguments with bundled inputs in place of the README's, or the path nothing stands in for.
 * `--from <id>` is taken when the line runs, from the report it names.
 */
function swapped(args: readonly string[], scratch: Scratch): { args: string[] } | { missing: string } {
  const out: string[] = [];
  for (const [i, arg] of args.entries()) {
    const before = args[i - 1];
    if (before === '-o' || before === '--dir') {
      if (arg !== '-') scratch.written.push(arg);
      out.push(arg);
    } else if (arg in SWAPS) out.push(SWAPS[arg]!);
    else if (/^(samples|test\/fixtures)\//.test(arg)) out.push(join(ROOT, arg));
    else if (before === '--rules' && !isWritten(scratch, arg)) out.push(BUNDLED_RULES);
    else if (before !== '--from' && /[/~]|\.(tar|gz|xz|zip|json|ya?ml)$/.test(arg) && !isWritten(scratch, arg)) return { missing: arg };
    else out.push(arg);
  }
  return { args: out };
}

/** `--from <id>`: the first template of the report the line names (its id depends on the archive). */
function withTemplateId(args: readonly string[], dir: string): string[] {
  const report = args.find((a) => a.endsWith('.json'));
  return args.map((arg, i) => (args[i - 1] === '--from' && report !== undefined ? firstTemplateId(join(dir, report)) : arg));
}

const found = readmeCommands();

describe('README command lines run as written (inputs swapped for bundled ones)', () => {
  it('finds the README examples', () => {
    expect(found.length).toBeGreaterThanOrEqual(20);
  });

  const scratches = new Map<number, Scratch>();
  for (const { line, block, args, env } of found) {
    const scratch = scratches.get(block) ?? { dir: tempDir('mgsift-readme-'), written: [] };
    scratches.set(block, scratch);
    const run = swapped(args, scratch);
    if ('missing' in run) {
      it.skip(`${line} — skipped: needs ${run.missing}, which no bundled file stands in for`, () => {});
      continue;
    }
    it(line, () => {
      const vars = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, SWAPS[v] ?? v]));
      const result = mgsift(withTemplateId(run.args, scratch.dir), { cwd: scratch.dir, env: { ...process.env, ...vars } });
      expect(result.code, `${run.args.join(' ')}\n${result.stderr}`).not.toBeNull();
      expect([0, 1], `exit ${result.code}: ${run.args.join(' ')}\n${result.stderr}`).toContain(result.code);
    });
  }
});
