import { describe, expect, it } from 'vitest';
import {
  LayoutDetector,
  UNMATCHED_RULE,
  classifyPath,
  detectLayout,
  detectLayoutReport,
  findRoots,
} from '../../src/layout/classify.js';
import { AWS_IMG, AWS_TOP, METAL_IMG, METAL_TOP, realPaths } from './helpers.js';

const aws = realPaths('aws');
const metal = realPaths('metal');
const files = (paths: string[]): string[] => paths.filter((path) => !path.endsWith('/'));

/** Re-home paths of one archive under another prefix. */
function rehome(paths: string[], from: string, to: string): string[] {
  return paths.filter((path) => path.startsWith(`${from}/`)).map((path) => to + path.slice(from.length));
}

function countByRule(paths: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const path of paths) {
    const rule = classifyPath(path).rule;
    counts[rule] = (counts[rule] ?? 0) + 1;
  }
  return counts;
}

describe('real must-gather archives', () => {
  it('classifies every file of the aws archive by a table row', () => {
    expect(countByRule(files(aws))).toStrictEqual({
      'event-filter': 2,
      'mg-cluster-list': 17,
      'mg-cluster-object': 421,
      'mg-etcd-info': 4,
      'mg-host-service-log': 9,
      'mg-ingress-controller': 2,
      'mg-monitoring': 2,
      'mg-namespace': 56,
      'mg-namespaced-list': 1232,
      'mg-namespaced-object': 198,
      'mg-pod': 239,
      'mg-pod-file': 9,
      'mg-pod-log': 910,
      'mg-pod-log-insecure': 420,
      'mg-web-hooks': 2,
      timestamp: 2,
      version: 1,
    });
  });

  it('classifies every file of the metal archive by a table row', () => {
    const counts = countByRule(files(metal));
    expect(counts[UNMATCHED_RULE]).toBeUndefined();
    expect(counts['bare-log']).toBeUndefined();
    expect(counts).toMatchObject({
      'mg-cluster-list': 17,
      'mg-host-service-log': 9,
      'mg-monitoring': 14,
      'mg-pod-log': 832,
      'mg-pod-log-insecure': 389,
      timestamp: 2,
      version: 1,
    });
  });

  it('fills the fields each kind promises', () => {
    for (const path of files([...aws, ...metal])) {
      const entry = classifyPath(path);
      switch (entry.kind) {
        case 'pod-log':
          expect(entry.namespace && entry.pod && entry.container && entry.logStream, path).toBeTruthy();
          expect(entry.root === AWS_IMG || entry.root === METAL_IMG, path).toBe(true);
          break;
        case 'list':
          expect(entry.group && entry.resource, path).toBeTruthy();
          expect(entry.format).toBe('yaml');
          break;
        case 'namespaced-object':
          expect(entry.namespace && entry.group && entry.resource && entry.name, path).toBeTruthy();
          break;
        case 'cluster-object':
          expect(entry.group && entry.resource && entry.name, path).toBeTruthy();
          expect(entry.namespace).toBeUndefined();
          break;
        case 'host-log':
          expect(entry.node && entry.service, path).toBeTruthy();
          break;
        default:
          break;
      }
    }
  });

  it('sees both a List and single-object files for the same resource (consumers dedupe by uid)', () => {
    const kinds = (suffix: string) =>
      files(aws)
        .filter((path) => path.includes(suffix))
        .map((path) => classifyPath(path).kind);
    expect(kinds('/cluster-scoped-resources/config.openshift.io/clusteroperators')).toContain('list');
    expect(kinds('/cluster-scoped-resources/config.openshift.io/clusteroperators')).toContain('cluster-object');
    expect(kinds('/namespaces/openshift-cluster-node-tuning-operator/apps/daemonsets')).toStrictEqual(
      expect.arrayContaining(['list', 'namespaced-object']),
    );
    expect(kinds('/namespaces/openshift-etcd/')).toStrictEqual(expect.arrayContaining(['list', 'namespaced-object']));
  });

  it.each([
    ['aws', aws, AWS_TOP, AWS_IMG],
    ['metal', metal, METAL_TOP, METAL_IMG],
  ])('detects %s as one must-gather image folder inside a top folder with its own timestamp', (_n, paths, top, img) => {
    const report = detectLayoutReport(paths);
    expect(report.layout).toBe('must-gather');
    expect(report.roots).toStrictEqual([
      {
        path: img,
        layout: 'must-gather',
        entries: expect.any(Number),
        timestamp: `${img}/timestamp`,
        version: `${img}/version`,
        eventFilter: `${img}/event-filter.html`,
      },
    ]);
    expect(report.outerFolders).toStrictEqual([
      { path: top, timestamp: `${top}/timestamp`, eventFilter: `${top}/event-filter.html` },
    ]);
    expect(report.entries).toBe(paths.length);
  });

  it('finds several image folders under one top folder', () => {
    const top = 'must-gather.local.4242';
    const paths = [...rehome(aws, AWS_TOP, top), ...rehome(metal, METAL_TOP, top)];
    const roots = findRoots(paths);
    // Sorted by path: the metal digest (514b…) sorts before the aws one (eede…).
    expect(roots.map((root) => [root.path, root.layout])).toStrictEqual([
      [`${top}/${METAL_IMG.slice(METAL_TOP.length + 1)}`, 'must-gather'],
      [`${top}/${AWS_IMG.slice(AWS_TOP.length + 1)}`, 'must-gather'],
    ]);
    expect(detectLayout(paths)).toBe('must-gather');
  });

  it('finds the roots below a case-folder prefix', () => {
    const prefix = 'case-03123456/must-gather.tar.gz';
    const paths = aws.map((path) => `${prefix}/${path}`);
    const report = detectLayoutReport(paths);
    expect(report.layout).toBe('must-gather');
    expect(report.roots.map((root) => root.path)).toStrictEqual([`${prefix}/${AWS_IMG}`]);
    expect(report.outerFolders.map((folder) => folder.path)).toStrictEqual([`${prefix}/${AWS_TOP}`]);
  });

  it('answers the same incrementally, entry by entry, with add or addClassified', () => {
    const a = new LayoutDetector();
    const b = new LayoutDetector();
    for (const path of metal) {
      a.add(path);
      b.addClassified(classifyPath(path));
    }
    expect(a.report()).toStrictEqual(detectLayoutReport(metal));
    expect(b.report()).toStrictEqual(a.report());
  });

  it('recognises a must-gather image folder even before any marker arrives', () => {
    // In tar order the timestamps come last; the image-folder name alone decides.
    const detector = new LayoutDetector();
    for (const path of aws.slice(0, 50)) detector.add(path);
    expect(detector.layout()).toBe('must-gather');
  });

  it('classifies 200,000 entries quickly', () => {
    const all = files([...aws, ...metal]);
    const paths: string[] = [];
    for (let i = 0; paths.length < 200_000; i++) paths.push(`case-${i % 7}/${all[i % all.length] as string}`);
    const started = performance.now();
    const detector = new LayoutDetector();
    for (const path of paths) detector.add(path);
    const elapsed = performance.now() - started;
    expect(detector.layout()).toBe('must-gather');
    // About 1 µs a path on a laptop; generous bound for slow CI machines.
    expect(elapsed).toBeLessThan(5000);
  });
});

