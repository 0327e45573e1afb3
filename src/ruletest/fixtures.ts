import { readdir, readFile, stat } from 'node:fs/promises';
import { join, dirname, basename } from 'node:path';
import yaml from 'js-yaml';
import { analyzeInput } from '../analysis/analyze.js';
import type { Limits } from '../core/limits.js';
import type { Rule } from '../engine/rule.js';
import { loadRiskData, riskDataOf, type RiskData } from '../risks/load.js';
import { EMBEDDED, packageBytes, packageFiles, packageText } from '../core/assets.js';
import { openMemory } from '../sources/open.js';
import type { MemoryFile } from '../sources/memory.js';
import type { Source, SourceOptions } from '../sources/types.js';
import { severityRank, type Finding } from '../engine/findings.js';
import { HEADLINE_CUT, HEADLINE_MAX } from '../engine/headline.js';

/** What a fixture case expects of its rule, from `expect.yaml` beside its input. */
export interface Expectation {
  /** The rule makes a present finding (not history). */
  fires: boolean;
  /**
   * The rule's findings are history only: what it matched was over by the collection time
   * (`resolvedBy`), so it reports that at info, with what resolved it. A near miss of a rule that
   * events or logs alone can satisfy.
   */
  resolved?: boolean;
  /** The rule must be reported as not checked (data absent). */
  notChecked?: boolean;
  /** The rule must be reported as not applicable (its `applies` excludes the input or cluster). */
  notApplicable?: boolean;
  /** Severity of the rule's most severe finding. */
  severity?: string;
  /** How many findings the rule makes (a rule with `per` makes one per key). */
  findings?: number;
  evidence?: { file: string; line?: number }[];
  /** Text the rendered message must contain. */
  messageContains?: string[];
  /** Text no finding's message may contain (what a finding must leave to another view). */
  messageLacks?: string[];
  remediationContains?: string[];
}

export interface FixtureCase {
  rule: Rule;
  name: string;
  dir: string;
  input: string;
  /** A `blocked-edges/` folder beside the input: update-risk data the case runs with (`--update-risks`). */
  updateRisks?: (() => Promise<RiskData>) | undefined;
  expect: Expectation;
  /** The input's entries when it is not on disk (a built-in rule's fixture inside the single file). */
  open?: ((options: SourceOptions) => Source) | undefined;
}

/** Fixture folder of a rule file: `<id>.yaml` → `<id>.fixtures/`. */
export function fixtureDir(rule: Rule): string {
  return join(dirname(rule.file), `${basename(rule.file).replace(/\.ya?ml$/, '')}.fixtures`);
}

/** The cases of a rule: each sub-folder with an `expect.yaml` and an `input` (folder, archive or log). */
export async function fixtureCases(rule: Rule): Promise<FixtureCase[]> {
  return rule.builtin && EMBEDDED ? shippedCases(rule) : diskCases(rule);
}

async function diskCases(rule: Rule): Promise<FixtureCase[]> {
  const dir = fixtureDir(rule);
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch {
    return [];
  }
  const cases: FixtureCase[] = [];
  for (const name of names) {
    const caseDir = join(dir, name);
    if (!(await stat(caseDir)).isDirectory()) continue;
    const expect = yaml.load(await readFile(join(caseDir, 'expect.yaml'), 'utf8'), { schema: yaml.JSON_SCHEMA }) as Expectation;
    const entries = await readdir(caseDir);
    const input = entries.find((entry) => entry === 'input' || entry.startsWith('input.'));
    if (!input) throw new Error(`${caseDir}: no input (a folder or file named input*)`);
    const updateRisks = entries.includes('blocked-edges') ? () => loadRiskData(join(caseDir, 'blocked-edges')) : undefined;
    cases.push({ rule, name, dir: caseDir, input: join(caseDir, input), updateRisks, expect });
  }
  return cases;
}

/** A built-in rule's cases inside the single file: the same folders, read from the package's copy. */
function shippedCases(rule: Rule): FixtureCase[] {
  const dir = fixtureDir(rule);
  const byCase = new Map<string, string[]>();
  for (const path of packageFiles(dir)) {
    const name = path.slice(dir.length + 1).split('/', 1)[0]!;
    if (!path.slice(dir.length + 1).includes('/')) continue;
    byCase.set(name, [...(byCase.get(name) ?? []), path]);
  }
  return [...byCase.keys()].sort().map((name) => {
    const caseDir = `${dir}/${name}`;
    const paths = byCase.get(name)!;
    const expect = yaml.load(packageText(`${caseDir}/expect.yaml`), { schema: yaml.JSON_SCHEMA }) as Expectation;
    const inputName = paths.map((path) => path.slice(caseDir.length + 1).split('/', 1)[0]!).find((entry) => entry === 'input' || entry.startsWith('input.'));
    if (!inputName) throw new Error(`${caseDir}: no input (a folder or file named input*)`);
    const input = `${caseDir}/${inputName}`;
    const file = (path: string): MemoryFile => ({ path: path.slice(input.length + 1), bytes: () => packageBytes(path) });
    const tree = paths.includes(input)
      ? { file: { path: inputName, bytes: () => packageBytes(input) } }
      : { files: paths.filter((path) => path.startsWith(`${input}/`)).map(file) };
    const edgesDir = `${caseDir}/blocked-edges`;
    const edgeFiles = paths.filter((path) => path.startsWith(`${edgesDir}/`) && /\.ya?ml$/.test(path));
    const updateRisks = edgeFiles.length
      ? () => riskDataOf(edgesDir, edgeFiles.map((path) => ({ file: path.slice(edgesDir.length + 1), text: () => packageText(path) })))
      : undefined;
    return { rule, name, dir: caseDir, input, expect, updateRisks, open: (options: SourceOptions) => openMemory(input, tree, options) };
  });
}

