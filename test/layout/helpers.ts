import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** Image folder of the real aws must-gather (see fixtures/PROVENANCE.md). */
export const AWS_TOP = 'must-gather-aws';
export const AWS_IMG = `${AWS_TOP}/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cbd33388f7e18954e5ce8ad9616e91df05ace604966c0a44111d85c897`;
export const METAL_TOP = 'must-gather-metal';
export const METAL_IMG = `${METAL_TOP}/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-514b5bd41b36c20014cd237c8aa7eec548e02df0b5d289ae15385eb2a8c6eebf`;

/** Entry names of a real archive, in archive order; directories end in `/`. */
export function realPaths(name: 'aws' | 'metal'): string[] {
  const url = new URL(`./fixtures/must-gather-${name}.paths.gz`, import.meta.url);
  return gunzipSync(readFileSync(url))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.length > 0);
}
