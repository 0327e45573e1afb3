/**
 * Fuzzing (issue 6): the mg-mini archive as tar, tar.gz, tar.xz and zip, its entries mutated
 * (dropped, duplicated, renamed to hostile names, turned into links or FIFOs, their bytes
 * edited) and then its bytes mutated (before or after compression), through the whole pipeline
 * in process: analyzeInput, buildReport and every renderer. No iteration may throw anything but
 * the documented input error, leave an unhandled rejection, or hang. Fixed seed, bounded runs
 * and time, so CI is reproducible.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { buildReport } from '../../src/report/build.js';
import { FORMATS, renderReport } from '../../src/cli/formats.js';
import { loadRules } from '../../src/engine/load.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { InputError } from '../../src/sources/open.js';
import type { Rule } from '../../src/engine/rule.js';
import { tempDir } from '../helpers/archives.js';
import { zipBuffer } from '../helpers/zip.js';
import { mgMiniMembers, tarBuffer, type TarMember } from './build.js';

const SEED = 20_260_606;
const RUNS = 400;
const TIME_BUDGET_MS = 60_000;
const ITERATION_TIMEOUT_MS = 20_000;

type Container = 'tar' | 'tar.gz' | 'tar.xz' | 'zip';
type MemberType = NonNullable<TarMember['type']>;

interface ByteEdit {
  kind: 'flip' | 'set' | 'insert' | 'delete' | 'truncate';
  at: number;
  value: number;
  length: number;
}

type EntryEdit =
  | { op: 'drop' | 'duplicate'; at: number }
  | { op: 'swap'; at: number; other: number }
  | { op: 'rename'; at: number; name: string }
  | { op: 'retype'; at: number; type: MemberType; target: string }
  | { op: 'content'; at: number; edits: ByteEdit[] };

const HOSTILE_NAMES = ['../../etc/passwd', '/etc/passwd', 'C:\\evil', '..', '.', 'a/../../b', `${'d/'.repeat(80)}deep.yaml`, '<script>alert(1)</script>.yaml'];

const byteEdit: fc.Arbitrary<ByteEdit> = fc.record({
  kind: fc.constantFrom('flip', 'set', 'insert', 'delete', 'truncate'),
  at: fc.nat(),
  value: fc.integer({ min: 0, max: 255 }),
  length: fc.integer({ min: 1, max: 64 }),
});

const entryEdit: fc.Arbitrary<EntryEdit> = fc.oneof(
  fc.record({ op: fc.constantFrom('drop', 'duplicate'), at: fc.nat() }),
  fc.record({ op: fc.constant('swap'), at: fc.nat(), other: fc.nat() }),
  fc.record({ op: fc.constant('rename'), at: fc.nat(), name: fc.oneof(fc.constantFrom(...HOSTILE_NAMES), fc.string({ unit: 'binary', minLength: 1, maxLength: 40 })) }),
  fc.record({
    op: fc.constant('retype'),
    at: fc.nat(),
    type: fc.constantFrom<MemberType>('directory', 'symlink', 'link', 'fifo', 'character-device'),
    target: fc.constantFrom('/etc/passwd', '../../..', '.', 'x'),
  }),
  fc.record({ op: fc.constant('content'), at: fc.nat(), edits: fc.array(byteEdit, { minLength: 1, maxLength: 8 }) }),
);

const scenario = fc.record({
  container: fc.constantFrom<Container>('tar', 'tar.gz', 'tar.xz', 'zip'),
  entries: fc.array(entryEdit, { maxLength: 6 }),
  bytes: fc.array(byteEdit, { maxLength: 4 }),
  /** Byte edits on the tar inside the compression (valid gzip/xz, broken tar) or on the file. */
  inner: fc.boolean(),
});

