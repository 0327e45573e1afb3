/**
 * mgsift's `summary.update` against `oc adm upgrade status` itself: each example of oc's own
 * tests (../shared/samples-real/oc-upgrade-status, see its PROVENANCE) is written out as a
 * must-gather tree collected at oc's "now" for saved objects (the latest condition change of
 * the ClusterVersion and ClusterOperators), analysed, and compared with what oc printed: the
 * assessment, target and source versions, completion and operator counts, duration and
 * estimate (as the report's rows print them), every pool's assessment, completion and counts,
 * every node's assessment, phase, version, EST and message, and the health insights (level,
 * impact, message, and their age as the report prints it). Skipped, saying why, when
 * the shared data is absent (CI); MGSIFT_OC_EXAMPLES may name a copy of oc's examples folder.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync } from 'node:fs';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRules } from '../../src/engine/load.js';
import { remainingText, shortDuration, type UpdateStatus } from '../../src/facts/update-status.js';
import { reportSummary } from '../../src/report/summary.js';
import { OC_EXAMPLES, OC_EXAMPLES_ABSENT, ocExampleFile, ocExampleNames, ocExampleTree } from '../helpers/oc-examples.js';

interface OcPool {
  name: string;
  assessment: string;
  completion?: string | undefined;
  status: string;
}

interface OcNode {
  name: string;
  assessment: string;
  phase: string;
  version: string;
  estimate: string;
  message: string;
}

interface OcInsight {
  since: string;
  level: string;
  impact: string;
  message: string;
}

interface OcOutput {
  updating: boolean;
  assessment?: string;
  target?: string;
  completed?: { target: string; at: string; duration: string };
  updating_?: string[];
  completion?: { percent: number; updated: number; updating: number; waiting: number };
  duration?: string;
  remaining?: string;
  health?: string;
  pools: OcPool[];
  nodes: Map<string, OcNode[]>;
  insights: OcInsight[];
}

/** What `oc adm upgrade status` printed (`.output`), with every node from `.detailed-output`. */
function parseOc(output: string, detailed: string): OcOutput {
  const out: OcOutput = { updating: !output.startsWith('The cluster is not updating.'), pools: [], nodes: new Map(), insights: [] };
  const field = (name: string): string | undefined => new RegExp(`^${name}:\\s+(.*)$`, 'm').exec(output)?.[1];
  out.assessment = field('Assessment');
  out.target = field('Target Version');
  const updating = field('Updating');
  out.updating_ = updating === undefined ? [] : updating.split(', ');
  const completion = /^Completion:\s+(\d+)% \((\d+) operators updated, (\d+) updating, (\d+) waiting\)/m.exec(output);
  if (completion) out.completion = { percent: Number(completion[1]), updated: Number(completion[2]), updating: Number(completion[3]), waiting: Number(completion[4]) };
  const duration = /^Duration:\s+(\S+)(?: \(Est\. Time Remaining: (.*)\))?$/m.exec(output);
  if (duration) {
    out.duration = duration[1];
    out.remaining = duration[2];
  }
  out.health = field('Operator Health');
  const completed = /^Update to (\S+) successfully completed at (\S+) \(duration: (\S+)\)$/m.exec(output);
  if (completed) out.completed = { target: completed[1]!, at: completed[2]!, duration: completed[3]! };
  const poolTable = /^WORKER POOL\s+ASSESSMENT\s+COMPLETION\s+STATUS\n((?:.+\n)+)/m.exec(output);
  for (const line of poolTable?.[1]?.trimEnd().split('\n') ?? []) {
    const empty = /^(\S+)\s+Empty\s+(\d+ Total)$/.exec(line);
    if (empty) out.pools.push({ name: empty[1]!, assessment: 'Empty', status: empty[2]! });
    else {
      const [name, assessment, completionText, status] = line.split(/\s{3,}/);
      out.pools.push({ name: name!, assessment: assessment!, completion: completionText, status: status! });
    }
  }
  let pool: string | undefined;
  let last: OcNode | undefined;
  for (const line of detailed.split('\n')) {
    if (line === 'Control Plane Nodes') pool = 'master';
    else if (line.startsWith('Worker Pool Nodes: ')) pool = line.slice('Worker Pool Nodes: '.length);
    else if (line.startsWith('= ')) pool = undefined;
    const all = /^All control plane nodes successfully updated to (\S+)$/.exec(line);
    if (all) out.nodes.set('master', []);
    // NAME ASSESSMENT PHASE VERSION EST MESSAGE, tabwriter's columns 3 spaces apart at least; the message may be empty.
    const node = /^(\S+)\s{3,}(Degraded|Unavailable|Progressing|Excluded|Outdated|Completed)\s{3,}(\S+)\s{3,}(\S+)\s{3,}(\S+)(?:\s{3,}(.*?))?\s*$/.exec(line);
    if (pool !== undefined && node) {
      last = { name: node[1]!, assessment: node[2]!, phase: node[3]!, version: node[4]!, estimate: node[5]!, message: node[6] ?? '' };
      out.nodes.set(pool, [...(out.nodes.get(pool) ?? []), last]);
    } else if (last !== undefined && line.trim() !== '' && !/^NAME\s/.test(line)) {
      // A message of several lines: oc prints the rest of it raw, under the row.
      last.message += `\n${line}`;
    } else last = undefined;
  }
  const health = /^SINCE\s+LEVEL\s+IMPACT\s+MESSAGE\n((?:.+\n)+)/m.exec(output);
  for (const line of health?.[1]?.trimEnd().split('\n') ?? []) {
    const [since, level, impact, ...message] = line.split(/\s{3,}/);
    out.insights.push({ since: since!, level: level!, impact: impact!, message: message.join('   ') });
  }
  return out;
}

