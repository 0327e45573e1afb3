import { createWriteStream, writeFileSync } from 'node:fs';
import { createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import tarStream from 'tar-stream';

const ROOT = 'must-gather.local.1/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0000000000000000000000000000000000000000000000000000000000000000';
const LINE = '2021-08-03T09:28:09.655764504Z I0803 09:28:09.655711       1 sync_worker.go:602] Payload loaded from quay.io/openshift-release-dev/ocp-release@sha256:6ddbf56b with hash BYHEg9BBpfk=\n';

/** Letters for a number (`0` → `a`, `26` → `ba`): words no digest mask touches. */
function word(n: number): string {
  let out = '';
  do {
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26);
  } while (n > 0);
  return out;
}

/**
 * Every `every`-th line a klog error line whose four words are all new: the worst case for the
 * unrecognised-errors digest (no two lines share a template).
 */
function withErrors(linesPerLog: number, every: number, pod: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < linesPerLog; i++) {
    const n = (pod * linesPerLog + i) * 4;
    lines.push(i % every === 0 ? `2021-08-03T09:28:09.655764504Z E0803 09:28:09.655711       1 task.go:112] ${word(n)} ${word(n + 1)} ${word(n + 2)} ${word(n + 3)}\n` : LINE);
  }
  return Buffer.from(lines.join(''));
}

/**
 * A must-gather-shaped .tar.gz with `pods` pod logs of `linesPerLog` real-looking CVO lines each,
 * streamed to disk (the archive stays small; its content is large once inflated). With
 * `errorsEvery`, every n-th line is an error line never seen before.
 */
export async function syntheticMustGather(file: string, pods: number, linesPerLog: number, options: { errorsEvery?: number } = {}): Promise<void> {
  const pack = tarStream.pack();
  const done = pipeline(pack, createGzip({ level: 1 }), createWriteStream(file));
  const plain = Buffer.from(LINE.repeat(linesPerLog));
  for (let i = 0; i < pods; i++) {
    const body = options.errorsEvery !== undefined ? withErrors(linesPerLog, options.errorsEvery, i) : plain;
    const path = `${ROOT}/namespaces/openshift-cluster-version/pods/cvo-${i}/cluster-version-operator/cluster-version-operator/logs/current.log`;
    await new Promise<void>((resolve, reject) => pack.entry({ name: path, size: body.length }, body, (err) => (err ? reject(err) : resolve())));
  }
  pack.finalize();
  await done;
}

/** A bare CVO log of at least `bytes` (real-looking lines, no failure in them), written as it is. */
export function largeCvoLog(file: string, bytes: number): void {
  writeFileSync(file, LINE.repeat(Math.ceil(bytes / LINE.length)));
}
