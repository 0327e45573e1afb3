/**
 * Real ClusterVersion objects and histories for the facts tests. Each one names its source.
 * History arrays are in API order: newest first, the install last.
 */

const OCP_RELEASE = 'quay.io/openshift-release-dev/ocp-release@sha256:';

/**
 * Source: /work/shared/samples-real/must-gather-aws.tar.xz (openshift/must-gather-clean
 * test/files/must-gather-aws.tar.xz, Apache-2.0), file
 * `quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cb.../cluster-scoped-resources/
 * config.openshift.io/clusterversions/version.yaml`. Trimmed: metadata reduced to name/uid.
 * A healthy CI install of a 4.8 nightly: one Completed entry, `verified: false` (the install).
 */
export const AWS_CLUSTERVERSION = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'ClusterVersion',
  metadata: { name: 'version', uid: '5740eff7-c305-46c2-ac81-32bade99a1d7' },
  spec: { clusterID: '96eb6c40-16e8-4718-ade6-5d7c6f05e120' },
  status: {
    availableUpdates: null,
    conditions: [
      {
        lastTransitionTime: '2021-08-03T09:14:59Z',
        message: 'The update channel has not been configured.',
        reason: 'NoChannel',
        status: 'False',
        type: 'RetrievedUpdates',
      },
      {
        lastTransitionTime: '2021-08-03T09:45:28Z',
        message: 'Done applying 4.8.0-0.nightly-2021-07-31-065602',
        status: 'True',
        type: 'Available',
      },
      { lastTransitionTime: '2021-08-03T09:45:28Z', status: 'False', type: 'Failing' },
      {
        lastTransitionTime: '2021-08-03T09:45:28Z',
        message: 'Cluster version is 4.8.0-0.nightly-2021-07-31-065602',
        status: 'False',
        type: 'Progressing',
      },
    ],
    desired: {
      image:
        'registry.ci.openshift.org/ocp/release@sha256:b8ef29f84eb7cfde265f28fcd5284770b3a419c1439fe563131e8fb94e586b0a',
      version: '4.8.0-0.nightly-2021-07-31-065602',
    },
    history: [
      {
        completionTime: '2021-08-03T09:45:28Z',
        image:
          'registry.ci.openshift.org/ocp/release@sha256:b8ef29f84eb7cfde265f28fcd5284770b3a419c1439fe563131e8fb94e586b0a',
        startedTime: '2021-08-03T09:14:59Z',
        state: 'Completed',
        verified: false,
        version: '4.8.0-0.nightly-2021-07-31-065602',
      },
    ],
    observedGeneration: 1,
    versionHash: '32sO01NRezI=',
  },
};

/** Same archive, `cluster-scoped-resources/config.openshift.io/infrastructures/cluster.yaml`, trimmed. */
export const AWS_INFRASTRUCTURE = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'Infrastructure',
  metadata: { name: 'cluster' },
  spec: { cloudConfig: { name: '' }, platformSpec: { aws: {}, type: 'AWS' } },
  status: {
    controlPlaneTopology: 'HighlyAvailable',
    infrastructureName: 'ci-ln-5ylibmb-d5d6b-dfvr6',
    infrastructureTopology: 'HighlyAvailable',
    platform: 'AWS',
    platformStatus: { aws: { region: 'us-east-1' }, type: 'AWS' },
  },
};

/**
 * Seed 000 (BZ 1916384), comment 8: 4.5.21 install, update to 4.6.8 in progress, and the
 * bug: the 4.6.8 entry stays `verified: false` although nothing was forced. Times from the
 * comment's `jq` output; states follow from the completion times; images from comment 7.
 */
export const SEED000_C8_HISTORY = [
  {
    completionTime: null,
    image: `${OCP_RELEASE}6ddbf56b7f9776c0498f23a54b65a06b3b846c1012200c5609c4bb716b6bdcdf`,
    startedTime: '2021-01-19T22:23:59Z',
    state: 'Partial',
    verified: false,
    version: '4.6.8',
  },
  {
    completionTime: '2021-01-19T22:19:33Z',
    image: 'registry.ci.openshift.org/ocp/release@sha256:7684a3daa92827b313a682b3615f2a348a941f8557b5b509b736226f40e01e07',
    startedTime: '2021-01-19T21:53:38Z',
    state: 'Completed',
    verified: false,
    version: '4.5.21',
  },
];

