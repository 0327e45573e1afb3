/**
 * Hand-built reports for the renderer tests, after the seeds in /work/shared/seeds:
 * - seed000Report: BZ 1916384, an update 4.5.21 → 4.6.8 caught mid-way (comment 8's cluster),
 *   `verified: false` on the non-install entry, the outgoing CVO's `final sync` line;
 * - rollbackReport: seed 001, 4.13 → 4.14 → 4.13 (y-stream rollback), the capability enum
 *   error, a banner, ~160 timeline items;
 * - healthyReport: nothing found, no history, no collection time;
 * - manyEntriesReport: 20 history entries and 200 timeline items (layout stress).
 * Hostile strings sit in evidence, messages, cluster fields, labels and paths.
 */
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import type { Evidence, Finding, Severity } from '../../src/engine/findings.js';
import { REPORT_SCHEMA_VERSION } from '../../src/report/model.js';
import type { HistoryRow, Report, ReportSummary, TimelineItem } from '../../src/report/model.js';
import { reportSummary } from '../../src/report/summary.js';
import type { ClusterSummary } from '../../src/facts/cluster-summary.js';

export const SCRIPT = '<script>alert(1)</script>';
export const IMG = '<img src=x onerror=alert(1)>';
export const HOSTILE = `${SCRIPT} ${IMG} \`\`\`\` | a|b ]]> \u0000 nul \u001b[31m esc`;

