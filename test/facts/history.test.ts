import { describe, expect, it } from 'vitest';
import {
  analyzeHistory,
  desiredTarget,
  highestVersion,
  historyEntries,
  installEntry,
  newestCompleted,
  rollbackKind,
  updateTransitions,
} from '../../src/facts/history.js';
import {
  AWS_CLUSTERVERSION,
  SEED000_C12B_HISTORY,
  SEED000_C12_HISTORY,
  SEED000_C18_CLUSTERVERSION,
  SEED000_C8_HISTORY,
  SEED001_RECONSTRUCTED_HISTORY,
  SEED003_CLUSTERVERSION,
  clusterVersionWith,
} from './fixtures.js';

const ms = (iso: string): number => Date.parse(iso);

function summary(cv: unknown): string[] {
  return updateTransitions(cv).map(
    (t) =>
      `${t.from?.version ?? '-'} -> ${t.to.version} ${t.state} verified=${t.verified}` +
      `${t.isInstall ? ' install' : ''}${t.forced ? ' forced' : ''}${t.rollback ? ` rollback=${t.rollback}` : ''}`,
  );
}

describe('historyEntries', () => {
  it('reads the real AWS must-gather history (one Completed install entry)', () => {
    const entries = historyEntries(AWS_CLUSTERVERSION);
    expect(entries).toEqual([
      {
        version: '4.8.0-0.nightly-2021-07-31-065602',
        image:
          'registry.ci.openshift.org/ocp/release@sha256:b8ef29f84eb7cfde265f28fcd5284770b3a419c1439fe563131e8fb94e586b0a',
        state: 'Completed',
        verified: false,
        startedTime: ms('2021-08-03T09:14:59Z'),
        completionTime: ms('2021-08-03T09:45:28Z'),
        index: 0,
      },
    ]);
    expect(installEntry(entries)).toBe(entries[0]);
  });

  it('orders oldest first and keeps the original index', () => {
    const entries = historyEntries(clusterVersionWith(SEED000_C12_HISTORY));
    expect(entries.map((e) => [e.version, e.index])).toEqual([
      ['4.5.21', 3],
      ['4.6.8', 2],
      ['4.6.12', 1],
      ['4.7.0-fc.3', 0],
    ]);
    expect(entries[3]?.completionTime).toBeUndefined();
    expect(entries[3]?.startedTime).toBe(ms('2021-01-22T07:48:23Z'));
    expect(installEntry(entries)?.version).toBe('4.5.21');
  });

  it('keeps acceptedRisks and tolerates junk', () => {
    const entries = historyEntries(
      clusterVersionWith([
        { version: '4.14.1', state: 'Completed', verified: true, acceptedRisks: 'AWSOldBootImages', startedTime: 'bad' },
        'not an object',
        null,
        { state: 'Weird', image: 'quay.io/x@sha256:1' },
      ]),
    );
    expect(entries).toEqual([
      { version: '', image: 'quay.io/x@sha256:1', state: 'Partial', verified: false, startedTime: undefined, completionTime: undefined, index: 3 },
      {
        version: '4.14.1',
        image: '',
        state: 'Completed',
        verified: true,
        startedTime: undefined,
        completionTime: undefined,
        acceptedRisks: 'AWSOldBootImages',
        index: 0,
      },
    ]);
  });

  it('returns nothing for objects without a history', () => {
    expect(historyEntries(undefined)).toEqual([]);
    expect(historyEntries({ status: { history: 'x' } })).toEqual([]);
    expect(analyzeHistory({}).install).toBeUndefined();
    expect(analyzeHistory(null).transitions).toEqual([]);
  });
});

