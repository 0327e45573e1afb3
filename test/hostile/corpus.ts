/**
 * The hostile corpus (issue 6): every case is built at test time into a folder of its own, small
 * on disk (bombs are repeated compressed members, the 200 MB line is a sparse file), and states
 * the exit code mgsift must end with and what its report (or its one stderr line) must say.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, linkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { MG_MINI, packTree } from '../helpers/archives.js';
import { overlappingZipBomb, zipBuffer } from '../helpers/zip.js';
import {
  IMAGE,
  mgMiniMembers,
  mgMiniWith,
  tarBuffer,
  tarHeaderOffsets,
  ustarHeader,
  writeGzipBomb,
  writeSparse,
  writeTar,
  writeXzBomb,
  type TarMember,
} from './build.js';

export interface BuiltCase {
  input: string;
  /** Extra command-line arguments (user rules, limits). */
  args?: string[];
}

export interface HostileCase {
  name: string;
  build(dir: string): Promise<BuiltCase>;
  /** Exit code the case must end with (README: 0 no finding at --fail-on, 1 findings, 2 input/usage error or no rule checked). */
  exit: 0 | 1 | 2;
  /** What was read let no rule be checked: exit 2 with that line, and the report is still written. */
  nothingChecked?: true;
  /** The archive is cut or corrupt: exit 2 with that line, and the report of the part read is still written. */
  cut?: true;
  /**
   * What must be said: for exit 2 the one stderr line; otherwise the report's banners, which
   * list what was skipped and why.
   */
  says?: RegExp;
  /** A finding whose message must match (a rule's own failure is shown in its finding). */
  finding?: RegExp;
}

/** Script and markup payloads, as they would come from a cluster's objects and logs. */
export const PAYLOADS = [
  '<script>alert("mgsift-xss-1")</script>',
  '<img src=x onerror=alert("mgsift-xss-2")>',
  '"><svg onload=alert("mgsift-xss-3")>',
  "javascript:alert('mgsift-xss-4')",
  '{{constructor.constructor("alert(5)")()}}',
  '<a href="https://evil.example/x">click</a>',
] as const;

const CVO_LOG = `${IMAGE}/namespaces/openshift-cluster-version/pods/cluster-version-operator-849b4dcf9c-dl6zb/cluster-version-operator/cluster-version-operator/logs/current.log`;
const CLUSTER_VERSION = `${IMAGE}/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml`;
const OPERATORS = `${IMAGE}/cluster-scoped-resources/config.openshift.io/clusteroperators`;
const PODS = `${IMAGE}/namespaces/openshift-cluster-version/core/pods.yaml`;
const HOSTILE_NAMES = ['../../etc/passwd', '/etc/passwd', 'C:\\Windows\\System32\\drivers\\etc\\hosts', '..\\..\\evil.txt', `${IMAGE}/../../../escape.yaml`];
const GATHER_EXTRA = 'artifacts/e2e-aws/gather-extra/artifacts';
const MIB = 1024 * 1024;

/** A ClusterOperator that is Degraded with `message` (the rule quotes it as evidence). */
export function degradedOperator(name: string, message: string): string {
  return [
    'apiVersion: config.openshift.io/v1',
    'kind: ClusterOperator',
    'metadata:',
    `  name: ${JSON.stringify(name)}`,
    'status:',
    '  conditions:',
    '  - type: Degraded',
    '    status: "True"',
    '    lastTransitionTime: "2021-08-03T09:30:00Z"',
    `    reason: ${JSON.stringify(name)}`,
    `    message: ${JSON.stringify(message)}`,
    '  - type: Available',
    '    status: "True"',
    '    lastTransitionTime: "2021-08-03T09:30:00Z"',
    '',
  ].join('\n');
}

/**
 * mg-mini carrying the payloads where a report quotes archive text: a Degraded ClusterOperator's
 * name, reason and message (clusteroperator-degraded quotes them), a CVO log line that
 * cvo-status-rejected-capabilities quotes as evidence, and a broken file whose name is markup
 * (listed under "What could not be read").
 */
