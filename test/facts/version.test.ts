import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  isUpdateCandidate,
  isDowngrade,
  isValidRange,
  isYStreamChange,
  minorOf,
  parseVersion,
  satisfiesRange,
} from '../../src/facts/version.js';

describe('parseVersion', () => {
  it.each([
    ['4.8.0-0.nightly-2021-07-31-065602', '4.8.0-0.nightly-2021-07-31-065602', 'nightly', 4, 8, 0],
    ['4.7.0-fc.3', '4.7.0-fc.3', 'fc', 4, 7, 0],
    ['4.7.0-rc.1', '4.7.0-rc.1', 'rc', 4, 7, 0],
    ['4.14.0-ec.2', '4.14.0-ec.2', 'ec', 4, 14, 0],
    ['4.6.0-0.ci-2020-10-14-152012', '4.6.0-0.ci-2020-10-14-152012', 'ci', 4, 6, 0],
    ['4.7.0-0.ci-2021-04-29-142719', '4.7.0-0.ci-2021-04-29-142719', 'ci', 4, 7, 0],
    ['4.15.0-0.okd-2024-03-10-010116', '4.15.0-0.okd-2024-03-10-010116', 'okd', 4, 15, 0],
    ['4.5.15', '4.5.15', 'ga', 4, 5, 15],
    [' v4.6.8 ', '4.6.8', 'ga', 4, 6, 8],
  ] as const)('%s', (input, normalized, kind, major, minor, patch) => {
    const v = parseVersion(input);
    expect(v).toMatchObject({ normalized, kind, major, minor, patch, partial: false });
  });

  it('reads partial MAJOR.MINOR as x.y.0', () => {
    expect(parseVersion('4.10')).toMatchObject({ normalized: '4.10.0', partial: true, kind: 'ga', minor: 10 });
    expect(parseVersion('4.9')).toMatchObject({ normalized: '4.9.0', partial: true });
  });

  it('keeps pre-release identifiers', () => {
    expect(parseVersion('4.7.0-fc.3')?.prerelease).toEqual(['fc', 3]);
    expect(parseVersion('4.8.0-0.nightly-2021-07-31-065602')?.prerelease).toEqual([0, 'nightly-2021-07-31-065602']);
  });

  it.each(['', '   ', 'latest', '4', '4.x', 'quay.io/openshift-release-dev/ocp-release@sha256:abc', '4.07.1', 'x'.repeat(300)])(
    'rejects %j',
    (input) => {
      expect(parseVersion(input)).toBeUndefined();
    },
  );

  it('rejects non-strings without throwing', () => {
    expect(parseVersion(undefined)).toBeUndefined();
    expect(parseVersion(null)).toBeUndefined();
  });
});

describe('compareVersions', () => {
  it('orders the OpenShift pre-release streams before GA', () => {
    const ordered = [
      '4.7.0-0.ci-2021-01-01-000000',
      '4.7.0-0.nightly-2021-02-05-161444',
      '4.7.0-0.nightly-2021-02-05-221250',
      '4.7.0-ec.1',
      '4.7.0-fc.1',
      '4.7.0-fc.3',
      '4.7.0-rc.0',
      '4.7.0-rc.1',
      '4.7.0',
      '4.7.1',
    ];
    for (let i = 0; i + 1 < ordered.length; i++) {
      expect(compareVersions(ordered[i], ordered[i + 1]), `${ordered[i]} < ${ordered[i + 1]}`).toBe(-1);
      expect(compareVersions(ordered[i + 1], ordered[i])).toBe(1);
    }
    const shuffled = [...ordered].reverse();
    expect(shuffled.sort(compareVersions)).toEqual(ordered);
  });

  it('compares numbers as numbers', () => {
    expect(compareVersions('4.10', '4.9')).toBe(1);
    expect(compareVersions('4.9', '4.10')).toBe(-1);
    expect(compareVersions('4.10.0', '4.9.59')).toBe(1);
    expect(compareVersions('4.5.15', '4.5.9')).toBe(1);
  });

  it('treats partial versions as x.y.0', () => {
    expect(compareVersions('4.10', '4.10.0')).toBe(0);
    expect(compareVersions('4.10', '4.10.1')).toBe(-1);
    expect(compareVersions('4.10', '4.10.0-rc.1')).toBe(1);
  });

  it('puts nightlies of 4.8.0 before 4.8.0 GA and after 4.7.z', () => {
    expect(compareVersions('4.8.0-0.nightly-2021-07-31-065602', '4.8.0')).toBe(-1);
    expect(compareVersions('4.8.0-0.nightly-2021-07-31-065602', '4.7.60')).toBe(1);
  });

  it('sorts unparsable values last and never throws', () => {
    expect(compareVersions('garbage', '4.1.0')).toBe(1);
    expect(compareVersions('4.1.0', 'garbage')).toBe(-1);
    expect(compareVersions(undefined, '4.1.0')).toBe(1);
    expect(compareVersions('', '')).toBe(0);
    expect(compareVersions(null, undefined)).toBe(0);
    expect(['zz', '4.10', undefined, '4.9', 'aa'].sort(compareVersions)).toEqual(['4.9', '4.10', 'aa', 'zz', undefined]);
  });
});