/** Seed 000, comment 12 (QE): 4.5.21 → 4.6.8 → 4.6.12 → 4.7.0-fc.3; reproduced on 4.6.8 → 4.6.12. */
export const SEED000_C12_HISTORY = [
  {
    completionTime: null,
    image: `${OCP_RELEASE}ce05fd235f0e59ea0114c73ef25abf838b9c3af103d9cb66aa7ba10eeacd8537`,
    startedTime: '2021-01-22T07:48:23Z',
    state: 'Partial',
    verified: false,
    version: '4.7.0-fc.3',
  },
  {
    completionTime: '2021-01-22T07:37:38Z',
    image: `${OCP_RELEASE}5c3618ab914eb66267b7c552a9b51c3018c3a8f8acf08ce1ff7ae4bfdd3a82bd`,
    startedTime: '2021-01-22T06:40:58Z',
    state: 'Completed',
    verified: false,
    version: '4.6.12',
  },
  {
    completionTime: '2021-01-22T02:52:13Z',
    image: `${OCP_RELEASE}6ddbf56b7f9776c0498f23a54b65a06b3b846c1012200c5609c4bb716b6bdcdf`,
    startedTime: '2021-01-22T01:47:41Z',
    state: 'Completed',
    verified: true,
    version: '4.6.8',
  },
  {
    completionTime: '2021-01-21T11:37:56Z',
    image: `${OCP_RELEASE}7684a3daa92827b313a682b3615f2a348a941f8557b5b509b736226f40e01e07`,
    startedTime: '2021-01-21T11:02:11Z',
    state: 'Completed',
    verified: false,
    version: '4.5.21',
  },
];

/** Seed 000, comment 12 (QE), second cluster: 4.5.14 → 4.5.15 → 4.5.24; reproduced out of 4.5.15. */
export const SEED000_C12B_HISTORY = [
  {
    completionTime: null,
    image: `${OCP_RELEASE}f3ce0aeebb116bbc7d8982cc347ffc68151c92598dfb0cc45aaf3ce03bb09d11`,
    startedTime: '2021-01-22T08:02:38Z',
    state: 'Partial',
    verified: false,
    version: '4.5.24',
  },
  {
    completionTime: '2021-01-22T06:42:53Z',
    image: `${OCP_RELEASE}1df294ebe5b84f0eeceaa85b2162862c390143f5e84cda5acc22cc4529273c4c`,
    startedTime: '2021-01-22T06:08:49Z',
    state: 'Completed',
    verified: true,
    version: '4.5.15',
  },
  {
    completionTime: '2021-01-22T05:29:55Z',
    image: `${OCP_RELEASE}95cfe9273aecb9a0070176210477491c347f8e69e41759063642edf8bb8aceb6`,
    startedTime: '2021-01-22T05:02:22Z',
    state: 'Completed',
    verified: false,
    version: '4.5.14',
  },
];

/**
 * Seed 000, comment 18: the whole ClusterVersion (trimmed: managedFields dropped) during a
 * verified update 4.7.0-0.nightly-2021-02-06-022227 → 4.7.0-rc.0 with `force: false`.
 */
export const SEED000_C18_CLUSTERVERSION = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'ClusterVersion',
  metadata: { name: 'version', uid: 'a03003cc-1cd4-44e4-bcca-940158ecff9c' },
  spec: {
    channel: 'nightly-4.7',
    clusterID: '2d39a2e8-56b6-4cf1-8f04-a4ffc9262e83',
    desiredUpdate: {
      force: false,
      image: `${OCP_RELEASE}497fa748b89619aba312a926a0be0ad155c4b894ca3e2824a00167421e3441b0`,
      version: '4.7.0-rc.0',
    },
    upstream: 'https://raw.githubusercontent.com/shellyyang1989/upgrade-cincy/master/cincy4.json',
  },
  status: {
    availableUpdates: null,
    conditions: [
      {
        lastTransitionTime: '2021-02-10T07:24:27Z',
        message: 'Done applying 4.7.0-0.nightly-2021-02-06-022227',
        status: 'True',
        type: 'Available',
      },
      { lastTransitionTime: '2021-02-10T07:24:27Z', status: 'False', type: 'Failing' },
      {
        lastTransitionTime: '2021-02-10T08:02:20Z',
        message: 'Working towards 4.7.0-rc.0: 70 of 668 done (10% complete)',
        status: 'True',
        type: 'Progressing',
      },
      { lastTransitionTime: '2021-02-10T08:00:08Z', status: 'True', type: 'RetrievedUpdates' },
    ],
    desired: {
      channels: ['nightly-4.7'],
      image: `${OCP_RELEASE}497fa748b89619aba312a926a0be0ad155c4b894ca3e2824a00167421e3441b0`,
      url: 'https://access.redhat.com/errata/RHBA-2020:5633',
      version: '4.7.0-rc.0',
    },
    history: [
      {
        completionTime: null,
        image: `${OCP_RELEASE}497fa748b89619aba312a926a0be0ad155c4b894ca3e2824a00167421e3441b0`,
        startedTime: '2021-02-10T08:02:20Z',
        state: 'Partial',
        verified: true,
        version: '4.7.0-rc.0',
      },
      {
        completionTime: '2021-02-10T07:24:27Z',
        image: 'registry.ci.openshift.org/ocp/release@sha256:ee7e4d58dd6e001d4f621e5cbf893d203910c2d3c2dce88b8ac65538eb1f1411',
        startedTime: '2021-02-10T06:56:41Z',
        state: 'Completed',
        verified: false,
        version: '4.7.0-0.nightly-2021-02-06-022227',
      },
    ],
    observedGeneration: 3,
    versionHash: 'Q_5mmldRekY=',
  },
};

