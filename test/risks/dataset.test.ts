/**
 * Every published update risk, loaded and evaluated: the cincinnati-graph-data copy in
 * ../shared/datasets (skipped when absent) against the bundled samples, the real must-gathers
 * in ../shared/samples-real (skipped when absent) and a hand-made archive that holds every
 * object the metrics read. Prints the share of risk names evaluated per archive.
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRiskData, type RiskData } from '../../src/risks/load.js';
import { RiskEvaluator, type RiskVerdict } from '../../src/risks/evaluate.js';
import { MetricsCollector } from '../../src/facts/metrics.js';
import { openInput } from '../../src/sources/open.js';
import { walk } from '../../src/ingest/walk.js';
import { Problems } from '../../src/core/problems.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { needsShared } from '../helpers/needs.js';

const DATASET = fileURLToPath(new URL('../../../shared/datasets/cincinnati-graph-data/', import.meta.url));
const REAL = fileURLToPath(new URL('../../../shared/samples-real/', import.meta.url));
const SAMPLES = fileURLToPath(new URL('../../samples/', import.meta.url));
const COMPLETE = fileURLToPath(new URL('../fixtures/risks-complete/', import.meta.url));
const hasData = existsSync(join(DATASET, 'blocked-edges'));

/** Every named risk's verdict on one archive (each name's first file; its rules are the same in all of them). */
async function verdicts(data: RiskData, input: string): Promise<Map<string, RiskVerdict>> {
  const problems = new Problems();
  const source = await openInput(input, { limits: DEFAULT_LIMITS, problems });
  const metrics = new MetricsCollector();
  await walk(source, [metrics], { problems, limits: DEFAULT_LIMITS });
  const evaluator = new RiskEvaluator(metrics.metrics());
  const out = new Map<string, RiskVerdict>();
  for (const edge of data.edges) {
    const verdict = evaluator.verdict(edge);
    if (edge.name && !out.has(edge.name)) out.set(edge.name, verdict);
  }
  return out;
}

function share(result: Map<string, RiskVerdict>): { evaluated: number; total: number; line: string } {
  const evaluated = [...result.values()].filter((v) => v.verdict !== 'unknown').length;
  const applies = [...result.values()].filter((v) => v.verdict === 'applies').length;
  const line = `${evaluated}/${result.size} risk names evaluated (${((100 * evaluated) / result.size).toFixed(1)} %; ${applies} apply), ${result.size - evaluated} could not be evaluated`;
  return { evaluated, total: result.size, line };
}

describe.skipIf(!hasData)(`cincinnati-graph-data blocked-edges ${needsShared('datasets/cincinnati-graph-data/')}`, () => {
  let data: RiskData;
  beforeAll(async () => {
    data = await loadRiskData(DATASET);
  });

  it('loads every file: 1,717 files, 124 named risks, no problem', () => {
    expect(readdirSync(join(DATASET, 'blocked-edges')).length).toBe(1717);
    expect(data.problems).toEqual([]);
    expect(data.edges).toHaveLength(1717);
    expect(new Set(data.edges.map((e) => e.name).filter(Boolean)).size).toBe(124);
    expect(data.edges.filter((e) => e.matchingRules.length === 0 && !e.name)).toHaveLength(116);
  });

  it('evaluates at least 90 % of the risk names on an archive that holds the objects they need', async () => {
    const result = await verdicts(data, COMPLETE);
    const { evaluated, total, line } = share(result);
    console.log(`risks-complete fixture: ${line}`);
    expect(total).toBe(124);
    expect(evaluated / total).toBeGreaterThanOrEqual(0.9);
    // Spot checks, worked out by hand from the fixture (AWS, born in 4.14.5, Console enabled, OVN without IPsec, metallb installed).
    expect(result.get('AWSCustomDomainNodesNotReady')).toMatchObject({ verdict: 'applies', reason: 'PromQL returned 1 {type="AWS"}' });
    expect(result.get('AWSCustomDomainNodesNotReady')?.evidence[0]?.sources[0]).toMatch(/cluster-scoped-resources\/config\.openshift\.io\/infrastructures\/cluster\.yaml$/);
    expect(result.get('EarlyAPICertRotation')?.verdict).toBe('does-not-apply');
    expect(result.get('ConsoleEnabledTargetDownAlert')?.verdict).toBe('applies');
    expect(result.get('MetallbBgpBfdFrrRpm')?.verdict).toBe('applies');
    expect(result.get('OVNIPsecConnectivity')).toMatchObject({ verdict: 'does-not-apply', reason: 'PromQL returned 0 {ipsec="disabled"}' });
    expect(result.get('MachineConfigNodesV1AlphaControlPlaneLabels')?.verdict).toBe('does-not-apply');
    expect(result.get('AMD19hFirmware')).toMatchObject({ verdict: 'unknown' });
    expect(result.get('AMD19hFirmware')?.reason).toContain('node_cpu_info (node-exporter: CPU vendor and family) is not in an archive');
  });

  const archives = [
    ...readdirSync(SAMPLES).filter((f) => f.endsWith('.tar.gz')).map((f) => join(SAMPLES, f)),
    ...(existsSync(REAL) ? readdirSync(REAL).filter((f) => /^must-gather-.*\.tar\.xz$/.test(f)).map((f) => join(REAL, f)) : []),
  ];
  it.each(archives)('evaluates every risk against %s without an exception', async (input) => {
    const result = await verdicts(data, input);
    console.log(`${input.replace(/.*\//, '')}: ${share(result).line}`);
    expect(result.size).toBe(124);
    for (const v of result.values()) expect(v.reason).not.toBe('');
  });
});
