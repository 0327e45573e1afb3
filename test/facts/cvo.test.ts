import { describe, expect, it } from 'vitest';
import { CvoLogFacts, matchCvoMoment, mayCarryCvoFact, parseCvoBuild } from '../../src/facts/cvo.js';

// Lines from seed 000 (BZ 1916384, comments 8-10): the outgoing 4.5.21 CVO pod
// cluster-version-operator-59bc479b54-h54zb, bare klog (no must-gather prefix).
const SEED000_OUTGOING = [
  'I0119 22:15:04.457399       1 start.go:21] ClusterVersionOperator v4.5.0-202011132127.p0-dirty',
  'I0119 22:19:03.311946       1 sync_worker.go:477] Loading payload',
  'I0119 22:19:03.806839       1 sync_worker.go:518] Skipping preconditions for a local operator image payload.',
  'I0119 22:19:03.806867       1 sync_worker.go:547] Payload loaded from registry.ci.openshift.org/ocp/release@sha256:7684a3daa92827b313a682b3615f2a348a941f8557b5b509b736226f40e01e07 with hash YkD2j0aj5ug=',
  'I0119 22:23:59.787724       1 sync_worker.go:477] Loading payload',
  'I0119 22:23:59.787746       1 store.go:74] use cached most recent signature config maps',
  'I0119 22:24:15.636190       1 upgradeable.go:51] Precondition ClusterVersionUpgradeable passed: no Upgradeable condition on ClusterVersion.',
  'I0119 22:24:15.636222       1 sync_worker.go:547] Payload loaded from quay.io/openshift-release-dev/ocp-release@sha256:6ddbf56b7f9776c0498f23a54b65a06b3b846c1012200c5609c4bb716b6bdcdf with hash BYHEg9BBpfk=',
  'E0119 22:24:15.924216       1 cvo.go:344] unable to perform final sync: context canceled',
];
// Test-local time resolution for the bare klog lines above (year 2021 from the bug).
const klogTime = (line: string): number | undefined => {
  const m = /^[IWEF](\d{2})(\d{2}) (\d{2}:\d{2}:\d{2}\.\d+)/.exec(line);
  return m ? Date.parse(`2021-${m[1]}-${m[2]}T${m[3]}Z`) : undefined;
};

// Real must-gather lines (RFC 3339 prefix) from /work/shared/samples-real/must-gather-aws.tar.xz,
// namespaces/openshift-cluster-version/pods/cluster-version-operator-849b4dcf9c-dl6zb/.../current.log.
const AWS_CURRENT = [
  '2021-08-03T09:28:09.024882353Z I0803 09:28:09.024765       1 start.go:21] ClusterVersionOperator 4.8.0-202107291502.p0.git.ea6e779.assembly.stream-ea6e779',
  '2021-08-03T09:28:09.025002874Z I0803 09:28:09.024987       1 merged_client_builder.go:121] Using in-cluster configuration',
  '2021-08-03T09:28:09.031495955Z I0803 09:28:09.031463       1 payload.go:260] Loading updatepayload from "/"',
  '2021-08-03T09:31:43.208764772Z I0803 09:31:43.208740       1 cvo.go:305] Starting ClusterVersionOperator with minimum reconcile period 2m50.956499648s',
  '2021-08-03T09:31:43.210097708Z I0803 09:31:43.209635       1 sync_worker.go:553] Loading payload',
  '2021-08-03T09:31:43.810622813Z I0803 09:31:43.810594       1 sync_worker.go:651] Payload loaded from registry.ci.openshift.org/ocp/release@sha256:b8ef29f84eb7cfde265f28fcd5284770b3a419c1439fe563131e8fb94e586b0a with hash 32sO01NRezI=',
  '2021-08-03T10:11:58.813552695Z I0803 10:11:58.813532       1 cvo.go:483] Finished syncing cluster version "openshift-cluster-version/version" (239.028µs)',
];

describe('parseCvoBuild', () => {
  it.each([
    [
      SEED000_OUTGOING[0] ?? '',
      { raw: '4.5.0-202011132127.p0-dirty', version: '4.5.0', minor: '4.5', buildStamp: '202011132127', dirty: true, commit: undefined },
    ],
    [
      'I0119 22:24:19.133039       1 start.go:21] ClusterVersionOperator 4.6.0-202012050130.p0-39a4256',
      { raw: '4.6.0-202012050130.p0-39a4256', version: '4.6.0', minor: '4.6', buildStamp: '202012050130', commit: '39a4256', dirty: false },
    ],
    [
      AWS_CURRENT[0] ?? '',
      {
        raw: '4.8.0-202107291502.p0.git.ea6e779.assembly.stream-ea6e779',
        version: '4.8.0',
        minor: '4.8',
        buildStamp: '202107291502',
        commit: 'ea6e779',
        dirty: false,
      },
    ],
  ])('%s', (line, expected) => {
    expect(parseCvoBuild(line)).toEqual(expected);
  });

  it('ignores other mentions of the operator', () => {
    expect(parseCvoBuild(AWS_CURRENT[3] ?? '')).toBeUndefined();
    expect(parseCvoBuild('nothing here')).toBeUndefined();
  });
});

describe('matchCvoMoment', () => {
  it('does not take "Loading updatepayload" for "Loading payload"', () => {
    expect(matchCvoMoment(AWS_CURRENT[2] ?? '')).toBeUndefined();
    expect(matchCvoMoment(AWS_CURRENT[4] ?? '')?.kind).toBe('loading-payload');
  });
});