export function payloadMembers(): TarMember[] {
  const cvoLog = readFileSync(join(MG_MINI, CVO_LOG), 'utf8');
  const rejected =
    'I0803 10:00:00.000000       1 cvo.go:601] Error handling openshift-cluster-version/version: ClusterVersion.config.openshift.io "version" is invalid: ' +
    'status.capabilities.enabledCapabilities[0]: Unsupported value: "<img src=x onerror=alert(7)>": supported values: "<script>alert(8)</script>", "Console"\n';
  return mgMiniWith(
    { name: `${OPERATORS}/payload.yaml`, data: degradedOperator(PAYLOADS[2], PAYLOADS.join(' ')) },
    { name: CVO_LOG, data: `${cvoLog}${rejected}` },
    { name: `${OPERATORS}/${PAYLOADS[1]}.yaml`, data: 'kind: [ClusterOperator\n' },
  );
}

/** A `kind: List` of Pods as must-gather writes it, `size` bytes, streamed (never whole in memory). */
function podList(size: number): TarMember {
  function* chunks(): Generator<Buffer> {
    let left = size;
    let block = 'apiVersion: v1\nkind: List\nitems:\n';
    for (let i = 0; ; i++) {
      // a uid per item keeps the compression ratio real (~10:1), under the bomb guard
      const item =
        `- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: pod-${i}\n    namespace: openshift-cluster-version\n    uid: ${(Math.imul(i, 2654435761) >>> 0).toString(16)}\n` +
        `    labels:\n      app: x${i % 7}\n  spec:\n    containers:\n    - name: c\n      image: quay.io/x/y:${i % 13}\n` +
        `  status:\n    phase: Running\n    containerStatuses:\n    - name: c\n      restartCount: ${i % 3}\n      ready: true\n`;
      if (block.length + item.length > left) {
        yield Buffer.from(block.padEnd(left, '\n'));
        return;
      }
      block += item;
      if (block.length >= 64 * 1024) {
        left -= block.length;
        yield Buffer.from(block);
        block = '';
      }
    }
  }
  return { name: PODS, stream: { size, chunks: chunks() } };
}

async function tarCase(dir: string, name: string, members: Iterable<TarMember>): Promise<BuiltCase> {
  const input = join(dir, name);
  await writeTar(input, members);
  return { input };
}

/** mg-mini packed four ways, the archive cut in half. */
function truncated(kind: 'tar.gz' | 'tar.xz' | 'zip'): HostileCase {
  return {
    name: `truncated .${kind}`,
    exit: 2,
    // A zip cut anywhere loses its central directory: nothing can be read, so there is no report.
    ...(kind === 'zip' ? {} : { cut: true as const }),
    says: kind === 'zip' ? /truncated\.zip: input unreadable: zip: End of central directory record signature not found/ : /The input is truncated or corrupt \((gzip|xz): [^)]+\): \d+ entries and .* of its uncompressed stream were read, up to /,
    async build(dir) {
      const files = packTree(MG_MINI, 'must-gather-aws', dir);
      const whole = readFileSync(files[kind]);
      const input = join(dir, `truncated.${kind}`);
      writeFileSync(input, whole.subarray(0, Math.floor(whole.length / 2)));
      return { input };
    },
  };
}

/** A user rule folder holding `files` (name → YAML text). */
function rulesCase(files: Record<string, string>): (dir: string) => Promise<BuiltCase> {
  return async (dir) => {
    const rules = join(dir, 'rules');
    mkdirSync(rules);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(rules, name), text);
    return { input: MG_MINI, args: ['--rules', rules] };
  };
}

function rule(id: string, extra: string, regex = 'Payload loaded'): string {
  return [
    `id: ${id}`,
    'title: hostile test rule',
    'severity: warning',
    'status: experimental',
    'component: test',
    'signals:',
    '  line:',
    '    log:',
    '      files: [{ namespace: openshift-cluster-version }]',
    `      regex: '${regex}'`,
    'message: "seen {{signals.line.count}}"',
    extra,
    '',
  ].join('\n');
}

/** No diagnostic archive at all (issue 18): exit 2 with one line that says what was found instead. */
function notAnArchive(name: string, says: RegExp, build: (dir: string) => string): HostileCase {
  return { name, exit: 2, says, build: async (dir) => ({ input: build(dir) }) };
}

const NOTHING = 'no must-gather, inspect or gather-extra tree, and no log: found';

