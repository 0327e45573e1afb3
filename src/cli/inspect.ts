import { Command } from 'commander';
import { analyzeInput } from '../analysis/analyze.js';
import { formatInspect, inspectResult } from '../analysis/inspect.js';
import { addLimitOptions } from './common.js';
import { limitsFrom, type LimitFlags } from './options.js';
import { addUpdateRisksOption, loadUpdateRisks, updateRisksDir } from './update-risks.js';

export function inspectCommand(): Command {
  return addUpdateRisksOption(addLimitOptions(
    new Command('inspect')
      .description('what an input is and holds: kind, roots, collection time, cluster identity, update history, counts')
      .argument('<input...>', 'directory, archive (.tar, .tar.gz, .tar.xz, .zip) or log file')
      .option('--json', 'machine-readable output'),
  )).action(async (inputs: string[], flags: LimitFlags & { json?: boolean; updateRisks?: string }) => {
    const limits = limitsFrom(flags);
    const riskData = await loadUpdateRisks(updateRisksDir(flags.updateRisks));
    const results = [];
    for (const input of inputs) {
      const result = inspectResult(await analyzeInput(input, { limits, inventory: true, riskData }));
      results.push(result);
      if (!flags.json) process.stdout.write(`${formatInspect(result)}${inputs.length > 1 ? '\n' : ''}`);
    }
    if (flags.json) process.stdout.write(`${JSON.stringify(inputs.length === 1 ? results[0] : results, null, 2)}\n`);
  });
}
