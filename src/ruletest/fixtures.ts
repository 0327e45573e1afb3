import { readdir, readFile, stat } from 'node:fs/promises';
import { join, dirname, basename } from 'node:path';
import yaml from 'js-yaml';
import { analyzeInput } from '../analysis/analyze.js';
import type { Limits } from '../core/limits.js';
import type { Rule } from '../engine/rule.js';
import { severityRank } from '../engine/findings.js';

/** What a fixture case expects of its rule, from `expect.yaml` beside its input. */
export interface Expectation {
  fires: boolean;
  /** The rule must be reported as not checked (data absent). */
  notChecked?: boolean;
  /** Severity of the rule's most severe finding. */
  severity?: string;
  /** How many findings the rule makes (a rule with `per` makes one per key). */
  findings?: number;
  evidence?: { file: string; line?: number }[];
  /** Text the rendered message must contain. */
  messageContains?: string[];
  remediationContains?: string[];
}

export interface FixtureCase {
  rule: Rule;
  name: string;
  dir: string;
  input: string;
  expect: Expectation;
}

/** Fixture folder of a rule file: `<id>.yaml` → `<id>.fixtures/`. */
export function fixtureDir(rule: Rule): string {
  return join(dirname(rule.file), `${basename(rule.file).replace(/\.ya?ml$/, '')}.fixtures`);
}

/** The cases of a rule: each sub-folder with an `expect.yaml` and an `input` (folder, archive or log). */
export async function fixtureCases(rule: Rule): Promise<FixtureCase[]> {
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
    const input = (await readdir(caseDir)).find((entry) => entry === 'input' || entry.startsWith('input.'));
    if (!input) throw new Error(`${caseDir}: no input (a folder or file named input*)`);
    cases.push({ rule, name, dir: caseDir, input: join(caseDir, input), expect });
  }
  return cases;
}

/** Runs one case through the same pipeline as `analyze`; returns why it failed, or nothing. */
export async function runCase(fixture: FixtureCase, limits: Limits): Promise<string[]> {
  const analysis = await analyzeInput(fixture.input, { limits, rules: [fixture.rule] });
  const result = analysis.result!;
  const findings = result.findings.filter((f) => f.ruleId === fixture.rule.id);
  const finding = [...findings].sort((a, b) => severityRank(b.severity) - severityRank(a.severity))[0];
  const notChecked = result.notChecked.find((n) => n.ruleId === fixture.rule.id);
  const failures: string[] = [];
  const { expect } = fixture;
  if (expect.notChecked) {
    if (!notChecked) failures.push(`expected not checked, got ${finding ? 'a finding' : 'passed'}`);
    return failures;
  }
  if (notChecked) failures.push(`not checked: ${notChecked.reason}`);
  if (expect.fires && !finding) failures.push('expected a finding, got none');
  if (!expect.fires && finding) failures.push(`expected no finding, got: ${finding.message.split('\n', 1)[0]}`);
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
  for (const text of expect.remediationContains ?? []) if (!findings.some((f) => f.remediation.includes(text))) failures.push(`remediation lacks '${text}'`);
  if (findings.some((f) => /\(template error:/.test(f.message + f.remediation + f.references.join(' ')))) failures.push('a template failed to render');
  return failures;
}