describe('CvoLogFacts', () => {
  it('seed 000 outgoing CVO: build, lifetime and the final-sync failure', () => {
    const facts = new CvoLogFacts();
    for (const line of SEED000_OUTGOING) facts.feed(line, klogTime(line));
    const s = facts.summary();
    expect(s.build?.raw).toBe('4.5.0-202011132127.p0-dirty');
    expect(s.firstTime).toBe(Date.parse('2021-01-19T22:15:04.457Z'));
    expect(s.lastTime).toBe(Date.parse('2021-01-19T22:24:15.924Z'));
    expect(s.lines).toBe(9);
    expect(s.finalSyncFailed).toBe(true);
    expect(s.droppedMoments).toBe(0);
    expect(s.moments.map((m) => m.kind)).toEqual([
      'loading-payload',
      'preconditions-skipped',
      'payload-loaded',
      'loading-payload',
      'precondition-passed',
      'payload-loaded',
      'final-sync-failed',
    ]);
    expect(s.moments[5]).toMatchObject({
      image: 'quay.io/openshift-release-dev/ocp-release@sha256:6ddbf56b7f9776c0498f23a54b65a06b3b846c1012200c5609c4bb716b6bdcdf',
      hash: 'BYHEg9BBpfk=',
      time: Date.parse('2021-01-19T22:24:15.636Z'),
    });
    expect(s.moments[4]?.precondition).toBe('ClusterVersionUpgradeable');
    expect(s.moments[6]).toMatchObject({
      error: 'context canceled',
      text: 'E0119 22:24:15.924216       1 cvo.go:344] unable to perform final sync: context canceled',
    });
  });

  it('real must-gather CVO log: prefixed lines, no final-sync failure', () => {
    const facts = new CvoLogFacts();
    for (const line of AWS_CURRENT) facts.feed(line, Date.parse(line.slice(0, line.indexOf(' '))));
    const s = facts.summary();
    expect(s.build?.version).toBe('4.8.0');
    expect(s.firstTime).toBe(Date.parse('2021-08-03T09:28:09.024Z'));
    expect(s.lastTime).toBe(Date.parse('2021-08-03T10:11:58.813Z'));
    expect(s.finalSyncFailed).toBe(false);
    expect(s.moments.map((m) => [m.kind, m.hash])).toEqual([
      ['loading-payload', undefined],
      ['payload-loaded', '32sO01NRezI='],
    ]);
  });

  it('keeps the first build only and tolerates missing times', () => {
    const facts = new CvoLogFacts();
    facts.feed('no time here');
    facts.feed('I0119 22:24:19.133039       1 start.go:21] ClusterVersionOperator 4.6.0-202012050130.p0-39a4256', Number.NaN);
    facts.feed('ClusterVersionOperator 4.7.0-1', 5);
    expect(facts.build?.version).toBe('4.6.0');
    expect(facts.firstTime).toBe(5);
    expect(facts.lastTime).toBe(5);
    facts.feed('I0119 22:19:03.311946       1 sync_worker.go:477] Loading payload');
    expect(facts.moments[0]?.time).toBeUndefined();
  });

  it('caps moments, keeping the earliest and the latest', () => {
    const facts = new CvoLogFacts({ maxMoments: 4 });
    for (let i = 0; i < 10; i++) facts.feed(`I0101 00:00:0${i}.000000 1 sync_worker.go:1] Loading payload`, i);
    facts.feed('E0101 00:00:10.000000 1 cvo.go:344] unable to perform final sync: context canceled', 10);
    expect(facts.moments.map((m) => m.time)).toEqual([0, 1, 9, 10]);
    expect(facts.droppedMoments).toBe(7);
    expect(facts.finalSyncFailed).toBe(true);

    const none = new CvoLogFacts({ maxMoments: 0 });
    none.feed('unable to perform final sync: context canceled', 1);
    expect(none.moments).toEqual([]);
    expect(none.droppedMoments).toBe(1);
    expect(none.finalSyncFailed).toBe(true);
  });

  it('cuts very long lines in moments', () => {
    const facts = new CvoLogFacts();
    facts.feed(`Loading payload ${'x'.repeat(10_000)}`, 1);
    expect(facts.moments[0]?.text.length).toBe(2000);
  });
});

describe('CVO stops: lease lost and shutdown moments', () => {
  it('recognises a lost leader lease and both shutdown lines, with the reason', () => {
    const lease = 'E0429 23:59:02.123456       1 leaderelection.go:325] error retrieving resource lock openshift-cluster-version/version: failed to renew lease openshift-cluster-version/version: timed out waiting for the condition';
    const terminated = 'I0429 23:59:03.000000       1 start.go:190] Shutting down due to terminated';
    const stopped = 'I0429 23:59:04.000000       1 start.go:260] Stopped leading; shutting down.';
    for (const line of [lease, terminated, stopped]) expect(mayCarryCvoFact(line)).toBe(true);
    expect(matchCvoMoment(lease)).toMatchObject({ kind: 'lease-lost' });
    expect(matchCvoMoment(terminated)).toMatchObject({ kind: 'shutdown', reason: 'terminated' });
    expect(matchCvoMoment(stopped)).toMatchObject({ kind: 'shutdown', reason: 'stopped leading' });
    expect(matchCvoMoment('I0429 23:59:05.000000       1 sync_worker.go:1] the lease is fine')).toBeUndefined();
  });
});

