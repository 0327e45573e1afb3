/**
 * openshift/oc's `pkg/cli/admin/upgrade/status/examples` (../shared/samples-real/oc-upgrade-status,
 * see its PROVENANCE, or a copy named by MGSIFT_OC_EXAMPLES): each example written out as a
 * must-gather tree collected at oc's "now" for saved objects. Not part of the repository: tests
 * using it skip, saying why, when it is absent (CI).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { itemsOf, writeMustGather } from './must-gather-tree.js';
import { sharedPath } from './shared-data.js';

export const OC_EXAMPLES: string | undefined =
  sharedPath('samples-real/oc-upgrade-status') ?? (process.env['MGSIFT_OC_EXAMPLES'] && existsSync(process.env['MGSIFT_OC_EXAMPLES']) ? process.env['MGSIFT_OC_EXAMPLES'] : undefined);

export const OC_EXAMPLES_ABSENT =
  "shared/samples-real/oc-upgrade-status is absent beside the repository or its parents and MGSIFT_OC_EXAMPLES names no copy (oc's examples are not part of the repository)";

type Obj = Record<string, unknown>;

/** The examples' names (`4.14.1-degraded`, …), sorted; none when the folder is absent. */
export const ocExampleNames: string[] =
  OC_EXAMPLES === undefined
    ? []
    : readdirSync(OC_EXAMPLES)
        .filter((f) => f.endsWith('-cv.yaml'))
        .map((f) => f.slice(0, -'-cv.yaml'.length))
        .sort();

/** A file of an example: `-cv.yaml`, `.output`, `.detailed-output`, … */
export function ocExampleFile(name: string, suffix: string): string {
  if (OC_EXAMPLES === undefined) throw new Error(OC_EXAMPLES_ABSENT);
  return join(OC_EXAMPLES, `${name}${suffix}`);
}

function load(path: string): unknown {
  return yaml.load(readFileSync(path, 'utf8'), { schema: yaml.JSON_SCHEMA });
}

/** oc's "now" for saved objects: the latest condition change, plus the nanoseconds it adds. */
function ocNow(cv: Obj, operators: Obj[]): string {
  let latest = '';
  for (const object of [cv, ...operators]) {
    for (const c of ((object['status'] as Obj | undefined)?.['conditions'] as Obj[] | undefined) ?? []) {
      const t = c['lastTransitionTime'];
      if (typeof t === 'string' && t > latest) latest = t;
    }
  }
  return latest.replace(/Z$/, '.000368975Z');
}

/** An example written out as a must-gather tree collected at oc's "now" (in `dir`, else a new temporary folder). */
export function ocExampleTree(name: string, dir: string = mkdtempSync(join(tmpdir(), 'mgsift-oc-')), gatherId?: string): string {
  const file = (suffix: string): string => ocExampleFile(name, suffix);
  const cv = itemsOf(load(file('-cv.yaml')))[0]!;
  const operators = itemsOf(load(file('-co.yaml')));
  return writeMustGather(
    dir,
    {
      clusterVersion: cv,
      clusterOperators: operators,
      machineConfigPools: itemsOf(load(file('-mcp.yaml'))),
      nodes: itemsOf(load(file('-node.yaml'))),
      machineConfigs: itemsOf(load(file('-mc.yaml'))),
      mcoDeployments: existsSync(file('-mco-deployment.yaml')) ? itemsOf(load(file('-mco-deployment.yaml'))) : undefined,
      alerts: existsSync(file('-alerts.json')) ? JSON.parse(readFileSync(file('-alerts.json'), 'utf8')) : undefined,
      collectedAt: ocNow(cv, operators),
    },
    gatherId,
  );
}