/**
 * Seed 003 (BZ 1947477 clone), comment 6: CI job
 * `periodic-ci-openshift-release-master-ci-4.7-upgrade-from-stable-4.6-e2e-aws-upgrade-rollback`
 * run 1387886270079832064, gather-extra `clusterversion.json`, from the comment's `jq`
 * output (startedTime, completionTime, state, version; `verified` and images not shown, so
 * absent here). 4.6.27 install → 4.7.0-0.ci build (Partial) → rollback to 4.6.27 (Partial).
 */
export const SEED003_CLUSTERVERSION = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'ClusterVersion',
  metadata: { name: 'version' },
  spec: { clusterID: '00000000-0000-0000-0000-000000000003' },
  status: {
    conditions: [
      { lastTransitionTime: '2021-04-29T22:29:21Z', type: 'Available', status: 'True', message: 'Done applying 4.6.27' },
      {
        lastTransitionTime: '2021-04-30T01:12:02Z',
        type: 'Failing',
        status: 'True',
        reason: 'ClusterOperatorDegraded',
        message:
          'Cluster operator ingress is reporting a failure: Some ingresscontrollers are degraded: ingresscontroller "default" is degraded: DegradedConditions: One or more other status conditions indicate a degraded state: DeploymentReplicasAllAvailable=False (DeploymentReplicasNotAvailable: 1/2 of replicas are available)',
      },
      {
        lastTransitionTime: '2021-04-29T22:32:41Z',
        type: 'Progressing',
        status: 'True',
        reason: 'ClusterOperatorDegraded',
        message: 'Unable to apply 4.6.27: the cluster operator ingress is degraded',
      },
      {
        lastTransitionTime: '2021-04-29T22:01:14Z',
        type: 'RetrievedUpdates',
        status: 'False',
        reason: 'NoChannel',
        message: 'The update channel has not been configured.',
      },
    ],
    desired: { version: '4.6.27' },
    history: [
      { startedTime: '2021-04-29T23:34:37Z', completionTime: null, state: 'Partial', version: '4.6.27' },
      {
        startedTime: '2021-04-29T22:32:41Z',
        completionTime: '2021-04-29T23:34:37Z',
        state: 'Partial',
        version: '4.7.0-0.ci-2021-04-29-142719',
      },
      {
        startedTime: '2021-04-29T22:01:14Z',
        completionTime: '2021-04-29T22:29:21Z',
        state: 'Completed',
        version: '4.6.27',
      },
    ],
  },
};

/**
 * Seed 001 (openshift/release PR, job
 * `periodic-ci-openshift-release-master-nightly-4.14-upgrade-from-stable-4.13-e2e-aws-ovn-upgrade-rollback`,
 * 2023-10-05). The seed shows no history object, only the narrative "updating from 4.13 to
 * 4.14 ... then the rollback" and CVO logs from 2023-10-05 01:41. This history is
 * RECONSTRUCTED from that narrative: the shape (stable 4.13 install → 4.14 nightly →
 * rollback to the same 4.13) is the seed's; the exact 4.13.z, nightly name and times are
 * illustrative, not real.
 */
export const SEED001_RECONSTRUCTED_HISTORY = [
  {
    completionTime: null,
    image: `${OCP_RELEASE}1111111111111111111111111111111111111111111111111111111111111111`,
    startedTime: '2023-10-05T01:30:00Z',
    state: 'Partial',
    verified: false,
    version: '4.13.15',
  },
  {
    completionTime: '2023-10-05T01:25:00Z',
    image: 'registry.build05.ci.openshift.org/ci-op-xxxx/release@sha256:2222222222222222222222222222222222222222222222222222222222222222',
    startedTime: '2023-10-05T00:30:00Z',
    state: 'Partial',
    verified: false,
    version: '4.14.0-0.nightly-2023-10-04-143709',
  },
  {
    completionTime: '2023-10-05T00:20:00Z',
    image: `${OCP_RELEASE}1111111111111111111111111111111111111111111111111111111111111111`,
    startedTime: '2023-10-04T23:50:00Z',
    state: 'Completed',
    verified: false,
    version: '4.13.15',
  },
];

/** Wrap a history array (API order) into a minimal ClusterVersion. */
export function clusterVersionWith(
  history: readonly unknown[],
  extra: { desiredVersion?: string; force?: boolean } = {},
): Record<string, unknown> {
  const newest = history[0] as { version?: string; image?: string } | undefined;
  const desiredVersion = extra.desiredVersion ?? newest?.version;
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: {
      clusterID: '00000000-0000-0000-0000-000000000000',
      ...(extra.force !== undefined
        ? { desiredUpdate: { version: desiredVersion, image: newest?.image, force: extra.force } }
        : {}),
    },
    status: { desired: { version: desiredVersion, image: newest?.image }, history: [...history] },
  };
}
