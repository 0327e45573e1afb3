import { describe, expect, it } from 'vitest';
import { collectionTime, gatherWindow, parseGatherTimestamps, parseGoTime } from '../../src/facts/collection-time.js';

// Real files from /work/shared/samples-real/must-gather-aws.tar.xz (openshift/must-gather-clean,
// Apache-2.0): `must-gather-aws/timestamp` (the oc client, CEST) and
// `must-gather-aws/quay-io-...-sha256-eede85cb.../timestamp` (the gather image, UTC, six lines).
const AWS_CLIENT = '2021-08-03 12:11:56.91501602 +0200 CEST m=+1.651641915\n2021-08-03 12:14:13.632016778 +0200 CEST m=+138.368642668\n';
const AWS_IMAGE = [
  '2021-08-03 10:12:00.016988581 +0000 UTC m=+0.380233555',
  '2021-08-03 10:12:05.843383076 +0000 UTC m=+6.206628061',
  '2021-08-03 10:12:06.513780025 +0000 UTC m=+0.659829991',
  '2021-08-03 10:13:45.468134164 +0000 UTC m=+99.614184111',
  '2021-08-03 10:13:46.472260523 +0000 UTC m=+0.463610199',
  '2021-08-03 10:13:47.364145495 +0000 UTC m=+1.355495176',
  '',
].join('\n');
// Same source, must-gather-metal.tar.xz client file.
const METAL_CLIENT = '2021-09-14 16:43:44.051395446 +0200 CEST m=+1.404430641\n2021-09-14 16:44:22.408322048 +0200 CEST m=+39.761357218\n';

describe('parseGoTime', () => {
  it('honours the numeric offset, ignores zone name and monotonic reading', () => {
    expect(parseGoTime('2021-08-03 12:11:56.91501602 +0200 CEST m=+1.651641915')).toBe(Date.parse('2021-08-03T10:11:56.915Z'));
    expect(parseGoTime('2021-08-03 10:12:00.016988581 +0000 UTC m=+0.380233555')).toBe(Date.parse('2021-08-03T10:12:00.016Z'));
    expect(parseGoTime('2021-08-03 05:12:00 -0500 EST')).toBe(Date.parse('2021-08-03T10:12:00Z'));
    expect(parseGoTime('2021-08-03 13:12:00.5 +0300 +03')).toBe(Date.parse('2021-08-03T10:12:00.500Z'));
    expect(parseGoTime('2021-08-03 10:12:00 +0000 UTC m=-0.000000001')).toBe(Date.parse('2021-08-03T10:12:00Z'));
  });

  it('rejects garbage', () => {
    for (const bad of ['', 'hello', '2021-08-03T10:12:00Z', '2021-02-31 10:00:00 +0000 UTC', '2021-08-03 10:12:00 UTC', '2021-08-03 10:12:00 +9900 X']) {
      expect(parseGoTime(bad), bad).toBeUndefined();
    }
  });
});

describe('parseGatherTimestamps', () => {
  it('reads the real client file (start and end)', () => {
    expect(parseGatherTimestamps(AWS_CLIENT)).toEqual({
      start: Date.parse('2021-08-03T10:11:56.915Z'),
      end: Date.parse('2021-08-03T10:14:13.632Z'),
      lines: 2,
    });
  });

  it('reads the real six-line image file as earliest/latest', () => {
    expect(parseGatherTimestamps(AWS_IMAGE)).toEqual({
      start: Date.parse('2021-08-03T10:12:00.016Z'),
      end: Date.parse('2021-08-03T10:13:47.364Z'),
      lines: 6,
    });
  });

  it('tolerates CRLF, a BOM, a single line and garbage', () => {
    expect(parseGatherTimestamps('\uFEFF' + AWS_CLIENT.replace(/\n/g, '\r\n'))?.end).toBe(Date.parse('2021-08-03T10:14:13.632Z'));
    expect(parseGatherTimestamps('2021-08-03 10:12:00.016988581 +0000 UTC m=+0.380233555')).toEqual({
      start: Date.parse('2021-08-03T10:12:00.016Z'),
      end: undefined,
      lines: 1,
    });
    expect(parseGatherTimestamps('garbage\n' + AWS_CLIENT + 'more garbage')?.lines).toBe(2);
    expect(parseGatherTimestamps('')).toBeUndefined();
    expect(parseGatherTimestamps('\x00\x01binary')).toBeUndefined();
  });
});

describe('collectionTime / gatherWindow', () => {
  it('is the latest end across files', () => {
    expect(collectionTime([AWS_IMAGE, AWS_CLIENT])).toBe(Date.parse('2021-08-03T10:14:13.632Z'));
    expect(collectionTime([AWS_IMAGE])).toBe(Date.parse('2021-08-03T10:13:47.364Z'));
    expect(collectionTime([METAL_CLIENT, 'garbage', undefined])).toBe(Date.parse('2021-09-14T14:44:22.408Z'));
    expect(collectionTime(['garbage'])).toBeUndefined();
    expect(collectionTime([])).toBeUndefined();
  });

  it('a single-line file contributes its start', () => {
    expect(collectionTime(['2021-08-03 10:20:00 +0000 UTC', AWS_CLIENT])).toBe(Date.parse('2021-08-03T10:20:00Z'));
  });

  it('window spans the earliest start to the latest end', () => {
    expect(gatherWindow([AWS_IMAGE, parseGatherTimestamps(AWS_CLIENT)])).toEqual({
      start: Date.parse('2021-08-03T10:11:56.915Z'),
      end: Date.parse('2021-08-03T10:14:13.632Z'),
    });
    expect(gatherWindow(['x'])).toBeUndefined();
  });
});
