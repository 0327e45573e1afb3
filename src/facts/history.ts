/**
 * Update history of a cluster, from `ClusterVersion/version` (`config.openshift.io/v1`).
 *
 * The API keeps `status.history[]` newest first; the last element is the install. Here entries
 * are returned oldest first, each keeping `index`, its position in the original array.
 *
 * A transition is "the cluster moved to entry N": `from` is the entry before it (the outgoing
 * version), absent for the install. A rollback is a transition whose `to` version orders
 * before its `from` version (OpenShift version order, never string order); `y-stream` when
 * the `MAJOR.MINOR` changed, else `z-stream`. Unparsable or empty versions (updates by image
 * only) never count as rollbacks.
 *
 * `forced`: `spec.desiredUpdate.force === true` waives the outgoing CVO's guards (signature,
 * Upgradeable, ...), so `verified: false` is expected for that target. `spec.desiredUpdate`
 * describes only the current request, so `forced` is set only on the newest transition, and
 * only when its entry is the desired target (same version as `status.desired.version` /
 * `spec.desiredUpdate.version`, or same image as `status.desired.image` /
 * `spec.desiredUpdate.image`). The install transition is never forced (no outgoing CVO).
 */
import { compareVersions, isDowngrade, isYStreamChange, parseVersion } from './version.js';
import { arrayAt, isRecord, recordAt, stringAt, timeAt } from './internal.js';

export type UpdateState = 'Completed' | 'Partial';
export type RollbackKind = 'y-stream' | 'z-stream';

export interface UpdateHistoryEntry {
  /** Release version; empty string when the entry has none (update by image only). */
  version: string;
  /** Release image pullspec; empty string when absent. */
  image: string;
  /** `Completed` only when the API says so; anything else (missing, unknown) is `Partial`. */
  state: UpdateState;
  /** `verified === true` in the object; missing counts as false. */
  verified: boolean;
  /** Epoch ms. */
  startedTime?: number | undefined;
  /** Epoch ms; undefined while the update is in progress (`completionTime: null`). */
  completionTime?: number | undefined;
  /** `acceptedRisks` text when the entry carries one (conditional updates, 4.13+). */
  acceptedRisks?: string | undefined;
  /** Position in the original `status.history[]` (0 = newest). */
  index: number;
}

export interface UpdateTransition {
  /** The outgoing entry; undefined for the install. */
  from?: UpdateHistoryEntry | undefined;
  to: UpdateHistoryEntry;
  /** `to.startedTime`. */
  started?: number | undefined;
  /** `to.completionTime`. */
  completed?: number | undefined;
  state: UpdateState;
  verified: boolean;
  forced: boolean;
  rollback?: RollbackKind | undefined;
  isInstall: boolean;
}

export interface DesiredTarget {
  version?: string | undefined;
  image?: string | undefined;
  /** `spec.desiredUpdate.force === true`. */
  force: boolean;
}

export interface UpdateHistory {
  /** Oldest first. */
  entries: UpdateHistoryEntry[];
  install?: UpdateHistoryEntry | undefined;
  /** Oldest first, one per entry; the first is the install. */
  transitions: UpdateTransition[];
  /** Transitions with `rollback` set, oldest first. */
  rollbacks: UpdateTransition[];
  desired: DesiredTarget;
}

function entryFrom(raw: unknown, index: number): UpdateHistoryEntry | undefined {
  if (!isRecord(raw)) return undefined;
  const entry: UpdateHistoryEntry = {
    version: stringAt(raw, 'version') ?? '',
    image: stringAt(raw, 'image') ?? '',
    state: raw['state'] === 'Completed' ? 'Completed' : 'Partial',
    verified: raw['verified'] === true,
    startedTime: timeAt(raw, 'startedTime'),
    completionTime: timeAt(raw, 'completionTime'),
    index,
  };
  const acceptedRisks = stringAt(raw, 'acceptedRisks');
  if (acceptedRisks !== undefined) entry.acceptedRisks = acceptedRisks;
  return entry;
}

/** `status.history[]` as entries, oldest first. Non-object items are skipped (their index too). */
export function historyEntries(clusterVersion: unknown): UpdateHistoryEntry[] {
  const raw = arrayAt(recordAt(clusterVersion, 'status'), 'history');
  const entries: UpdateHistoryEntry[] = [];
  for (let i = raw.length - 1; i >= 0; i--) {
    const entry = entryFrom(raw[i], i);
    if (entry) entries.push(entry);
  }
  return entries;
}

/** The install entry: the oldest one (last in the API array). */
export function installEntry(entries: readonly UpdateHistoryEntry[]): UpdateHistoryEntry | undefined {
  return entries[0];
}

