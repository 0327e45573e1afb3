import { describe, expect, it } from 'vitest';
import {
  CRI_PREFIX_RE,
  JOURNAL_PREFIX_RE,
  KLOG_HEADER_RE,
  RFC3339_PREFIX_RE,
  journalPrefixLength,
  klogHeaderEnd,
  klogLevelAt,
  parseJournalBanner,
  parseKlogTimestamp,
  parseLogLine,
  parseRfc3339,
  prefixLength,
} from '../../src/parsers/logline.js';

const utc = (s: string): number => Date.parse(s);
// Collection time of must-gather-aws (its `timestamp` file ends 2021-08-03 10:14:13 UTC).
const AWS_REF = utc('2021-08-03T10:14:13Z');

// Real lines. PROVENANCE: /work/shared/samples-real (see PROVENANCE.md there):
// must-gather-aws.tar.xz (openshift/must-gather-clean test/files, Apache-2.0) and
// omc-fixtures (gmeghnag/omc, Apache-2.0); seeds from /work/shared/seeds.

// must-gather-aws: namespaces/openshift-cluster-version/pods/cluster-version-operator-849b4dcf9c-dl6zb/
//   cluster-version-operator/cluster-version-operator/logs/current.log
const CVO_START =
  '2021-08-03T09:28:09.024882353Z I0803 09:28:09.024765       1 start.go:21] ClusterVersionOperator 4.8.0-202107291502.p0.git.ea6e779.assembly.stream-ea6e779';
const CVO_ERROR =
  '2021-08-03T09:28:09.656456255Z E0803 09:28:09.656413       1 leaderelection.go:325] error retrieving resource lock openshift-cluster-version/version: Get "https://127.0.0.1:6443/api/v1/namespaces/openshift-cluster-version/configmaps/version": dial tcp 127.0.0.1:6443: connect: connection refused';
const CVO_WARN =
  '2021-08-03T09:31:43.209470958Z W0803 09:31:43.209381       1 sync_worker.go:489] Ignoring detected version change during payload initialization';
// must-gather-aws: namespaces/openshift-etcd/pods/etcd-ip-10-0-189-142.ec2.internal/etcd/etcd/logs/current.log
const ETCD_JSON =
  '2021-08-03T09:28:18.977292965Z {"level":"info","ts":"2021-08-03T09:28:18.977Z","caller":"etcdmain/etcd.go:134","msg":"server has been already initialized","data-dir":"/var/lib/etcd","dir-type":"member"}';
// must-gather-aws: namespaces/openshift-machine-api/pods/machine-api-controllers-7459bb754b-9ldpq/
//   nodelink-controller/nodelink-controller/logs/current.log — a second timestamp inside the klog header.
const NODELINK_SPLIT =
  '2021-08-03T09:21:12.759966110Z I0803 09:21:12.758565       1 nodelink_controller.go:2021-08-03T09:21:12.760037909Z 350] Finding node from machine "ci-ln-5ylibmb-d5d6b-dfvr6-worker-us-east-1b-xbb9b" by providerID';
// omc-fixtures: rotated-logs/namespaces/test-namespace/pods/test-pod/test-container/test-container/logs/rotated/1.log.20231102-061208
const CRI_ROTATED =
  '2023-11-02T06:12:07.604163885+00:00 stderr F I1102 06:12:07.604158       1 test_app.go:365] My Rotated LogMsg';
// omc-fixtures: rotated-logs/.../logs/current.log (hand-written: file "test_app_go" has no dot)
const OMC_CURRENT = '2023-11-02T06:12:08.604740676Z W1103 06:12:08.604740       1 test_app_go:542] My Warning LogMessage';
// seeds/000_f733f87f8ec1f2e1.txt (bare CVO log quoted in a bug, indented by two spaces)
const SEED_CVO = '  E0119 22:24:15.924216       1 cvo.go:344] unable to perform final sync: context canceled';
// must-gather-aws: host_service_logs/masters/kubelet_service.log
const KUBELET_JOURNAL =
  'Aug 03 09:17:48.082298 ip-10-0-195-177 hyperkube[1354]: E0803 09:17:48.082270    1354 reflector.go:138] k8s.io/client-go/informers/factory.go:134: Failed to watch *v1.Node: failed to list *v1.Node: nodes "ip-10-0-195-177.ec2.internal" is forbidden: User "system:anonymous" cannot list resource "nodes" in API group "" at the cluster scope';
