import { describe, expect, it } from 'vitest';
import { clusterIdentity, conditionMap, parseProgressingMessage, platformOf } from '../../src/facts/cluster.js';
import {
  AWS_CLUSTERVERSION,
  AWS_INFRASTRUCTURE,
  SEED000_C18_CLUSTERVERSION,
  SEED003_CLUSTERVERSION,
} from './fixtures.js';

describe('clusterIdentity', () => {
  it('reads the real AWS must-gather ClusterVersion and Infrastructure', () => {
    const id = clusterIdentity(AWS_CLUSTERVERSION, AWS_INFRASTRUCTURE);
    expect(id).toMatchObject({
      clusterID: '96eb6c40-16e8-4718-ade6-5d7c6f05e120',
      currentVersion: '4.8.0-0.nightly-2021-07-31-065602',
      currentVersionSource: 'history',
      desiredVersion: '4.8.0-0.nightly-2021-07-31-065602',
      desiredImage:
        'registry.ci.openshift.org/ocp/release@sha256:b8ef29f84eb7cfde265f28fcd5284770b3a419c1439fe563131e8fb94e586b0a',
      platform: 'AWS',
      progressing: { kind: 'idle', target: '4.8.0-0.nightly-2021-07-31-065602' },
    });
    expect(id.channel).toBeUndefined();
    expect(id.upstream).toBeUndefined();
    expect(Object.keys(id.conditions).sort()).toEqual(['Available', 'Failing', 'Progressing', 'RetrievedUpdates']);
    expect(id.conditions['RetrievedUpdates']).toEqual({
      status: 'False',
      reason: 'NoChannel',
      message: 'The update channel has not been configured.',
      lastTransitionTime: '2021-08-03T09:14:59Z',
      lastTransitionMs: Date.parse('2021-08-03T09:14:59Z'),
    });
    expect(id.conditions['Failing']?.status).toBe('False');
    expect(id.conditions['Failing']?.message).toBeUndefined();
  });

  it('seed 000 comment 18: mid-update, channel and upstream set', () => {
    const id = clusterIdentity(SEED000_C18_CLUSTERVERSION);
    expect(id).toMatchObject({
      clusterID: '2d39a2e8-56b6-4cf1-8f04-a4ffc9262e83',
      currentVersion: '4.7.0-0.nightly-2021-02-06-022227',
      desiredVersion: '4.7.0-rc.0',
      channel: 'nightly-4.7',
      upstream: 'https://raw.githubusercontent.com/shellyyang1989/upgrade-cincy/master/cincy4.json',
      progressing: { kind: 'working', target: '4.7.0-rc.0', done: 70, total: 668, percent: 10 },
    });
    expect(id.platform).toBeUndefined();
  });

  it('seed 003: after the rollback the current version is the completed install', () => {
    const id = clusterIdentity(SEED003_CLUSTERVERSION);
    expect(id.currentVersion).toBe('4.6.27');
    expect(id.conditions['Failing']).toMatchObject({ status: 'True', reason: 'ClusterOperatorDegraded' });
    expect(id.progressing).toEqual({
      kind: 'unable',
      target: '4.6.27',
      detail: 'the cluster operator ingress is degraded',
    });
  });

  it('falls back to status.desired.version while installing', () => {
    const id = clusterIdentity({
      spec: { clusterID: 'x', desiredUpdate: { version: '4.9.1' } },
      status: {
        desired: { version: '4.9.0' },
        history: [{ version: '4.9.0', state: 'Partial', startedTime: '2021-09-14T12:00:00Z' }],
      },
    });
    expect(id.currentVersion).toBe('4.9.0');
    expect(id.currentVersionSource).toBe('desired');
    expect(id.desiredVersion).toBe('4.9.0');
    expect(clusterIdentity({ spec: { desiredUpdate: { version: '4.9.1' } } }).desiredVersion).toBe('4.9.1');
  });

  it('tolerates missing and malformed objects', () => {
    const id = clusterIdentity(undefined, 'nope');
    expect(id.clusterID).toBeUndefined();
    expect(id.currentVersion).toBeUndefined();
    expect(id.conditions).toEqual({});
    expect(clusterIdentity({ status: { conditions: [null, 3, { status: 'True' }] } }).conditions).toEqual({});
  });
});

describe('platformOf', () => {
  it('prefers platformStatus.type, falls back to status.platform', () => {
    expect(platformOf(AWS_INFRASTRUCTURE)).toBe('AWS');
    expect(platformOf({ status: { platform: 'BareMetal' } })).toBe('BareMetal');
    expect(platformOf({ status: { platform: 'AWS', platformStatus: { type: 'None' } } })).toBe('None');
    expect(platformOf({})).toBeUndefined();
  });
});

describe('conditionMap', () => {
  it('takes an array or an object, first duplicate wins, __proto__ stays data', () => {
    const map = conditionMap([
      { type: 'Degraded', status: 'True', reason: 'A' },
      { type: 'Degraded', status: 'False', reason: 'B' },
      { type: '__proto__', status: 'True' },
      { type: 'Available', lastTransitionTime: new Date('2021-01-01T00:00:00Z') },
    ]);
    expect(map['Degraded']?.reason).toBe('A');
    expect(map['__proto__']?.status).toBe('True');
    expect(map['Available']).toMatchObject({
      status: 'Unknown',
      lastTransitionTime: '2021-01-01T00:00:00.000Z',
      lastTransitionMs: Date.parse('2021-01-01T00:00:00Z'),
    });
    expect(Object.keys(conditionMap(SEED003_CLUSTERVERSION))).toHaveLength(4);
  });
});

describe('parseProgressingMessage', () => {
  it.each([
    [
      'Working towards 4.7.0-rc.0: 70 of 668 done (10% complete)',
      { kind: 'working', target: '4.7.0-rc.0', done: 70, total: 668, percent: 10 },
    ],
    [
      'Working towards 4.14.0-0.nightly-2023-10-04-143709: 712 of 859 done (82% complete), waiting on machine-config, network',
      {
        kind: 'working',
        target: '4.14.0-0.nightly-2023-10-04-143709',
        done: 712,
        total: 859,
        percent: 82,
        waitingOn: ['machine-config', 'network'],
      },
    ],
    ['Working towards 4.6.8: 11% complete', { kind: 'working', target: '4.6.8', percent: 11 }],
    ['Working towards 4.7.0: downloading update', { kind: 'working', target: '4.7.0', detail: 'downloading update' }],
    [
      'Unable to apply 4.7.0-0.nightly-2021-02-05-221250: the image may not be safe to use',
      { kind: 'unable', target: '4.7.0-0.nightly-2021-02-05-221250', detail: 'the image may not be safe to use' },
    ],
    ['Cluster version is 4.8.0-0.nightly-2021-07-31-065602', { kind: 'idle', target: '4.8.0-0.nightly-2021-07-31-065602' }],
  ] as const)('%s', (message, expected) => {
    const parsed = parseProgressingMessage(message);
    expect(parsed).toMatchObject(expected);
    if (!('waitingOn' in expected)) expect(parsed?.waitingOn).toBeUndefined();
  });

  it('is undefined for anything else', () => {
    expect(parseProgressingMessage('')).toBeUndefined();
    expect(parseProgressingMessage(undefined)).toBeUndefined();
    expect(parseProgressingMessage('Done applying 4.6.27')).toBeUndefined();
  });
});
