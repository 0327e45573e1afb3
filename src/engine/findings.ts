/** What the rule engine hands to the reports. */
import type { ObjectRef } from './diagnosis.js';

export type Severity = 'info' | 'warning' | 'error' | 'critical';

export const SEVERITIES: readonly Severity[] = ['info', 'warning', 'error', 'critical'];

/** Higher is more severe. */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/** One piece of evidence: a log line, an object, an event or a fact that a signal matched. */
export interface Evidence {
  /** Name of the rule's signal that matched. */
  signal: string;
  /** Path inside the input (archive), empty for derived facts. */
  file: string;
  /** 1-based line in `file`, when known. */
  line?: number | undefined;
  /** Epoch ms, when known. */
  time?: number | undefined;
  /** The matched line, or a one-line summary of the object / event / fact. */
  text: string;
  /** Where in `text` the match is, for highlighting: [start, end). */
  match?: [number, number] | undefined;
  /** Named captures of the regex, or the object's identifying fields. */
  captures?: Record<string, string> | undefined;
  /** For objects and events: kind, namespace, name. */
  object?: { kind: string; namespace?: string | undefined; name: string } | undefined;
  /** For pod log lines: where the line was written. */
  namespace?: string | undefined;
  pod?: string | undefined;
  container?: string | undefined;
  /** The failure this evidence records was over by the collection time (the rule's `resolvedBy`): when, and what shows it. */
  resolved?: { at?: number | undefined; by: string } | undefined;
}

export interface Finding {
  ruleId: string;
  severity: Severity;
  title: string;
  /** One line on what happened in this archive: the objects, the cause, since when (the rule's `headline`, or generated). */
  headline: string;
  component: string;
  tags: string[];
  message: string;
  remediation: string;
  references: string[];
  evidence: Evidence[];
  /** Evidence items dropped by the per-signal cap. */
  evidenceDropped: number;
  /** For a rule with `per`: the key of the evidence group this finding is made of (an alert, an operator). */
  key?: string | undefined;
  /** Set by a rule to change how the whole report must be read (e.g. status may be stale). */
  banner?: string | undefined;
  /** An assumption the finding rests on, e.g. the rule's version range could not be checked. */
  caveat?: string | undefined;
  /**
   * History: every piece of evidence that made the finding was over by the collection time, so
   * the finding is info and stands in no chain of the diagnosis. `lastSeen`: the latest failure;
   * `at`: when the last of them was resolved (each item's `resolved` says by what).
   */
  resolved?: { lastSeen?: number | undefined; at?: number | undefined } | undefined;
  /** Objects the finding is about (its rule's `about`), for links and the diagnosis. */
  about: ObjectRef[];
  /** Ids ({@link findingId}) of the findings this one explains, and of those that explain it. */
  explains: string[];
  explainedBy: string[];
}

/** A finding's id in one report: its rule id, with the key for a rule with `per` (`cluster-alert-firing [KubePodCrashLooping]`). */
export function findingId(finding: { ruleId: string; key?: string | undefined }): string {
  return finding.key !== undefined ? `${finding.ruleId} [${finding.key}]` : finding.ruleId;
}

export interface NotChecked {
  ruleId: string;
  title: string;
  component: string;
  /** Why the rule could not be evaluated: which data the archive lacks, or why it is out of scope. */
  reason: string;
  /**
   * Set when the data it lacks is not the archive's but the command line's (update-risk data):
   * the user did not ask for the check, so reports say so once rather than count it with the
   * rules the archive could not support.
   */
  notGiven?: DataNotGiven | undefined;
}

/** Data a rule reads that comes from the command line, not the archive. */
export interface DataNotGiven {
  /** `update-risk data`. */
  data: string;
  /** How to give it: `--update-risks DIR, a cincinnati-graph-data checkout (or set MGSIFT_UPDATE_RISKS)`. */
  how: string;
}

/**
 * A rule that found nothing in what the input holds, where the input holds only part of its
 * scope by design (an `oc adm inspect` of some namespaces): not a pass. `reason` names the
 * part not gathered.
 */
export type CheckedInPart = NotChecked;

/** A rule whose `applies` excludes this input or cluster (another version, platform, a disabled capability): nothing to check, no gap. */
export interface NotApplicable {
  ruleId: string;
  title: string;
  component: string;
  /** What did not hold, with what the archive says (`… it is for OpenShift >=4.12.0-0; this cluster runs 4.8.11`). */
  reason: string;
}

export interface Passed {
  ruleId: string;
  title: string;
  component: string;
}