/** Runs one case through the same pipeline as `analyze`; returns why it failed, or nothing. */
export async function runCase(fixture: FixtureCase, limits: Limits): Promise<string[]> {
  const riskData = fixture.updateRisks ? await fixture.updateRisks() : undefined;
  const analysis = await analyzeInput(fixture.input, { limits, rules: [fixture.rule], riskData, open: fixture.open, requireArchive: false });
  const result = analysis.result!;
  const own = result.findings.filter((f) => f.ruleId === fixture.rule.id);
  const present = own.filter((f) => !f.resolved);
  const history = own.filter((f) => f.resolved);
  const notChecked = result.notChecked.find((n) => n.ruleId === fixture.rule.id);
  const failures: string[] = [];
  const { expect } = fixture;
  const firstLine = (f: Finding): string => f.message.split('\n', 1)[0]!;
  const notApplicable = result.notApplicable.find((n) => n.ruleId === fixture.rule.id);
  const got = notApplicable ? `not applicable (${notApplicable.reason})` : notChecked ? `not checked (${notChecked.reason})` : own.length > 0 ? 'a finding' : 'passed';
  if (expect.notChecked || expect.notApplicable) {
    const met = expect.notChecked ? notChecked : notApplicable;
    if (!met) failures.push(`expected ${expect.notChecked ? 'not checked' : 'not applicable'}, got ${got}`);
    return failures;
  }
  if (notChecked || notApplicable) failures.push(got);
  if (expect.fires && present.length === 0) failures.push(`expected a finding, got ${history.length > 0 ? `only history: ${firstLine(history[0]!)}` : 'none'}`);
  if (!expect.fires && present.length > 0) failures.push(`expected no finding, got: ${firstLine(present[0]!)}`);
  if (expect.resolved && history.length === 0) failures.push('expected history (evidence resolved before the collection), got none');
  if (!expect.resolved && !expect.fires && history.length > 0) failures.push(`expected no finding, got history: ${firstLine(history[0]!)}`);
  // What the rest checks: the history a near miss expects, else the present findings.
  const findings = expect.resolved ? history : present;
  const finding = [...findings].sort((a, b) => severityRank(b.severity) - severityRank(a.severity))[0];
  if (!finding) return failures;
  if (expect.severity && finding.severity !== expect.severity) failures.push(`severity ${finding.severity}, expected ${expect.severity}`);
  if (expect.findings !== undefined && findings.length !== expect.findings) failures.push(`${findings.length} findings, expected ${expect.findings}`);
  // With several findings (a rule with `per`), each expectation must hold for one of them.
  const evidence = findings.flatMap((f) => f.evidence);
  for (const wanted of expect.evidence ?? []) {
    const found = evidence.some((e) => e.file === wanted.file && (wanted.line === undefined || e.line === wanted.line));
    if (!found) {
      const got = evidence.map((e) => `${e.file}:${e.line ?? '-'}`).slice(0, 5).join(', ');
      failures.push(`missing evidence ${wanted.file}:${wanted.line ?? '*'} (got ${got || 'none'})`);
    }
  }
  for (const text of expect.messageContains ?? []) if (!findings.some((f) => f.message.includes(text))) failures.push(`message lacks '${text}'`);
  for (const text of expect.messageLacks ?? []) if (findings.some((f) => f.message.includes(text))) failures.push(`message holds '${text}'`);
  for (const text of expect.remediationContains ?? []) if (!findings.some((f) => f.remediation.includes(text))) failures.push(`remediation lacks '${text}'`);
  if (findings.some((f) => /\(template error:/.test(f.headline + f.message + f.remediation + f.references.join(' ')))) failures.push('a template failed to render');
  // A headline cut at the cap says the template writes too much: it is read at a glance (a
  // history's is the rule's behind the engine's prefix, so only present findings say it).
  const cut = findings.find((f) => !f.resolved && f.headline.endsWith(HEADLINE_CUT));
  if (cut) failures.push(`headline over ${HEADLINE_MAX} characters, cut: ${cut.headline}`);
  return failures;
}