/** The status line of a pool as oc writes it (its Excluded/Degraded order is a Go map's: compare as a set). */
function poolStatusParts(text: string): string[] {
  return text.split(', ').sort();
}

function targetText(u: UpdateStatus): string {
  if (u.install) return `${u.target} (a new install)`;
  if (u.fromIncomplete) return `${u.target} (from incomplete ${u.from})`;
  if (u.multiArch) return `${u.target} to Multi-Architecture`;
  return `${u.target} (from ${u.from})`;
}

function healthText(u: UpdateStatus): string {
  const healthy = u.operatorsTotal - u.operatorsUnavailable - u.operatorsDegraded;
  return [`${healthy} Healthy`, ...(u.operatorsUnavailable > 0 ? [`${u.operatorsUnavailable} Unavailable`] : []), ...(u.operatorsDegraded > 0 ? [`${u.operatorsDegraded} Available but degraded`] : [])].join(', ');
}

/**
 * Where oc's mock data holds what no cluster can, and mgsift reads it as a cluster would: the
 * insights oc shows that mgsift does not, by example.
 */
const NOT_IN_A_CLUSTER: Record<string, { message: string; why: string }[]> = {
  '4.15.0-ec2-unavailable-mco-20m': [
    {
      message: 'Alert is firing: PodDisruptionBudgetAtLimit for some reason does not have runbook and description',
      why: 'a second alert with the very labels of another (only its annotations differ): Prometheus holds one alert per label set, and mgsift keeps one',
    },
  ],
};

const names = ocExampleNames;