/** How long after the install completed something begun during it must still go on to count (operators settle within minutes). */
export const STILL_GOING_AFTER_INSTALL_MS = 15 * 60_000;

/**
 * Whether something seen from `first` to `last` (epoch ms) is install noise: begun before the
 * install completed at `installed`, and not still going well after it. False when a time is unknown.
 */
export function duringInstall(first: number | undefined, last: number | undefined, installed: number | undefined): boolean {
  if (installed === undefined || first === undefined || first > installed) return false;
  return last === undefined || last - installed < STILL_GOING_AFTER_INSTALL_MS;
}

/** The desired target: `status.desired` first, `spec.desiredUpdate` as fallback; `force` from spec. */
export function desiredTarget(clusterVersion: unknown): DesiredTarget {
  const statusDesired = recordAt(recordAt(clusterVersion, 'status'), 'desired');
  const specDesired = recordAt(recordAt(clusterVersion, 'spec'), 'desiredUpdate');
  return {
    version: stringAt(statusDesired, 'version') ?? stringAt(specDesired, 'version'),
    image: stringAt(statusDesired, 'image') ?? stringAt(specDesired, 'image'),
    force: specDesired?.['force'] === true,
  };
}

function matchesDesired(entry: UpdateHistoryEntry, clusterVersion: unknown): boolean {
  const statusDesired = recordAt(recordAt(clusterVersion, 'status'), 'desired');
  const specDesired = recordAt(recordAt(clusterVersion, 'spec'), 'desiredUpdate');
  const versions = [stringAt(statusDesired, 'version'), stringAt(specDesired, 'version')];
  const images = [stringAt(statusDesired, 'image'), stringAt(specDesired, 'image')];
  if (entry.version !== '' && versions.includes(entry.version)) return true;
  return entry.image !== '' && images.includes(entry.image);
}

/** Classify a move from one version to another; undefined when it is not a downgrade. */
export function rollbackKind(from: string, to: string): RollbackKind | undefined {
  if (!isDowngrade(from, to)) return undefined;
  return isYStreamChange(from, to) ? 'y-stream' : 'z-stream';
}

/** One transition per history entry, oldest first (see the module comment). */
export function updateTransitions(clusterVersion: unknown): UpdateTransition[] {
  return analyzeHistory(clusterVersion).transitions;
}

/** Entries, install, transitions and rollbacks of a ClusterVersion object in one pass. */
export function analyzeHistory(clusterVersion: unknown): UpdateHistory {
  const entries = historyEntries(clusterVersion);
  const desired = desiredTarget(clusterVersion);
  const transitions: UpdateTransition[] = entries.map((to, i) => {
    const from = i > 0 ? entries[i - 1] : undefined;
    const isInstall = i === 0;
    const isNewest = i === entries.length - 1;
    const transition: UpdateTransition = {
      from,
      to,
      started: to.startedTime,
      completed: to.completionTime,
      state: to.state,
      verified: to.verified,
      forced: desired.force && !isInstall && isNewest && matchesDesired(to, clusterVersion),
      isInstall,
    };
    if (from) {
      const rollback = rollbackKind(from.version, to.version);
      if (rollback) transition.rollback = rollback;
    }
    return transition;
  });
  return {
    entries,
    install: installEntry(entries),
    transitions,
    rollbacks: transitions.filter((t) => t.rollback !== undefined),
    desired,
  };
}

/** The newest entry with `state: Completed`, if any. */
export function newestCompleted(entries: readonly UpdateHistoryEntry[]): UpdateHistoryEntry | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry && entry.state === 'Completed') return entry;
  }
  return undefined;
}

/** The highest parsable version ever recorded in the history (a rollback target sits below it). */
export function highestVersion(entries: readonly UpdateHistoryEntry[]): string | undefined {
  let best: string | undefined;
  for (const e of entries) {
    if (!parseVersion(e.version)) continue;
    if (best === undefined || compareVersions(e.version, best) > 0) best = e.version;
  }
  return best;
}

/** History entries the reports and `inspect` show before folding (HTML) or cutting (Markdown, text) the older ones. */
export const HISTORY_SHOWN = 10;

/**
 * The update history as people are shown it, newest first (the API's order): the first
 * {@link HISTORY_SHOWN} entries (all with `full`) and the older rest.
 */
export function historyNewestFirst<T>(oldestFirst: readonly T[], full = false): { shown: T[]; older: T[] } {
  const newest = [...oldestFirst].reverse();
  const cut = full ? newest.length : HISTORY_SHOWN;
  return { shown: newest.slice(0, cut), older: newest.slice(cut) };
}

/** `3 older entries not shown; <where>`. */
export function olderEntriesNote(count: number, where: string): string {
  return `${count} older entr${count === 1 ? 'y' : 'ies'} not shown; ${where}`;
}
