/**
 * Headlines (issue 35 item 1): one line per finding that names what happened here. A rule writes
 * its own; where it has none, one is made from the finding's objects and since when; a history
 * finding's says it is over; the JSON carries it on each finding and each diagnosis node.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { generatedHeadline, HEADLINE_MAX, oneLineHeadline } from '../../src/engine/headline.js';
import { loadRules } from '../../src/engine/load.js';
import type { Rule } from '../../src/engine/rule.js';
import { compileTemplate } from '../../src/engine/templates.js';
import { buildReport } from '../../src/report/build.js';
import { renderJson } from '../../src/report/json.js';
import { mgsift } from '../helpers/cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const CRASHLOOP = `${ROOT}rules/health/pod-crashlooping.fixtures/fires-crashloop-flapping-init/input`;

async function builtIn(id: string): Promise<Rule> {
  const rule = (await loadRules([])).rules.find((r) => r.id === id);
  if (!rule) throw new Error(`no rule ${id}`);
  return rule;
}

async function findingsOf(input: string, rule: Rule) {
  return (await analyzeInput(input, { limits: DEFAULT_LIMITS, rules: [rule], requireArchive: false })).result!;
}

describe('a generated headline', () => {
  const since = Date.parse('2021-08-03T09:59:14.250Z');
  it('gives the title, the objects by kind with a count and the first names, and since when', () => {
    const pods = ['a', 'b', 'c', 'd'].map((name) => ({ kind: 'Pod', namespace: 'openshift-etcd', name: `etcd-${name}` }));
    expect(generatedHeadline('etcd pods keep failing.', [...pods, { kind: 'ClusterOperator', name: 'etcd' }], since)).toBe(
      'etcd pods keep failing: 4 Pods in openshift-etcd (etcd-a, etcd-b, etcd-c and 1 more); ClusterOperator etcd, since 2021-08-03T09:59:14Z',
    );
    expect(generatedHeadline('Something is wrong', [], undefined)).toBe('Something is wrong');
  });

  it('names fewer objects rather than cut, and still says since when', () => {
    const nodes = [1, 2, 3].map((i) => ({ kind: 'Node', name: `node-${i}-${'x'.repeat(60)}` }));
    const line = generatedHeadline('Nodes are not Ready', nodes, since);
    expect(line.length).toBeLessThanOrEqual(HEADLINE_MAX);
    expect(line).toMatch(/^Nodes are not Ready: 3 Nodes \(node-1-x+ and 2 more\), since 2021-08-03T09:59:14Z$/);
  });

  it('a rendered headline is one line, cut at a word with an ellipsis past the cap', () => {
    expect(oneLineHeadline('  two\n  lines ')).toBe('two lines');
    const long = oneLineHeadline(`${'word '.repeat(60)}end`);
    expect(long.length).toBeLessThanOrEqual(HEADLINE_MAX);
    expect(long).toMatch(/^(word )+word…$/);
  });
});

describe('template helpers for headlines', () => {
  const render = (source: string, context: object): string => compileTemplate(source)(context);
  it('names, objects and count read names, a field path, and the values a capture joined', () => {
    const items = [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'a' }];
    expect(render('{{names items 2}}', { items })).toBe('a, b and 1 more');
    expect(render('{{objects items "Node" 3}}', { items })).toBe('3 Nodes (a, b and c)');
    expect(render('{{objects items "Node" 3}}', { items: [{ name: 'x' }] })).toBe('Node x');
    expect(render('{{count (unique items "pool")}}', { items: [{ pool: 'master, worker' }] })).toBe('2');
    expect(render('{{names items 3 "item.to.version"}}', { items: [{ item: { to: { version: '4.6.8' } } }] })).toBe('4.6.8');
  });

  it('cause, clip and verb quote an error briefly and agree with a count', () => {
    expect(render('{{cause e}}', { e: 'Get "https://x:443/healthz": dial tcp: lookup x: no such host (check DNS)' })).toBe('no such host');
    expect(render('{{clip e 20}}', { e: 'one two three four five six\nsecond line' })).toBe('one two three four…');
    expect(render('{{verb 1 "is" "are"}} {{verb 2 "is" "are"}}', {})).toBe('is are');
  });
});

describe('the headline of a finding', () => {
  it("is the rule's own, specific to the archive", async () => {
    const result = await findingsOf(CRASHLOOP, await builtIn('pod-crashlooping'));
    expect(result.findings[0]!.headline).toBe(
      // The crash-looping pods first, then the one that restarted late and is ready again since 10:03.
      '3 Pods (ingress-operator-7b85cd998b-f4lj9, multus-additional-cni-plugins-66j9j and prometheus-k8s-0) are crash-looping or restarting',
    );
  });

  it('is generated from the objects where the rule has none, never empty', async () => {
    const rule = { ...(await builtIn('pod-crashlooping')), headline: undefined };
    const [finding] = (await findingsOf(CRASHLOOP, rule)).findings;
    expect(finding!.headline).toBe(
      // Three namespaces: each name with its own, as few as fit in one line; since the one timed piece of evidence.
      'OpenShift pod is crash-looping or restarting repeatedly: 3 Pods (openshift-ingress-operator/ingress-operator-7b85cd998b-f4lj9 and 2 more), since 2021-08-03T10:03:20Z',
    );
  });

  it('of a history finding says first that it is over', async () => {
    const input = `${ROOT}rules/etcd/etcd-slow-disk.fixtures/resolved-quiet-since/input`;
    const [finding] = (await findingsOf(input, await builtIn('etcd-slow-disk'))).findings;
    expect(finding!.resolved).toBeDefined();
    expect(finding!.headline).toBe('Resolved before the collection: etcd is too slow for its disk on etcd-ip-10-0-195-177.ec2.internal: 4 WAL fsyncs over 1 s since 2021-08-03T10:01:12Z');
  });
});

describe('the JSON report', () => {
  it('carries the headline on each finding and each diagnosis node', async () => {
    const { rules } = await loadRules([]);
    const analysis = await analyzeInput(`${ROOT}samples/mco-ignition-rollback.tar.gz`, { limits: DEFAULT_LIMITS, rules });
    const json = JSON.parse(renderJson(buildReport(analysis))) as { findings: { ruleId: string; headline: string }[]; diagnosis: { roots: { ruleId: string; headline: string }[] } };
    expect(json.findings.every((f) => f.headline.length > 0)).toBe(true);
    expect(json.diagnosis.roots[0]).toMatchObject({
      ruleId: 'mco-ignition-spec-unsupported',
      headline: 'The Machine Config Operator cannot parse an Ignition spec version newer than it supports since 2021-04-29T23:34:37Z: pools master and worker cannot render (after the rollback to 4.6.27)',
    });
  });
});

describe('rules lint', () => {
  it('asks every rule for a headline', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgsift-headline-'));
    writeFileSync(
      join(dir, 'demo-rule.yaml'),
      "id: demo-rule\ntitle: A demo rule\nseverity: warning\nstatus: experimental\ncomponent: demo\nsignals:\n  line:\n    log:\n      files: [{ bare: true }]\n      regex: 'boom'\n      persists: a demo line, never superseded\nmessage: boom\n",
    );
    const run = mgsift(['rules', 'lint', '--rules', dir]);
    expect(run.stdout).toContain('no headline: say in one line what happened');
    expect(run.code).toBe(1);
  });
});
