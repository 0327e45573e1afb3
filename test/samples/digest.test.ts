import { describe, it, expect } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mgsift } from '../helpers/cli.js';
import { needsShared } from '../helpers/needs.js';

const SAMPLES = new URL('../../samples/', import.meta.url).pathname;
const REAL = new URL('../../../shared/samples-real/', import.meta.url).pathname;

interface Digest {
  lines: number;
  explained: number;
  templates: number;
  components: { name: string; count: number; templates: { template: string; count: number; example: { text: string } }[] }[];
}

function digestOf(input: string): Digest {
  const run = mgsift(['analyze', input, '--format', 'json', '-o', '-', '--fail-on', 'critical']);
  expect(run.stderr).toBe('');
  return (JSON.parse(run.stdout) as { digest: Digest }).digest;
}

/** Every template with its component and count, most lines first. */
function top(digest: Digest, n: number): [number, string, string][] {
  return digest.components
    .flatMap((c) => c.templates.map((t): [number, string, string] => [t.count, c.name, t.template]))
    .sort((a, b) => b[0] - a[0] || (a[2] < b[2] ? -1 : 1))
    .slice(0, n);
}

describe('unrecognised-errors digest on the bundled samples', () => {
  it('healthy: the CVO install-time errors fold into three templates', () => {
    const digest = digestOf(join(SAMPLES, 'healthy.tar.gz'));
    expect(digest.lines).toBe(91);
    expect(digest.explained).toBe(0);
    expect(top(digest, 3).map(([count, component, template]) => [count, component, template.slice(0, 60)])).toEqual([
      [76, 'openshift-cluster-version/cluster-version-operator', 'reflector.go:138] <*> Failed to watch <*> failed to list <*>'],
      [14, 'openshift-cluster-version/cluster-version-operator', 'leaderelection.go:325] error retrieving resource lock opensh'],
      [1, 'openshift-cluster-version/cluster-version-operator', 'reflector.go:138] k8s.io/client-go/informers/factory.go:<num'],
    ]);
  });

  it('cvo-final-sync-lost: the error line the rule holds as evidence is explained, not listed', () => {
    const digest = digestOf(join(SAMPLES, 'cvo-final-sync-lost.tar.gz'));
    expect(digest.explained).toBe(1);
    const all = digest.components.flatMap((c) => c.templates.map((t) => t.template));
    expect(all.some((t) => t.includes('unable to perform final sync'))).toBe(false);
  });
});

describe.runIf(existsSync(join(REAL, 'must-gather-aws.tar.xz')))(`unrecognised-errors digest on the real aws archive ${needsShared('samples-real/must-gather-aws.tar.xz')}`, () => {
  it('folds its 7162 install-time error lines into a readable handful of templates per component', () => {
    const digest = digestOf(join(REAL, 'must-gather-aws.tar.xz'));
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