const NOT_ARCHIVES: readonly HostileCase[] = [
  notAnArchive('an empty file', new RegExp(`${NOTHING} an empty file$`), (dir) => {
    writeFileSync(join(dir, 'empty.tar.gz'), '');
    return join(dir, 'empty.tar.gz');
  }),
  notAnArchive('100 KB of random bytes', new RegExp(`${NOTHING} 1 file of unknown content \\(its first lines carry no log times or klog headers\\)$`), (dir) => {
    writeFileSync(join(dir, 'random.bin'), randomBytes(100 * 1024));
    return join(dir, 'random.bin');
  }),
  notAnArchive('a text file named .tar.gz', new RegExp(`${NOTHING} 1 file of unknown content`), (dir) => {
    writeFileSync(join(dir, 'must-gather.tar.gz'), 'Please find the must-gather attached to the case.\nThanks\n');
    return join(dir, 'must-gather.tar.gz');
  }),
  notAnArchive('a 10-byte gzip header', new RegExp(`${NOTHING} 1 file that could not be read; .*unexpected end of file`), (dir) => {
    writeFileSync(join(dir, 'cut.tar.gz'), Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]));
    return join(dir, 'cut.tar.gz');
  }),
  notAnArchive('an empty folder', new RegExp(`${NOTHING} nothing$`), (dir) => {
    mkdirSync(join(dir, 'case'));
    return join(dir, 'case');
  }),
  notAnArchive('a folder of readme.txt and sub/a.yaml', new RegExp(`${NOTHING} 2 files of unknown content$`), (dir) => {
    mkdirSync(join(dir, 'case', 'sub'), { recursive: true });
    writeFileSync(join(dir, 'case', 'readme.txt'), 'see attached\n');
    writeFileSync(join(dir, 'case', 'sub', 'a.yaml'), 'a: 1\n');
    return join(dir, 'case');
  }),
  notAnArchive('a folder whose only archive is a FIFO', new RegExp(`${NOTHING} 1 link or special file, not followed; must-gather.tar.gz: device, FIFO`), (dir) => {
    mkdirSync(join(dir, 'case'));
    execFileSync('mkfifo', [join(dir, 'case', 'must-gather.tar.gz')]);
    return join(dir, 'case');
  }),
  notAnArchive('a folder whose only archive is a dangling symlink', new RegExp(`${NOTHING} 1 link or special file, not followed; must-gather.tar.gz: symlink`), (dir) => {
    mkdirSync(join(dir, 'case'));
    symlinkSync(join(dir, 'gone.tar.gz'), join(dir, 'case', 'must-gather.tar.gz'));
    return join(dir, 'case');
  }),
  notAnArchive('a sosreport .tar.xz', new RegExp(`${NOTHING} 1 .log file without log times or klog headers, 2 files of unknown content$`), (dir) => {
    const root = join(dir, 'sos', 'sosreport-node1-2021-08-03');
    for (const sub of ['etc', 'sos_logs', 'var/log']) mkdirSync(join(root, sub), { recursive: true });
    writeFileSync(join(root, 'etc', 'hostname'), 'node1\n');
    writeFileSync(join(root, 'sos_logs', 'sos.log'), '2021-08-03 09:10:11,123 INFO: [sos.report] executing sos report\n');
    writeFileSync(join(root, 'var', 'log', 'messages'), 'Aug  3 09:10:41 node1 systemd[1]: Started Session 1.\n');
    execFileSync('tar', ['-cJf', join(dir, 'sosreport.tar.xz'), '-C', join(dir, 'sos'), 'sosreport-node1-2021-08-03']);
    return join(dir, 'sosreport.tar.xz');
  }),
];

