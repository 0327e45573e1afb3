/**
 * Issue 18: exits and outputs a pipeline can trust. Each case ran wrong before (a green exit on
 * something that is no archive, a hang, a report of two clusters as one, a log counted twice)
 * and is checked here through the built CLI, as users run it.
 */
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { MG_MINI, packTree, tempDir } from '../helpers/archives.js';

const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;
const SAMPLES = new URL('../../samples/', import.meta.url).pathname;
const HEALTHY = join(SAMPLES, 'healthy.tar.gz');
const OLD_BOOT = join(SAMPLES, 'old-boot-image.tar.gz');

/** The CLI killed after `ms`: a hang shows as a signal, not as a test that never ends. */
function bounded(args: string[], ms = 30_000, cwd?: string) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: ms, killSignal: 'SIGKILL', cwd, maxBuffer: 64 * 1024 * 1024 });
  return { code: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr };
}

describe('no hang when reading stops early', () => {
  // mg-mini and 8 MB after it: more than the pipe from `xz -dc` holds once reading stops.
  const dir = tempDir();
  cpSync(MG_MINI, dir, { recursive: true });
  mkdirSync(join(dir, 'must-gather-aws', 'zz'));
  writeFileSync(join(dir, 'must-gather-aws', 'zz', 'big.log'), randomBytes(8 * 1024 * 1024).toString('base64'));
  const archive = packTree(dir, 'must-gather-aws', dir)['tar.xz'];
  it.each([
    ['analyze', ['analyze', archive, '--max-entries', '12', '--format', 'json', '-o', '-']],
    ['inspect', ['inspect', archive, '--max-entries', '12']],
    ['timeline', ['timeline', archive, '--max-entries', '12', '--no-rules']],
  ])('%s --max-entries on a .tar.xz ends', (_name, args) => {
    const run = bounded(args as string[], 20_000);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
  });
});

describe('-o: output paths are checked before the analysis, each failure one line and exit 2', () => {
  it.each(['/proc/x', '/proc/self/x/y'])('-o %s', (output) => {
    const run = bounded(['analyze', HEALTHY, '-o', output], 15_000);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(new RegExp(`^mgsift: error: -o ${output}: cannot create folder`));
  });

  it('--format md -o /proc/1/x fails in one line, without reading the archive', () => {
    const run = bounded(['analyze', '--format', 'md', '-o', '/proc/1/x', HEALTHY], 15_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mgsift: error: -o \/proc\/1\/x: cannot create folder \/proc\/1\/x/);
  });

  it('a file where a folder is needed is refused before the analysis', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'taken'), 'x');
    const run = bounded(['analyze', HEALTHY, '-o', join(dir, 'taken', 'out')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/a file stands where a folder is needed/);
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  it('an analysis that fails takes away the folders -o made for it, and leaves a folder that was there', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.txt'), 'customer notes\n');
    mkdirSync(join(dir, 'kept'));
    const failing = (output: string) => bounded(['analyze', join(dir, 'notes.txt'), '-o', output]);
    for (const output of [join(dir, 'kept', 'new', 'deeper'), join(dir, 'kept', 'new', 'r.md'), join(dir, 'kept')]) {
      const run = failing(output);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^mgsift: error: .*notes\.txt: no must-gather, inspect or gather-extra tree, and no log/);
      expect(readdirSync(dir).sort()).toEqual(['kept', 'notes.txt']);
      expect(readdirSync(join(dir, 'kept'))).toEqual([]);
    }
  });

  it('-o report.html is a file (its format from the suffix), -o new/r.md makes its folder', () => {
    const dir = tempDir();
    expect(bounded(['analyze', HEALTHY, '-o', 'report.html', '-q'], 30_000, dir).code).toBe(0);
    expect(statSync(join(dir, 'report.html')).isFile()).toBe(true);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    expect(bounded(['analyze', HEALTHY, '-o', 'new/r.md', '-q'], 30_000, dir).code).toBe(0);
    expect(readFileSync(join(dir, 'new', 'r.md'), 'utf8')).toMatch(/^# /);
  });

  it('--format jsonl -o newdir makes the folder and its index.jsonl', () => {
    const dir = tempDir();
    expect(bounded(['analyze', HEALTHY, '--format', 'jsonl', '-o', 'newdir', '-q'], 30_000, dir).code).toBe(0);
    expect(readdirSync(join(dir, 'newdir'))).toEqual(['index.jsonl']);
  });

  it('several archives to one .md file is refused; to one .jsonl file it is a line each', () => {
    const dir = tempDir();
    const refused = bounded(['analyze', HEALTHY, OLD_BOOT, '--format', 'md', '-o', 'two.md'], 30_000, dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/several inputs do not fit one md file/);
    expect(readdirSync(dir)).toEqual([]);
    expect(bounded(['analyze', HEALTHY, OLD_BOOT, '-o', 'all.jsonl', '-q'], 60_000, dir).code).toBe(0);
    expect(readFileSync(join(dir, 'all.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('-o /dev/stdout works as -o -', () => {
    const run = bounded(['analyze', HEALTHY, '--format', 'json', '-o', '/dev/stdout']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).input.path).toBe(HEALTHY);
  });

  it('several JSON reports on stdout are one array; several JUnit documents are refused', () => {
    const json = bounded(['analyze', HEALTHY, OLD_BOOT, '--format', 'json', '-o', '-'], 60_000);
    expect((JSON.parse(json.stdout) as { input: { path: string } }[]).map((r) => r.input.path)).toEqual([HEALTHY, OLD_BOOT]);
    const junit = bounded(['analyze', HEALTHY, OLD_BOOT, '--format', 'junit', '-o', '-']);
    expect(junit.code).toBe(2);
    expect(junit.stderr).toMatch(/several junit reports do not make one document/);
  });
});

describe('input that is no diagnostic archive', () => {
  it('is a failed batch row with the reason, while the other archive is analysed (exit 2)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'random.bin'), randomBytes(100 * 1024));
    const run = bounded(['analyze', HEALTHY, join(dir, 'random.bin'), '--format', 'jsonl', '-o', '-'], 60_000);
    expect(run.code).toBe(2);
    const rows = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { input: string; status: string; error?: string });
    const random = rows.find((row) => row.input.endsWith('random.bin'));
    expect(random?.status).toBe('failed');
    expect(random?.error).toMatch(/no must-gather, inspect or gather-extra tree, and no log: found 1 file of unknown content/);
  });

  it('inspect and timeline say so too (exit 2, one line)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.txt'), 'customer notes\n');
    for (const command of ['inspect', 'timeline']) {
      const run = bounded([command, join(dir, 'notes.txt')]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^mgsift: error: .*found 1 file of unknown content/);
    }
  });
});

