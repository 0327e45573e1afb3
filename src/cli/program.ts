import { Command, CommanderError, Option } from 'commander';
import { describeError } from '../core/problems.js';
import { UsageError } from './options.js';
import { InputError } from '../sources/open.js';

/** Exit codes, documented in --help and the README. */
export const EXIT = { ok: 0, findings: 1, usage: 2 } as const;

const program = new Command('mgsift')
  .description('Offline analyzer for OpenShift diagnostic archives: must-gather, inspect, CI gather-extra, CVO logs.')
  .addOption(new Option('--debug', 'show stack traces of internal errors'))
  // Not commander's .version(string): the rules' count is read only when asked for.
  .option('-V, --version', "print the version, the built-in rules' count and the build")
  .on('option:version', () => {
    throw new CommanderError(EXIT.ok, 'commander.version', 'version asked');
  })
  .exitOverride()
  .addHelpText(
    'after',
    `
Exit codes:
  0  no finding at or above --fail-on (analyze), no new one (diff), or success
  1  at least one finding at or above --fail-on (diff: a new one in NEW)
  2  usage or input error`,
  );

/**
 * The commands, each loaded when it runs: a command's module brings the code it runs (the rule
 * engine, the report templates), and `mgsift audit` need not compile the analysis it does not
 * use. Help and a missing or unknown command load them all.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  inspect: async () => (await import('./inspect.js')).inspectCommand(),
  analyze: async () => (await import('./analyze.js')).analyzeCommand(),
  rules: async () => (await import('./rules.js')).rulesCommand(),
  timeline: async () => (await import('./timeline.js')).timelineCommand(),
  diff: async () => (await import('./diff.js')).diffCommand(),
  audit: async () => (await import('./audit.js')).auditCommand(),
};

/** Adds the command the arguments name, or every command. */
async function addCommands(args: readonly string[]): Promise<void> {
  const named = args.find((a) => !a.startsWith('-'));
  const makers = named !== undefined && Object.hasOwn(COMMANDS, named) ? [COMMANDS[named]!] : Object.values(COMMANDS);
  for (const command of await Promise.all(makers.map((make) => make()))) program.addCommand(command);
  configure(program);
}
/**
 * Commander's own errors (an unknown option or command, a missing argument, a value out of its
 * choices) as every other error: one `mgsift: error: …` line, exit 2 (main). The help commander
 * prints for a missing command is left out here: main says which commands there are, in one line.
 */
const commanderOutput = {
  outputError: (message: string): void => {
    const line = message.replace(/^error: /, '').trim().replace(/\s*\n\s*/g, ' ');
    process.stderr.write(`mgsift: error: ${line}\n`);
  },
  writeErr: (): void => {},
};
// Commands made apart inherit neither: without exitOverride a usage error in one exits 1, not 2.
const configure = (command: Command): void => {
  command.exitOverride().configureOutput(commanderOutput);
  command.commands.forEach(configure);
};

// `mgsift timeline … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(process.exitCode ?? EXIT.ok);
});

/** One line on stderr (a stack trace only with --debug, and only for internal errors); exit 2. */
function fail(err: unknown): number {
  const known = err instanceof UsageError || err instanceof InputError;
  process.stderr.write(`mgsift: error: ${describeError(err)}\n`);
  if (!known && program.opts<{ debug?: boolean }>().debug && err instanceof Error) process.stderr.write(`${err.stack ?? ''}\n`);
  return EXIT.usage;
}

/** `mgsift rules` without one of its commands: which there are, and where their help is. */
function missingCommand(args: readonly string[]): string {
  let command = program;
  const path = ['mgsift'];
  for (const arg of args.filter((a) => !a.startsWith('-'))) {
    const sub = command.commands.find((c) => c.name() === arg);
    if (sub === undefined) break;
    command = sub;
    path.push(arg);
  }
  const names = command.commands.map((c) => c.name());
  return `missing command: ${names.slice(0, -1).join(', ')} or ${names[names.length - 1] ?? ''} (\`${path.join(' ')} --help\` says what each does)`;
}

/** The version line: the report's tool info, loaded only when asked for (it counts the built-in rules). */
async function printVersion(): Promise<void> {
  const [{ toolInfo }, { toolLine }] = await Promise.all([import('../report/build.js'), import('../report/common.js')]);
  process.stdout.write(`${toolLine(toolInfo())}\n`);
}

async function main(): Promise<number> {
  try {
    await addCommands(process.argv.slice(2));
    await program.parseAsync(process.argv);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.version') await printVersion();
      if (err.code === 'commander.help' && err.exitCode !== 0) process.stderr.write(`mgsift: error: ${missingCommand(process.argv.slice(2))}\n`);
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    return fail(err);
  }
}

// An error that escapes every await (a stream failing with no listener) still ends as one line.
const failHard = (err: unknown): void => process.exit(fail(err));
process.on('uncaughtException', failHard);
process.on('unhandledRejection', failHard);

void main().then((code) => {
  process.exitCode = code;
});
