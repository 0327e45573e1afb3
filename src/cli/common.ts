import type { Command } from 'commander';
import { DEFAULT_LIMITS } from '../core/limits.js';
import { formatSize } from './options.js';

/** The input limits every reading command takes (see SECURITY.md); defaults from DEFAULT_LIMITS. */
export function addLimitOptions(command: Command): Command {
  const d = DEFAULT_LIMITS;
  return command
    .option('--max-entry-bytes <size>', 'skip entries larger than this (uncompressed)', formatSize(d.maxEntryBytes))
    .option('--max-total-bytes <size>', 'stop reading an input after this many uncompressed bytes', formatSize(d.maxTotalBytes))
    .option('--max-entries <n>', 'stop reading an input after this many entries', String(d.maxEntries))
    .option('--max-line-bytes <size>', 'cut log lines longer than this', formatSize(d.maxLineBytes))
    .option('--max-parse-bytes <size>', 'skip YAML files larger than this (they are parsed whole, in memory)', formatSize(d.maxParseBytes))
    .option('--max-inflation-ratio <n>', 'refuse compressed data inflating more than n:1 (bomb guard)', String(d.maxInflationRatio));
}

/** `--threads`: how many threads parse and scan one input (see README, "Threads"). */
export function addThreadsOption(command: Command): Command {
  return command.option(
    '--threads <n>',
    'threads that parse and scan each input: 1 reads on the main thread; n > 1 starts n worker threads (default: cores - 1, and 1 for inputs under 48 MB)',
  );
}
