import { createWriteStream } from 'node:fs';
import { createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import tarStream from 'tar-stream';

const ROOT = 'must-gather.local.1/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0000000000000000000000000000000000000000000000000000000000000000';
const LINE = '2021-08-03T09:28:09.655764504Z I0803 09:28:09.655711       1 sync_worker.go:602] Payload loaded from quay.io/openshift-release-dev/ocp-release@sha256:6ddbf56b with hash BYHEg9BBpfk=\n';

/**
 * A must-gather-shaped .tar.gz with `pods` pod logs of `linesPerLog` real-looking CVO lines each,
 * streamed to disk (the archive stays small; its content is large once inflated).
 */
export async function syntheticMustGather(file: string, pods: number, linesPerLog: number): Promise<void> {
  const pack = tarStream.pack();
  const done = pipeline(pack, createGzip({ level: 1 }), createWriteStream(file));
  const body = Buffer.from(LINE.repeat(linesPerLog));
  for (let i = 0; i < pods; i++) {
    const path = `${ROOT}/namespaces/openshift-cluster-version/pods/cvo-${i}/cluster-version-operator/cluster-version-operator/logs/current.log`;
    await new Promise<void>((resolve, reject) => pack.entry({ name: path, size: body.length }, body, (err) => (err ? reject(err) : resolve())));
  }
  pack.finalize();
  await done;
}