function applyBytes(input: Buffer, edits: readonly ByteEdit[]): Buffer {
  let bytes = Buffer.from(input);
  for (const edit of edits) {
    if (bytes.length === 0) break;
    const at = edit.at % bytes.length;
    switch (edit.kind) {
      case 'flip':
        bytes[at] = bytes[at]! ^ (1 << (edit.value % 8));
        break;
      case 'set':
        bytes.fill(edit.value, at, Math.min(at + edit.length, bytes.length));
        break;
      case 'insert':
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.alloc(edit.length, edit.value), bytes.subarray(at)]);
        break;
      case 'delete':
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + edit.length)]);
        break;
      case 'truncate':
        bytes = bytes.subarray(0, at);
        break;
    }
  }
  return bytes;
}

function applyEntries(base: readonly TarMember[], edits: readonly EntryEdit[]): TarMember[] {
  const members = [...base];
  for (const edit of edits) {
    if (members.length === 0) break;
    const at = edit.at % members.length;
    const member = members[at]!;
    switch (edit.op) {
      case 'drop':
        members.splice(at, 1);
        break;
      case 'duplicate':
        members.splice(at, 0, { ...member });
        break;
      case 'swap': {
        const other = edit.other % members.length;
        [members[at], members[other]] = [members[other]!, member];
        break;
      }
      case 'rename':
        members[at] = { ...member, name: edit.name };
        break;
      case 'retype':
        members[at] = { name: member.name, type: edit.type, linkname: edit.target };
        break;
      case 'content':
        members[at] = { ...member, data: applyBytes(Buffer.from(member.data ?? ''), edit.edits) };
        break;
    }
  }
  return members;
}

async function pack(members: readonly TarMember[], container: Container, inner: readonly ByteEdit[], outer: readonly ByteEdit[]): Promise<Buffer> {
  if (container === 'zip') {
    const zip = zipBuffer(
      members.map((m) => ({
        name: m.type === 'directory' ? `${m.name}/` : m.name,
        data: m.type === 'symlink' ? Buffer.from(m.linkname ?? '') : Buffer.from(m.data ?? ''),
        mode: m.type === 'symlink' ? 0o120777 : 0o100644,
      })),
    );
    return applyBytes(zip, [...inner, ...outer]);
  }
  const tar = applyBytes(await tarBuffer(members), inner);
  const packed = container === 'tar' ? tar : container === 'tar.gz' ? gzipSync(tar) : execFileSync('xz', ['-0', '-c'], { input: tar, maxBuffer: 64 * 1024 * 1024 });
  return applyBytes(packed, outer);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: no result within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe('fuzz: mutated archives through the whole pipeline', () => {
  let rules: Rule[];
  let base: TarMember[];
  let dir: string;
  const unhandled: unknown[] = [];
  const record = (err: unknown): void => {
    unhandled.push(err);
  };

  beforeAll(async () => {
    rules = (await loadRules()).rules;
    base = mgMiniMembers();
    dir = tempDir('mgsift-fuzz-');
    process.on('unhandledRejection', record);
    process.on('uncaughtException', record);
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    process.off('unhandledRejection', record);
    process.off('uncaughtException', record);
  });

  it(`never throws, rejects unhandled or hangs (seed ${SEED}, up to ${RUNS} runs)`, async () => {
    let iteration = 0;
    let reports = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ container, entries, bytes, inner }) => {
        iteration++;
        const file = join(dir, `case.${container}`); // one file per container, rewritten each run
        const members = applyEntries(base, entries);
        writeFileSync(file, await pack(members, container, inner ? bytes : [], inner ? [] : bytes));
        const run = async (): Promise<void> => {
          try {
            const report = buildReport(await analyzeInput(file, { limits: DEFAULT_LIMITS, rules }));
            for (const format of FORMATS) expect(renderReport(report, format, 'error').length).toBeGreaterThan(0);
            reports++;
          } catch (err) {
            // The one documented failure: nothing of the input could be read (exit 2).
            if (!(err instanceof InputError)) throw err;
          }
        };
        await withTimeout(run(), ITERATION_TIMEOUT_MS);
        expect(unhandled).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: TIME_BUDGET_MS, endOnFailure: true },
    );
    // Most mutations leave something readable: the fuzzer reaches the rules and renderers.
    expect(reports).toBeGreaterThan(iteration / 2);
  }, TIME_BUDGET_MS + 3 * ITERATION_TIMEOUT_MS);
});