// must-gather-aws: host_service_logs/masters/crio_service.log
const CRIO_JOURNAL = 'Aug 03 09:17:41.870546 ip-10-0-195-177 systemd[1]: Starting Open Container Initiative Daemon...';
const JOURNAL_BANNER = '-- Logs begin at Tue 2021-08-03 09:10:29 UTC, end at Tue 2021-08-03 10:13:48 UTC. --';

describe('kubelet / oc logs --timestamps prefix', () => {
  it('parses the CVO start line', () => {
    const l = parseLogLine(CVO_START, 1, { referenceTime: AWS_REF });
    expect(l.lineNo).toBe(1);
    expect(l.raw).toBe(CVO_START);
    expect(l.text).toBe(CVO_START.slice(31));
    expect(l.time).toBe(utc('2021-08-03T09:28:09.024Z'));
    expect(l.stream).toBeUndefined();
    expect(l.partial).toBeUndefined();
    expect(l.journal).toBeUndefined();
    expect(l.klog).toEqual({
      level: 'I',
      time: utc('2021-08-03T09:28:09.024Z'),
      yearFrom: 'prefix',
      thread: 1,
      file: 'start.go',
      line: 21,
      message: 'ClusterVersionOperator 4.8.0-202107291502.p0.git.ea6e779.assembly.stream-ea6e779',
    });
  });

  it('parses error and warning lines', () => {
    const e = parseLogLine(CVO_ERROR, 7, {});
    expect(e.lineNo).toBe(7);
    expect(e.klog?.level).toBe('E');
    expect(e.klog?.file).toBe('leaderelection.go');
    expect(e.klog?.line).toBe(325);
    expect(e.klog?.message).toMatch(/^error retrieving resource lock .* connection refused$/);
    expect(e.klog?.time).toBe(utc('2021-08-03T09:28:09.656Z'));
    const w = parseLogLine(CVO_WARN, 8, {});
    expect(w.klog?.level).toBe('W');
    expect(w.klog?.file).toBe('sync_worker.go');
  });

  it('keeps non-klog text (JSON logs) with the prefix time', () => {
    const l = parseLogLine(ETCD_JSON, 3, {});
    expect(l.klog).toBeUndefined();
    expect(l.text.startsWith('{"level":"info"')).toBe(true);
    expect(l.time).toBe(utc('2021-08-03T09:28:18.977Z'));
  });

  it('does not take a klog header split by a second runtime timestamp', () => {
    const l = parseLogLine(NODELINK_SPLIT, 1, {});
    expect(l.time).toBe(utc('2021-08-03T09:21:12.759Z'));
    expect(l.klog).toBeUndefined();
  });

  it('accepts offsets, short fractions and no fraction', () => {
    expect(parseLogLine('2021-08-03T11:28:09.5+02:00 hello', 1).time).toBe(utc('2021-08-03T09:28:09.500Z'));
    expect(parseLogLine('2021-08-03T09:28:09Z hello', 1).time).toBe(utc('2021-08-03T09:28:09Z'));
    expect(parseLogLine('2021-08-03T04:28:09.12-05:00 x', 1).time).toBe(utc('2021-08-03T09:28:09.120Z'));
    expect(parseLogLine('2021-08-03T09:28:09.123456789Z', 1).text).toBe('');
    expect(parseRfc3339('2021-08-03T09:28:09.999999999Z')).toBe(utc('2021-08-03T09:28:09.999Z'));
  });

  it('rejects near-misses as prefixes', () => {
    for (const s of ['2021-08-03 09:28:09Z x', '2021-13-03T09:28:09Z x', '2021-08-03T09:28:09 x', '2021-08-03T09:28:09Zx', '2021-08-03T09:28:09.Z x']) {
      const l = parseLogLine(s, 1);
      expect(l.text).toBe(s);
      expect(l.time).toBeUndefined();
      expect(prefixLength(s)).toBe(0);
    }
  });
});

