import { Option, type Command } from 'commander';
import type { RiskData } from '../risks/load.js';
import { UsageError } from './options.js';

/** The environment variable that names the data when `--update-risks` is not given. */
export const UPDATE_RISKS_ENV = 'MGSIFT_UPDATE_RISKS';

export function addUpdateRisksOption(command: Command): Command {
  return command.addOption(
    new Option(
      '--update-risks <dir>',
      `evaluate the known update risks of a cincinnati-graph-data checkout (or its blocked-edges folder) against the archive; default $${UPDATE_RISKS_ENV}`,
    ),
  );
}

/** The folder from the flag, else the environment; undefined when neither names one. */
export function updateRisksDir(flag: string | undefined): string | undefined {
  const dir = flag ?? process.env[UPDATE_RISKS_ENV];
  return dir === undefined || dir === '' ? undefined : dir;
}

/** Loads the data once per run; an unreadable folder is a usage error (exit 2, one line). */
export async function loadUpdateRisks(dir: string | undefined): Promise<RiskData | undefined> {
  if (dir === undefined) return undefined;
  try {
    // The loader and its PromQL parser load only when risk data is asked for.
    const { loadRiskData } = await import('../risks/load.js');
    const data = await loadRiskData(dir);
    if (data.edges.length === 0) throw new Error(`${data.dir}: no blocked-edges files`);
    return data;
  } catch (err) {
    throw new UsageError(`--update-risks: ${(err as Error).message}`);
  }
}
