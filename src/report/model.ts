import type { Finding, NotChecked, Passed, Severity } from '../engine/findings.js';
import type { Diagnosis } from '../engine/diagnosis.js';
import type { Limits } from '../core/limits.js';
import type { Problem } from '../core/problems.js';

/** Version of the JSON report's shape (`schema/report.schema.json`). */
export const REPORT_SCHEMA_VERSION = '1.3';

export interface ClusterIdentity {
  id?: string | undefined;
  version?: string | undefined;
  desiredVersion?: string | undefined;
  platform?: string | undefined;
  channel?: string | undefined;
}

export interface HistoryRow {
  version: string;
  state: string;
  verified: boolean;
  /** ISO 8601 strings. */
  started?: string | undefined;
  completed?: string | undefined;
  image?: string | undefined;
  /** Set on a transition to a lower version than the entry before it. */
  rollback?: 'y-stream' | 'z-stream' | undefined;
  install: boolean;
  forced: boolean;
}

/** One template of the unrecognised-errors digest: lines of one component that fold into it. */
export interface DigestRow {
  /** Stable id of component + template: `mgsift rules new --from <id>`. */
  id: string;
  /** Which failure pattern found the lines (`klog`, `logfmt`, `json`, `zap`, `go-panic`). */
  pattern: string;
  /** The lines' level as they write it (`E`, `F`, `error`, `ERROR`, `panic`, ...). */
  level: string;
  template: string;
  count: number;
  /** ISO 8601: first and last line with a time. */
  first?: string | undefined;
  last?: string | undefined;
  /** Most lines first, capped; `moreFiles` counts the others. */
  files: { path: string; count: number }[];
  moreFiles: number;
  example: { file: string; line: number; time?: string | undefined; text: string };
}

export interface DigestComponentRow {
  /** `namespace/container`, `host/<service>`, or a bare log's file name. */
  name: string;
  /** Lines folded into the component's templates. */
  count: number;
  /** Lines not folded: the digest's template caps were reached. */
  unfolded: number;
  /** Most lines first, capped; `moreTemplates` counts the others. */
  templates: DigestRow[];
  moreTemplates: number;
}

/** Error lines no finding explains, folded into templates per component. */
export interface ReportDigest {
  /** Error lines seen, explained ones included. */
  lines: number;
  /** Lines that are evidence of a finding (same file and line), left out. */
  explained: number;
  templates: number;
  /** Most lines first. */
  components: DigestComponentRow[];
}

/** One moment or span on the report's time axis. */
export interface TimelineItem {
  /** Lane: `history`, `cvo`, `operator`, `node`, `event`, `finding`. */
  lane: string;
  /** ISO 8601. */
  start: string;
  /** ISO 8601; absent for a moment, or for a span still open at collection time. */
  end?: string | undefined;
  open?: boolean | undefined;
  /** `start` relative to the collection time (`-2h13m`); absent when that time is unknown. */
  relative?: string | undefined;
  label: string;
  detail?: string | undefined;
  /** Namespace the item belongs to (events, CVO pods, findings on namespaced objects). */
  namespace?: string | undefined;
  /** Event groups: occurrences folded into the item. */
  count?: number | undefined;
  /** Rule that used this moment, if any. */
  ruleId?: string | undefined;
  severity?: Severity | undefined;
}

/** One firing or pending alert of the cluster's own monitoring. */
export interface AlertRow {
  name: string;
  /** The `severity` label as written (`critical`, `warning`, `info`, `none`). */
  severity: string;
  state: 'firing' | 'pending';
  /** ISO 8601: active since. */
  since?: string | undefined;
  /** `key=value` labels that tell its instances apart. */
  labels: string;
  summary?: string | undefined;
  description?: string | undefined;
  runbookUrl?: string | undefined;
  silenced?: boolean | undefined;
  /** The most specific object its labels name. */
  object?: { kind: string; namespace?: string | undefined; name: string } | undefined;
  file: string;
}

/** A risk the cluster-version operator attached to update targets, and whether it applies here. */
export interface UpdateRiskRow {
  name: string;
  url?: string | undefined;
  message?: string | undefined;
  exposure: 'applies' | 'does-not-apply' | 'evaluation-failed' | 'unknown';
  exposureMessage?: string | undefined;
  accepted: boolean;
  targets: string[];
}

export interface ConditionRow {
  status: string;
  reason?: string | undefined;
  message?: string | undefined;
  /** ISO 8601. */
  since?: string | undefined;
}

/** What the cluster itself concluded: its alerts, and its update recommendations and gates. */
export interface ClusterVerdicts {
  /** Firing, then pending, most severe first; absent when the archive holds no alerts file. */
  alerts?: AlertRow[] | undefined;
  /** Absent without a ClusterVersion. */
  updates?:
    | {
        channel?: string | undefined;
        /** Recommended targets (status.availableUpdates). */
        available: string[];
        /** status.conditionalUpdates: each target with its Recommended condition and risks. */
        conditional: { version: string; recommended: string; reason?: string | undefined; risks: string[] }[];
        risks: UpdateRiskRow[];
        retrievedUpdates?: ConditionRow | undefined;
        upgradeable?: ConditionRow | undefined;
        releaseAccepted?: ConditionRow | undefined;
      }
    | undefined;
}

/** Items of one lane left out of the report's timeline, and why. */
export interface TimelineOmission {
  lane: string;
  count: number;
  reason: string;
}

export interface Report {
  schemaVersion: string;
  tool: { name: 'mgsift'; version: string };
  /** When the report was made (the only field that differs between two runs on one input). */
  generatedAt: string;
  input: { path: string; container: string; layout: string };
  cluster: ClusterIdentity;
  /** ISO 8601: the archive's collection time, when known. */
  collectedAt?: string | undefined;
  counts: Record<Severity, number>;
  /** Lines that change how to read the archive (stale status, truncation, rules not checked). */
  banners: string[];
  /** Root causes with the chains of what they explain; no roots: no problem found. */
  diagnosis: Diagnosis;
  findings: Finding[];
  notChecked: NotChecked[];
  passed: Passed[];
  facts: {
    history: HistoryRow[];
    timeline: TimelineItem[];
    /** What the timeline leaves out, by lane (`mgsift timeline` lists everything). */
    timelineOmitted: TimelineOmission[];
    /** The section "What the cluster itself reported". */
    verdicts: ClusterVerdicts;
  };
  /** Unrecognised errors; absent when the digest was not made. */
  digest?: ReportDigest | undefined;
  /** What could not be read, and why. */
  problems: Problem[];
  limits: Limits;
  stats: { entries: number; bytesRead: number; durationMs: number };
}
