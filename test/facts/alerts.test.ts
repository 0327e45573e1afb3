import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { alertObjects, alertsOf, sortAlerts, uniqueAlerts } from '../../src/facts/alerts.js';

const FIXTURES = new URL('../../rules/monitoring/cluster-alert-firing.fixtures/', import.meta.url);
const IMAGE = 'must-gather.local.5563125302312891112/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cbd33388f7e18954e5ce8ad9616e91df05ace604966c0a44111d85c897';
const read = (path: string): unknown => JSON.parse(readFileSync(new URL(path, FIXTURES), 'utf8'));

describe('alertsOf', () => {
  it('reads firing and pending alerts of the Prometheus rules API answer (real 4.9 metal must-gather), not inactive rules', () => {
    const alerts = alertsOf(read(`quiet-pending-warning-49/input/${IMAGE}/monitoring/prometheus/rules.json`), 'rules.json');
    expect(alerts.map((a) => `${a.name} ${a.state} ${a.severity}`).sort()).toEqual([
      'AlertmanagerReceiversNotConfigured firing warning',
      'CsvAbnormalOver30Min pending warning',
      'Watchdog firing none',
    ]);
    const pending = alerts.find((a) => a.state === 'pending')!;
    expect(pending.since).toBe(Date.parse('2021-09-14T14:40:23.902Z'));
    expect(pending.query).toContain('csv_abnormal');
    expect(pending.group).toBe('olm.csv_abnormal.rules');
    expect(pending.object).toEqual({ kind: 'Pod', namespace: 'openshift-operator-lifecycle-manager', name: 'olm-operator-b989646d9-8glxr' });
    expect(pending.summary).toBe('Failed to install Operator image-caching-operator.v0.0.1 version 0.0.1. Phase-Pending Reason-RequirementsNotMet');
    expect(pending.labelText).not.toContain('alertname=');
  });

  it('reads the Alertmanager v2 list of an Insights archive item by item (the JSON reader splits the array)', () => {
    const items = read('fires-insights-alertmanager/input/config/alerts.json') as unknown[];
    const alerts = items.flatMap((item) => alertsOf(item, 'config/alerts.json'));
    expect(alerts.map((a) => a.name)).toEqual(['TargetDown', 'ClusterVersionOperatorDown', 'TargetDown', 'Watchdog']);
    expect(alerts.every((a) => a.state === 'firing')).toBe(true);
    expect(alerts[0]!.since).toBe(Date.parse('2022-01-04T10:10:46.565Z'));
    // Routing labels Alertmanager adds do not tell instances apart.
    expect(alerts[0]!.labelText).toBe('job=telemeter-client namespace=openshift-monitoring service=telemeter-client');
  });

  it('reads the Prometheus alerts API answer and marks suppressed Alertmanager alerts silenced', () => {
    const api = { status: 'success', data: { alerts: [{ labels: { alertname: 'KubeNodeNotReady', node: 'worker-1', severity: 'warning' }, annotations: { summary: 'Node is not ready.' }, state: 'firing', activeAt: '2024-05-02T08:00:00Z', value: '1e+00' }] } };
    expect(alertsOf(api, 'f')[0]).toMatchObject({ name: 'KubeNodeNotReady', object: { kind: 'Node', name: 'worker-1' } });
    const silenced = { labels: { alertname: 'X', severity: 'warning' }, annotations: {}, startsAt: '2024-05-02T08:00:00Z', status: { state: 'suppressed', silencedBy: ['id'], inhibitedBy: [] } };
    expect(alertsOf(silenced, 'f')[0]!.silenced).toBe(true);
    expect(alertsOf({ kind: 'Pod' }, 'f')).toEqual([]);
  });

  it('keeps one copy of an alert held by monitoring/alerts.json and monitoring/prometheus/rules.json, and sorts firing critical first', () => {
    const doc = read(`quiet-heartbeat-only-48/input/${IMAGE}/monitoring/alerts.json`);
    const twice = [...alertsOf(doc, 'monitoring/alerts.json'), ...alertsOf(doc, 'monitoring/prometheus/rules.json')];
    expect(twice).toHaveLength(4);
    const once = uniqueAlerts(twice);
    expect(once.map((a) => a.name).sort()).toEqual(['AlertmanagerReceiversNotConfigured', 'Watchdog']);
    const three = alertsOf(read(`fires-three-alerting-rules/input/${IMAGE}/monitoring/prometheus/rules.json`), 'r');
    expect(sortAlerts(three).map((a) => `${a.state}:${a.severity}`).slice(0, 2)).toEqual(['firing:critical', 'firing:warning']);
    expect(sortAlerts(three).at(-1)!.state).toBe('pending');
  });
});

describe('alertObjects', () => {
  it('maps workload, operator, node and namespace labels, most specific first', () => {
    expect(alertObjects('KubeDeploymentReplicasMismatch', { namespace: 'ns', deployment: 'web' })).toEqual([
      { kind: 'Deployment', namespace: 'ns', name: 'web' },
      { kind: 'Namespace', name: 'ns' },
    ]);
    expect(alertObjects('ClusterOperatorDown', { name: 'authentication', namespace: 'openshift-cluster-version' }, 'cluster_operator_up{job="cluster-version-operator"} == 0')[0]).toEqual({
      kind: 'ClusterOperator',
      name: 'authentication',
    });
    // `name` is read by the metric the expression reads: a CSV for OLM's csv_abnormal, a Machine for mapi_machine_*.
    expect(alertObjects('CsvAbnormalOver30Min', { name: 'image-caching-operator.v0.0.1' }, 'csv_abnormal{phase=~"^(Replacing|Pending|Deleting|Unknown)$"}')).toEqual([]);
    expect(alertObjects('CsvAbnormalFailedOver2Min', { name: 'etcdoperator.v0.9.4', namespace: 'shop' }, 'csv_abnormal{phase=~"^Failed$"}')[0]).toEqual({
      kind: 'ClusterServiceVersion',
      namespace: 'shop',
      name: 'etcdoperator.v0.9.4',
    });
    expect(
      alertObjects('MachineWithoutValidNode', { name: 'ci-worker-a-x7k2p', namespace: 'openshift-machine-api' }, 'sum by(name, namespace) (mapi_machine_created_timestamp_seconds unless on(node) kube_node_info) > 0')[0],
    ).toEqual({ kind: 'Machine', namespace: 'openshift-machine-api', name: 'ci-worker-a-x7k2p' });
    expect(alertObjects('SomeAlert', { name: 'x', namespace: 'ns' }, 'some_metric > 0')).toEqual([{ kind: 'Namespace', name: 'ns' }]);
    expect(alertObjects('KubeletDown', { node: 'master-0' })).toEqual([{ kind: 'Node', name: 'master-0' }]);
    expect(alertObjects('KubePersistentVolumeErrors', { persistentvolume: 'pvc-1f0c', namespace: 'openshift-monitoring', phase: 'Failed' })[0]).toEqual({
      kind: 'PersistentVolume',
      name: 'pvc-1f0c',
    });
  });
});
