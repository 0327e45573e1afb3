import { Command } from 'commander';
import { analyzeInput } from '../analysis/analyze.js';
import { expandInputs } from '../analysis/inputs.js';
import { formatInspect, inspectResult, type InspectResult } from '../analysis/inspect.js';
import { addLimitOptions } from './common.js';
import { limitsFrom, type LimitFlags } from './options.js';
import { addUpdateRisksOption, loadUpdateRisks, updateRisksDir } from './update-risks.js';

export function inspectCommand(): Command {
  return addUpdateRisksOption(addLimitOptions(
    new Command('inspect')
      .description('what an input is and holds: kind, roots, collection time, cluster identity, update history, counts')
      .argument('<input...>', 'directory, archive (.tar, .tar.gz, .tar.xz, .zip), log file, or a folder of archives (each inspected on its own)')
      .option('--json', 'machine-readable output: one JSON array, an element per input'),
  )).action(async (inputs: string[], flags: LimitFlags & { json?: boolean; updateRisks?: string }) => {
    const limits = limitsFrom(flags);
    const riskData = await loadUpdateRisks(updateRisksDir(flags.updateRisks));
    // A folder of archives is several inputs, as for analyze: never one merged answer.
    const expansion = await expandInputs(inputs);
    for (const note of expansion.notes) process.stderr.write(`${note}\n`);
    const targets = expansion.inputs;
    const results: InspectResult[] = [];
    for (const input of targets) {
      const result = inspectResult(await analyzeInput(input, { limits, inventory: true, riskData }));
      results.push(result);
      if (!flags.json) process.stdout.write(`${formatInspect(result)}${targets.length > 1 ? '\n' : ''}`);
    }
    if (flags.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  });
}
