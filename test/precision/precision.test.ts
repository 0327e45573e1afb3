import { describe, it, expect } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import yaml from 'js-yaml';
import { mgsift } from '../helpers/cli.js';
import { needsShared } from '../helpers/needs.js';
import { sharedPath } from '../helpers/shared-data.js';

/**
 * Precision on real archives: the whole rule pack runs over every real archive in
 * ../shared/samples-real/ and in ./archives/ (kept in the repository, see its PROVENANCE.md) and
 * may raise only the findings listed, with a reason, in expected-findings.yaml (its header
 * documents the format).
 */
// Beside the repository or one of its parents (a worktree sees the workplace's shared folder too).
const REAL = `${sharedPath('samples-real') ?? new URL('../../../shared/samples-real', import.meta.url).pathname}/`;
const KEPT = new URL('./archives/', import.meta.url).pathname;
const EXPECTATIONS = new URL('./expected-findings.yaml', import.meta.url).pathname;

interface Allowed {
  archive: string;
  rule: string;
  severity?: string;
  reason: string;
  /** Where the archive proves the finding (required at warning and above): a file below the gather root, and its line. */
  proof?: { file: string; line?: number };
}

/** Severities a finding needs a proof for: what a reader must act on. */
const NEEDS_PROOF = ['warning', 'error', 'critical'];

/** A real input on which no rule can be checked: exit 2 with one line, the report still written. */
interface NothingChecked {
  archive: string;
  reason: string;
}

interface ReportFinding {
  ruleId: string;
  severity: string;
  evidence: { file: string; line?: number }[];
}

const ARCHIVE = /\.(tar|tar\.gz|tgz|tar\.xz|zip)$/;

/** Archives at any depth, and folders holding a gathered tree at their top, as paths below `root`. */
function realInputs(root: string, dir = root): string[] {
  const inputs: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (existsSync(join(path, 'namespaces')) || existsSync(join(path, 'cluster-scoped-resources'))) inputs.push(relative(root, path));
      else inputs.push(...realInputs(root, path));
    } else if (ARCHIVE.test(name)) {
      inputs.push(relative(root, path));
    }
  }
  return inputs;
}

function loadExpectations(): { allowed: Allowed[]; nothingChecked: NothingChecked[] } {
  const document = yaml.load(readFileSync(EXPECTATIONS, 'utf8')) as { allowed?: Allowed[]; nothingChecked?: NothingChecked[] } | undefined;
  const allowed = document?.allowed ?? [];
  for (const entry of allowed) {
    if (!entry.archive || !entry.rule || !entry.reason?.trim()) {
      throw new Error(`expected-findings.yaml: every entry needs archive, rule and reason: ${JSON.stringify(entry)}`);
    }
    if ((entry.severity === undefined || NEEDS_PROOF.includes(entry.severity)) && !entry.proof?.file) {
      throw new Error(`expected-findings.yaml: an entry at warning or above needs its severity and a proof (file, line): ${JSON.stringify(entry)}`);
    }
  }
  const nothingChecked = document?.nothingChecked ?? [];
  for (const entry of nothingChecked) {
    if (!entry.archive || !entry.reason?.trim()) throw new Error(`expected-findings.yaml: every nothingChecked entry needs archive and reason: ${JSON.stringify(entry)}`);
  }
  return { allowed, nothingChecked };
}

/** One line per finding: rule, severity and where its first evidence is. */
function describeFinding(f: ReportFinding): string {
  const where = f.evidence
    .slice(0, 3)
    .map((e) => (e.file === '' ? '(derived fact)' : `${e.file}${e.line !== undefined ? `:${e.line}` : ''}`))
    .join(', ');
  const more = f.evidence.length > 3 ? ` and ${f.evidence.length - 3} more` : '';
  return `${f.ruleId} (${f.severity}) at ${where || '(no evidence)'}${more}`;
}

const present = existsSync(REAL);
/** Each real input by its name in expected-findings.yaml, with its path. */
const inputs = new Map([...(present ? realInputs(REAL).map((name) => [name, join(REAL, name)] as const) : []), ...realInputs(KEPT).map((name) => [name, join(KEPT, name)] as const)]);
const { allowed, nothingChecked } = loadExpectations();
const listed = [...allowed, ...nothingChecked].map((a) => a.archive);

describe('precision: the whole pack on every real archive', () => {
  it.runIf(present)(`expected-findings.yaml names only archives that exist ${needsShared('samples-real/')}`, () => {
    expect(listed.filter((a) => !inputs.has(a))).toEqual([]);
    expect([...inputs.keys()]).toEqual(expect.arrayContaining(['must-gather-aws.tar.xz', 'must-gather-metal.tar.xz', 'must-gather-azure.tar.xz', 'must-gather-vsphere.tar.xz']));
  });

  it.each([...inputs.keys()])('%s raises only the findings listed in expected-findings.yaml, each proved where it says', (archive) => {
    const run = mgsift(['analyze', inputs.get(archive)!, '--format', 'json', '-o', '-', '--fail-on', 'critical']);
    if (nothingChecked.some((n) => n.archive === archive)) {
      expect(run.stderr).toMatch(/^mgsift: error: .*: no rule could be checked \(/);
      expect(run.code).toBe(2);
    } else {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    }
    const findings = (JSON.parse(run.stdout) as { findings: ReportFinding[] }).findings;
    const mine = allowed.filter((a) => a.archive === archive);
    const isAllowed = (f: ReportFinding): boolean => mine.some((a) => a.rule === f.ruleId && (a.severity === undefined || a.severity === f.severity));
    const unexpected = findings.filter((f) => !isAllowed(f)).map(describeFinding);
    const stale = mine.filter((a) => !findings.some((f) => f.ruleId === a.rule)).map((a) => `${a.rule}: listed for ${archive} but not raised (delete the entry)`);
    const unproved = mine
      .filter((a) => a.proof && !findings.some((f) => f.ruleId === a.rule && f.evidence.some((e) => e.file.endsWith(`/${a.proof!.file}`) && (a.proof!.line === undefined || e.line === a.proof!.line))))
      .map((a) => `${a.rule}: no evidence at ${a.proof!.file}:${a.proof!.line ?? '*'} (got ${describeFinding(findings.find((f) => f.ruleId === a.rule) ?? { ruleId: a.rule, severity: '-', evidence: [] })})`);
    expect({ unexpected, stale, unproved }).toEqual({ unexpected: [], stale: [], unproved: [] });
  });
});

// Declared only when absent: a skipped placeholder would be listed among the skips of every run.
if (!present) {
  describe(`precision on real archives ${needsShared('samples-real/')}`, () => {
    it.skip(`skipped: ${REAL} is absent (those real archives are not part of the repository; ./archives/ ran)`, () => {});
  });
}