describe('where oc says the update is proceeding well, the whole pack says nothing at error or above (issue 24)', () => {
  const proceeding = names.filter((name) => readFileSync(ocExampleFile(name, '.output'), 'utf8').includes('Update is proceeding well'));
  if (OC_EXAMPLES === undefined) {
    it.skip(`skipped: ${OC_EXAMPLES_ABSENT}`, () => {});
    return;
  }
  it.each(proceeding)('%s', async (name) => {
    const dir = ocExampleTree(name);
    try {
      const { rules } = await loadRules([]);
      const findings = (await analyzeInput(dir, { limits: DEFAULT_LIMITS, rules })).result!.findings;
      expect(findings.filter((f) => f.severity === 'error' || f.severity === 'critical').map((f) => `${f.severity} ${f.ruleId}`)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('summary.update matches oc adm upgrade status on its own examples', () => {
  if (OC_EXAMPLES === undefined) {
    it.skip(`skipped: ${OC_EXAMPLES_ABSENT}`, () => {});
    return;
  }
  for (const name of names) {
    it(name, async () => {
      const file = (suffix: string): string => ocExampleFile(name, suffix);
      const dir = ocExampleTree(name);
      try {
        const analysis = await analyzeInput(dir, { limits: DEFAULT_LIMITS });
        const summary = analysis.facts.summary!;
        // What every format shows: the report's rows, oc's words for durations and ages.
        const shown = reportSummary(summary, undefined).update;
        const oc = parseOc(readFileSync(file('.output'), 'utf8'), readFileSync(file('.detailed-output'), 'utf8'));
        const u = summary.update;
        expect(summary.updateUnknown).toBeUndefined();
        if (!oc.updating) {
          expect(u).toBeNull();
          return;
        }
        expect(u).not.toBeNull();
        if (u === null || shown === null) return;
        if (oc.completed) {
          expect(u.assessment).toBe('Completed');
          expect(u.target).toBe(oc.completed.target);
          expect(new Date(u.completedAt!).toISOString().replace('.000Z', 'Z')).toBe(oc.completed.at);
          expect(shortDuration(u.durationMs)).toBe(oc.completed.duration);
          expect(shown.duration).toBe(oc.completed.duration);
        } else {
          expect(u.assessment).toBe(oc.assessment);
          expect(targetText(u)).toBe(oc.target);
          expect(u.operatorsUpdating).toEqual(oc.updating_);
          expect({ percent: u.completionPercent, updated: u.operatorsUpdated, updating: u.operatorsUpdating.length, waiting: u.operatorsWaiting }).toEqual(oc.completion);
          expect(shortDuration(u.durationMs)).toBe(oc.duration);
          expect(remainingText(u)).toBe(oc.remaining);
          expect([shown.duration, shown.estimatedRemaining]).toEqual([oc.duration, oc.remaining]);
          expect(healthText(u)).toBe(oc.health);
        }
        const workers = u.pools.filter((p) => !p.controlPlane);
        if (oc.pools.length > 0) {
          expect(workers.map((p) => p.name).sort()).toEqual(oc.pools.map((p) => p.name).sort());
          for (const ocPool of oc.pools) {
            const pool = workers.find((p) => p.name === ocPool.name)!;
            expect(pool.assessment, `pool ${pool.name}`).toBe(ocPool.assessment);
            if (ocPool.assessment === 'Empty') continue;
            expect(`${pool.completionPercent}% (${pool.nodesUpdated}/${pool.nodesTotal})`, `pool ${pool.name}`).toBe(ocPool.completion);
            const status = [`${pool.available} Available`, `${pool.progressing} Progressing`, `${pool.draining} Draining`, ...(pool.excluded > 0 ? [`${pool.excluded} Excluded`] : []), ...(pool.degraded > 0 ? [`${pool.degraded} Degraded`] : [])];
            expect(status.sort(), `pool ${pool.name}`).toEqual(poolStatusParts(ocPool.status));
          }
        }
        for (const [poolName, ocNodes] of oc.nodes) {
          const pool = u.pools.find((p) => p.name === poolName)!;
          if (ocNodes.length === 0) {
            expect(pool.nodesUpdated, `pool ${poolName}: all updated`).toBe(pool.nodesTotal);
            continue;
          }
          const rows = shown.pools.find((p) => p.name === poolName)!.nodes;
          expect(rows.map((n) => ({ name: n.name, assessment: n.assessment, phase: n.phase, version: n.version ?? '?', estimate: n.estimate, message: n.message ?? '' })), `nodes of ${poolName}`).toEqual(ocNodes);
        }
        const insights = shown.health.filter((i) => i.type !== 'update-slow').map((i) => ({ since: i.age, level: i.level, impact: i.impact, message: i.message }));
        const absent = new Set((NOT_IN_A_CLUSTER[name] ?? []).map((d) => d.message));
        expect(insights).toEqual(oc.insights.filter((i) => !absent.has(i.message)));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
