import { describe, it, expect, beforeAll } from 'vitest';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync, symlinkSync, truncateSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { tarHeaderOffsets } from '../hostile/build.js';
import { join } from 'node:path';
import { openInput } from '../../src/sources/open.js';
import { Problems } from '../../src/core/problems.js';
import { DEFAULT_LIMITS, type Limits } from '../../src/core/limits.js';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { inspectResult } from '../../src/analysis/inspect.js';
import { MG_MINI, gzipFile, packTree, tempDir } from '../helpers/archives.js';

/** A tar of 3 MB of logs at argv[1], written by python's tarfile (with its end-of-archive blocks). */
const BIG_TAR = `
import io, random, sys, tarfile
random.seed(1)
with tarfile.open(sys.argv[1], mode='w') as t:
    for i in range(6):
        data = random.randbytes(500_000).hex().encode()[:500_000]
        info = tarfile.TarInfo(f'must-gather/logs/{i}.log'); info.size = len(data); t.addfile(info, io.BytesIO(data))
`;

/** Every file entry with a hash of its content; a body that breaks is left out, as the walker does. */
async function listing(input: string, limits: Limits = DEFAULT_LIMITS) {
  const problems = new Problems();
  const source = await openInput(input, { limits, problems });
  const files: Record<string, string> = {};
  for await (const entry of source.entries()) {
    if (entry.type !== 'file' || entry.skipped !== undefined) continue;
    const hash = createHash('sha256');
    try {
      for await (const chunk of entry.body()) hash.update(chunk);
      files[entry.path] = hash.digest('hex').slice(0, 16);
    } catch {
      // the source records where the input broke
    }
  }
  return { container: source.container, files, problems };
}

describe('sources: one tree in every container', () => {
  let out: string;
  let tree: string;
  let archives: ReturnType<typeof packTree>;
  beforeAll(() => {
    out = tempDir();
    tree = join(out, 'tree');
    cpSync(join(MG_MINI, 'must-gather-aws'), join(tree, 'must-gather-aws'), { recursive: true });
    archives = packTree(tree, 'must-gather-aws', out);
  });

  it('reads identical entries from a directory, .tar, .tar.gz, .tar.xz and .zip', async () => {
    const reference = await listing(tree);
    expect(reference.container).toBe('directory');
    expect(Object.keys(reference.files).length).toBe(14);
    for (const [kind, file] of Object.entries(archives)) {
      const got = await listing(file);
      expect(got.container).toBe(kind);
      expect(got.files).toEqual(reference.files);
      expect(got.problems.items).toEqual([]);
    }
  });

  it('gives identical inspect output apart from the input', async () => {
    const results = [];
    for (const input of [tree, ...Object.values(archives)]) {
      const { input: _input, ...rest } = inspectResult(await analyzeInput(input, { limits: DEFAULT_LIMITS, inventory: true }));
      results.push(rest);
    }
    expect(results[0]!.cluster.version).toBe('4.8.0-0.nightly-2021-07-31-065602');
    expect(results[0]!.collectedAt).toBe('2021-08-03T10:14:13.632Z');
    for (const result of results.slice(1)) expect(result).toEqual(results[0]);
  });

  it('detects the container by content, not by name', async () => {
    const disguised = join(out, 'really-a-tar-gz.zip');
    copyFileSync(archives['tar.gz'], disguised);
    expect((await listing(disguised)).container).toBe('tar.gz');
  });

  it('opens an archive inside a case folder in place, one level deep', async () => {
    const caseDir = join(out, 'case-0123');
    mkdirSync(caseDir);
    copyFileSync(archives['tar.xz'], join(caseDir, 'must-gather.tar.xz'));
    writeFileSync(join(caseDir, 'notes.txt'), 'customer notes\n');
    const got = await listing(caseDir);
    expect(got.files['notes.txt']).toBeDefined();
    const inner = Object.keys(got.files).filter((p) => p.startsWith('must-gather.tar.xz/must-gather-aws/'));
    expect(inner.length).toBe(14);

    const outer = join(out, 'outer.tar');
    const { execFileSync } = await import('node:child_process');
    execFileSync('tar', ['-cf', outer, '-C', out, 'case-0123']);
    const nested = await listing(outer);
    expect(Object.keys(nested.files).filter((p) => p.startsWith('case-0123/must-gather.tar.xz/')).length).toBe(14);
  });

  it('reads a single log, plain or gzipped, and gather-extra style .log.gz files, named as stored', async () => {
    const dir = join(out, 'gather-extra');
    mkdirSync(join(dir, 'pods'), { recursive: true });
    const log = join(MG_MINI, 'must-gather-aws');
    const cvoLog = join(
      log,
      'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cbd33388f7e18954e5ce8ad9616e91df05ace604966c0a44111d85c897/namespaces/openshift-cluster-version/pods/cluster-version-operator-849b4dcf9c-dl6zb/cluster-version-operator/cluster-version-operator/logs/current.log',
    );
    await gzipFile(cvoLog, join(dir, 'pods', 'openshift-cluster-version_cluster-version-operator-849b4dcf9c-dl6zb_cluster-version-operator.log.gz'));
    const plain = await listing(cvoLog);
    expect(plain.container).toBe('file');
    expect(Object.keys(plain.files)).toEqual(['current.log']);
    const gz = join(out, 'cvo.log.gz');
    await gzipFile(cvoLog, gz);
    const single = await listing(gz);
    expect(single.container).toBe('file.gz');
    expect(single.files).toEqual({ 'cvo.log.gz': plain.files['current.log'] });
    const folder = await listing(dir);
    expect(folder.files).toEqual({ 'pods/openshift-cluster-version_cluster-version-operator-849b4dcf9c-dl6zb_cluster-version-operator.log.gz': plain.files['current.log'] });
  });
});