describe('satisfiesRange', () => {
  it('includes pre-releases by precedence', () => {
    expect(satisfiesRange('4.7.0-fc.3', '<4.7.0')).toBe(true);
    expect(satisfiesRange('4.7.0-0.nightly-2021-02-05-161444', '<4.7.0')).toBe(true);
    expect(satisfiesRange('4.7.0', '<4.7.0')).toBe(false);
    expect(satisfiesRange('4.6.0-0.nightly-2020-09-01-000000', '>=4.6.0-0 <4.7.0-0')).toBe(true);
    expect(satisfiesRange('4.6.0-0.nightly-2020-09-01-000000', '>=4.6.0 <4.7.0')).toBe(false);
  });

  it('handles the seed 000 affected range (4.5.15 and later 4.5.z, 4.6.z, 4.7 pre-GA)', () => {
    const affected = '>=4.5.15 <4.7.0';
    for (const v of ['4.5.15', '4.5.21', '4.6.8', '4.6.12', '4.7.0-fc.1', '4.7.0-fc.3', '4.7.0-rc.0']) {
      expect(satisfiesRange(v, affected), v).toBe(true);
    }
    for (const v of ['4.5.14', '4.7.0', '4.7.1', '4.8.0-0.nightly-2021-07-31-065602']) {
      expect(satisfiesRange(v, affected), v).toBe(false);
    }
    expect(satisfiesRange('4.7.0-fc.3', '>=4.5.15 <4.7.0-0')).toBe(false);
  });

  it('x-ranges cover the whole minor, pre-releases included', () => {
    expect(satisfiesRange('4.6.0-0.ci-2020-10-14-152012', '4.6.x')).toBe(true);
    expect(satisfiesRange('4.6.27', '4.6.x')).toBe(true);
    expect(satisfiesRange('4.6.27', '4.6')).toBe(true);
    expect(satisfiesRange('4.7.0-fc.1', '4.6.x')).toBe(false);
    expect(satisfiesRange('4.10', '>=4.9.0')).toBe(true);
  });

  it('is false for unparsable versions and invalid ranges', () => {
    expect(satisfiesRange('garbage', '*')).toBe(false);
    expect(satisfiesRange(undefined, '*')).toBe(false);
    expect(satisfiesRange('4.6.8', 'not a range')).toBe(false);
    expect(isValidRange('>=4.5.15 <4.7.0-0')).toBe(true);
    expect(isValidRange('not a range')).toBe(false);
  });
});

describe('minorOf / isYStreamChange / isDowngrade', () => {
  it('minorOf', () => {
    expect(minorOf('4.8.0-0.nightly-2021-07-31-065602')).toBe('4.8');
    expect(minorOf('4.10')).toBe('4.10');
    expect(minorOf('nope')).toBeUndefined();
  });

  it('isYStreamChange', () => {
    expect(isYStreamChange('4.5.21', '4.6.8')).toBe(true);
    expect(isYStreamChange('4.7.0-0.ci-2021-04-29-142719', '4.6.27')).toBe(true);
    expect(isYStreamChange('4.6.8', '4.6.12')).toBe(false);
    expect(isYStreamChange('4.6.12', '4.7.0-fc.3')).toBe(true);
    expect(isYStreamChange('', '4.6.12')).toBe(false);
  });

  it('isDowngrade', () => {
    expect(isDowngrade('4.14.0-0.nightly-2023-10-04-143709', '4.13.15')).toBe(true);
    expect(isDowngrade('4.7.0-0.ci-2021-04-29-142719', '4.6.27')).toBe(true);
    expect(isDowngrade('4.9', '4.10')).toBe(false);
    expect(isDowngrade('4.10', '4.9')).toBe(true);
    expect(isDowngrade('4.6.8', '4.6.8')).toBe(false);
    expect(isDowngrade('4.7.0', '4.7.0-rc.1')).toBe(true);
    expect(isDowngrade('garbage', '4.1.0')).toBe(false);
  });
});

describe('isUpdateCandidate', () => {
  it('offers newer releases of the same or the next minor, never out of a CI or nightly build', () => {
    expect(isUpdateCandidate('4.9.10', '4.10.38')).toBe(true);
    expect(isUpdateCandidate('4.9.10', '4.9.11')).toBe(true);
    expect(isUpdateCandidate('4.9.10', '4.11.0')).toBe(false);
    expect(isUpdateCandidate('4.9.0-0.nightly-2021-09-10-170926', '4.10.38')).toBe(false);
    expect(isUpdateCandidate('4.6.0-0.ci-2020-10-14-152012', '4.6.1')).toBe(false);
  });
});

describe('buildDateOf: when a CI, nightly or OKD build was made', () => {
  it('reads the date from the build name; releases carry none', async () => {
    const { buildDateOf } = await import('../../src/facts/version.js');
    expect(buildDateOf('4.7.0-0.ci-2021-04-29-142719')).toBe('2021-04-29');
    expect(buildDateOf('4.8.0-0.nightly-2021-07-31-065602')).toBe('2021-07-31');
    expect(buildDateOf('4.15.0-0.nightly-multi-2023-11-02-101011')).toBe('2023-11-02');
    expect(buildDateOf('4.7.0-0.okd-2021-03-07-090821')).toBe('2021-03-07');
    expect(buildDateOf('4.7.0')).toBeUndefined();
    expect(buildDateOf('4.7.0-rc.1')).toBeUndefined();
    expect(buildDateOf('4.7.0-0.ci-2021-13-45-000000')).toBeUndefined();
  });
});
