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