describe('sources: broken and hostile input', () => {
  it('keeps what was read before a truncated .tar.gz, .tar.xz and says where it broke', async () => {
    const out = tempDir();
    const archives = packTree(MG_MINI, 'must-gather-aws', out);
    for (const kind of ['tar.gz', 'tar.xz', 'tar'] as const) {
      const cut = join(out, `cut.${kind}`);
      copyFileSync(archives[kind], cut);
      truncateSync(cut, Math.floor(statSync(cut).size * 0.6));
      const got = await listing(cut);
      expect(Object.keys(got.files).length, kind).toBeGreaterThan(0);
      expect(Object.keys(got.files).length, kind).toBeLessThan(14);
      expect(got.problems.stopped, kind).toMatchObject({ by: 'damage', entries: expect.any(Number) as number, streamBytes: expect.any(Number) as number });
      expect(got.problems.stopped?.reason, kind).toMatch(kind === 'tar.gz' ? /^gzip: unexpected end of file$/ : kind === 'tar.xz' ? /^xz: unexpected end of input$/i : /^tar: Unexpected end of data$/);
      expect(got.problems.items.some((p) => p.severity === 'error' && /broken/.test(p.reason)), kind).toBe(true);
    }
  });

  it('a tar cut between two entries (no end-of-archive block) is damage too, plain or gzipped; a whole one is not', async () => {
    const out = tempDir();
    const whole = readFileSync(packTree(MG_MINI, 'must-gather-aws', out).tar);
    // The archive ends right before the 10th header, on a block boundary; entries are the headers
    // before it but GNU long-name ones (each prefixes the header of its entry).
    const headers = tarHeaderOffsets(whole);
    const at = headers[9]!;
    const entries = headers.slice(0, 9).filter((offset) => whole.toString('latin1', offset + 156, offset + 157) !== 'L').length;
    const cut = join(out, 'boundary.tar');
    writeFileSync(cut, whole.subarray(0, at));
    writeFileSync(`${cut}.gz`, gzipSync(whole.subarray(0, at)));
    for (const input of [cut, `${cut}.gz`]) {
      const got = await listing(input);
      expect(got.problems.stopped, input).toMatchObject({ by: 'damage', entries, streamBytes: at });
      expect(got.problems.stopped?.reason).toMatch(/^tar: the stream ends without its end-of-archive block/);
    }
    const intact = join(out, 'whole.tar');
    writeFileSync(intact, whole);
    expect((await listing(intact)).problems.stopped).toBeUndefined();
  });

  it('a gzip checksum that fails at the end of the stream is damage, after the entries read', async () => {
    const out = tempDir();
    // Past the decoder's output chunk, so entries come out before the checksum is checked.
    const tarPath = join(out, 'big.tar');
    execFileSync('python3', ['-c', BIG_TAR, tarPath]);
    const gz = Buffer.from(gzipSync(readFileSync(tarPath), { level: 1 }));
    gz[gz.length - 8]! ^= 0xff; // CRC-32 of the trailer
    const input = join(out, 'crc.tar.gz');
    writeFileSync(input, gz);
    const got = await listing(input);
    expect(Object.keys(got.files).length).toBeGreaterThan(0);
    expect(got.problems.stopped).toMatchObject({ by: 'damage', reason: 'gzip: incorrect data check' });
  });

  it('a zip whose central directory breaks while listed is damage after the entries listed', async () => {
    const out = tempDir();
    const zip = readFileSync(packTree(MG_MINI, 'must-gather-aws', out).zip);
    const headers = [...zip.toString('latin1').matchAll(/PK\x01\x02/g)].map((m) => m.index);
    zip.write('XXXX', headers[4]!, 'latin1');
    const input = join(out, 'broken-directory.zip');
    writeFileSync(input, zip);
    const got = await listing(input);
    expect(Object.keys(got.files)).toHaveLength(4);
    expect(got.problems.stopped).toMatchObject({ by: 'damage', entries: 4, reason: 'zip: invalid central directory file header signature: 0x58585858' });
    expect(got.problems.stopped?.streamBytes).toBeUndefined();
  });

  it('reads entry names with .. or absolute paths as data and reports them; links are not followed', async () => {
    const out = tempDir();
    const tar = join(out, 'evil.tar');
    const { execFileSync } = await import('node:child_process');
    execFileSync('python3', [
      '-c',
      `
import tarfile, io, sys
with tarfile.open(sys.argv[1], 'w') as t:
    for name in ['../../etc/passwd', '/etc/hostname-mgsift', 'ok/file.log']:
        data = b'root:x:0:0\\n'
        info = tarfile.TarInfo(name); info.size = len(data); t.addfile(info, io.BytesIO(data))
    link = tarfile.TarInfo('ok/link'); link.type = tarfile.SYMTYPE; link.linkname = '/etc/shadow'; t.addfile(link)
`,
      tar,
    ]);
    const got = await listing(tar);
    expect(Object.keys(got.files).sort()).toEqual(['../../etc/passwd', '/etc/hostname-mgsift', 'ok/file.log']);
    expect(got.problems.items.filter((p) => /read as data/.test(p.reason)).length).toBe(2);

    const dir = join(out, 'tree');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.log'), 'x\n');
    symlinkSync('/etc/passwd', join(dir, 'passwd-link'));
    const problems = new Problems();
    const source = await openInput(dir, { limits: DEFAULT_LIMITS, problems });
    const types: Record<string, string> = {};
    for await (const entry of source.entries()) types[entry.path] = entry.type;
    expect(types).toEqual({ 'a.log': 'file', 'passwd-link': 'symlink' });
  });

  it('applies the entry-count and entry-size limits', async () => {
    const limits = { ...DEFAULT_LIMITS, maxEntries: 5 };
    const got = await listing(MG_MINI, limits);
    expect(got.problems.stopped?.at).toBeDefined();
    const small = await listing(MG_MINI, { ...DEFAULT_LIMITS, maxEntryBytes: 10_000 });
    expect(small.problems.items.some((p) => /max-entry-bytes/.test(p.reason))).toBe(true);
    expect(Object.keys(small.files).length).toBeLessThan(15);
  });

  it('fails with a one-line input error for a missing path', async () => {
    await expect(openInput('/nonexistent/mg.tar.gz', { limits: DEFAULT_LIMITS, problems: new Problems() })).rejects.toThrow(/cannot read/);
  });
});