describe('transitions from the seeds', () => {
  it('AWS sample: a single install transition, not forced, verified false by design', () => {
    const [install] = updateTransitions(AWS_CLUSTERVERSION);
    expect(install).toMatchObject({ isInstall: true, forced: false, verified: false, state: 'Completed' });
    expect(install?.from).toBeUndefined();
    expect(install?.rollback).toBeUndefined();
    expect(install?.started).toBe(ms('2021-08-03T09:14:59Z'));
    expect(install?.completed).toBe(ms('2021-08-03T09:45:28Z'));
  });

  it('seed 000 comment 8: 4.5.21 -> 4.6.8 unverified, not forced', () => {
    expect(summary(clusterVersionWith(SEED000_C8_HISTORY))).toEqual([
      '- -> 4.5.21 Completed verified=false install',
      '4.5.21 -> 4.6.8 Partial verified=false',
    ]);
    // Same history, but the user forced: the unverified target is explained by the force.
    expect(summary(clusterVersionWith(SEED000_C8_HISTORY, { force: true }))).toEqual([
      '- -> 4.5.21 Completed verified=false install',
      '4.5.21 -> 4.6.8 Partial verified=false forced',
    ]);
  });

  it('seed 000 comment 12: 4.5.21 -> 4.6.8 -> 4.6.12 -> 4.7.0-fc.3', () => {
    expect(summary(clusterVersionWith(SEED000_C12_HISTORY))).toEqual([
      '- -> 4.5.21 Completed verified=false install',
      '4.5.21 -> 4.6.8 Completed verified=true',
      '4.6.8 -> 4.6.12 Completed verified=false',
      '4.6.12 -> 4.7.0-fc.3 Partial verified=false',
    ]);
    expect(summary(clusterVersionWith(SEED000_C12B_HISTORY))).toEqual([
      '- -> 4.5.14 Completed verified=false install',
      '4.5.14 -> 4.5.15 Completed verified=true',
      '4.5.15 -> 4.5.24 Partial verified=false',
    ]);
  });

  it('seed 000 comment 18: force: false is not forced; verified rc.0 target', () => {
    const h = analyzeHistory(SEED000_C18_CLUSTERVERSION);
    expect(h.desired).toEqual({
      version: '4.7.0-rc.0',
      image: 'quay.io/openshift-release-dev/ocp-release@sha256:497fa748b89619aba312a926a0be0ad155c4b894ca3e2824a00167421e3441b0',
      force: false,
    });
    expect(summary(SEED000_C18_CLUSTERVERSION)).toEqual([
      '- -> 4.7.0-0.nightly-2021-02-06-022227 Completed verified=false install',
      '4.7.0-0.nightly-2021-02-06-022227 -> 4.7.0-rc.0 Partial verified=true',
    ]);
    expect(h.rollbacks).toEqual([]);
  });

  it('seed 001 (reconstructed): 4.13 -> 4.14 nightly -> 4.13 is a y-stream rollback', () => {
    const h = analyzeHistory(clusterVersionWith(SEED001_RECONSTRUCTED_HISTORY));
    expect(summary(clusterVersionWith(SEED001_RECONSTRUCTED_HISTORY))).toEqual([
      '- -> 4.13.15 Completed verified=false install',
      '4.13.15 -> 4.14.0-0.nightly-2023-10-04-143709 Partial verified=false',
      '4.14.0-0.nightly-2023-10-04-143709 -> 4.13.15 Partial verified=false rollback=y-stream',
    ]);
    expect(h.rollbacks).toHaveLength(1);
    expect(h.rollbacks[0]?.from?.version).toBe('4.14.0-0.nightly-2023-10-04-143709');
    expect(highestVersion(h.entries)).toBe('4.14.0-0.nightly-2023-10-04-143709');
  });

  it('seed 003: 4.6.27 -> 4.7.0-0.ci -> 4.6.27 is a y-stream rollback, only the newest is desired', () => {
    const h = analyzeHistory(SEED003_CLUSTERVERSION);
    expect(summary(SEED003_CLUSTERVERSION)).toEqual([
      '- -> 4.6.27 Completed verified=false install',
      '4.6.27 -> 4.7.0-0.ci-2021-04-29-142719 Partial verified=false',
      '4.7.0-0.ci-2021-04-29-142719 -> 4.6.27 Partial verified=false rollback=y-stream',
    ]);
    expect(h.transitions[1]?.completed).toBe(ms('2021-04-29T23:34:37Z'));
    expect(h.transitions[2]?.completed).toBeUndefined();
    expect(newestCompleted(h.entries)?.version).toBe('4.6.27');
    expect(newestCompleted(h.entries)?.index).toBe(2);
    // Forced applies to the newest transition only, never to the install of the same version.
    const forced = analyzeHistory({
      ...SEED003_CLUSTERVERSION,
      spec: { desiredUpdate: { version: '4.6.27', force: true } },
    });
    expect(forced.transitions.map((t) => t.forced)).toEqual([false, false, true]);
  });

  it('z-stream rollback (synthetic, from seed 000 versions): 4.6.8 -> 4.6.12 -> 4.6.8', () => {
    const history = [
      { version: '4.6.8', state: 'Completed', verified: true, startedTime: '2021-01-23T00:00:00Z' },
      ...SEED000_C12_HISTORY.slice(1),
    ];
    const h = analyzeHistory(clusterVersionWith(history));
    expect(h.rollbacks.map((t) => `${t.from?.version} -> ${t.to.version} ${t.rollback}`)).toEqual([
      '4.6.12 -> 4.6.8 z-stream',
    ]);
  });
});

describe('forced', () => {
  it('requires force === true and the entry to be the desired target', () => {
    const cv = clusterVersionWith(SEED000_C8_HISTORY, { force: true });
    expect(updateTransitions(cv).at(-1)?.forced).toBe(true);
    // Desired points elsewhere (a newer request not yet in history): not this entry.
    const elsewhere = {
      ...cv,
      spec: { desiredUpdate: { version: '4.6.9', force: true } },
      status: { history: SEED000_C8_HISTORY },
    };
    expect(updateTransitions(elsewhere).at(-1)?.forced).toBe(false);
    // Matched by image when the entry has no version.
    const byImage = {
      spec: { desiredUpdate: { image: 'quay.io/x@sha256:9', force: true } },
      status: { history: [{ image: 'quay.io/x@sha256:9', state: 'Partial' }, ...SEED000_C8_HISTORY.slice(1)] },
    };
    expect(updateTransitions(byImage).map((t) => t.forced)).toEqual([false, true]);
    // "true" as a string is not force.
    expect(desiredTarget({ spec: { desiredUpdate: { force: 'true' } } }).force).toBe(false);
  });

  it('never marks the install as forced', () => {
    const cv = clusterVersionWith(AWS_CLUSTERVERSION.status.history, { force: true });
    expect(updateTransitions(cv)[0]).toMatchObject({ isInstall: true, forced: false });
  });
});

describe('rollbackKind', () => {
  it('classifies by version order, not string order', () => {
    expect(rollbackKind('4.10.3', '4.9.12')).toBe('y-stream');
    expect(rollbackKind('4.9.12', '4.10.3')).toBeUndefined();
    expect(rollbackKind('4.6.12', '4.6.8')).toBe('z-stream');
    expect(rollbackKind('4.6.8', '4.6.12')).toBeUndefined();
    expect(rollbackKind('4.7.0', '4.7.0-rc.1')).toBe('z-stream');
    expect(rollbackKind('', '4.6.8')).toBeUndefined();
    expect(rollbackKind('4.6.8', '4.6.8')).toBeUndefined();
  });
});