describe('oc adm inspect', () => {
  // `oc adm inspect` writes the same namespaces/ and cluster-scoped-resources/ subtrees.
  const subtree = files(aws)
    .filter((path) => path.startsWith(`${AWS_IMG}/namespaces/openshift-etcd/`) || path.includes('/cluster-scoped-resources/config.openshift.io/'))
    .map((path) => path.slice(AWS_IMG.length + 1));

  it('detects an inspect.local.<random> root', () => {
    const root = 'inspect.local.8461390243151262741';
    const paths = [...subtree.map((path) => `${root}/${path}`), `${root}/timestamp`, `${root}/event-filter.html`];
    const report = detectLayoutReport(paths);
    expect(report.layout).toBe('inspect');
    expect(report.roots).toStrictEqual([
      {
        path: root,
        layout: 'inspect',
        entries: subtree.length,
        timestamp: `${root}/timestamp`,
        version: undefined,
        eventFilter: `${root}/event-filter.html`,
      },
    ]);
    expect(classifyPath(`${root}/namespaces/openshift-etcd/core/pods.yaml`)).toMatchObject({
      kind: 'list',
      root,
      namespace: 'openshift-etcd',
      group: 'core',
      resource: 'pods',
    });
  });

  it('detects a bare inspect dir (custom --dest-dir, or the dir\'s own contents)', () => {
    expect(detectLayout(subtree.map((path) => `etcd-inspect/${path}`))).toBe('inspect');
    expect(detectLayout([...subtree, 'timestamp', 'event-filter.html'])).toBe('inspect');
  });

  it('calls a tree inside a folder named must-gather a must-gather', () => {
    expect(detectLayout(subtree.map((path) => `must-gather.local.77/${path}`))).toBe('must-gather');
  });
});

