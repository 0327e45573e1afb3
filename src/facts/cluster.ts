/**
 * Cluster identity from `ClusterVersion/version` and `Infrastructure/cluster`
 * (both `config.openshift.io/v1`), plus condition helpers shared with ClusterOperators.
 *
 * - current version: the newest `Completed` history entry, else `status.desired.version`
 *   (a cluster still installing, or a history too damaged to read). Note that after a
 *   rollback that has not completed, the current version is the last version that did
 *   complete, which may be the install.
 * - desired version: `status.desired.version`, else `spec.desiredUpdate.version`.
 * - platform: `status.platformStatus.type`, else the deprecated `status.platform`.
 * - capabilities: `status.capabilities` (4.11 and later); absent before, when every component is installed.
 */
import { arrayAt, isRecord, recordAt, stringAt, timeMs } from './internal.js';
import { historyEntries, newestCompleted } from './history.js';

export interface ConditionInfo {
  /** `True`, `False`, `Unknown` (as written). */
  status: string;
  reason?: string | undefined;
  message?: string | undefined;
  /** As written (RFC 3339). */
  lastTransitionTime?: string | undefined;
  /** `lastTransitionTime` as epoch ms. */
  lastTransitionMs?: number | undefined;
}

/** Condition type → condition. For duplicate types the first one wins (as `oc` shows it). */
export type ConditionMap = Record<string, ConditionInfo>;

export interface ProgressingInfo {
  /** `Working towards X: ...` → `working`; `Unable to apply X: ...` → `unable`; `Cluster version is X` → `idle`. */
  kind: 'working' | 'unable' | 'idle';
  /** The version (or image) named by the message. */
  target: string;
  /** Manifests done, of `total` (`n of m done`). */
  done?: number | undefined;
  total?: number | undefined;
  /** `p% complete`. */
  percent?: number | undefined;
  /** Operators named by a trailing `, waiting on a, b` (newer CVOs). */
  waitingOn?: string[] | undefined;
  /** What follows `X: ` when it is not a progress count (`downloading update`, the reason of `unable`). */
  detail?: string | undefined;
}

export interface ClusterIdentity {
  clusterID?: string | undefined;
  currentVersion?: string | undefined;
  /** Where `currentVersion` came from. */
  currentVersionSource?: 'history' | 'desired' | undefined;
  desiredVersion?: string | undefined;
  desiredImage?: string | undefined;
  channel?: string | undefined;
  upstream?: string | undefined;
  /** `AWS`, `BareMetal`, `None`, ... from Infrastructure/cluster. */
  platform?: string | undefined;
  /** `status.capabilities`: the optional components this version knows, and those enabled; undefined when not reported. */
  capabilities?: { enabled: string[]; known: string[] } | undefined;
  conditions: ConditionMap;
  /** Parsed `Progressing` message, when there is one it understands. */
  progressing?: ProgressingInfo | undefined;
}

/** What every report and `inspect` say for a ClusterVersion without `spec.channel` (it gets no update recommendations). */
export const CHANNEL_NOT_SET = 'not set';

/** The update channel in words: the channel, {@link CHANNEL_NOT_SET}, or `unknown` when no ClusterVersion was read. */
export function channelText(channel: string | undefined, clusterVersionRead: boolean): string {
  if (channel !== undefined && channel !== '') return channel;
  return clusterVersionRead ? CHANNEL_NOT_SET : 'unknown';
}

/** Whether an identity came from a ClusterVersion: it gives the cluster ID and a version. */
export function fromClusterVersion(identity: { id?: string | undefined; version?: string | undefined; desiredVersion?: string | undefined }): boolean {
  return [identity.id, identity.version, identity.desiredVersion].some((value) => value !== undefined && value !== '');
}

/** Conditions as a map; accepts the `conditions` array itself or any object holding `status.conditions`. */
export function conditionMap(conditionsOrObject: unknown): ConditionMap {
  const list = Array.isArray(conditionsOrObject)
    ? conditionsOrObject
    : arrayAt(recordAt(conditionsOrObject, 'status'), 'conditions');
  // No prototype: a condition type named `__proto__` or `constructor` stays plain data.
  const map = Object.create(null) as ConditionMap;
  for (const c of list) {
    if (!isRecord(c)) continue;
    const type = stringAt(c, 'type');
    if (type === undefined || Object.prototype.hasOwnProperty.call(map, type)) continue;
    const lastTransitionTime =
      c['lastTransitionTime'] instanceof Date ? c['lastTransitionTime'].toISOString() : stringAt(c, 'lastTransitionTime');
    map[type] = {
      status: stringAt(c, 'status') ?? 'Unknown',
      reason: stringAt(c, 'reason'),
      message: stringAt(c, 'message'),
      lastTransitionTime,
      lastTransitionMs: timeMs(c['lastTransitionTime']),
    };
  }
  return map;
}