describe('CRI prefix', () => {
  it('parses a real rotated CRI line', () => {
    const l = parseLogLine(CRI_ROTATED, 1, {});
    expect(l.stream).toBe('stderr');
    expect(l.partial).toBe(false);
    expect(l.text).toBe('I1102 06:12:07.604158       1 test_app.go:365] My Rotated LogMsg');
    expect(l.time).toBe(utc('2023-11-02T06:12:07.604Z'));
    expect(l.klog?.time).toBe(utc('2023-11-02T06:12:07.604Z'));
    expect(l.klog?.message).toBe('My Rotated LogMsg');
    expect(prefixLength(CRI_ROTATED)).toBe('2023-11-02T06:12:07.604163885+00:00 stderr F '.length);
  });

  it('parses stdout, partial lines and empty messages', () => {
    const p = parseLogLine('2023-11-02T06:12:07.6+00:00 stdout P first half', 4);
    expect(p.stream).toBe('stdout');
    expect(p.partial).toBe(true);
    expect(p.text).toBe('first half');
    const empty = parseLogLine('2023-11-02T06:12:07.6Z stdout F', 5);
    expect(empty.stream).toBe('stdout');
    expect(empty.text).toBe('');
    const notTag = parseLogLine('2023-11-02T06:12:07Z stdout X y', 6);
    expect(notTag.stream).toBeUndefined();
    expect(notTag.text).toBe('stdout X y');
  });

  it('handles a hand-written line whose klog file has no dot', () => {
    const l = parseLogLine(OMC_CURRENT, 2, {});
    expect(l.klog?.file).toBe('test_app_go');
    expect(l.klog?.line).toBe(542);
    // klog says Nov 3 while the runtime says Nov 2: taken as written, year from the prefix.
    expect(l.klog?.time).toBe(utc('2023-11-03T06:12:08.604Z'));
    expect(l.time).toBe(utc('2023-11-02T06:12:08.604Z'));
  });
});

