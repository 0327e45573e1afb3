import { describe, it, expect } from 'vitest';
import { DigestCollector, componentOf, type Digest, type DigestLimits, DIGEST_LIMITS } from '../../src/digest/collector.js';
import { classifyPath } from '../../src/layout/classify.js';

const ROOT = 'must-gather.local.1/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0000';
const CVO_LOG = `${ROOT}/namespaces/openshift-cluster-version/pods/cluster-version-operator-849b4dcf9c-dl6zb/cluster-version-operator/cluster-version-operator/logs/current.log`;
const OLM_LOG = `${ROOT}/namespaces/openshift-operator-lifecycle-manager/pods/olm-operator-5d8f7c9b4-x2k9p/olm-operator/olm-operator/logs/current.log`;
const KUBELET = `${ROOT}/host_service_logs/masters/kubelet_service.log`;
const AUDIT = 'artifacts/audit_logs/kube-apiserver/ip-10-0-1-2-audit.log';

/** Real CVO lines (must-gather-aws, kubelet RFC 3339 prefix): three errors of one call site, info lines around them. */
const CVO = [
  '2021-08-03T09:24:51.000000000Z I0803 09:24:51.000001       1 sync_worker.go:602] Payload loaded from quay.io/openshift-release-dev/ocp-release@sha256:6ddbf56b',
  '2021-08-03T09:24:51.420112604Z E0803 09:24:51.419846       1 task.go:112] error running apply for clusteroperator "authentication" (12 of 676): Cluster operator authentication is not available',
  '2021-08-03T09:25:51.420112604Z E0803 09:25:51.419846       1 task.go:112] error running apply for clusteroperator "monitoring" (15 of 676): Cluster operator monitoring is not available',
  '2021-08-03T09:26:51.420112604Z I0803 09:26:51.419846       1 task.go:112] level=error is only quoted here',
  '2021-08-03T09:27:51.420112604Z E0803 09:27:51.419846       1 task.go:112] error running apply for clusteroperator "console" (20 of 676): Cluster operator console is not available',
  '2021-08-03T09:28:00.000000000Z F0803 09:28:00.000000       1 start.go:21] error: the server is shutting down',
].join('\n');

/** One line of each general pattern, and near-misses of each. */
const OLM = [
  '2021-08-03T09:20:45.772779915Z time="2021-08-03T09:20:45Z" level=error msg="no matches for kind \\"OperatorSource\\""',
  '2021-08-03T09:20:46.000000000Z time="2021-08-03T09:20:46Z" level=info msg="all good"',
  '2021-08-03T09:20:47.000000000Z {"level":"error","ts":1627982430.0169034,"msg":"Error ensuring OperatorCondition"}',
  '2021-08-03T09:20:48.000000000Z {"level":"info","ts":1627982430.0169034,"msg":"fine"}',
  '2021-08-03T09:20:49.000000000Z 2021-08-03T09:20:49.525Z\tERROR\toperator.init\tcontroller/controller.go:253\tReconciler error',
  '2021-08-03T09:20:50.000000000Z 2021-08-03T09:20:50.525Z\tINFO\toperator.init\tstarting',
  '2021-08-03T09:20:51.000000000Z panic: runtime error: invalid memory address or nil pointer dereference',
  '2021-08-03T09:20:52.000000000Z recovered from panic: nothing',
  '2021-08-03T09:20:53.000000000Z fatal error: concurrent map writes',
].join('\n');

/** Journal lines carry no year: they are placed by the collection time. */
const JOURNAL = [
  '-- Logs begin at Tue 2021-08-03 09:10:29 UTC, end at Tue 2021-08-03 10:13:48 UTC. --',
  'Aug 03 09:17:48.200774 ip-10-0-195-177 hyperkube[1354]: E0803 09:17:48.200734    1354 kubelet.go:2303] "Error getting node" err="node \\"ip-10-0-195-177.ec2.internal\\" not found"',
  'Aug 03 09:18:48.200774 ip-10-0-187-218 hyperkube[1354]: E0803 09:18:48.200734    1354 kubelet.go:2303] "Error getting node" err="node \\"ip-10-0-187-218.ec2.internal\\" not found"',
].join('\n');

function collect(files: [string, string][], options: { chunk?: number; limits?: DigestLimits } = {}): DigestCollector {
  const collector = new DigestCollector(64 * 1024, options.limits);
  for (const [path, text] of files) {
    const entry = classifyPath(path);
    if (!collector.need(entry)) continue;
    const bytes = Buffer.from(text);
    const chunk = options.chunk ?? 4096;
    for (let i = 0; i < bytes.length; i += chunk) collector.text(bytes.subarray(i, i + chunk), entry);
    collector.endText(entry);
  }
  return collector;
}

