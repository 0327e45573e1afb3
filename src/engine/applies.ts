/**
 * Whether a rule can apply to the cluster and input at hand (a rule's `applies` block).
 *
 * A rule is *not applicable* when what it reads cannot exist here: the input kind cannot hold
 * it, the cluster runs a version outside the rule's range, another platform, or with the
 * capability the rule needs disabled. That is not a gap in the archive, so it is never reported
 * as *not checked*. Each condition is decided only from what the archive states: an unknown
 * version or platform, or a version that does not report capabilities, excludes nothing (the
 * rule runs; a version range it could not check against leaves a caveat on the finding).
 */
import { satisfiesRange } from '../facts/version.js';
import type { ClusterIdentity } from '../facts/cluster.js';
import type { LayoutKind } from '../layout/types.js';

export interface Applies {
  /** Semver range over the cluster's version. */
  versions?: string | undefined;
  /** Input kinds the rule can read. */
  inputs?: string[] | undefined;
  /** Platform types (Infrastructure `status.platformStatus.type`) the rule is for; absent: any. */
  platforms?: string[] | undefined;
  /** Platform types the rule is not for. */
  platformsExcept?: string[] | undefined;
  /** ClusterVersion capabilities the rule needs, all of them. */
  capabilities?: string[] | undefined;
  /** What the conditions stand for, said before what did not hold (`ControlPlaneMachineSet exists from OpenShift 4.12`). */
  because?: string | undefined;
}

export interface Scope {
  /** Why the rule cannot apply here, from what did not hold. */
  notApplicable?: string;
  /** Set when the rule runs although its version range could not be checked. */
  caveat?: string;
}

/** Start of the caveat of a finding whose rule has a version range the cluster could not be checked against. */
const UNKNOWN_VERSION_CAVEAT = 'The cluster version is unknown (this input holds no ClusterVersion)';

/** Where a rule stands against this input and cluster (see the module comment). */
export function scopeOf(applies: Applies, input: { layout: LayoutKind; cluster?: ClusterIdentity | undefined }): Scope {
  const { cluster } = input;
  const version = cluster?.currentVersion;
  const failed: string[] = [];
  // An input of no known layout is not another kind of input: its rules run, and lack their data.
  if (applies.inputs && input.layout !== 'unknown' && !applies.inputs.includes(input.layout)) failed.push(`it reads ${applies.inputs.join(' or ')} input; this input is ${input.layout}`);
  if (applies.versions && version && !satisfiesRange(version, applies.versions)) failed.push(`it is for OpenShift ${applies.versions}; this cluster runs ${version}`);
  const platform = cluster?.platform;
  if (platform !== undefined) {
    if (applies.platforms && !applies.platforms.includes(platform)) failed.push(`it is for platform ${applies.platforms.join(', ')}; this cluster's platform is ${platform}`);
    if (applies.platformsExcept?.includes(platform)) failed.push(`it is not for platform ${platform}, this cluster's`);
  }
  const disabled = disabledCapabilities(applies.capabilities ?? [], cluster?.capabilities);
  if (disabled.length > 0) failed.push(`it needs the ${disabled.join(', ')} capabilit${disabled.length > 1 ? 'ies' : 'y'}, disabled on this cluster (ClusterVersion status.capabilities)`);
  if (failed.length > 0) return { notApplicable: [applies.because, ...failed].filter((part) => part !== undefined).join('; ') };
  if (applies.versions && !version) return { caveat: `${UNKNOWN_VERSION_CAVEAT}; this rule is meant for versions ${applies.versions}` };
  return {};
}

/**
 * The capabilities of `needed` the cluster reports as known and not enabled. A version without
 * capabilities (before 4.11) has every component; one that does not know a capability yet
 * (MachineAPI before 4.14) cannot disable it.
 */
function disabledCapabilities(needed: readonly string[], reported: ClusterIdentity['capabilities']): string[] {
  if (!reported) return [];
  return needed.filter((capability) => reported.known.includes(capability) && !reported.enabled.includes(capability));
}
