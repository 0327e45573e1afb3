import { describe, it, expect } from 'vitest';
import { cpSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MG_MINI, tempDir } from '../helpers/archives.js';
import { mgsift } from '../helpers/cli.js';
import { timelineJson, type Item } from '../helpers/reports.js';

const HEALTHY = new URL('../../samples/healthy.tar.gz', import.meta.url).pathname;
const COLLECTED = Date.parse('2021-08-03T10:14:13.632Z');

const reach = (item: Item): number => Date.parse(item.end ?? item.start);

describe('mgsift timeline on the healthy sample', () => {
  it('prints every source, every event group, relative to the collection time', () => {
    const doc = timelineJson([HEALTHY]);
    expect(doc.collectedAt).toBe('2021-08-03T10:14:13.632Z');
    expect(new Set(doc.items.map((i) => i.lane))).toEqual(new Set(['history', 'cvo', 'operator', 'event', 'finding']));
    expect(doc.items.filter((i) => i.lane === 'event')).toHaveLength(14);
    expect(doc.omitted).toEqual([]);
    expect(doc.items.find((i) => i.label === 'ingress Available=True')?.relative).toBe('-46m50s');
    expect(doc.items.every((i) => i.relative !== undefined && i.relative.startsWith('-'))).toBe(true);
  });

  it('--since and --until: a duration before the collection time or an ISO time', () => {
    const since = timelineJson([HEALTHY, '--since', '50m']);
    expect(since.filters).toEqual(['since 50m']);
    expect(since.items.length).toBeGreaterThan(0);
    expect(since.items.every((i) => reach(i) >= COLLECTED - 50 * 60_000)).toBe(true);
    expect(since.items.some((i) => i.label === 'loading-payload')).toBe(true);
    const until = timelineJson([HEALTHY, '--until', '2021-08-03T09:15:00Z']);
    expect(until.items.length).toBeGreaterThan(0);
    expect(until.items.every((i) => Date.parse(i.start) <= Date.parse('2021-08-03T09:15:00Z'))).toBe(true);
    expect(timelineJson([HEALTHY, '--since', '1h', '--until', '58m']).items.map((i) => i.label)).toEqual(
      timelineJson([HEALTHY, '--since', '2021-08-03T09:14:13.632Z', '--until', '2021-08-03T09:16:13.632Z']).items.map((i) => i.label),
    );
  });

  it('--namespace, --lane and --no-rules', () => {
    const ns = timelineJson([HEALTHY, '--namespace', 'openshift-cluster-version']);
    expect(ns.items.length).toBeGreaterThan(0);
    expect(ns.items.every((i) => i.namespace === 'openshift-cluster-version')).toBe(true);
    expect(new Set(ns.items.map((i) => i.lane))).toEqual(new Set(['cvo', 'event', 'finding']));
    const lanes = timelineJson([HEALTHY, '--lane', 'operator,history']);
    expect(new Set(lanes.items.map((i) => i.lane))).toEqual(new Set(['operator', 'history']));
    const noRules = timelineJson([HEALTHY, '--no-rules']);
    expect(noRules.items.some((i) => i.lane === 'finding')).toBe(false);
    expect(noRules.filters).toEqual(['no rules']);
  });

  it('text: an aligned table with the lane names --lane takes', () => {
    const run = mgsift(['timeline', HEALTHY, '--lane', 'operator']);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe(`Timeline of ${HEALTHY} — Collected 2021-08-03 10:14:13.632Z; relative times are from it.`);
    expect(lines[1]).toBe('Filters: lanes operator');
    const header = lines[3] ?? '';
    expect(header).toMatch(/^START \(UTC\)\s+REL\.\s+LANE\s+WHAT\s+DETAIL$/);
    const row = lines.find((line) => line.includes('ingress Available=True')) ?? '';
    expect(row).toMatch(/^2021-08-03 09:27:24Z\s+-46m50s\s+operator\s+ingress Available=True\s+IngressAvailable: /);
    expect(row.indexOf('operator')).toBe(header.indexOf('LANE'));
    expect(row.indexOf('IngressAvailable')).toBe(header.indexOf('DETAIL'));
    expect(lines).toContain('7 items.');
  });

  it('md: one table', () => {
    const run = mgsift(['timeline', HEALTHY, '--format', 'md', '--lane', 'cvo']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('| Start (UTC) | Rel. | End (UTC) | Lane | What | Severity | Rule | Detail |');
    expect(run.stdout).toContain('| CVO pods | payload-loaded |');
  });

  it('usage errors exit 2 with one line', () => {
    for (const args of [
      ['--since', 'yesterday'],
      ['--until', '2021-13-45T00:00:00Z'],
      ['--lane', 'bogus'],
      ['--format', 'pdf'],
    ]) {
      const run = mgsift(['timeline', HEALTHY, ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n')[0]).toMatch(/error/);
    }
  });
});

describe('mgsift timeline --lane alert', () => {
  it('shows each firing and pending alert from activeAt to the collection time (real 4.9 metal answer)', () => {
    const input = new URL('../../rules/monitoring/cluster-alert-firing.fixtures/quiet-pending-warning-49/input', import.meta.url).pathname;
    const doc = timelineJson([input, '--lane', 'alert', '--no-rules']);
    expect(doc.items.map((i) => i.label).sort()).toEqual(['AlertmanagerReceiversNotConfigured firing', 'CsvAbnormalOver30Min pending', 'Watchdog firing']);
    const pending = doc.items.find((i) => i.label === 'CsvAbnormalOver30Min pending')!;
    expect(pending).toMatchObject({ start: '2021-09-14T14:40:23.902Z', end: doc.collectedAt, namespace: 'openshift-operator-lifecycle-manager' });
    expect(pending.detail).toContain('warning · container=olm-operator');
  });
});

describe('mgsift timeline --problems', () => {
  const ROLLBACK = new URL('../../samples/mco-ignition-rollback.tar.gz', import.meta.url).pathname;

  it('keeps Warning events and conditions going bad, not the healthy transitions', () => {
    const all = timelineJson([ROLLBACK]);
    const doc = timelineJson([ROLLBACK, '--problems']);
    expect(doc.filters).toEqual(['problems only']);
    expect(doc.items.length).toBeLessThan(all.items.length);
    // Every operator item is a condition gone bad; the healthy ones of the full timeline are gone.
    expect(doc.items.filter((i) => i.lane === 'operator').map((i) => i.label).sort()).toEqual([
      'ingress Degraded=True',
      'machine-config Available=False',
      'machine-config Degraded=True',
      'machine-config Upgradeable=False',
    ]);
    expect(all.items.some((i) => i.lane === 'operator' && / (Available|Upgradeable)=True$| Degraded=False$/.test(i.label))).toBe(true);
    expect(doc.items.filter((i) => i.lane === 'event').every((i) => i.detail?.startsWith('Warning'))).toBe(true);
    // The CVO losing its lease, not its pods' lifetimes nor its payload loads.
    expect(doc.items.filter((i) => i.lane === 'cvo').map((i) => i.label)).toEqual(['lease-lost']);
    // The install, which marks its window, and the updates that did not complete (and the rollback).
    expect(doc.items.filter((i) => i.lane === 'history').map((i) => i.label)).toEqual(['4.6.27 install Completed', '4.7.0-0.ci-2021-04-29-142719 update Partial', '4.6.27 update Partial']);
    // Things went wrong after the install: no sentence saying otherwise.
    expect(doc.notes).toEqual([]);
    // Findings at warning and above only.
    expect(doc.items.some((i) => i.lane === 'finding' && i.ruleId === 'cvo-restarted-during-update')).toBe(false);
    expect(doc.items.some((i) => i.lane === 'finding' && i.ruleId === 'mco-ignition-spec-unsupported')).toBe(true);
  });

  it('marks what is dated after the collection time instead of placing it in the future; a finding\'s "since" says so too', () => {
    // mg-mini with timestamp files written before most of its events (as when an archive is put together from parts).
    const tree = join(tempDir(), 'must-gather-aws');
    cpSync(join(MG_MINI, 'must-gather-aws'), tree, { recursive: true });
    const early = '2021-08-03 09:10:00.000000000 +0000 UTC m=+0.100000000\n';
    for (const file of [join(tree, 'timestamp'), ...readdirSync(tree).filter((n) => n.startsWith('quay-io-')).map((n) => join(tree, n, 'timestamp'))]) writeFileSync(file, early);
    const doc = timelineJson([tree, '--lane', 'event']);
    const after = doc.items.filter((i) => (i as Item & { afterCollection?: boolean }).afterCollection === true);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((i) => Date.parse(i.start) > Date.parse(doc.collectedAt!) && i.relative!.startsWith('+'))).toBe(true);
    expect(mgsift(['timeline', tree, '--lane', 'event']).stdout).toMatch(/\+4m55s \(after collection\)/);
    const md = mgsift(['analyze', tree, '--format', 'md', '-o', '-']).stdout;
    // Its events are followed by the pods' Scheduled events: history either way.
    expect(md).toMatch(/\| info \| \[(?:Resolved before the collection: )?The scheduler could not place pods[^|]*\| [^|]*\| 2021-08-03 09:14:55\.140Z \(after the collection time, 2021-08-03 09:10:00Z\) \|/);
  });

  it('folds what began during the install and settled soon after, and says when nothing went wrong after it', () => {
    const doc = timelineJson([HEALTHY, '--problems']);
    expect(doc.items.map((i) => i.label)).toEqual(['4.8.0-0.nightly-2021-07-31-065602 install Completed']);
    expect(doc.notes).toEqual(['No problem after the install completed at 2021-08-03 09:45:28Z.']);
    const folded = doc.omitted.find((o) => o.lane === 'event' && o.reason.startsWith('begun during the install'));
    expect(folded?.count).toBeGreaterThan(0);
    expect(folded?.reason).toBe('begun during the install (completed 2021-08-03 09:45:28Z) and settled within 15 minutes after it; --include-install shows them');
    const all = timelineJson([HEALTHY, '--problems', '--include-install']);
    expect(all.filters).toEqual(['problems only, install included']);
    expect(all.items.filter((i) => i.lane === 'event')).toHaveLength(folded!.count);
    expect(all.notes).toEqual(['No problem after the install completed at 2021-08-03 09:45:28Z.']);
  });
});
