import { describe, it, expect, beforeAll } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/archives.js';
import { mgsift } from '../helpers/cli.js';

const HEALTHY = new URL('../../samples/healthy.tar.gz', import.meta.url).pathname;

interface JsonDigest {
  input: { layout: string };
  digest: { components: { name: string; templates: { id: string; template: string; count: number }[] }[] };
}

function analyzeJson(input: string, out: string): JsonDigest {
  const run = mgsift(['analyze', input, '--format', 'json', '-o', out, '--fail-on', 'critical', '--quiet']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(readFileSync(out, 'utf8')) as JsonDigest;
}

function templateId(report: JsonDigest, prefix: string): string {
  const found = report.digest.components.flatMap((c) => c.templates).find((t) => t.template.startsWith(prefix));
  if (!found) throw new Error(`no template starting with ${prefix}`);
  return found.id;
}

/**
 * The generated rules pass their own fixtures unchanged; lint names each `EDIT:` placeholder
 * (five a rule: the headline, and what resolves the line, among them) until a person has written what it asks
 * for, and then passes.
 */
function expectLintAndTestPass(rulesDir: string, rules: number): void {
  const test = mgsift(['rules', 'test', '--rules', rulesDir]);
  expect(test.stdout).toContain(`${2 * rules} passed, 0 failed`);
  expect(test.code).toBe(0);
  const unfinished = mgsift(['rules', 'lint', '--rules', rulesDir]);
  expect(unfinished.stdout).toContain(`${rules} rules, ${5 * rules} problem(s)`);
  expect(unfinished.stdout.match(/placeholder 'EDIT:' left from `rules new`/g)).toHaveLength(5 * rules);
  expect(unfinished.code).toBe(1);
  const ruleFiles = readdirSync(rulesDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.yaml') && !f.includes('.fixtures'));
  expect(ruleFiles).toHaveLength(rules);
  for (const file of ruleFiles) {
    const path = join(rulesDir, file);
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll('EDIT: ', 'Written: '));
  }
  const lint = mgsift(['rules', 'lint', '--rules', rulesDir]);
  expect(lint.stdout).toContain(`${rules} rules, 0 problem(s)`);
  expect(lint.code).toBe(0);
}

describe('mgsift rules new --from <template-id>', () => {
  let dir: string;
  let report: JsonDigest;
  let reportFile: string;
  beforeAll(() => {
    dir = tempDir();
    reportFile = join(dir, 'report.json');
    report = analyzeJson(HEALTHY, reportFile);
  });

  it('writes a rule and fixtures from a JSON report that pass rules lint and rules test unchanged', () => {
    const rulesDir = join(dir, 'from-report');
    const id = templateId(report, 'leaderelection.go:325] error retrieving resource lock');
    const run = mgsift(['rules', 'new', '--from', id, reportFile, '--dir', rulesDir]);
    expect(run.code, run.stderr).toBe(0);
    const ruleFile = join(rulesDir, 'cluster-version-operator', 'cluster-version-operator-error-retrieving-resource-lock.yaml');
    expect(run.stdout).toContain(ruleFile);
    const rule = readFileSync(ruleFile, 'utf8');
    expect(rule).toContain(`--from ${id}`);
    expect(rule).toContain('namespace: openshift-cluster-version');
    expect(rule).toContain('container: cluster-version-operator');
    expect(rule).toContain("regex: 'leaderelection\\.go:\\d+\\] error retrieving resource lock openshift-cluster-version/version: Get \"https://[\\[\\]0-9a-fA-F:.%]+/api/v1/");
    expect(rule).toContain('level: E');
    expect(rule).toContain('EDIT:');
    const fixtures = join(rulesDir, 'cluster-version-operator', 'cluster-version-operator-error-retrieving-resource-lock.fixtures');
    expect(readFileSync(join(fixtures, 'fires-example', 'expect.yaml'), 'utf8')).toContain('line: 2');
    expectLintAndTestPass(rulesDir, 1);
  });

  it('finds the template by analysing an input too, and takes the rule id from --id', () => {
    const rulesDir = join(dir, 'from-input');
    const id = templateId(report, 'reflector.go:138] <*> Failed to watch');
    const run = mgsift(['rules', 'new', '--from', id, HEALTHY, '--dir', rulesDir, '--id', 'cvo-watch-refused']);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(rulesDir, 'cluster-version-operator', 'cvo-watch-refused.yaml'))).toBe(true);
    expectLintAndTestPass(rulesDir, 1);
  });

  it('scopes a bare log to a single file given alone, for each general failure pattern', () => {
    const log = join(dir, 'operator.log');
    writeFileSync(
      log,
      [
        'time="2021-08-03T09:20:45Z" level=error msg="no matches for kind \\"OperatorSource\\" in version \\"operators.coreos.com/v1\\""',
        '{"level":"error","ts":1627982430.0169034,"logger":"controllers.operatorcondition","msg":"Error ensuring OperatorCondition"}',
        '2021-08-03T09:22:45.525Z\tERROR\toperator.init\tcontroller/controller.go:253\tReconciler error\t{"name": "default"}',
        'panic: runtime error: invalid memory address or nil pointer dereference',
        '',
      ].join('\n'),
    );
    const bare = analyzeJson(log, join(dir, 'bare.json'));
    expect(bare.input.layout).toBe('bare-log');
    const ids = bare.digest.components.flatMap((c) => c.templates.map((t) => t.id));
    expect(ids).toHaveLength(4);
    const rulesDir = join(dir, 'bare-rules');
    for (const id of ids) expect(mgsift(['rules', 'new', '--from', id, join(dir, 'bare.json'), '--dir', rulesDir, '--id', `bare-${id}`]).code).toBe(0);
    expect(readFileSync(join(rulesDir, 'operator-log', `bare-${ids[0]}.yaml`), 'utf8')).toContain('bare: true');
    expectLintAndTestPass(rulesDir, 4);
  });

  it('refuses to overwrite a rule, and an unknown template id, with exit code 2', () => {
    const rulesDir = join(dir, 'twice');
    const id = templateId(report, 'leaderelection.go:325]');
    expect(mgsift(['rules', 'new', '--from', id, reportFile, '--dir', rulesDir]).code).toBe(0);
    const again = mgsift(['rules', 'new', '--from', id, reportFile, '--dir', rulesDir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/exists; choose another rule id with --id/);
    const unknown = mgsift(['rules', 'new', '--from', '0123456789', reportFile, '--dir', rulesDir]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no template '0123456789'");
  });
});