describe('bare klog lines and years', () => {
  it('parses an indented bare CVO line with the year from the reference time', () => {
    const l = parseLogLine(SEED_CVO, 12, { referenceTime: utc('2021-01-20T08:00:00Z') });
    expect(l.text).toBe(SEED_CVO);
    expect(l.klog).toMatchObject({ level: 'E', thread: 1, file: 'cvo.go', line: 344, message: 'unable to perform final sync: context canceled' });
    expect(l.klog?.yearFrom).toBe('reference');
    expect(l.time).toBe(utc('2021-01-19T22:24:15.924Z'));
  });

  it('takes the previous year when the line would be after the reference', () => {
    const line = 'I1231 23:59:58.000001       1 a.go:1] late';
    const l = parseLogLine(line, 1, { referenceTime: utc('2022-01-01T00:10:00Z') });
    expect(l.time).toBe(utc('2021-12-31T23:59:58Z'));
    // A line slightly after the reference (clock skew) stays in the reference year.
    const skew = parseLogLine('I0803 10:20:00.000000       1 a.go:1] x', 1, { referenceTime: AWS_REF });
    expect(skew.time).toBe(utc('2021-08-03T10:20:00Z'));
    // More than the tolerance after it: last year.
    const old = parseLogLine('I0805 10:20:00.000000       1 a.go:1] x', 1, { referenceTime: AWS_REF });
    expect(old.time).toBe(utc('2020-08-05T10:20:00Z'));
    const tight = parseLogLine('I0803 10:20:00.000000       1 a.go:1] x', 1, { referenceTime: AWS_REF, yearToleranceMs: 0 });
    expect(tight.time).toBe(utc('2020-08-03T10:20:00Z'));
  });

  it('crosses the Dec→Jan boundary against the prefix', () => {
    const dec = parseLogLine('2022-01-01T00:00:01Z I1231 23:59:59.999999       1 a.go:1] x', 1);
    expect(dec.klog?.time).toBe(utc('2021-12-31T23:59:59.999Z'));
    const jan = parseLogLine('2021-12-31T23:59:59Z I0101 00:00:01.000000       1 a.go:1] x', 1);
    expect(jan.klog?.time).toBe(utc('2022-01-01T00:00:01Z'));
  });

  it('finds Feb 29 in a leap year before the reference', () => {
    const l = parseLogLine('W0229 12:00:00.000000       1 a.go:1] leap', 1, { referenceTime: utc('2023-06-01T00:00:00Z') });
    expect(l.time).toBe(utc('2020-02-29T12:00:00Z'));
  });

  it('falls back to the clock without any reference', () => {
    const l = parseLogLine('I0101 00:00:00.000000       1 a.go:1] x', 1);
    expect(l.klog?.yearFrom).toBe('clock');
    expect(l.time).toBeLessThanOrEqual(Date.now() + 86_400_000);
  });

  it('parses klog-only timestamps', () => {
    expect(parseKlogTimestamp('I0803 09:28:09.024765', { referenceTime: AWS_REF })).toBe(utc('2021-08-03T09:28:09.024Z'));
    expect(parseKlogTimestamp('0803 09:28:09', { referenceTime: AWS_REF })).toBe(utc('2021-08-03T09:28:09Z'));
    expect(parseKlogTimestamp('1231 23:59:59.5', { anchorTime: utc('2022-01-01T00:00:01Z') })).toBe(utc('2021-12-31T23:59:59.500Z'));
    expect(parseKlogTimestamp('1331 23:59:59')).toBeUndefined();
    expect(parseKlogTimestamp('nope')).toBeUndefined();
  });

  it('finds a klog header after whitespace further in the line', () => {
    const l = parseLogLine('2021-08-03T09:27:15.488536997Z Fixing etcd log permissions. W0803 09:27:15.488369       1 etcd_env.go:287] cipher', 1);
    expect(l.klog?.level).toBe('W');
    expect(l.klog?.file).toBe('etcd_env.go');
    expect(l.klog?.message).toBe('cipher');
    // but not inside a quoted string
    expect(parseLogLine('x="I0803 09:27:15.488369       1 a.go:1] y" and more text to be long enough', 1).klog).toBeUndefined();
  });

  it('rejects near-miss klog headers', () => {
    for (const s of [
      'I0803 09:28:09.02476       1 a.go:1] short micros',
      'I0803 09:28:09.024765 a.go:1] no thread',
      'I0803 09:28:09.024765       1 a.go] no line',
      'I0803 09:28:09.024765       1 a go:1] space in file',
      'X0803 09:28:09.024765       1 a.go:1] bad level',
      'I1303 09:28:09.024765       1 a.go:1] bad month',
      'I0803 09:28:09.024765       1 a.go:1]no space',
      'Info: something',
    ]) {
      expect(parseLogLine(s, 1, { referenceTime: AWS_REF }).klog, s).toBeUndefined();
      // The regex checks syntax only (a month of 13 passes it).
      if (!s.includes('bad month')) expect(KLOG_HEADER_RE.test(s), s).toBe(false);
    }
    expect(parseLogLine('I0803 09:28:09.024765       1 a.go:1]', 1).klog?.message).toBe('');
  });

  it('exports scanner helpers consistent with the regexes', () => {
    const text = CVO_START.slice(31);
    expect(KLOG_HEADER_RE.test(text)).toBe(true);
    expect(klogHeaderEnd(text)).toBe(text.indexOf('ClusterVersionOperator'));
    expect(klogLevelAt(text)).toBe('I');
    expect(klogLevelAt('hello')).toBeUndefined();
    expect(RFC3339_PREFIX_RE.test(CVO_START)).toBe(true);
    expect(CRI_PREFIX_RE.test(CRI_ROTATED)).toBe(true);
    expect(CRI_PREFIX_RE.test(CVO_START)).toBe(false);
    expect(prefixLength(CVO_START)).toBe(31);
    expect(prefixLength('no prefix')).toBe(0);
  });
});