export function countsOf(findings: Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { info: 0, warning: 0, error: 0, critical: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

function ms(iso: string): number {
  return Date.parse(iso);
}

function matchOf(text: string, needle: string): [number, number] {
  const start = text.indexOf(needle);
  if (start < 0) throw new Error(`fixture: ${needle} not in ${text}`);
  return [start, start + needle.length];
}

const CVO_POD_DIR = 'namespaces/openshift-cluster-version/pods';
const IMAGE_4_5_21 =
  'registry.ci.openshift.org/ocp/release@sha256:7684a3daa92827b313a682b3615f2a348a941f8557b5b509b736226f40e01e07';
const IMAGE_4_6_8 =
  'quay.io/openshift-release-dev/ocp-release@sha256:6ddbf56b7f9776c0498f23a54b65a06b3b846c1012200c5609c4bb716b6bdcdf';

export const FINAL_SYNC_LINE = 'E0119 22:24:15.924216       1 cvo.go:344] unable to perform final sync: context canceled';
export const HOSTILE_LINE = `I0119 22:24:16.000001       1 event.go:1] Created pod: ${HOSTILE} end`;

/** Mid-update 4.5.21 → 4.6.8 (seed 000's cluster), archive text in a node's message, an insight and a pod. */
export function midUpdateSummary(): ReportSummary {
  const at = ms('2021-01-19T22:30:12Z');
  const summary: ClusterSummary = {
    at,
    atSource: 'collection',
    operators: {
      total: 31,
      available: 30,
      degraded: ['ingress'],
      progressing: ['machine-config'],
      unavailable: ['monitoring'],
      conditions: [
        { name: 'ingress', conditions: { Available: { status: 'True' }, Degraded: { status: 'True', reason: 'IngressDegraded' } } },
        { name: 'monitoring', conditions: { Available: { status: 'False', reason: 'UpdatingPrometheusFailed' } } },
      ],
    },
    nodes: {
      total: 6,
      ready: 5,
      roles: { master: 3, worker: 3 },
      notReady: ['worker-2'],
      unschedulable: ['worker-2'],
      kubelet: [{ version: 'v1.18.3+2fbd7c7', count: 6 }],
      members: [
        { name: 'worker-2', roles: ['worker'], pool: 'worker' },
        { name: 'master-0', roles: ['master'], pool: 'master' },
      ],
    },
    pools: [
      { name: 'master', machines: 3, updated: 3, ready: 3, degraded: 0, unavailable: 0, paused: false, config: 'rendered-master-1a', degradedConditions: [] },
      { name: 'worker', machines: 3, updated: 2, ready: 2, degraded: 1, unavailable: 1, paused: false, config: 'rendered-worker-2b', movingTo: 'rendered-worker-3c', degradedConditions: ['NodeDegraded'] },
    ],
    pods: {
      total: 240,
      running: 230,
      succeeded: 8,
      notRunning: [{ reason: 'CrashLoopBackOff', count: 2, pods: [{ namespace: 'openshift-ingress', name: `router-default-7f9c${IMG}`, workload: 'Deployment/router-default', node: 'worker-2' }] }],
      restarting: [{ namespace: 'openshift-ingress', pod: 'router-default-7f9c', container: 'router', workload: 'Deployment/router-default', restarts: 41, lastReason: 'Error', lastExitCode: 137, lastFinishedAt: at - 60_000, waiting: 'CrashLoopBackOff' }],
      restartingMore: 0,
    },
    etcd: {
      gathered: true,
      endpoints: 3,
      healthy: 2,
      leader: 'master-0',
      dbSize: 120_000_000,
      dbSizeInUse: 80_000_000,
      info: {
        files: ['alarm_list.json', 'endpoint_health.json', 'member_list.json'],
        members: [{ id: '13518803987065864191', name: 'master-0', peerURLs: ['https://10.0.0.5:2380'], clientURLs: ['https://10.0.0.5:2379'], leader: true, version: '3.4.9', dbSize: 120_000_000, dbSizeInUse: 80_000_000 }],
        health: [{ endpoint: 'https://10.0.0.6:2379', healthy: false, error: `context deadline exceeded ${SCRIPT}`, local: false }],
        alarms: [{ alarm: 'NOSPACE', memberId: '13518803987065864191', member: 'master-0' }],
        unreadable: [],
      },
    },
    update: {
      assessment: 'Progressing - Slow',
      target: '4.6.8',
      from: '4.5.21',
      fromIncomplete: false,
      install: false,
      multiArch: false,
      startedAt: ms('2021-01-19T22:23:59Z'),
      durationMs: 373_000,
      estimatedRemainingMs: -60_000,
      estimatedTotalMs: 300_000,
      completionPercent: 94,
      operatorsTotal: 31,
      operatorsUpdated: 29,
      operatorsUpdating: ['machine-config'],
      operatorsWaiting: 1,
      operatorsUnavailable: 1,
      operatorsDegraded: 1,
      pools: [
        { name: 'master', controlPlane: true, assessment: 'Completed', completionPercent: 100, nodesUpdated: 3, nodesTotal: 3, paused: false, available: 3, progressing: 0, draining: 0, excluded: 0, degraded: 0, nodes: [] },
        {
          name: 'worker',
          controlPlane: false,
          assessment: 'Degraded',
          completionPercent: 67,
          nodesUpdated: 2,
          nodesTotal: 3,
          paused: false,
          available: 2,
          progressing: 0,
          draining: 1,
          excluded: 0,
          degraded: 1,
          nodes: [{ name: 'worker-2', assessment: 'Degraded', phase: 'Draining', version: '4.5.21', message: `failed to drain node: <node> ${HOSTILE}`, estimate: '?' }],
        },
      ],
      health: [
        {
          type: 'node-degraded',
          level: 'Error',
          impact: 'Update Stalled',
          message: 'Node worker-2 is degraded',
          description: `failed to drain node ${HOSTILE}`,
          reference: 'https://docs.openshift.com/container-platform/latest/post_installation_configuration/machine-configuration-tasks.html',
          object: { kind: 'Node', name: 'worker-2' },
          mentions: { operators: [], pools: [] },
        },
        {
          type: 'operator-unavailable',
          level: 'Warning',
          impact: 'API Availability',
          message: 'Cluster Operator monitoring is unavailable (UpdatingPrometheusK8SFailed)',
          description: 'Failed to rollout the stack.',
          since: at + 30_000,
          afterCollection: true,
          reference: 'https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/ClusterOperatorDown.md',
          object: { kind: 'ClusterOperator', name: 'monitoring' },
          mentions: { operators: [], pools: [] },
        },
      ],
      notes: [],
    },
  };
  return reportSummary(summary, { conditions: {}, currentVersion: '4.5.21', desiredVersion: '4.6.8' });
}

/** A healthy cluster, not updating. */
export function healthySummary(): ReportSummary {
  return reportSummary(
    {
      at: ms('2023-08-16T11:20:00Z'),
      atSource: 'collection',
      operators: { total: 33, available: 33, degraded: [], progressing: [], unavailable: [], conditions: [] },
      nodes: { total: 6, ready: 6, roles: { master: 3, worker: 3 }, notReady: [], unschedulable: [], kubelet: [{ version: 'v1.26.6+73ac561', count: 6 }], members: [] },
      etcd: { gathered: false, endpoints: 0, healthy: 0 },
      update: null,
    },
    { conditions: {}, currentVersion: '4.13.8' },
  );
}

/** An input with no ClusterVersion: whether it updates is unknown. */
export function unknownSummary(): ReportSummary {
  return reportSummary(undefined, undefined);
}

export function seed000Report(): Report {
  const finalSync: Finding = {
    ruleId: 'cvo-final-sync-lost',
    severity: 'warning',
    title: 'Outgoing CVO exited before its final ClusterVersion status sync',
    headline: 'Update to 4.6.8, recorded as unverified: the outgoing CVO exited before its final status sync',
    component: 'cluster-version-operator',
    tags: ['upgrade', 'cvo', 'bz1916384'],
    message:
      'The update to 4.6.8 (started 2021-01-19T22:23:59Z) is recorded with verified: false, but the outgoing CVO (4.5.21, build v4.5.0-202011132127.p0-dirty) exited before it synced ClusterVersion status.\n' +
      'This is BZ 1916384: cosmetic for the cluster, but the history misleads audits.\n\n' +
      `Log text seen: ${SCRIPT}`,
    remediation:
      'None for past history entries: the flag cannot be corrected in place.\n' +
      'Update out to a release with the fix (4.7.0 or later, RHSA-2020:5633). To check the signature by hand:\n' +
      '```\n' +
      `oc adm release info --pullspecs ${IMAGE_4_6_8}\n` +
      '```\n',
    references: [
      'https://bugzilla.redhat.com/show_bug.cgi?id=1916384',
      'https://github.com/openshift/cluster-version-operator/pull/501',
      'javascript:alert(1)',
      'RHSA-2020:5633',
    ],
    evidence: [
      {
        signal: 'final-sync-log',
        file: `${CVO_POD_DIR}/cluster-version-operator-59bc479b54-h54zb/cluster-version-operator/cluster-version-operator/logs/previous.log`,
        line: 10234,
        time: ms('2021-01-19T22:24:15.924Z'),
        text: FINAL_SYNC_LINE,
        match: matchOf(FINAL_SYNC_LINE, 'unable to perform final sync: context canceled'),
        captures: { file: 'cvo.go', line: '344' },
      },
      {
        signal: 'unverified-history',
        file: 'cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml',
        line: 87,
        text: 'status.history[0]: version 4.6.8 verified: false (outgoing 4.5.21)',
        object: { kind: 'ClusterVersion', name: 'version' },
      },
      {
        signal: 'final-sync-log',
        file: `${CVO_POD_DIR}/cluster-version-operator-59bc479b54-h54zb/${IMG}/current.log`,
        line: 3,
        time: ms('2021-01-19T22:24:16Z'),
        text: HOSTILE_LINE,
        match: matchOf(HOSTILE_LINE, SCRIPT),
        captures: { payload: IMG },
        object: { kind: 'Pod', namespace: 'openshift-cluster-version', name: IMG },
      },
    ],
    evidenceDropped: 0,
    about: [{ kind: 'ClusterVersion', name: 'version' }],
    explains: [],
    explainedBy: [],
  };
  const podEvents: Evidence[] = [];
  for (let i = 0; i < 13; i++) {
    const text = `Created pod: cluster-version-operator-${String(i).padStart(2, '0')}abc-${i}x`;
    podEvents.push({
      signal: 'cvo-pod-created',
      file: 'namespaces/openshift-cluster-version/core/events.yaml',
      time: ms('2021-01-19T21:53:12Z') + i * 60_000,
      text,
      match: matchOf(text, 'Created pod'),
      object: { kind: 'Event', namespace: 'openshift-cluster-version', name: `cvo.${i}` },
    });
  }
  const restarts: Finding = {
    ruleId: 'cvo-pod-churn',
    severity: 'info',
    title: 'CVO pods replaced during the update',
    headline: 'The CVO pod was replaced 13 times during the update, between 21:53 and 22:24 UTC',
    component: 'cluster-version-operator',
    tags: ['cvo'],
    message: 'The CVO pod was replaced 13 times between 21:53 and 22:24 UTC; expected while an update rolls out.',
    remediation: '',
    references: [],
    evidence: podEvents,
    evidenceDropped: 2,
    about: [],
    explains: [],
    explainedBy: [],
  };
  const findings = [restarts, finalSync];
  const history: HistoryRow[] = [
    {
      version: '4.5.21',
      state: 'Completed',
      verified: false,
      started: '2021-01-19T21:53:38Z',
      completed: '2021-01-19T22:19:33Z',
      image: IMAGE_4_5_21,
      install: true,
      forced: false,
    },
    {
      version: '4.6.8',
      state: 'Partial',
      verified: false,
      started: '2021-01-19T22:23:59Z',
      image: IMAGE_4_6_8,
      install: false,
      forced: false,
    },
  ];
  const timeline: TimelineItem[] = [
    { lane: 'cvo', start: '2021-01-19T21:53:45Z', end: '2021-01-19T22:24:16Z', label: 'cluster-version-operator-59bc479b54-h54zb (v4.5.0-202011132127.p0-dirty)' },
    { lane: 'cvo', start: '2021-01-19T22:24:17Z', end: '2021-01-19T22:24:22Z', label: 'cluster-version-operator-86b768cb58-26cv6 (4.6.0-202012050130.p0-39a4256)' },
    { lane: 'cvo', start: '2021-01-19T22:24:23Z', open: true, label: 'cluster-version-operator-8546dd559-6zxmp (4.6.0-202012050130.p0-39a4256)' },
    { lane: 'cvo', start: '2021-01-19T22:19:03.311Z', label: 'Loading payload' },
    { lane: 'cvo', start: '2021-01-19T22:23:59.787Z', label: 'Loading payload' },
    { lane: 'cvo', start: '2021-01-19T22:24:15.636Z', label: 'Precondition ClusterVersionUpgradeable passed' },
    { lane: 'cvo', start: '2021-01-19T22:24:15.649Z', label: `Payload loaded from ${IMAGE_4_6_8} with hash BYHEg9BBpfk=` },
    { lane: 'event', start: '2021-01-19T22:23:59Z', label: 'Created pod: version-4.6.8-hdlrb-hj59t' },
    { lane: 'event', start: '2021-01-19T22:24:20Z', label: 'verifying payload version="4.6.8"', detail: `image="${IMAGE_4_6_8}"` },
    { lane: 'event', start: '2021-01-19T22:24:25Z', label: 'verifying payload version="4.6.8"', detail: `image="${IMAGE_4_6_8}"` },
    { lane: 'event', start: '2021-01-19T22:26:00Z', label: `Created pod: ${IMG}`, detail: HOSTILE },
    {
      lane: 'finding',
      start: '2021-01-19T22:24:15.924Z',
      label: 'unable to perform final sync: context canceled',
      ruleId: 'cvo-final-sync-lost',
      severity: 'warning',
    },
  ];
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'mgsift', version: '0.1.0', build: 'source', builtinRules: 17 },
    generatedAt: '2024-05-02T09:00:00.000Z',
    input: { path: `/cases/03012345/must-gather${SCRIPT}.tar.gz`, container: 'tar.gz', layout: 'must-gather' },
    cluster: {
      id: 'c2d5e0f8-6b1a-4c1e-9f3e-7a2b3c4d5e6f',
      version: '4.5.21',
      desiredVersion: '4.6.8',
      platform: `AWS ${IMG}`,
      channel: 'stable-4.6',
    },
    collectedAt: '2021-01-19T22:30:12Z',
    counts: countsOf(findings),
    banners: [
      'ClusterVersion is mid-update (Working towards 4.6.8: 11% complete): status describes a moving target.',
      `Banner from the archive: ${SCRIPT}`,
    ],
    summary: midUpdateSummary(),
    diagnosis: {
      roots: [{ ruleId: 'cvo-final-sync-lost', severity: 'warning', title: finalSync.title, headline: finalSync.headline, about: finalSync.about, since: ms('2021-01-19T22:24:15.924Z'), explains: [] }],
      cyclesBroken: [],
    },
    findings,
    notChecked: [
      { ruleId: 'olm-staging-registry', title: 'OLM catalog points at the staging registry', component: 'olm', reason: `No InstallPlan objects in the archive | ${IMG}` },
      { ruleId: 'boot-image-ignition-stub', title: 'Boot image and Ignition stub versions', component: 'boot', reason: 'The archive holds no MachineSet and no worker-user-data secret.' },
    ],
    notApplicable: [],
    checkedInPart: [
      { ruleId: 'pod-crashlooping', title: 'OpenShift pod is crash-looping', component: 'workloads', reason: `nothing found in what was gathered, but Pod objects of namespaces other than ${IMG} were not gathered` },
    ],
    notRun: [],
    passed: [
      { ruleId: 'mco-ignition-spec-rollback', title: 'MCO cannot parse a newer Ignition spec after a rollback', component: 'mco' },
      { ruleId: 'cvo-capability-enum-rejected', title: 'CVO cannot write ClusterVersion status (capability enum)', component: 'cvo' },
    ],
    facts: { history, timeline, timelineOmitted: [], verdicts: {} },
    problems: [
      {
        severity: 'warning',
        path: `${CVO_POD_DIR}/cluster-version-operator-8546dd559-6zxmp/cluster-version-operator/cluster-version-operator/logs/current.log`,
        reason: 'line 88123 cut at 65536 bytes',
      },
      { severity: 'error', path: '', reason: `archive truncated: unexpected end of gzip stream ${IMG}` },
    ],
    limits: { ...DEFAULT_LIMITS },
    stats: { entries: 18234, bytesRead: 734_003_200, durationMs: 4210 },
  };
}