describe('other layouts', () => {
  const GE = 'artifacts/e2e-aws-ovn/gather-extra/artifacts';
  const gatherExtra = [
    `${GE}/apiservices.json`,
    `${GE}/clusteroperators.json`,
    `${GE}/clusterversion.json`,
    `${GE}/events.json`,
    `${GE}/nodes.json`,
    `${GE}/pods.json`,
    `${GE}/oc_cmds/pods`,
    `${GE}/pods/openshift-etcd_etcd-ip-10-0-187-218.ec2.internal_etcd.log`,
    `${GE}/pods/openshift-etcd_etcd-ip-10-0-187-218.ec2.internal_etcd_previous.log`,
    `${GE}/nodes/ip-10-0-187-218.ec2.internal/journal`,
    `${GE}/metrics/prometheus.tar`,
    `${GE}/junit/junit_install_status.xml`,
  ];

  it('detects gather-extra and its artifacts folder', () => {
    const report = detectLayoutReport(gatherExtra);
    expect(report.layout).toBe('gather-extra');
    expect(report.roots).toStrictEqual([
      { path: GE, layout: 'gather-extra', entries: 10, timestamp: undefined, version: undefined, eventFilter: undefined },
    ]);
  });

  it('detects gather-extra from a lone list file', () => {
    expect(detectLayout(['clusterversion.json'])).toBe('gather-extra');
  });

  it('prefers must-gather when a CI artifacts tree holds both, and reports both roots', () => {
    const mg = aws.map((path) => `artifacts/e2e-aws-ovn/gather-must-gather/artifacts/${path}`);
    const report = detectLayoutReport([...gatherExtra, ...mg]);
    expect(report.layout).toBe('must-gather');
    expect(report.roots.map((root) => root.layout).sort()).toStrictEqual(['gather-extra', 'must-gather']);
  });

  it.each([
    [['cluster-version-operator.log']],
    [['cvo.log']],
    [['case-1/cvo.log', 'case-1/notes.txt']],
  ])('detects a bare log: %j', (paths) => {
    expect(detectLayout(paths)).toBe('bare-log');
  });

  it.each([[[]], [['README.md']], [['/etc/passwd', '../../x']], [['some/dir/']]])('answers unknown: %j', (paths) => {
    expect(detectLayout(paths)).toBe('unknown');
  });

  it('detects the omc fixture archive (an empty namespaces/ folder) as a must-gather', () => {
    // gmeghnag/omc testdata must-gather.tar: `must-gather.sample/event-filter.html`, `must-gather.sample/namespaces/`
    const report = detectLayoutReport(['must-gather.sample/event-filter.html', 'must-gather.sample/namespaces/']);
    expect(report.layout).toBe('must-gather');
    expect(report.roots.map((root) => root.path)).toStrictEqual(['must-gather.sample']);
  });

  it('accepts directory entries without a trailing slash', () => {
    const detector = new LayoutDetector();
    expect(detector.addDirectory('inspect.local.1/namespaces').rule).toBe('tree-dir');
    expect(detector.layout()).toBe('inspect');
  });
});