describe('journal lines', () => {
  it('parses kubelet journal lines with the klog inside', () => {
    const l = parseLogLine(KUBELET_JOURNAL, 30, { referenceTime: AWS_REF });
    expect(l.journal).toEqual({
      host: 'ip-10-0-195-177',
      unit: 'hyperkube',
      pid: 1354,
      time: utc('2021-08-03T09:17:48.082Z'),
      yearFrom: 'reference',
    });
    expect(l.time).toBe(utc('2021-08-03T09:17:48.082Z'));
    expect(l.text.startsWith('E0803 09:17:48.082270    1354 reflector.go:138]')).toBe(true);
    expect(l.klog).toMatchObject({ level: 'E', thread: 1354, file: 'reflector.go', line: 138, yearFrom: 'reference' });
    expect(l.klog?.time).toBe(utc('2021-08-03T09:17:48.082Z'));
    expect(JOURNAL_PREFIX_RE.test(KUBELET_JOURNAL)).toBe(true);
    expect(journalPrefixLength(KUBELET_JOURNAL)).toBe(KUBELET_JOURNAL.indexOf('E0803'));
  });

  it('parses systemd lines and lines without pid or fraction', () => {
    const l = parseLogLine(CRIO_JOURNAL, 2, { referenceTime: AWS_REF });
    expect(l.journal?.unit).toBe('systemd');
    expect(l.journal?.pid).toBe(1);
    expect(l.text).toBe('Starting Open Container Initiative Daemon...');
    expect(l.klog).toBeUndefined();
    const k = parseLogLine('Jan  2 03:04:05 node-1 kernel: oops', 1, { referenceTime: utc('2022-01-05T00:00:00Z') });
    expect(k.journal).toMatchObject({ host: 'node-1', unit: 'kernel', pid: undefined });
    expect(k.time).toBe(utc('2022-01-02T03:04:05Z'));
    expect(k.text).toBe('oops');
  });

  it('reads the banner, which is not a log line', () => {
    expect(parseJournalBanner(JOURNAL_BANNER)).toEqual({ begin: utc('2021-08-03T09:10:29Z'), end: utc('2021-08-03T10:13:48Z') });
    expect(parseJournalBanner('-- No entries --')).toBeUndefined();
    const l = parseLogLine(JOURNAL_BANNER, 1, { referenceTime: AWS_REF });
    expect(l.time).toBeUndefined();
    expect(l.journal).toBeUndefined();
  });
});

describe('robustness', () => {
  it('never throws and keeps line numbers', () => {
    const nasty = [
      '',
      '\u0000\u0000\u0000',
      '\ufffd\ufffd garbage \ufffd',
      'I',
      'I0803',
      'I0803 09:28:09.024765',
      'I0803 09:28:09.024765       ',
      'I0803 09:28:09.024765       1 ' + 'a'.repeat(10_000),
      '2021-08-03T09:28:09.024882353Z',
      '2021-08-03T09:28:09.' + '9'.repeat(100_000) + 'Z x',
      'Aug 03 09:17:4',
      'Aug 03 09:17:48.082298 host ' + 'u'.repeat(1000),
      'Aug 03 09:17:48.082298 host unit[12',
      '2021-08-03T09:28:09Z stdout ',
      '2021-08-03T09:28:09Z stdout F',
      '\r',
      ' '.repeat(100_000),
    ];
    nasty.forEach((s, i) => {
      const l = parseLogLine(s, i + 1, { referenceTime: AWS_REF });
      expect(l.lineNo).toBe(i + 1);
      expect(l.raw).toBe(s);
    });
  });

  it('handles a 1 MB line quickly', () => {
    const big = '2021-08-03T09:28:09.024882353Z ' + 'x '.repeat(512 * 1024);
    const t0 = performance.now();
    const l = parseLogLine(big, 1);
    expect(performance.now() - t0).toBeLessThan(200);
    expect(l.text.length).toBe(1024 * 1024);
    const bigKlog = 'I0803 09:28:09.024765       1 a.go:1] ' + 'y'.repeat(1024 * 1024);
    expect(parseLogLine(bigKlog, 2, { referenceTime: AWS_REF }).klog?.message.length).toBe(1024 * 1024);
  });

  it('strips a trailing carriage return from the text', () => {
    const l = parseLogLine(CVO_WARN + '\r', 1);
    expect(l.text.endsWith('initialization')).toBe(true);
    expect(l.klog?.message).toBe('Ignoring detected version change during payload initialization');
  });

  it('survives random input', () => {
    let seed = 42;
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    const alphabet = '0123456789 :.-TZ+IWEF[]stdoutrrFPAugJan\u0000\ufffd\t\r';
    const base = [CVO_START, CRI_ROTATED, KUBELET_JOURNAL, SEED_CVO];
    for (let n = 0; n < 5000; n++) {
      const src = base[n % base.length] ?? '';
      const chars = src.split('');
      for (let k = rnd() % 6; k >= 0; k--) chars[rnd() % chars.length] = alphabet[rnd() % alphabet.length] ?? '';
      const s = chars.join('').slice(0, rnd() % (src.length + 1));
      const l = parseLogLine(s, n, { referenceTime: AWS_REF });
      expect(l.lineNo).toBe(n);
      if (l.time !== undefined) expect(Number.isFinite(l.time)).toBe(true);
    }
  });
});
