import { describe, it, expect } from 'vitest';
import { join } from 'node:path';
import { digestOf, topTemplates as top } from '../helpers/reports.js';

const SAMPLES = new URL('../../samples/', import.meta.url).pathname;

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