function templates(digest: Digest): { component: string; template: string; count: number; level: string; pattern: string }[] {
  return digest.components.flatMap((c) => c.templates.map((t) => ({ component: c.name, template: t.template, count: t.count, level: t.level, pattern: t.pattern })));
}

describe('DigestCollector', () => {
  it('folds klog error and fatal lines of one component into templates, whatever the chunking', () => {
    for (const chunk of [1, 7, 4096]) {
      const digest = collect([[CVO_LOG, CVO]], { chunk }).digest([]);
      expect(digest.lines, `chunk ${chunk}`).toBe(4);
      expect(templates(digest)).toEqual([
        {
          component: 'openshift-cluster-version/cluster-version-operator',
          template: 'task.go:112] error running apply for clusteroperator <*> (<num> of <num>): Cluster operator <*> is not available',
          count: 3,
          level: 'E',
          pattern: 'klog',
        },
        { component: 'openshift-cluster-version/cluster-version-operator', template: 'start.go:21] error: the server is shutting down', count: 1, level: 'F', pattern: 'klog' },
      ]);
    }
  });

  it('keeps first and last time, files with their counts and the first real line as example', () => {
    const [first] = collect([[CVO_LOG, CVO]]).digest([]).components[0]!.templates;
    expect(first!.first).toBe(Date.parse('2021-08-03T09:24:51.420112604Z'));
    expect(first!.last).toBe(Date.parse('2021-08-03T09:27:51.420112604Z'));
    expect(first!.files).toEqual([{ path: CVO_LOG, count: 3 }]);
    expect(first!.moreFiles).toBe(0);
    expect(first!.example).toEqual({ file: CVO_LOG, line: 2, time: Date.parse('2021-08-03T09:24:51.420112604Z'), text: CVO.split('\n')[1] });
    expect(first!.id).toMatch(/^[0-9a-f]{10}$/);
  });

  it('finds the general failure patterns and leaves their near-misses', () => {
    const digest = collect([[OLM_LOG, OLM]]).digest([]);
    // One line each: by template text.
    expect(templates(digest).map((t) => [t.pattern, t.level, t.template])).toEqual([
      ['zap', 'ERROR', '<time>\tERROR\toperator.init\tcontroller/controller.go:<num>\tReconciler error'],
      ['go-panic', 'fatal error', 'fatal error: concurrent map writes'],
      ['go-panic', 'panic', 'panic: runtime error: invalid memory address or nil pointer dereference'],
      ['logfmt', 'error', 'time="<time>" level=error msg="no matches for kind \\"OperatorSource\\""'],
      ['json', 'error', '{"level":"error","ts":<num>,"msg":"Error ensuring OperatorCondition"}'],
    ]);
    expect(digest.components[0]!.name).toBe('openshift-operator-lifecycle-manager/olm-operator');
  });

  it('reads host journals as host/<service> and places their yearless times by the collection time', () => {
    const collector = collect([[KUBELET, JOURNAL]]);
    const [t] = collector.digest([], Date.parse('2021-08-03T10:15:00Z')).components[0]!.templates;
    expect(t!.template).toBe('kubelet.go:2303] "Error getting node" err="node \\"<host>\\" not found"');
    expect(t!.first).toBe(Date.parse('2021-08-03T09:17:48.200Z'));
    expect(t!.last).toBe(Date.parse('2021-08-03T09:18:48.200Z'));
    expect(t!.example.time).toBe(Date.parse('2021-08-03T09:17:48.200Z'));
    expect(collector.digest([], Date.parse('2022-01-10T00:00:00Z')).components[0]!.templates[0]!.first).toBe(Date.parse('2021-08-03T09:17:48.200Z'));
    expect(componentOf(classifyPath(KUBELET))).toBe('host/kubelet');
  });

  it('places yearless times by the latest dated line when there is no collection time', () => {
    const digest = collect([[CVO_LOG, CVO], [KUBELET, JOURNAL]]).digest([]);
    const kubelet = digest.components.find((c) => c.name === 'host/kubelet')!;
    expect(kubelet.templates[0]!.first).toBe(Date.parse('2021-08-03T09:17:48.200Z'));
  });

  it('does not read audit logs', () => {
    const collector = new DigestCollector(1024);
    expect(collector.need(classifyPath(AUDIT))).toBeUndefined();
    expect(collector.need(classifyPath(CVO_LOG))).toEqual({ text: true });
  });

  it('leaves out explained lines (evidence of a finding: same file and line) and shows an unexplained example', () => {
    const lines = CVO.split('\n');
    const collector = collect([[CVO_LOG, CVO]]);
    const digest = collector.digest([
      { file: CVO_LOG, line: 2, text: lines[1]! },
      { file: CVO_LOG, line: 2, text: lines[1]! }, // the same line as evidence of two findings counts once
      { file: CVO_LOG, line: 6, text: lines[5]! },
      { file: CVO_LOG, line: 1, text: lines[0]! }, // an info line: not a digest line
      { file: 'other.log', line: 2, text: lines[1]! },
    ]);
    expect(digest.lines).toBe(4);
    expect(digest.explained).toBe(2);
    expect(templates(digest).map((t) => [t.template.slice(0, 12), t.count])).toEqual([['task.go:112]', 2]]);
    expect(digest.components[0]!.templates[0]!.example.line).toBe(3);
  });

  it('stays within its caps: further templates are counted as unfolded lines', () => {
    const lines = ['alpha', 'bravo', 'charlie', 'delta'].map((word, i) => `E0803 09:24:5${i}.419846       1 x.go:1] ${word}`).join('\n');
    const digest = collect([[CVO_LOG, lines]], { limits: { ...DIGEST_LIMITS, templatesPerComponent: 2 } }).digest([]);
    expect(digest.lines).toBe(4);
    expect(digest.components[0]!.templates.map((t) => t.template)).toEqual(['x.go:1] alpha', 'x.go:1] bravo']);
    expect(digest.components[0]!.unfolded).toBe(2);
  });

  it('remembers a bounded number of kinds per file, and a worker hands over the same digest past that bound', () => {
    // 40 call sites, each five times: more kinds in one file than the cap (templatesPerComponent × 4 = 8).
    const lines = Array.from({ length: 200 }, (_, i) => `E0803 09:24:51.419846       1 site${i % 40}.go:${i % 40}] failed ${i % 40}`).join('\n');
    const limits = { ...DIGEST_LIMITS, templatesPerComponent: 2, examplesPerTemplate: 4 };
    const direct = collect([[CVO_LOG, lines]], { limits });
    expect((direct as unknown as { inFile: { kinds: Map<string, unknown> } }).inFile.kinds.size).toBe(8);
    const worker = new DigestCollector(64 * 1024, limits);
    const main = new DigestCollector(64 * 1024, limits);
    worker.keepEntriesApart();
    const entry = classifyPath(CVO_LOG);
    worker.text(Buffer.from(lines), entry);
    worker.endText(entry);
    main.mergeEntry(worker.takeEntry());
    expect(main.digest([])).toEqual(direct.digest([]));
  });

  it('lists a capped number of files per template and counts the others', () => {
    const line = 'E0803 09:24:51.419846       1 x.go:1] failed\n';
    const files: [string, string][] = Array.from({ length: 8 }, (_, i) => [CVO_LOG.replace('current.log', `previous.log`).replace('dl6zb', `pod${i}`), line]);
    const [t] = collect(files, { limits: { ...DIGEST_LIMITS, filesPerTemplate: 3 } }).digest([]).components[0]!.templates;
    expect(t!.count).toBe(8);
    expect(t!.files).toHaveLength(3);
    expect(t!.moreFiles).toBe(5);
  });

  it('counts a template\'s lines per minute: what it repeats in a window before the collection, yearless lines and other templates apart', () => {
    const collector = collect([[CVO_LOG, CVO], [KUBELET, JOURNAL]]);
    const at = (hhmm: string): number => Date.parse(`2021-08-03T${hhmm}:00Z`);
    // 09:25 to 09:28 holds two of the three `error running apply` lines (09:25:51, 09:27:51) and the fatal line.
    const recent = collector.recentTemplates(at('09:25'), at('09:28'))!;
    expect(recent.map((t) => [t.template.slice(0, 40), t.recent.count, t.recent.minutes])).toEqual([
      ['task.go:112] error running apply for clu', 2, 2],
      ['start.go:21] error: the server is shutti', 1, 1],
    ]);
    expect(recent[0]!.recent.from).toBe(at('09:25'));
    expect(recent[0]!.recent.to).toBe(at('09:28'));
    expect(recent[0]!.count).toBe(3);
    expect(collector.recentTemplates(at('10:00'), at('10:30'))).toEqual([]);
  });

  it('knows nothing of what repeats when no log was read', () => {
    expect(collect([]).recentTemplates(0, Date.now())).toBeUndefined();
  });
});