describe('two clusters in one input', () => {
  /** A case folder: one cluster's must-gather.tar.gz beside another's unpacked must-gather.local.5/. */
  function twoClusterCase(): string {
    const dir = tempDir();
    const caseDir = join(dir, 'case');
    mkdirSync(caseDir);
    const packed = packTree(MG_MINI, 'must-gather-aws', dir)['tar.gz'];
    cpSync(packed, join(caseDir, 'must-gather.tar.gz'));
    cpSync(join(MG_MINI, 'must-gather-aws'), join(caseDir, 'must-gather.local.5'), { recursive: true });
    const image = readdirSync(join(caseDir, 'must-gather.local.5')).find((name) => name.startsWith('quay-io'))!;
    const version = join(caseDir, 'must-gather.local.5', image, 'cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml');
    writeFileSync(version, readFileSync(version, 'utf8').replace('96eb6c40-16e8-4718-ade6-5d7c6f05e120', '1d754610-c657-4a11-ad51-733c3196dc6c'));
    return caseDir;
  }

  it('analyze refuses one report of two clusters, naming both and how to analyse them apart', () => {
    const caseDir = twoClusterCase();
    const run = bounded(['analyze', caseDir, '--format', 'json', '-o', '-']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/holds 2 clusters \(1d754610-c657-4a11-ad51-733c3196dc6c in must-gather\.local\.5\/quay-io[^,]*, 96eb6c40-16e8-4718-ade6-5d7c6f05e120 in must-gather\.tar\.gz\//);
    expect(run.stderr).toContain(`mgsift analyze ${caseDir}/must-gather.local.5 ${caseDir}/must-gather.tar.gz`);
  });

  it('inspect --json and timeline refuse it too', () => {
    const caseDir = twoClusterCase();
    expect(bounded(['inspect', '--json', caseDir]).stderr).toMatch(/holds 2 clusters/);
    expect(bounded(['timeline', caseDir, '--no-rules']).stderr).toMatch(/holds 2 clusters/);
  });

  it('inspect expands a folder of archives as analyze does; --json is always an array', () => {
    const dir = tempDir();
    cpSync(HEALTHY, join(dir, 'a.tar.gz'));
    cpSync(OLD_BOOT, join(dir, 'b.tar.gz'));
    const many = bounded(['inspect', '--json', dir]);
    expect(many.code).toBe(0);
    expect((JSON.parse(many.stdout) as { input: { path: string } }[]).map((r) => r.input.path)).toEqual([join(dir, 'a.tar.gz'), join(dir, 'b.tar.gz')]);
    const one = bounded(['inspect', '--json', HEALTHY]);
    expect(JSON.parse(one.stdout)).toHaveLength(1);
    const timeline = bounded(['timeline', dir, '--no-rules']);
    expect(timeline.code).toBe(2);
    expect(timeline.stderr).toMatch(/is a folder of 2 archives; a timeline is of one/);
  });
});

describe('list options do not eat the input', () => {
  it('analyze --only cvo <input>, --only a,b and repeated --exclude', () => {
    const run = bounded(['analyze', '--only', 'cvo-final-sync-lost', HEALTHY, '--format', 'json', '-o', '-']);
    expect(run.code).toBe(0);
    const listed = bounded(['analyze', '--only', 'cvo-final-sync-lost,clusterversion-failing', '--exclude', 'clusterversion-failing', '--exclude', 'cvo', HEALTHY, '--format', 'json', '-o', '-']);
    expect(listed.code).toBe(0);
  });

  it('timeline --lane operator <input>', () => {
    const run = bounded(['timeline', '--lane', 'operator', HEALTHY, '--no-rules', '--format', 'json']);
    expect(run.code).toBe(0);
    expect(new Set((JSON.parse(run.stdout) as { items: { lane: string }[] }).items.map((item) => item.lane))).toEqual(new Set(['operator']));
  });
});

describe('one logical log per namespace, pod, container and stream', () => {
  const CVO_POD = 'cluster-version-operator-849b4dcf9c-dl6zb';
  const imageOf = (mg: string): string => readdirSync(mg).find((name) => name.startsWith('quay-io'))!;
  const CVO_LOG = `namespaces/openshift-cluster-version/pods/${CVO_POD}/cluster-version-operator/cluster-version-operator/logs/current.log`;
  const cvoLog = (mg: string): string => join(mg, imageOf(mg), CVO_LOG);

  interface Report {
    digest?: { lines: number };
    problems: { path: string; reason: string }[];
    findings: { evidence: { signal: string; file: string; line?: number; text: string }[] }[];
  }
  const report = (input: string): Report => JSON.parse(bounded(['analyze', input, '--format', 'json', '-o', '-', '--fail-on', 'critical']).stdout) as Report;

  it("a Prow job's gather-extra and must-gather copies of a pod log are read once", () => {
    const dir = tempDir();
    const mg = join(dir, 'artifacts/e2e/gather-must-gather/artifacts/must-gather-aws');
    cpSync(join(MG_MINI, 'must-gather-aws'), mg, { recursive: true });
    const pods = join(dir, 'artifacts/e2e/gather-extra/artifacts/pods');
    mkdirSync(pods, { recursive: true });
    cpSync(cvoLog(mg), join(pods, `openshift-cluster-version_${CVO_POD}_cluster-version-operator.log`));
    const alone = report(MG_MINI);
    const both = report(dir);
    expect(both.digest?.lines).toBe(alone.digest?.lines);
    const skipped = both.problems.filter((p) => p.reason.startsWith('skipped as duplicate'));
    expect(skipped.map((p) => p.path)).toEqual([cvoLog(mg).slice(dir.length + 1)]);
    expect(skipped[0]!.reason).toContain(`(openshift-cluster-version/${CVO_POD}/cluster-version-operator, current) was read from artifacts/e2e/gather-extra/artifacts/pods/`);
    for (const finding of both.findings) {
      // A line read from both copies would be the same signal, line and text (only its path differs).
      const places = finding.evidence.filter((e) => e.line !== undefined).map((e) => `${e.signal} ${e.line} ${e.text}`);
      expect(new Set(places).size).toBe(places.length);
    }
  });

  it("an inspect's current.insecure.log is read beside current.log; a gather-extra .log.gz of the same log is skipped", () => {
    const dir = tempDir();
    const inspect = join(dir, 'inspect.local.5012345');
    const image = join(MG_MINI, 'must-gather-aws', imageOf(join(MG_MINI, 'must-gather-aws')));
    cpSync(join(image, 'namespaces', 'openshift-cluster-version'), join(inspect, 'namespaces', 'openshift-cluster-version'), { recursive: true });
    cpSync(join(image, 'timestamp'), join(inspect, 'timestamp'));
    const current = join(inspect, CVO_LOG);
    const insecure = current.replace(/current\.log$/, 'current.insecure.log');
    writeFileSync(insecure, '2021-08-03T10:00:00.000Z insecure fetch, line 1\n2021-08-03T10:00:01.000Z insecure fetch, line 2\n');
    const pods = join(dir, 'prow/gather-extra/artifacts/pods');
    mkdirSync(pods, { recursive: true });
    writeFileSync(join(pods, `openshift-cluster-version_${CVO_POD}_cluster-version-operator.log.gz`), gzipSync(readFileSync(current)));
    const run = bounded(['inspect', dir, '--json']);
    expect(run.code).toBe(0);
    const [facts] = JSON.parse(run.stdout) as [{ cvoPods: { file: string }[]; podLogs: number; problems: { path: string; reason: string }[] }];
    const relative = (file: string): string => file.slice(dir.length + 1);
    expect(facts.cvoPods.map((p) => p.file)).toEqual(expect.arrayContaining([relative(current), relative(insecure)]));
    expect(facts.problems.map((p) => `${p.path}: ${p.reason}`)).toEqual([
      `prow/gather-extra/artifacts/pods/openshift-cluster-version_${CVO_POD}_cluster-version-operator.log.gz: skipped as duplicate: the same log (openshift-cluster-version/${CVO_POD}/cluster-version-operator, current) was read from ${relative(current)}`,
    ]);
    expect(facts.podLogs).toBe(3); // current, current.insecure and previous
  });

  it('two image roots of one must-gather whose namespaces overlap count each log once', () => {
    const dir = tempDir();
    const mg = join(dir, 'must-gather-aws');
    cpSync(join(MG_MINI, 'must-gather-aws'), mg, { recursive: true });
    const image = imageOf(mg);
    cpSync(join(mg, image, 'namespaces'), join(mg, `${image.replace(/sha256-\w+$/, 'sha256-')}${'0'.repeat(64)}`, 'namespaces'), { recursive: true });
    const alone = report(MG_MINI);
    const both = report(dir);
    expect(both.digest?.lines).toBe(alone.digest?.lines);
    expect(both.problems.filter((p) => p.reason.startsWith('skipped as duplicate')).length).toBeGreaterThan(0);
  });
});

describe('a rule over skipped input is not checked, never passed', () => {
  interface Report {
    passed: { ruleId: string }[];
    notChecked: { ruleId: string; reason: string }[];
  }
  const report = (args: string[]): Report => JSON.parse(bounded(['analyze', ...args, '--format', 'json', '-o', '-', '--fail-on', 'critical'], 60_000).stdout) as Report;

  it('--max-entry-bytes skipping events.yaml: events-failed-scheduling is not checked, naming the file', () => {
    const r = report([HEALTHY, '--max-entry-bytes', '1K']);
    expect(r.passed.map((p) => p.ruleId)).not.toContain('events-failed-scheduling');
    const events = r.notChecked.find((n) => n.ruleId === 'events-failed-scheduling');
    expect(events?.reason).toMatch(/^part of its input was not read: .*events\.yaml: entry of \d+ bytes skipped \(--max-entry-bytes 1024\)/);
  });

  it('a truncated .tar.xz passes no rule that reads logs, objects or events', () => {
    const dir = tempDir();
    const whole = readFileSync(packTree(MG_MINI, 'must-gather-aws', dir)['tar.xz']);
    writeFileSync(join(dir, 'cut.tar.xz'), whole.subarray(0, Math.floor(whole.length / 2)));
    const r = report([join(dir, 'cut.tar.xz')]);
    const unread = r.notChecked.filter((n) => n.reason.startsWith('part of its input was not read: the input was read only up to '));
    expect(unread.length).toBeGreaterThan(0);
    expect(r.passed.map((p) => p.ruleId)).not.toContain('pod-crashlooping');
  });
});

describe('an oc adm inspect of one namespace: rules over every namespace are checked in part, never passed', () => {
  interface Report {
    banners: string[];
    findings: { ruleId: string }[];
    passed: { ruleId: string }[];
    checkedInPart: { ruleId: string; reason: string }[];
    notChecked: { ruleId: string; reason: string }[];
  }
  // What `oc adm inspect ns/openshift-cluster-version` writes: the namespace's subtree of a real
  // must-gather (must-gather runs the same inspect), beside the timestamp, under inspect.local.<n>.
  const inspectOfOneNamespace = (): string => {
    const dir = tempDir();
    const image = join(MG_MINI, 'must-gather-aws', readdirSync(join(MG_MINI, 'must-gather-aws')).find((name) => name.startsWith('quay-io'))!);
    const root = join(dir, 'inspect.local.5012345');
    cpSync(join(image, 'namespaces'), join(root, 'namespaces'), { recursive: true });
    cpSync(join(image, 'timestamp'), join(root, 'timestamp'));
    return dir;
  };
  const json = (args: string[]): Report => JSON.parse(bounded(['analyze', ...args, '--format', 'json', '-o', '-', '--fail-on', 'critical']).stdout) as Report;
  const SCOPE = 'nothing found in what was gathered, but Pod objects of namespaces other than openshift-cluster-version were not gathered (an oc adm inspect holds only what it was asked for)';

  it('pod-crashlooping is checked in part, naming what was not gathered; a rule of a namespace not gathered is not checked; a rule that fired fires', () => {
    const r = json([inspectOfOneNamespace()]);
    expect(r.passed.map((p) => p.ruleId)).not.toContain('pod-crashlooping');
    expect(r.checkedInPart).toContainEqual(expect.objectContaining({ ruleId: 'pod-crashlooping', reason: SCOPE }));
    // Every rule over every namespace is in that list (logs and events of other namespaces too), each saying so.
    // (A rule over Namespace objects, cluster-scoped, says which objects may exist beyond those gathered.)
    for (const part of r.checkedInPart) {
      expect(part.reason).toMatch(/^nothing found in what was gathered, but (.* of namespaces other than openshift-cluster-version were not gathered|Namespace objects other than those gathered may exist)/);
    }
    expect(r.banners).toContain(`${r.checkedInPart.length} rule(s) found nothing, but only part of what they look at was gathered (an oc adm inspect holds only what it was asked for); see "Rules checked in part".`);
    // Its pods signal is of openshift-ovn-kubernetes, which this inspect does not hold: not passed either.
    expect(r.notChecked.find((n) => n.ruleId === 'ovn-leader-churn')?.reason).toMatch(/the archive lacks Pod objects \(core\/pods in namespace openshift-ovn-kubernetes\)/);
    expect(r.findings.map((f) => f.ruleId)).toContain('events-failed-scheduling');
  });

  it('every format says so: Markdown and HTML sections, a JUnit skip, the batch row count', () => {
    const input = inspectOfOneNamespace();
    const md = bounded(['analyze', input, '--format', 'md', '-o', '-']).stdout;
    expect(md).toContain('## Rules checked in part');
    expect(md).toMatch(/\| pod-crashlooping \| [^|]+ \| nothing found in what was gathered, but Pod objects of namespaces other than openshift-cluster-version/);
    const out = tempDir();
    expect(bounded(['analyze', input, '--format', 'html', '-o', join(out, 'r.html')]).code).toBe(0);
    expect(readFileSync(join(out, 'r.html'), 'utf8')).toMatch(/id="checked-in-part"[\s\S]*pod-crashlooping[\s\S]*were not gathered/);
    const junit = bounded(['analyze', input, '--format', 'junit', '-o', '-']).stdout;
    expect(junit).toMatch(/<testcase classname="mgsift.workloads" name="pod-crashlooping: [^"]+" time="0">\s*<skipped message="checked in part: nothing found in what was gathered/);
    const rows = bounded(['analyze', input, HEALTHY, '--format', 'jsonl', '-o', '-'], 60_000).stdout.trim().split('\n').map((line) => JSON.parse(line) as { input: string; status: string; checkedInPart?: number });
    expect(rows.find((row) => row.input === input)).toMatchObject({ status: 'ok', checkedInPart: json([input]).checkedInPart.length });
    expect(rows.find((row) => row.input === HEALTHY)).toMatchObject({ status: 'ok', checkedInPart: 0 });
  });

  it('the same namespace in a must-gather (gathered whole by design) passes; a crash-looping pod in an inspect still fires', () => {
    const whole = json([MG_MINI]);
    expect(whole.passed.map((p) => p.ruleId)).toContain('pod-crashlooping');
    expect(whole.checkedInPart).toEqual([]);
    const crashing = json([new URL('../../rules/ovn/ovn-leader-churn.fixtures/fires-seed-inspect/input/', import.meta.url).pathname]);
    expect(crashing.findings.map((f) => f.ruleId)).toEqual(expect.arrayContaining(['pod-crashlooping', 'ovn-leader-churn']));
    expect(crashing.checkedInPart.map((n) => n.ruleId)).not.toContain('pod-crashlooping');
  });
});

describe('a log cut by --max-entry-bytes: the part after the cut is unread', () => {
  interface Report {
    findings: { ruleId: string; evidence: { file: string; line?: number }[] }[];
    passed: { ruleId: string }[];
    notChecked: { ruleId: string; reason: string }[];
    problems: { path: string; reason: string }[];
  }
  /** A copy of mg-mini, and the path of its CVO pod's current log. */
  const miniWithCvoLog = (): { mg: string; log: string } => {
    const dir = tempDir();
    cpSync(MG_MINI, dir, { recursive: true });
    const mg = join(dir, 'must-gather-aws');
    const image = readdirSync(mg).find((name) => name.startsWith('quay-io'))!;
    return { mg, log: join(mg, image, 'namespaces/openshift-cluster-version/pods/cluster-version-operator-849b4dcf9c-dl6zb/cluster-version-operator/cluster-version-operator/logs/current.log') };
  };
  const CUT = /^cut at 20480 bytes \(--max-entry-bytes 20480\): the first 20480 bytes were read, the rest of the entry was not$/;

  it('a gzipped pod log over the limit is read up to it, named in "What could not be read", and its rules are not checked', () => {
    const { mg, log } = miniWithCvoLog();
    writeFileSync(`${log}.gz`, gzipSync(readFileSync(log)));
    rmSync(log);
    const run = bounded(['analyze', mg, '--max-entry-bytes', '20K', '--format', 'json', '-o', '-', '--fail-on', 'critical']);
    const r = JSON.parse(run.stdout) as Report;
    const cut = r.problems.find((p) => p.path.endsWith('logs/current.log.gz'));
    expect(cut?.reason).toMatch(CUT);
    // Before: "gzip entry unreadable", and the rule said the archive lacks CVO logs.
    const rejected = r.notChecked.find((n) => n.ruleId === 'cvo-status-rejected-capabilities');
    expect(rejected?.reason).toMatch(/^part of its input was not read: .*logs\/current\.log\.gz: cut at 20480 bytes/);
    expect(r.passed.map((p) => p.ruleId)).not.toContain('cvo-status-rejected-capabilities');
    const md = bounded(['analyze', mg, '--max-entry-bytes', '20K', '--format', 'md', '-o', '-', '--fail-on', 'critical']).stdout;
    expect(md).toMatch(/current\.log\.gz[^\n]*cut at 20480 bytes \(--max-entry-bytes 20480\): the first 20480 bytes were read/);
  });

  it('a line cut at --max-line-bytes: the rules reading that log are not checked (the rest of the line was not read)', () => {
    const { mg, log } = miniWithCvoLog();
    writeFileSync(log, `${readFileSync(log, 'utf8')}2021-08-03T10:00:00.000000000Z E0803 10:00:00.000000       1 task.go:112] ${'x'.repeat(2000)} end\n`);
    const r = JSON.parse(bounded(['analyze', mg, '--max-line-bytes', '1K', '--format', 'json', '-o', '-', '--fail-on', 'critical']).stdout) as Report;
    expect(r.problems.find((p) => p.path.endsWith('logs/current.log'))?.reason).toBe('1 line(s) longer than 1024 bytes cut (--max-line-bytes): the rest of each was not read');
    expect(r.passed.map((p) => p.ruleId)).not.toContain('cvo-status-rejected-capabilities');
    expect(r.notChecked.find((n) => n.ruleId === 'cvo-status-rejected-capabilities')?.reason).toMatch(/^part of its input was not read: .*logs\/current\.log: 1 line\(s\) longer than 1024 bytes cut/);
  });

  it('a rule that fired on the part read still fires; one whose line lies past the cut is not checked', () => {
    const dir = tempDir();
    const klog = (n: number, text: string): string => `E0803 09:${String(10 + Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000000       1 app.go:12] ${text}`;
    const lines = [klog(0, 'early marker: disk full')];
    for (let i = 1; i < 600; i++) lines.push(klog(i, `ordinary line ${i} ${'x'.repeat(60)}`));
    lines.push(klog(600, 'late marker: disk full'));
    writeFileSync(join(dir, 'app.log.gz'), gzipSync(`${lines.join('\n')}\n`));
    const rules = join(dir, 'rules');
    mkdirSync(rules);
    for (const which of ['early', 'late']) {
      writeFileSync(
        join(rules, `${which}.yaml`),
        [`id: ${which}-marker`, `title: The ${which} marker`, 'severity: warning', 'status: experimental', 'component: test', 'signals:', `  marker: { log: { files: [{ bare: true }], regex: "${which} marker" } }`, 'message: marker seen'].join('\n'),
      );
    }
    const run = bounded(['analyze', join(dir, 'app.log.gz'), '--rules', rules, '--only', 'early-marker,late-marker', '--max-entry-bytes', '20K', '--format', 'json', '-o', '-', '--fail-on', 'warning']);
    const r = JSON.parse(run.stdout) as Report;
    expect(r.findings.map((f) => [f.ruleId, f.evidence[0]?.line])).toEqual([['early-marker', 1]]);
    expect(r.notChecked).toEqual([expect.objectContaining({ ruleId: 'late-marker', reason: expect.stringMatching(/^part of its input was not read: app\.log\.gz: cut at 20480 bytes/) })]);
    expect(r.problems).toEqual([expect.objectContaining({ path: 'app.log.gz', reason: expect.stringMatching(CUT) })]);
    expect(run.code).toBe(1);
  });
});

describe('reports say what did not run or could not be checked', () => {
  it('--only names the selection and the rules left out, in JSON, Markdown and JUnit', () => {
    const json = JSON.parse(bounded(['analyze', HEALTHY, '--only', 'cvo', '--format', 'json', '-o', '-']).stdout) as {
      selection: { only: string[]; leftOut: string[] };
      banners: string[];
    };
    expect(json.selection.only).toEqual(['cvo']);
    expect(json.selection.leftOut).toContain('pod-crashlooping');
    expect(json.selection.leftOut).toContain('clusteroperator-degraded');
    expect(json.banners.join('\n')).toMatch(/Rules selected with --only cvo: \d+ rule\(s\) of the pack did not run \([a-z0-9-]+, /);
    const md = bounded(['analyze', HEALTHY, '--only', 'cvo', '--format', 'md', '-o', '-']).stdout;
    expect(md).not.toContain('Every rule could be evaluated.');
    expect(md).toMatch(/Rules selected with --only cvo/);
    expect(bounded(['analyze', HEALTHY, '--exclude', 'cvo', '--format', 'junit', '-o', '-']).stdout).toMatch(/Rules selected with --exclude cvo/);
  });

  it('a batch row carries its not-checked count, and "nothing-checked" when no rule could be checked', () => {
    const dir = tempDir();
    const ns = join(dir, 'bare-mg', 'must-gather.local.1', `quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-${'0'.repeat(64)}`, 'namespaces/foo/core');
    mkdirSync(ns, { recursive: true });
    writeFileSync(join(ns, 'configmaps.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: foo\n');
    const run = bounded(['analyze', join(dir, 'bare-mg'), HEALTHY, '--format', 'jsonl', '-o', '-'], 60_000);
    const rows = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { input: string; status: string; notChecked?: number; error?: string });
    const empty = rows.find((row) => row.input.endsWith('bare-mg'))!;
    expect(empty.status).toBe('nothing-checked');
    expect(empty.error).toMatch(/^no rule could be checked \(\d+ not checked: /);
    expect(empty.notChecked).toBeGreaterThan(10);
    const healthy = rows.find((row) => row.input === HEALTHY)!;
    expect(healthy.status).toBe('ok');
    expect(typeof healthy.notChecked).toBe('number');
  });

  it('a mistyped --rules is exit 2 with the path, for analyze and rules list', () => {
    for (const args of [['analyze', HEALTHY, '--rules', '/nonexistent/rules', '-o', '-', '--format', 'json'], ['rules', 'list', '--rules', '/nonexistent/rules']]) {
      const run = bounded(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('mgsift: error: --rules /nonexistent/rules: no such folder\n');
    }
  });
});

describe('an input on which no rule could be checked is no green', () => {
  const emptyTree = (): string => {
    const dir = tempDir();
    const ns = join(dir, 'bare-mg', 'must-gather.local.1', `quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-${'0'.repeat(64)}`, 'namespaces/foo/core');
    mkdirSync(ns, { recursive: true });
    writeFileSync(join(ns, 'configmaps.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: foo\n');
    return join(dir, 'bare-mg');
  };

  it('exit 2 with one line saying why, and the report is still written', () => {
    const input = emptyTree();
    const out = tempDir();
    const run = bounded(['analyze', input, '-o', out, '--quiet']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^mgsift: error: ${input}: no rule could be checked \\(\\d+ not checked: [a-z0-9-]+: the archive lacks [^\\n]*; and \\d+ more; update-risk data not given: 2 rules not run [^\\n]*\\)\\n$`));
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { notChecked: unknown[]; passed: unknown[] };
    expect(report.notChecked.length).toBeGreaterThan(10);
    expect(report.passed).toEqual([]);
    expect(readdirSync(out).sort()).toEqual(['report.html', 'report.json']);
    // The diagnosis never says "no problem found" about what it never read.
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('Nothing checked: no rule could be checked on this input');
    expect(html).not.toContain('No problem found');
    const text = bounded(['analyze', input, '--format', 'text']);
    expect(text.stdout).toMatch(/\nNothing checked: no rule could be checked on this input, so this report says nothing about the cluster's health/);
  });

  it('--only a rule whose input is absent: exit 2 naming it; with its input: exit as usual', () => {
    const run = bounded(['analyze', HEALTHY, '--only', 'update-risk-applies', '--format', 'json', '-o', '-']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mgsift: error: .*healthy\.tar\.gz: no rule could be checked \(update-risk data not given: 1 rule not run \(update-risk-applies\); use --update-risks DIR/);
    const report = JSON.parse(run.stdout) as { notChecked: unknown[]; notRun: unknown[] };
    expect(report.notChecked).toHaveLength(0);
    expect(report.notRun).toHaveLength(1);
    expect(bounded(['analyze', HEALTHY, '--only', 'pod-crashlooping', '--format', 'json', '-o', '-']).code).toBe(0);
  });

  it('in a batch: named on stderr, the exit left to the others; 2 when no archive had a rule checked', () => {
    const input = emptyTree();
    const mixed = bounded(['analyze', input, HEALTHY, '--format', 'jsonl', '-o', '-'], 60_000);
    expect(mixed.code).toBe(0);
    expect(mixed.stderr).toMatch(new RegExp(`^mgsift: error: ${input}: no rule could be checked \\(`));
    expect(mixed.stderr.trim().split('\n')).toHaveLength(1);
    const failing = bounded(['analyze', input, join(SAMPLES, 'mco-ignition-rollback.tar.gz'), '--format', 'jsonl', '-o', '-'], 60_000);
    expect(failing.code).toBe(1);
    const none = bounded(['analyze', input, join(tempDir(), 'gone.tar.gz'), '--format', 'jsonl', '-o', '-'], 60_000);
    expect(none.code).toBe(2);
    expect(none.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { status: string }).status)).toEqual(['nothing-checked', 'failed']);
  });
});

describe('messages say what happened', () => {
  it('a truncated .tar.xz is never blamed on --max-parse-bytes', () => {
    const dir = tempDir();
    const whole = readFileSync(packTree(MG_MINI, 'must-gather-aws', dir)['tar.xz']);
    for (const share of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8]) {
      writeFileSync(join(dir, 'cut.tar.xz'), whole.subarray(0, Math.floor(whole.length * share)));
      const run = bounded(['analyze', join(dir, 'cut.tar.xz'), '--format', 'json', '-o', '-', '--fail-on', 'critical']);
      const report = JSON.parse(run.stdout) as { problems: { reason: string }[]; banners: string[] };
      expect(report.problems.map((p) => p.reason).join('\n'), `cut at ${share}`).not.toContain('--max-parse-bytes');
      expect(report.banners.join('\n')).toMatch(/The input is truncated or corrupt/);
    }
  });
});

describe('a stop at a limit is headed as one', () => {
  it('--max-entries: "Reading stopped at a limit", not "truncated or corrupt"', () => {
    const report = JSON.parse(bounded(['analyze', HEALTHY, '--max-entries', '10', '--format', 'json', '-o', '-', '--fail-on', 'critical']).stdout) as { banners: string[] };
    const banners = report.banners.join('\n');
    expect(banners).toMatch(/Reading stopped at a limit \(more than 10 entries: the rest was not read \(--max-entries\)\)/);
    expect(banners).not.toMatch(/truncated or corrupt/);
  });
});