export function rollbackReport(): Report {
  const enumLine =
    'E0816 08:03:11.123456       1 cvo.go:603] Error handling openshift-cluster-version/version: ClusterVersion.config.openshift.io "version" is invalid: status.capabilities.enabledCapabilities[3]: Unsupported value: "MachineAPI": supported values: "openshift-samples", "baremetal", "marketplace", "Console", "Insights", "Storage", "CSISnapshot", "NodeTuning"';
  const leaderLine = 'F0816 08:05:42.000000       1 ovnkube.go:376] No longer leader; exiting';
  const findings: Finding[] = [
    {
      ruleId: 'cvo-capability-enum-rejected',
      severity: 'error',
      title: 'CVO cannot write ClusterVersion status: capability enum rejects values',
      headline: 'The API server has rejected the CVO\'s ClusterVersion status writes since 2023-08-16T08:03:11Z: the installed CRD does not know capability Build',
      component: 'cluster-version-operator',
      tags: ['upgrade', 'rollback'],
      message:
        'After the rollback to 4.13.8 the CVO cannot write ClusterVersion status: the 4.13 CRD rejects "MachineAPI".\nOn a rollback this is permanent: the status in this archive may be stale.',
      remediation: 'Cross-minor rollbacks are not supported. Roll forward to 4.14, or open a support case.',
      references: ['https://github.com/openshift/release/pull/42068'],
      evidence: [
        {
          signal: 'enum-error',
          file: 'namespaces/openshift-cluster-version/pods/cluster-version-operator-6d9f7c7d6b-x2x9q/cluster-version-operator/cluster-version-operator/logs/current.log',
          line: 2211,
          time: ms('2023-08-16T08:03:11.123Z'),
          text: enumLine,
          match: matchOf(enumLine, 'Unsupported value: "MachineAPI"'),
          captures: { value: 'MachineAPI', field: 'enabledCapabilities[3]' },
        },
      ],
      evidenceDropped: 0,
      banner: 'ClusterVersion status in this archive may be stale.',
      about: [{ kind: 'ClusterVersion', name: 'version' }],
      explains: [],
      explainedBy: [],
    },
    {
      ruleId: 'ovnkube-leader-lost',
      severity: 'warning',
      title: 'ovnkube-master lost leadership and exited',
      headline: 'ovnkube-master exited 2 times with "No longer leader" since 2023-08-16T08:05:42Z',
      component: 'networking',
      tags: ['ovn'],
      message: 'ovnkube-master exited after losing leadership (seen with the rollback).',
      remediation: '',
      references: [],
      evidence: [
        {
          signal: 'leader-lost',
          file: 'namespaces/openshift-ovn-kubernetes/pods/ovnkube-master-7xk2p/ovnkube-master/ovnkube-master/logs/previous.log',
          line: 77,
          time: ms('2023-08-16T08:05:42Z'),
          text: leaderLine,
          match: matchOf(leaderLine, 'No longer leader; exiting'),
        },
      ],
      evidenceDropped: 0,
      about: [{ kind: 'Pod', namespace: 'openshift-ovn-kubernetes', name: 'ovnkube-master-7xk2p' }],
      explains: [],
      explainedBy: ['unsupported-y-stream-rollback'],
    },
    {
      ruleId: 'unsupported-y-stream-rollback',
      severity: 'critical',
      title: 'Unsupported y-stream rollback 4.14.0-ec.4 → 4.13.8',
      headline: 'ClusterVersion history records a rollback from 4.14.0-ec.4 to 4.13.8',
      component: 'cluster-version-operator',
      tags: ['rollback'],
      message: 'ClusterVersion history shows a rollback across minor versions (4.14.0-ec.4 → 4.13.8). Only updates to newer versions are supported.',
      remediation: 'oc adm upgrade --to-image=<4.14 release image> --allow-explicit-upgrade',
      references: ['https://docs.openshift.com/container-platform/4.13/updating/index.html'],
      evidence: [
        {
          signal: 'history-rollback',
          file: 'cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml',
          text: 'status.history[0]: 4.13.8 (Partial) after 4.14.0-ec.4',
          object: { kind: 'ClusterVersion', name: 'version' },
        },
      ],
      evidenceDropped: 0,
      about: [{ kind: 'ClusterVersion', name: 'version' }],
      explains: ['ovnkube-leader-lost'],
      explainedBy: [],
    },
  ];
  const history: HistoryRow[] = [
    { version: '4.13.8', state: 'Completed', verified: false, started: '2023-08-01T10:00:00Z', completed: '2023-08-01T10:41:00Z', install: true, forced: false },
    { version: '4.14.0-ec.4', state: 'Completed', verified: false, started: '2023-08-15T09:12:00Z', completed: '2023-08-15T10:30:00Z', install: false, forced: true },
    { version: '4.13.8', state: 'Partial', verified: false, started: '2023-08-16T08:00:00Z', rollback: 'y-stream', install: false, forced: true },
  ];
  const timeline: TimelineItem[] = [];
  const base = ms('2023-08-16T08:00:00Z');
  for (let i = 0; i < 150; i++) {
    timeline.push({
      lane: 'event',
      start: new Date(base + i * 70_000).toISOString(),
      label: i % 10 === 0 ? `KubePodCrashLooping ovnkube-master-${i} ${SCRIPT}` : `BackOff restarting failed container ovnkube-master-${i}`,
    });
  }
  for (const op of ['network', 'machine-config', 'ingress', 'authentication', 'console']) {
    timeline.push({ lane: 'operator', start: '2023-08-16T08:02:00Z', open: true, label: `${op} Degraded=True` });
  }
  timeline.push({ lane: 'cvo', start: '2023-08-16T07:59:30Z', open: true, label: 'cluster-version-operator-6d9f7c7d6b-x2x9q (4.13.0-202308011445.p0)' });
  timeline.push({ lane: 'finding', start: '2023-08-16T08:03:11.123Z', label: 'Unsupported value: "MachineAPI"', ruleId: 'cvo-capability-enum-rejected', severity: 'error' });
  timeline.push({ lane: 'finding', start: '2023-08-16T08:05:42Z', label: 'No longer leader; exiting', ruleId: 'ovnkube-leader-lost', severity: 'warning' });
  timeline.push({ lane: 'finding', start: '2023-08-16T08:00:00Z', label: 'rollback 4.14.0-ec.4 → 4.13.8', ruleId: 'unsupported-y-stream-rollback', severity: 'critical' });
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'mgsift', version: '0.1.0', build: 'source', builtinRules: 17 },
    generatedAt: '2024-05-02T09:00:00.000Z',
    input: { path: 'artifacts/e2e-aws-upgrade-rollback/gather-extra', container: 'directory', layout: 'gather-extra' },
    cluster: { id: '8c1f6c2e-0d1f-4b8e-b5b6-2f1e9a7d3c41', version: '4.13.8', desiredVersion: '4.13.8', platform: 'AWS', channel: '' },
    collectedAt: '2023-08-16T11:20:00Z',
    counts: countsOf(findings),
    banners: ['ClusterVersion status in this archive may be stale.'],
    summary: healthySummary(),
    diagnosis: {
      roots: [
        {
          ruleId: 'unsupported-y-stream-rollback',
          severity: 'critical',
          title: 'Unsupported y-stream rollback 4.14.0-ec.4 → 4.13.8',
          headline: 'ClusterVersion history records a rollback from 4.14.0-ec.4 to 4.13.8',
          about: [{ kind: 'ClusterVersion', name: 'version' }],
          explains: [
            {
              ruleId: 'ovnkube-leader-lost',
              severity: 'warning',
              title: 'ovnkube-master lost leadership and exited',
              headline: 'ovnkube-master exited 2 times with "No longer leader" since 2023-08-16T08:05:42Z',
              about: [{ kind: 'Pod', namespace: 'openshift-ovn-kubernetes', name: 'ovnkube-master-7xk2p' }],
              since: ms('2023-08-16T08:05:42Z'),
              reason: 'at 2023-08-16 08:05:42Z, inside the rollback 4.14.0-ec.4 → 4.13.8 (2023-08-16 08:00:00Z – collection)',
              explains: [],
            },
          ],
        },
        {
          ruleId: 'cvo-capability-enum-rejected',
          severity: 'error',
          title: 'CVO cannot write ClusterVersion status: capability enum rejects values',
          headline: 'The API server has rejected the CVO\'s ClusterVersion status writes since 2023-08-16T08:03:11Z: the installed CRD does not know capability Build',
          about: [{ kind: 'ClusterVersion', name: 'version' }],
          since: ms('2023-08-16T08:03:11.123Z'),
          explains: [],
        },
      ],
      cyclesBroken: [],
    },
    findings,
    notChecked: [{ ruleId: 'olm-staging-registry', title: 'OLM catalog points at the staging registry', component: 'olm', reason: 'gather-extra holds no InstallPlan objects.' }],
    notApplicable: [],
    checkedInPart: [],
    notRun: [],
    passed: [{ ruleId: 'cvo-final-sync-lost', title: 'Outgoing CVO exited before its final ClusterVersion status sync', component: 'cvo' }],
    facts: { history, timeline, timelineOmitted: [], verdicts: {} },
    problems: [],
    limits: { ...DEFAULT_LIMITS },
    stats: { entries: 5120, bytesRead: 210_000_000, durationMs: 1200 },
  };
}