export const CORPUS: readonly HostileCase[] = [
  {
    name: 'path traversal names in a tar',
    exit: 0,
    says: /could not be read.*absolute or climbs out/,
    build: (dir) => tarCase(dir, 'traversal.tar', mgMiniWith(...HOSTILE_NAMES.map((name) => ({ name, data: 'root:x:0:0::/root:/bin/bash\n' })))),
  },
  {
    name: 'path traversal names in a zip',
    exit: 0,
    says: /could not be read.*absolute or climbs out/,
    async build(dir) {
      const input = join(dir, 'traversal.zip');
      const members = [...mgMiniMembers(), ...HOSTILE_NAMES.map((name) => ({ name, data: 'root:x:0:0::/root:/bin/bash\n' }))];
      writeFileSync(input, zipBuffer(members.map((m) => ({ name: m.name, data: Buffer.from(m.data ?? '') }))));
      return { input };
    },
  },
  {
    name: 'symlinks and hard links pointing outside, in a tar',
    exit: 0,
    says: /symlink to '\/etc\/passwd' not followed/,
    build: (dir) =>
      tarCase(
        dir,
        'links.tar',
        mgMiniWith(
          { name: `${IMAGE}/passwd`, type: 'symlink', linkname: '/etc/passwd' },
          { name: `${IMAGE}/up`, type: 'symlink', linkname: '../../../..' },
          { name: `${IMAGE}/shadow`, type: 'link', linkname: '/etc/shadow' },
          // a file "through" the link: read as a name, never written
          { name: `${IMAGE}/up/pwned.txt`, data: 'x\n' },
        ),
      ),
  },
  {
    name: 'symlinks outside, a symlink loop and a hard link, in a folder',
    exit: 0,
    says: /symlink to '\/etc' not followed/,
    async build(dir) {
      const input = join(dir, 'links-dir');
      cpSync(MG_MINI, input, { recursive: true });
      symlinkSync('/etc', join(input, IMAGE, 'etc'));
      symlinkSync('.', join(input, IMAGE, 'loop'));
      writeFileSync(join(dir, 'outside.txt'), 'outside\n');
      linkSync(join(dir, 'outside.txt'), join(input, IMAGE, 'hard.txt'));
      return { input };
    },
  },
  {
    name: 'device and FIFO entries in a tar',
    exit: 0,
    says: /device, FIFO or socket entry not read/,
    build: (dir) =>
      tarCase(
        dir,
        'devices.tar',
        mgMiniWith({ name: `${IMAGE}/zero`, type: 'character-device' }, { name: `${IMAGE}/sda`, type: 'block-device' }, { name: `${IMAGE}/fifo`, type: 'fifo' }),
      ),
  },
  {
    name: 'a FIFO in a folder',
    exit: 0,
    says: /device, FIFO or socket entry not read/,
    async build(dir) {
      const input = join(dir, 'fifo-dir');
      cpSync(MG_MINI, input, { recursive: true });
      execFileSync('mkfifo', [join(input, IMAGE, 'namespaces/openshift-cluster-version/core/fifo.yaml')]);
      return { input };
    },
  },
  {
    name: 'a FIFO given as the input',
    exit: 2,
    says: /is neither a file nor a directory/,
    async build(dir) {
      const input = join(dir, 'input.fifo');
      execFileSync('mkfifo', [input]);
      return { input };
    },
  },
  {
    name: 'gzip bomb: 1 GiB of zeros in about 1 MB, as a single log',
    exit: 2, // zeros are no log and the input holds nothing else: refused, naming the guard
    says: /compression bomb guard/,
    async build(dir) {
      const input = join(dir, 'current.log.gz');
      await writeGzipBomb(input, 1024);
      return { input };
    },
  },
  {
    name: 'gzip bomb: a 1 GiB tar member of zeros, as .tar.gz',
    exit: 2, // zeros are no log and the input holds nothing else: refused, naming the guard
    says: /compression bomb guard/,
    async build(dir) {
      const input = join(dir, 'bomb.tar.gz');
      await writeGzipBomb(input, 1024, ustarHeader(Buffer.from('bomb/zeros.log'), 1024 * MIB), Buffer.alloc(1024));
      return { input };
    },
  },
  {
    name: 'gzip bomb nested as a pod log inside a tar',
    exit: 0,
    says: /compression bomb guard/,
    async build(dir) {
      const bomb = join(dir, 'nested.log.gz');
      await writeGzipBomb(bomb, 1024);
      // a pod of its own: the same pod's log twice would be read once (one logical log)
      return tarCase(dir, 'nested-bomb.tar', mgMiniWith({ name: `${CVO_LOG.replaceAll('dl6zb', 'bomb1')}.gz`, data: readFileSync(bomb) }));
    },
  },
  {
    name: 'xz bomb: a 1 GiB tar member of zeros, as .tar.xz',
    exit: 2, // zeros are no log and the input holds nothing else: refused, naming the guard
    says: /compression bomb guard/,
    async build(dir) {
      const input = join(dir, 'bomb.tar.xz');
      await writeXzBomb(input, 1024, ustarHeader(Buffer.from('bomb/zeros.log'), 1024 * MIB));
      return { input };
    },
  },
  {
    name: 'zip bomb with overlapping entries',
    exit: 2,
    nothingChecked: true,
    says: /zip entries overlap|compression bomb guard/,
    async build(dir) {
      const input = join(dir, 'overlap.zip');
      const names = Array.from({ length: 200 }, (_, i) => `${IMAGE}/namespaces/openshift-cluster-version/pods/cvo-${i}/cluster-version-operator/cluster-version-operator/logs/current.log`);
      writeFileSync(input, overlappingZipBomb(names, 256 * MIB));
      return { input };
    },
  },
  {
    name: 'a tar of 200,000 empty files',
    exit: 0,
    async build(dir) {
      function* members(): Generator<TarMember> {
        yield* mgMiniMembers();
        for (let i = 0; i < 200_000; i++) yield { name: `${IMAGE}/namespaces/ns-${i % 500}/pods/pod-${i}/c/c/logs/current.log`, data: '' };
      }
      return tarCase(dir, 'many.tar.gz', members());
    },
  },
  {
    name: 'a tar of 200,000 empty files, with --max-entries 1000',
    exit: 0,
    says: /more than 1000 entries: the rest was not read \(--max-entries\)/,
    async build(dir) {
      function* members(): Generator<TarMember> {
        yield* mgMiniMembers();
        for (let i = 0; i < 200_000; i++) yield { name: `many/f-${i}.log`, data: '' };
      }
      const built = await tarCase(dir, 'many.tar.gz', members());
      return { ...built, args: ['--max-entries', '1000'] };
    },
  },
  {
    name: 'a 200 MB log "line" with no newline',
    exit: 0,
    says: /line\(s\) longer than 65536 bytes cut \(--max-line-bytes\)/,
    async build(dir) {
      const input = join(dir, 'long-line');
      cpSync(MG_MINI, input, { recursive: true });
      writeSparse(join(input, CVO_LOG), '2021-08-03T09:28:09.655764504Z I0803 09:28:09.655711       1 sync_worker.go:602] Payload loaded ', 200 * MIB, ' end of the line');
      return { input };
    },
  },
  truncated('tar.gz'),
  truncated('tar.xz'),
  truncated('zip'),
  {
    name: 'a tar header corrupted halfway',
    exit: 2,
    cut: true,
    says: /The input is truncated or corrupt \(tar: Invalid tar header[^)]*\): \d+ entries and .* were read, up to /,
    async build(dir) {
      const tar = await tarBuffer(mgMiniMembers());
      const offsets = tarHeaderOffsets(tar);
      const at = offsets[Math.floor(offsets.length / 2)]!;
      tar.fill(0x7a, at + 100, at + 148); // mode, uid, gid, size, mtime: garbage
      const input = join(dir, 'corrupt-header.tar');
      writeFileSync(input, tar);
      return { input };
    },
  },
  {
    name: 'invalid UTF-8 and NUL bytes in logs',
    exit: 0,
    build: (dir) =>
      tarCase(
        dir,
        'bad-bytes.tar',
        mgMiniWith({
          name: CVO_LOG,
          data: Buffer.concat([
            Buffer.from('I0803 09:28:09.655711       1 sync_worker.go:602] Payload loaded \xff\xfe\xc3\x28 from '),
            Buffer.from([0, 0, 0xed, 0xa0, 0x80, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x0a]),
            Buffer.from('E0803 09:28:10.000000       1 task.go:112] error \0 NUL \u0007 bell\n'),
          ]),
        }),
      ),
  },
  {
    name: 'a YAML alias bomb (billion laughs)',
    exit: 0,
    says: /could not be read.*alias bomb/,
    build: (dir) =>
      tarCase(
        dir,
        'alias-bomb.tar',
        mgMiniWith({
          name: CLUSTER_VERSION,
          data: [
            'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
            ...Array.from({ length: 8 }, (_, i) => `${'bcdefghi'[i]}: &${'bcdefghi'[i]} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(',')}]`),
            'kind: ClusterVersion',
            'apiVersion: config.openshift.io/v1',
            'metadata: { name: version }',
            'status: { history: *i }',
            '',
          ].join('\n'),
        }),
      ),
  },
  {
    name: 'YAML nested 100,000 deep',
    exit: 0,
    says: /could not be read.*(nesting|maxDepth)/,
    build: (dir) =>
      tarCase(dir, 'deep-yaml.tar', mgMiniWith({ name: `${OPERATORS}/deep.yaml`, data: `kind: ClusterOperator\nspec: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n` })),
  },
  {
    name: 'JSON nested 100,000 deep, parsed whole and streamed',
    exit: 2,
    nothingChecked: true,
    says: /could not be read.*nesting deeper than 256/,
    build: (dir) => {
      const deep = `{"kind":"ClusterOperator","metadata":{"name":"deep"},"spec":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
      // over the 8 MiB streaming threshold: the deep item comes after 9 MB of ordinary ones
      const operator = JSON.stringify({ apiVersion: 'config.openshift.io/v1', kind: 'ClusterOperator', metadata: { name: 'x' }, status: { conditions: [{ type: 'Available', status: 'True' }] } });
      const big = `{"apiVersion":"v1","kind":"List","items":[${`${operator},`.repeat(Math.ceil((9 * MIB) / operator.length))}${deep}]}`;
      return tarCase(dir, 'deep-json.tar', [
        { name: `${GATHER_EXTRA}/clusteroperators.json`, data: big },
        { name: `${GATHER_EXTRA}/clusterversion.json`, data: deep },
      ]);
    },
  },
  {
    name: 'a 300 MB YAML List',
    exit: 0,
    says: /could not be read: .*pods\.yaml: not parsed: larger than 33554432 bytes \(--max-parse-bytes\)/,
    build: (dir) => tarCase(dir, 'big-list.tar.gz', [...mgMiniMembers().filter((m) => m.name !== PODS), podList(300 * MIB)]),
  },
  {
    // The parse limit's promise: the largest YAML it lets through stays within the memory bound.
    name: 'a 31 MB YAML List, just under --max-parse-bytes: parsed',
    exit: 0,
    build: (dir) => tarCase(dir, 'list-under-limit.tar.gz', [...mgMiniMembers().filter((m) => m.name !== PODS), podList(31 * MIB)]),
  },
  {
    name: 'HTML and script payloads in log lines, object fields and file names',
    exit: 1,
    says: /could not be read: .*<img src=x onerror=alert\("mgsift-xss-2"\)>\.yaml: YAML document 1/,
    build: (dir) => tarCase(dir, 'payloads.tar', payloadMembers()),
  },
  {
    name: 'non-UTF-8 file names in a tar',
    exit: 0,
    async build(dir) {
      const tar = await tarBuffer(mgMiniWith({ name: `${IMAGE}/PLACEHOLDER-NAME.yaml`, data: 'kind: ConfigMap\n' }));
      const bad = Buffer.concat([Buffer.from('bad-'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x80]), Buffer.from('.log')]);
      const short = Buffer.concat([ustarHeader(bad, 6), Buffer.from('hello\n'.padEnd(512, '\0'))]);
      const input = join(dir, 'bad-names.tar');
      // the hand-made member goes first: tar-stream's PAX headers stay as they are
      writeFileSync(input, Buffer.concat([short, tar]));
      return { input };
    },
  },
  {
    name: 'non-UTF-8 file names in a folder',
    exit: 0,
    async build(dir) {
      const input = join(dir, 'bad-names-dir');
      cpSync(MG_MINI, input, { recursive: true });
      const folder = Buffer.from(join(input, IMAGE, 'namespaces/openshift-cluster-version/core/'));
      writeFileSync(Buffer.concat([folder, Buffer.from([0xff, 0xfe]), Buffer.from('.yaml')]), 'kind: ConfigMap\n');
      return { input };
    },
  },
  {
    name: 'a rule with an unknown field',
    exit: 2,
    says: /unknown-field\.yaml:\d+: .*must NOT have additional properties: 'frobnicate'/,
    build: rulesCase({ 'unknown-field.yaml': rule('hostile-unknown-field', 'frobnicate: true') }),
  },
  {
    name: 'two rules with one id',
    exit: 2,
    says: /:\d+: duplicate id 'hostile-twin'/,
    build: rulesCase({ 'a.yaml': rule('hostile-twin', ''), 'b.yaml': rule('hostile-twin', '') }),
  },
  {
    name: 'a rule with a catastrophic regex',
    exit: 2,
    says: /catastrophic\.yaml:\d+: regex can backtrack catastrophically/,
    build: rulesCase({ 'catastrophic.yaml': rule('hostile-catastrophic', '', '(a+)+$') }),
  },
  {
    name: 'a rule whose template throws',
    exit: 0,
    finding: /^\(template error: template failed: #with requires exactly one argument\)$/,
    build: rulesCase({ 'throws.yaml': rule('hostile-template-throws', '').replace('message: "seen {{signals.line.count}}"', 'message: "{{#with}}x{{/with}}"') }),
  },
  ...NOT_ARCHIVES,
];