const WORKING = /^Working towards (\S+?):\s*(.*)$/s;
const COUNTS = /^(\d+) of (\d+) done \((\d+(?:\.\d+)?)% complete\)(.*)$/s;
const PERCENT_ONLY = /^(\d+(?:\.\d+)?)% complete(.*)$/s;
const UNABLE = /^Unable to apply (\S+?):\s*(.*)$/s;
const IDLE = /^Cluster version is (\S+)\s*$/;

function waitingOn(tail: string): string[] | undefined {
  const m = /^,?\s*waiting on (.+)$/s.exec(tail.trim());
  if (!m || m[1] === undefined) return undefined;
  const names = m[1].split(',').map((s) => s.trim()).filter((s) => s !== '');
  return names.length > 0 ? names : undefined;
}

/**
 * Parse a ClusterVersion `Progressing` message:
 * `Working towards 4.7.0-rc.0: 70 of 668 done (10% complete)` (optionally `, waiting on x, y`),
 * the older `Working towards 4.5.21: 28% complete`, `Working towards X: downloading update`,
 * `Unable to apply X: reason`, `Cluster version is X`. Undefined for anything else.
 */
export function parseProgressingMessage(message: string | null | undefined): ProgressingInfo | undefined {
  if (typeof message !== 'string') return undefined;
  const text = message.trim();
  let m = WORKING.exec(text);
  if (m) {
    const target = m[1] ?? '';
    const rest = (m[2] ?? '').trim();
    const counts = COUNTS.exec(rest);
    if (counts) {
      return {
        kind: 'working',
        target,
        done: Number(counts[1]),
        total: Number(counts[2]),
        percent: Number(counts[3]),
        waitingOn: waitingOn(counts[4] ?? ''),
      };
    }
    const pct = PERCENT_ONLY.exec(rest);
    if (pct) return { kind: 'working', target, percent: Number(pct[1]), waitingOn: waitingOn(pct[2] ?? '') };
    return { kind: 'working', target, detail: rest === '' ? undefined : rest };
  }
  m = UNABLE.exec(text);
  if (m) return { kind: 'unable', target: m[1] ?? '', detail: m[2] === '' ? undefined : m[2] };
  m = IDLE.exec(text);
  if (m) return { kind: 'idle', target: m[1] ?? '' };
  return undefined;
}

/**
 * A condition in its bad state, for what the timeline calls a problem: a ClusterOperator not
 * Available, Degraded, Upgradeable=False (Unknown is no gate), Failing; a node not Ready or under
 * pressure. Progressing and the healthy states are the transitions every update is made of, not
 * problems.
 */
export function conditionGoneBad(kind: 'ClusterOperator' | 'Node', type: string, status: string): boolean {
  if (kind === 'ClusterOperator') {
    if (type === 'Available') return status !== 'True';
    if (type === 'Upgradeable') return status === 'False';
    return (type === 'Degraded' || type === 'Failing') && status === 'True';
  }
  if (type === 'Ready') return status !== 'True';
  return ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable'].includes(type) && status === 'True';
}

/** Platform type from an Infrastructure object: `status.platformStatus.type`, else `status.platform`. */
export function platformOf(infrastructure: unknown): string | undefined {
  const status = recordAt(infrastructure, 'status');
  return stringAt(recordAt(status, 'platformStatus'), 'type') ?? stringAt(status, 'platform');
}

function capabilitiesOf(capabilities: unknown): ClusterIdentity['capabilities'] {
  if (!isRecord(capabilities)) return undefined;
  const names = (key: string): string[] => arrayAt(capabilities, key).filter((name): name is string => typeof name === 'string');
  return { enabled: names('enabledCapabilities'), known: names('knownCapabilities') };
}

/** Identity of a cluster; either object may be missing (undefined), which leaves its fields undefined. */
export function clusterIdentity(clusterVersion: unknown, infrastructure?: unknown): ClusterIdentity {
  const spec = recordAt(clusterVersion, 'spec');
  const status = recordAt(clusterVersion, 'status');
  const statusDesired = recordAt(status, 'desired');
  const specDesired = recordAt(spec, 'desiredUpdate');
  const desiredVersion = stringAt(statusDesired, 'version') ?? stringAt(specDesired, 'version');
  const completed = newestCompleted(historyEntries(clusterVersion));
  let currentVersion: string | undefined;
  let currentVersionSource: ClusterIdentity['currentVersionSource'];
  if (completed && completed.version !== '') {
    currentVersion = completed.version;
    currentVersionSource = 'history';
  } else if (stringAt(statusDesired, 'version') !== undefined) {
    currentVersion = stringAt(statusDesired, 'version');
    currentVersionSource = 'desired';
  }
  const conditions = conditionMap(clusterVersion);
  return {
    clusterID: stringAt(spec, 'clusterID'),
    currentVersion,
    currentVersionSource,
    desiredVersion,
    desiredImage: stringAt(statusDesired, 'image') ?? stringAt(specDesired, 'image'),
    channel: stringAt(spec, 'channel'),
    upstream: stringAt(spec, 'upstream'),
    platform: platformOf(infrastructure),
    capabilities: capabilitiesOf(recordAt(status, 'capabilities')),
    conditions,
    progressing: parseProgressingMessage(conditions['Progressing']?.message),
  };
}
