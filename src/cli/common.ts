import type { Command } from 'commander';

/** The input limits every reading command takes (see SECURITY.md). */
export function addLimitOptions(command: Command): Command {
  return command
    .option('--max-entry-bytes <size>', 'skip entries larger than this (uncompressed)', '1G')
    .option('--max-total-bytes <size>', 'stop reading an input after this many uncompressed bytes', '32G')
    .option('--max-entries <n>', 'stop reading an input after this many entries', '1000000')
    .option('--max-line-bytes <size>', 'cut log lines longer than this', '64K')
    .option('--max-inflation-ratio <n>', 'refuse compressed data inflating more than n:1 (bomb guard)', '500');
}