export function healthyReport(): Report {
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'mgsift', version: '0.1.0', build: 'source', builtinRules: 17 },
    generatedAt: '2024-05-02T09:00:00.000Z',
    input: { path: './must-gather.local.1234', container: 'directory', layout: 'must-gather' },
    cluster: {},
    counts: { info: 0, warning: 0, error: 0, critical: 0 },
    banners: [],
    summary: unknownSummary(),
    diagnosis: { roots: [], cyclesBroken: [] },
    findings: [],
    notChecked: [],
    notApplicable: [],
    checkedInPart: [],
    notRun: [],
    passed: [
      { ruleId: 'cvo-final-sync-lost', title: 'Outgoing CVO exited before its final ClusterVersion status sync', component: 'cvo' },
      { ruleId: 'cvo-capability-enum-rejected', title: 'CVO cannot write ClusterVersion status (capability enum)', component: 'cvo' },
      { ruleId: 'olm-staging-registry', title: 'OLM catalog points at the staging registry', component: 'olm' },
    ],
    facts: { history: [], timeline: [], timelineOmitted: [], verdicts: {} },
    problems: [],
    limits: { ...DEFAULT_LIMITS },
    stats: { entries: 0, bytesRead: 0, durationMs: 3 },
  };
}

/** 20 history entries over ~2 years, 200 timeline items: the figure must stay readable. */
export function manyEntriesReport(): Report {
  const report = seed000Report();
  const history: HistoryRow[] = [];
  let t = ms('2022-01-03T10:00:00Z');
  for (let i = 0; i < 20; i++) {
    const minor = 8 + Math.floor(i / 3);
    const version = i === 14 ? '4.11.3' : `4.${minor}.${(i % 3) * 7 + 1}`;
    const started = new Date(t).toISOString();
    const last = i === 19;
    history.push({
      version,
      state: last ? 'Partial' : 'Completed',
      verified: i > 0 && i % 4 !== 0,
      started,
      completed: last ? undefined : new Date(t + 75 * 60_000).toISOString(),
      install: i === 0,
      forced: false,
      rollback: i === 14 ? 'y-stream' : undefined,
    });
    t += 36 * 24 * 3600_000;
  }
  const timeline: TimelineItem[] = [];
  for (let i = 0; i < 200; i++) {
    const lane = ['event', 'operator', 'node', 'finding', 'cvo'][i % 5] ?? 'event';
    const start = new Date(ms('2022-01-03T10:00:00Z') + i * 3.5 * 24 * 3600_000).toISOString();
    const span = lane === 'operator' || lane === 'cvo';
    timeline.push({
      lane,
      start,
      end: span ? new Date(Date.parse(start) + 5 * 24 * 3600_000).toISOString() : undefined,
      label: `${lane} item ${i} ${i % 17 === 0 ? IMG : ''}`.trim(),
      severity: lane === 'finding' ? (['info', 'warning', 'error', 'critical'] as const)[i % 4] : undefined,
    });
  }
  report.facts = { history, timeline, timelineOmitted: [], verdicts: {} };
  report.collectedAt = new Date(t).toISOString();
  return report;
}

/** A deep copy with every object's keys in reverse order (the renderers must not care). */
export function reverseKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => reverseKeys(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).reverse()) out[key] = reverseKeys((value as Record<string, unknown>)[key]);
    return out as T;
  }
  return value;
}
