import type { ReportAudit } from './audit.js';
import type { CheckedInPart, Finding, NotApplicable, NotChecked, Passed, Severity } from '../engine/findings.js';
import type { Diagnosis } from '../engine/diagnosis.js';
import type { Limits } from '../core/limits.js';
import type { Problem } from '../core/problems.js';
import type { NodesSummary, OperatorsSummary, PoolSummary, RestartingContainer } from '../facts/cluster-summary.js';
import type { UpdatePool, UpdateStatus } from '../facts/update-status.js';

/** Version of the JSON report's shape (`schema/report.schema.json`). */
export const REPORT_SCHEMA_VERSION = '1.7';

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
  /**
   * Dated after the collection time: an archive is put together over some time (objects and
   * logs gathered after its `timestamp`), or a clock drifts. Marked, and drawn at the collection
   * time, never as a future.
   */
  afterCollection?: boolean | undefined;
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

/** An Insights Advisor recommendation (a health check of the InsightsOperator's last report). */
export interface InsightsRow {
  description: string;
  totalRisk: number;
  risk: 'low' | 'moderate' | 'important' | 'critical' | 'unknown';
  state: string;
  /** `<rule>|<ERROR_KEY>`. */
  id?: string | undefined;
  advisorUri?: string | undefined;
  /** ISO 8601: when the report was downloaded. */
  downloadedAt?: string | undefined;
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
  /** Most risky first; absent when the archive holds no downloaded Insights report. */
  insights?: InsightsRow[] | undefined;
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

/** One risk's verdict, with the edges it holds for. */
export interface RiskRow {
  name: string;
  verdict: 'applies' | 'does-not-apply' | 'unknown';
  /** The rule that decided, or why none could. */
  reason: string;
  url?: string | undefined;
  message?: string | undefined;
  promql?: string | undefined;
  /** The blocked-edges file. */
  file: string;
  /** Target versions of the edges this verdict holds for. */
  targets: string[];
  /** One of those edges is the update in progress. */
  inProgress: boolean;
  /** The query's result samples and the archive files they came from. */
  evidence: { labels: string; value?: number | undefined; sources: string[] }[];
}

/** Known update risks (cincinnati-graph-data blocked edges) evaluated against the archive. */
export interface ReportUpdateRisks {
  /** The data read; absent when none was given (then `hint` says how). */
  data?: { dir: string; files: number; names: number; problems: { file: string; reason: string }[] } | undefined;
  hint?: string | undefined;
  currentVersion?: string | undefined;
  /** The last completed version, when `currentVersion` is the target of an update in progress. */
  updatingFrom?: string | undefined;
  /** Candidate target versions with published risks. */
  targets?: number | undefined;
  /** Edges out of the current version, one row per risk and verdict. */
  current: RiskRow[];
  /** Pre-release targets left out because the cluster's channel does not serve them. */
  preReleasesLeftOut?: { channel: string; count: number } | undefined;
  /** Targets blocked without conditions (Cincinnati does not offer them). */
  blockedTargets: string[];
  /** Transitions of the ClusterVersion history with published risks. */
  taken: {
    from: string;
    to: string;
    started?: string | undefined;
    completed?: string | undefined;
    state: string;
    inProgress: boolean;
    unconditional: string[];
    risks: RiskRow[];
  }[];
  /** The cluster's own conditionalUpdates verdicts beside mgsift's; absent when it has none. */
  cluster?: { to: string; name: string; cluster: RiskRow['verdict']; mgsift: RiskRow['verdict'] | 'not-in-data'; disagree: boolean; detail: string }[] | undefined;
}

/** One of the update's health insights, as `oc adm upgrade status` words it. */
export interface UpdateInsightRow {
  type: string;
  level: 'Info' | 'Warning' | 'Error' | 'Critical';
  impact: string;
  message: string;
  description: string;
  /** ISO 8601; absent where oc shows `-`. */
  since?: string | undefined;
  /** oc's age at the collection time (`58m18s`, `now`, `-`). */
  age: string;
  /** Dated after the collection time (the archive was put together over some time). */
  afterCollection?: boolean | undefined;
  reference: string;
  object: { kind: string; namespace?: string | undefined; name: string };
}

/** A pool of the update, as the facts give it (plain data already). */
export type UpdatePoolRow = UpdatePool;

/** The operator counts as the facts give them (plain numbers and names already). */
type OperatorProgress = Pick<
  UpdateStatus,
  'completionPercent' | 'operatorsTotal' | 'operatorsUpdated' | 'operatorsUpdating' | 'operatorsWaiting' | 'operatorsUnavailable' | 'operatorsDegraded'
>;

/** The update in progress, with the semantics of `oc adm upgrade status`. */
export interface UpdateSummary extends OperatorProgress {
  assessment: string;
  target: string;
  from?: string | undefined;
  fromIncomplete: boolean;
  install: boolean;
  multiArch: boolean;
  /** ISO 8601. */
  startedAt?: string | undefined;
  completedAt?: string | undefined;
  /** oc's text (`1h59m`) and the seconds. */
  duration: string;
  durationSeconds: number;
  /** oc's "Est. Time Remaining" (`<10m`, `1h12m`, `N/A; estimate duration was 1h24m`). */
  estimatedRemaining?: string | undefined;
  pools: UpdatePoolRow[];
  health: UpdateInsightRow[];
  notes: string[];
}

/** The cluster at a glance, judged at the collection time (`summary` in the JSON report). */
export interface ReportSummary {
  /** ISO 8601: the time it is judged at. */
  at?: string | undefined;
  /** `collection` (the timestamp files), `latest-condition` (none: the latest condition change), `none`. */
  atSource: 'collection' | 'latest-condition' | 'none';
  /** The text headline: the version and update, then the health counts. */
  headline: string[];
  /** Plain data already: the facts' own records. */
  operators?: OperatorsSummary | undefined;
  nodes?: NodesSummary | undefined;
  /** Plain data already: the facts' own records. */
  pools?: PoolSummary[] | undefined;
  pods?:
    | {
        total: number;
        running: number;
        succeeded: number;
        notRunning: { reason: string; count: number; pods: { namespace: string; name: string; workload?: string | undefined; node?: string | undefined }[] }[];
        /** The facts' records, with `lastFinishedAt` as ISO 8601. */
        restarting: (Omit<RestartingContainer, 'lastFinishedAt'> & { lastFinishedAt?: string | undefined })[];
        restartingMore: number;
      }
    | undefined;
  etcd: {
    gathered: boolean;
    endpoints: number;
    healthy: number;
    leader?: string | undefined;
    dbSize?: number | undefined;
    dbSizeInUse?: number | undefined;
    members: { id: string; name: string; leader?: boolean | undefined; version?: string | undefined; dbSize?: number | undefined; dbSizeInUse?: number | undefined; peerURLs: string[]; clientURLs: string[] }[];
    health: { endpoint: string; healthy: boolean; took?: string | undefined; error?: string | undefined; member?: string | undefined; local: boolean }[];
    alarms: { alarm: string; memberId: string; member?: string | undefined }[];
    unreadable: { file: string; reason: string }[];
  };
  /** Null when the cluster is not updating (or when `updateUnknown` says it cannot be told). */
  update: UpdateSummary | null;
  updateUnknown?: string | undefined;
}

/** What made a report: `mgsift --version` in fields. */
export interface Tool {
  name: 'mgsift';
  version: string;
  /** The commit and day of the single-file build, or `source`. */
  build: string;
  /** Rules in the built-in pack. */
  builtinRules: number;
}

/** Rules that read data the user did not give (update-risk data): not a pass, not the archive's lack. */
export interface NotRun {
  data: string;
  how: string;
  rules: { ruleId: string; title: string; component: string }[];
  /** Said once: `update-risk data not given: 2 rules not run (a, b); use --update-risks DIR …`. */
  note: string;
}

/** How `--only` / `--exclude` narrowed the rule pack, and the rules they left out (by id). */
export interface RuleSelection {
  only: string[];
  exclude: string[];
  leftOut: string[];
}

/** How far an input that stopped before its end was read, and why it stopped. */
export interface InputTruncation {
  /** `damage`: the container is cut or corrupt (the run exits 2); `limit`: a limit stopped the reading. */
  by: 'damage' | 'limit';
  /** The error or the limit, one line. */
  reason: string;
  /** The last entry reached (`(start)` when none was). */
  lastEntry: string;
  /** Entries of the container read before it stopped (directories included). */
  entriesRead: number;
  /** Bytes of the container's stream read (a tar's, after decompression), when it is a stream. */
  streamBytesRead?: number | undefined;
}

export interface Report {
  schemaVersion: string;
  tool: Tool;
  /** When the report was made (the only field that differs between two runs on one input). */
  generatedAt: string;
  /** `truncated` only when the input stopped before its end. */
  input: { path: string; container: string; layout: string; truncated?: InputTruncation | undefined };
  cluster: ClusterIdentity;
  /** ISO 8601: the archive's collection time, when known. */
  collectedAt?: string | undefined;
  counts: Record<Severity, number>;
  /** Lines that change how to read the archive (stale status, truncation, rules not checked). */
  banners: string[];
  /** The cluster at a glance and the update in progress. */
  summary: ReportSummary;
  /** Root causes with the chains of what they explain; no roots: no problem found. */
  diagnosis: Diagnosis;
  findings: Finding[];
  /** Rules the archive could not support (the count "Read this first" gives). */
  notChecked: NotChecked[];
  /** Rules whose component cannot exist here (another version, platform, input kind, a disabled capability): no gap, no "Read this first". */
  notApplicable: NotApplicable[];
  /** Rules that found nothing in the part of their scope the input holds (an inspect of some namespaces): not passed. */
  checkedInPart: CheckedInPart[];
  /** Rules not run because the command line did not give the data they read, one entry per kind of data. */
  notRun: NotRun[];
  passed: Passed[];
  /** Rules --only / --exclude left out; absent when the whole pack ran. */
  selection?: RuleSelection | undefined;
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
  /** Known update risks; without data (or absent), the reports say how to give it. */
  updateRisks?: ReportUpdateRisks | undefined;
  /** What the API servers' audit logs say; absent when the input holds none. */
  audit?: ReportAudit | undefined;
  /** What could not be read, and why. */
  problems: Problem[];
  limits: Limits;
  stats: { entries: number; bytesRead: number; durationMs: number; ruleCosts?: { rule: string; ms: number }[] | undefined };
}
