import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MG_MINI, tempDir } from './archives.js';

const NODES = new URL('../fixtures/timeline-nodes/', import.meta.url).pathname;

/** mg-mini with the two real trimmed Node objects laid over its image folder. */
export function mgMiniWithNodes(): string {
  const dir = join(tempDir(), 'mg');
  cpSync(MG_MINI, dir, { recursive: true });
  const image = join(dir, 'must-gather-aws', 'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cbd33388f7e18954e5ce8ad9616e91df05ace604966c0a44111d85c897');
  const nodes = join(image, 'cluster-scoped-resources', 'core', 'nodes');
  mkdirSync(nodes, { recursive: true });
  for (const name of ['ip-10-0-129-220.ec2.internal.yaml', 'ip-10-0-195-177.ec2.internal.yaml']) cpSync(join(NODES, name), join(nodes, name));
  return dir;
}

