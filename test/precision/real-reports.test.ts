/**
 * What mgsift says about the real must-gathers of ../shared/samples-real (`npm run test:real`: each
 * analysis of a real archive takes seconds, so `npm test` leaves them here): `inspect`, the
 * Markdown report's size, the timeline, the digest of unrecognised errors, the cluster summary,
 * and a rule made by `rules new` from one archive firing on the other.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { MD_DEFAULT_LIMIT } from '../../src/report/markdown.js';
import { tempDir } from '../helpers/archives.js';
import { mgsift } from '../helpers/cli.js';
import { needsShared } from '../helpers/needs.js';
import { digestOf, markdownReport, timelineJson, topTemplates as top, type Item } from '../helpers/reports.js';

const REAL = new URL('../../../shared/samples-real/', import.meta.url).pathname;
const AWS = join(REAL, 'must-gather-aws.tar.xz');
const METAL = join(REAL, 'must-gather-metal.tar.xz');
const REAL_ARCHIVES = [AWS, METAL];

describe.runIf(existsSync(AWS) && existsSync(METAL))(`the real must-gathers ${needsShared('samples-real/')}`, () => {
  describe('inspect on the real must-gathers', () => {
    it('reports the aws archive: version, collection day, one Completed history entry', () => {
      const run = mgsift(['inspect', '--json', AWS]);
      expect(run.code).toBe(0);
      const [result] = JSON.parse(run.stdout);
      expect(result.input.container).toBe('tar.xz');
      expect(result.layout).toBe('must-gather');
      expect(result.cluster.version).toBe('4.8.0-0.nightly-2021-07-31-065602');
      expect(result.cluster.platform).toBe('AWS');
      expect(result.collectedAt.slice(0, 10)).toBe('2021-08-03');
      expect(result.history).toEqual([
        { version: '4.8.0-0.nightly-2021-07-31-065602', state: 'Completed', verified: false, started: '2021-08-03T09:14:59.000Z', completed: '2021-08-03T09:45:28.000Z' },
      ]);
      expect(result.objectsByKind.ClusterOperator).toBe(31);
      expect(result.podLogs).toBeGreaterThan(1000);
    });

    it('reports the metal archive version', () => {
      const run = mgsift(['inspect', '--json', METAL]);
      expect(JSON.parse(run.stdout)[0].cluster.version).toBe('4.9.0-0.nightly-2021-09-10-170926');
    });
  });

  describe('Markdown report size', () => {
    it.each(REAL_ARCHIVES)('%s: under 60,000 characters, says what was left out and where', (input) => {
      const md = markdownReport(input);
      expect(md.length).toBeLessThan(MD_DEFAULT_LIMIT);
      expect(md).toMatch(/> \*\*Shortened to 60,000 characters:\*\* .*timeline rows?\b.*left out/);
      expect(md).toContain('`--md-full` writes everything here');
      expect(md).toContain('`mgsift timeline <input>`');
      // The findings are in, the history with what resolved it and the others with their remediation; the cut fell on the extracts.
      expect(md).toContain('### INFO: Resolved before the collection: The scheduler could not place pods (FailedScheduling events)');
      expect(md).toMatch(/\nresolved 2021-[0-9T:-]+Z: openshift-[a-z-]+\/[a-z0-9-]+ placed on /);
      expect(md).toContain('#### Remediation');
    });

    it('--md-limit and --md-full choose the size on the aws archive', () => {
      const input = AWS;
      const small = markdownReport(input, ['--md-limit', '20000']);
      expect(small.length).toBeLessThan(20_000);
      expect(small).toContain('Shortened to 20,000 characters');
      expect(small).toContain('## Findings');
      const full = markdownReport(input, ['--md-full']);
      expect(full.length).toBeGreaterThan(MD_DEFAULT_LIMIT);
      expect(full).not.toContain('Shortened to');
    });
  });

  describe('timeline of the real aws must-gather', () => {
    it('--problems: alerts the pack treats as informational are none (AlertmanagerReceiversNotConfigured), install noise is folded', () => {
      const doc = timelineJson([AWS, '--problems']);
      expect(doc.items.some((i) => i.label.startsWith('AlertmanagerReceiversNotConfigured'))).toBe(false);
      expect(doc.items.map((i) => i.lane)).toEqual(['history']);
      expect(doc.notes).toEqual(['No problem after the install completed at 2021-08-03 09:45:28Z.']);
      // Without the pack, every firing warning alert is kept: the exclusion is the rules', not the timeline's.
      const bare = timelineJson([AWS, '--problems', '--no-rules', '--lane', 'alert']);
      expect(bare.items.map((i) => i.label)).toEqual(['AlertmanagerReceiversNotConfigured firing']);
    });

    it('shows ClusterOperator transitions and node readiness in order, relative to the collection', () => {
      const doc = timelineJson([AWS, '--lane', 'operator', '--lane', 'node', '--no-rules']);
      const nodes = doc.items.filter((i) => i.lane === 'node');
      expect(nodes.map((i) => `${i.relative} ${i.label}`)).toEqual([
        '-55m40s ip-10-0-195-177.ec2.internal Ready=True',
        '-53m54s ip-10-0-187-218.ec2.internal Ready=True',
        '-53m13s ip-10-0-189-142.ec2.internal Ready=True',
        '-48m14s ip-10-0-254-204.ec2.internal Ready=True',
        '-47m38s ip-10-0-151-183.ec2.internal Ready=True',
        '-46m19s ip-10-0-129-220.ec2.internal Ready=True',
      ]);
      const operators = doc.items.filter((i) => i.lane === 'operator');
      expect(operators).toHaveLength(121);
      expect(operators[0]).toMatchObject({ start: '2021-08-03T09:16:16.000Z', relative: '-57m58s', label: 'cloud-credential Available=True' });
      expect(operators.at(-1)).toMatchObject({ label: 'monitoring Upgradeable=True', relative: '-5m8s' });
      const starts = doc.items.map((i) => Date.parse(i.start));
      expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    });

    it('keeps the HTML report light: Warning event groups only, capped, the rest counted', () => {
      const out = join(tempDir(), 'report');
      const run = mgsift(['analyze', AWS, '-o', out, '--format', 'html,json', '--quiet', '--fail-on', 'critical']);
      expect(run.code).toBe(0);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { facts: { timeline: Item[]; timelineOmitted: { lane: string; count: number }[] } };
      const lanes = new Map<string, number>();
      for (const i of report.facts.timeline) lanes.set(i.lane, (lanes.get(i.lane) ?? 0) + 1);
      expect(lanes.get('event')).toBe(200);
      expect(lanes.get('node')).toBe(6);
      expect(lanes.get('operator')).toBe(121);
      expect(report.facts.timelineOmitted.map((o) => o.count)).toEqual([2041, 56]);
      // The timeline stays a small part of the page (the digest of unrecognised errors is most of it).
      const html = readFileSync(join(out, 'report.html'), 'utf8');
      const timeline = html.slice(html.indexOf('id="timeline"'), html.indexOf('</section>', html.indexOf('id="timeline"')));
      expect(timeline.length).toBeLessThan(400_000);
      expect(html.length).toBeLessThan(1_000_000);
    });
  });

  describe('unrecognised-errors digest on the real aws archive', () => {
    it('folds its 7162 install-time error lines into a readable handful of templates per component', () => {
      const digest = digestOf(AWS);
      expect(digest.lines).toBe(7162);
      expect(digest.templates).toBeLessThan(400);
      expect(top(digest, 3)).toEqual([
        [2288, 'openshift-sdn/sdn', 'utils.go:282] Skipping invalid IP: '],
        [579, 'host/kubelet', 'kubelet.go:2303] "Error getting node" err="node \\"<host>\\" not found"'],
        [480, 'openshift-cluster-version/cluster-version-operator', 'task.go:112] error running apply for clusteroperator <*> (<num> of <num>): Cluster operator <*> is not available'],
      ]);
      // Ten templates cover more than half of the lines.
      const ten = top(digest, 10).reduce((n, [count]) => n + count, 0);
      expect(ten / digest.lines).toBeGreaterThan(0.6);
    });
  });

  describe('the cluster summary of the real aws archive (shared/samples-real)', () => {
    it('4.8: 31 of 31 operators, 6 of 6 nodes, not updating, 3 etcd members healthy (their 3 local sockets left out)', async () => {
      const s = (await analyzeInput(AWS, { limits: DEFAULT_LIMITS })).facts.summary!;
      expect(s.operators).toMatchObject({ total: 31, available: 31 });
      expect(s.nodes).toMatchObject({ total: 6, ready: 6, roles: { master: 3, worker: 3 } });
      expect(s.update).toBeNull();
      expect(s.updateUnknown).toBeUndefined();
      expect(s.etcd).toMatchObject({ gathered: true, endpoints: 3, healthy: 3, leader: 'ip-10-0-195-177.ec2.internal' });
      expect(s.etcd.info!.health.filter((h) => h.local)).toHaveLength(3);
      expect(s.pods!.restarting[0]).toMatchObject({ container: 'ingress-operator', restarts: 5, lastReason: 'Error' });
    }, 60_000);
  });

  describe('rules new: placeholders are general', () => {
    it('a rule made from the aws archive fires on the same kubelet line of the metal cluster', () => {
      const work = tempDir();
      const awsReport = join(work, 'aws.json');
      expect(mgsift(['analyze', AWS, '--format', 'json', '-o', awsReport, '-q', '--fail-on', 'critical']).code).toBe(0);
      const aws = JSON.parse(readFileSync(awsReport, 'utf8')) as { digest: { components: { templates: { id: string; template: string }[] }[] } };
      const template = aws.digest.components.flatMap((c) => c.templates).find((t) => t.template.includes('"Error getting node" err="node \\"<host>\\" not found"'));
      expect(template).toBeDefined();
      const rulesDir = join(work, 'rules');
      expect(mgsift(['rules', 'new', '--from', template!.id, awsReport, '--dir', rulesDir, '--id', 'kubelet-error-getting-node']).code).toBe(0);
      const metal = mgsift(['analyze', METAL, '--rules', rulesDir, '--only', 'kubelet-error-getting-node', '--format', 'json', '-o', '-', '--fail-on', 'critical']);
      const findings = (JSON.parse(metal.stdout) as { findings: { ruleId: string; evidence: { text: string }[] }[] }).findings;
      expect(findings.map((f) => f.ruleId)).toEqual(['kubelet-error-getting-node']);
      expect(findings[0]!.evidence[0]!.text).toMatch(/kubelet\.go:2430\] "Error getting node" err="node \\"master-\d\.ci-ln-/);
    }, 240_000);
  });
});
