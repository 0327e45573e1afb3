import type { Need, ObjectPlace, ParallelConsumer, WalkSummary } from '../ingest/consumer.js';
import type { ClassifiedEntry, LayoutKind } from '../layout/types.js';
import type { K8sObject } from '../parsers/k8s.js';
import { LineSplitter } from '../parsers/lines.js';
import { parseLogLine } from '../parsers/logline.js';
import { clusterIdentity, type ClusterIdentity } from './cluster.js';
import { analyzeHistory, type UpdateHistory } from './history.js';
import { collectionTime, parseGatherTimestamps, type GatherTimestamps } from './collection-time.js';
import { CvoLogFacts, mayCarryCvoFact, type CvoBuild, type CvoMoment } from './cvo.js';
import { alertsOf, sortAlerts, uniqueAlerts, type Alert } from './alerts.js';
import { updateRecommendations, type UpdateRecommendations } from './updates.js';
import { insightsRecommendations, type InsightsRecommendation } from './insights.js';
import type { ClusterSummary } from './cluster-summary.js';
import type { CertificateBundle } from './certificates.js';
import type { RecentTemplate } from '../digest/collector.js';
import type { AuditSummary } from './audit.js';

const CVO_NAMESPACE = 'openshift-cluster-version';
const CVO_CONTAINER = 'cluster-version-operator';

/** One CVO container log: which pod, its build and when it ran. */
export interface CvoPod {
  file: string;
  /** Namespace of the log's folder; undefined for a log given alone. */
  namespace?: string | undefined;
  pod: string;
  stream: string;
  build?: CvoBuild | undefined;
  firstTime?: number | undefined;
  lastTime?: number | undefined;
  moments: CvoMoment[];
}

/** Everything derived once per archive and shared by rules and reports. */
export interface Facts {
  layout: LayoutKind;
  /** Where the ClusterVersion came from, when there was one. */
  clusterVersionFile?: string | undefined;
  cluster?: ClusterIdentity | undefined;
  history?: UpdateHistory | undefined;
  /** Epoch ms: the end of the gather, from the `timestamp` files. */
  collectedAt?: number | undefined;
  cvo: { pods: CvoPod[] };
  /** Firing and pending alerts, most urgent first; undefined when the archive holds no alerts file. */
  alerts?: Alert[] | undefined;
  /** The CVO's update recommendations, risks and gates; undefined without a ClusterVersion. */
  updates?: UpdateRecommendations | undefined;
  /** Insights Advisor's health checks, most risky first; undefined without an InsightsOperator holding a report. */
  insights?: InsightsRecommendation[] | undefined;
  /** The cluster at a glance and the update in progress (made from what `ClusterStateCollector` read). */
  summary?: ClusterSummary | undefined;
  /** PEM certificates of ConfigMaps and Secrets (made from what `CertificateCollector` read); undefined when none of either was read. */
  certificates?: CertificateBundle[] | undefined;
  /** The digest's templates with lines in the 30 minutes before the collection (fact `log.templates`); undefined without logs, a rule that reads them or the collection time. */
  logTemplates?: RecentTemplate[] | undefined;
  /** What the API servers' audit logs say (made from what `AuditCollector` read); undefined without audit logs. */
  audit?: AuditSummary | undefined;
}

/** What one entry adds to the facts (see {@link ParallelConsumer}). */
export interface FactsTaken {
  clusterVersion?: { object: K8sObject; file: string } | undefined;
  infrastructure?: K8sObject | undefined;
  timestamps: GatherTimestamps[];
  pods: CvoPod[];
  /** Alerts of the monitoring file read, when it was one (plain data: labels, annotations, times). */
  alerts?: Alert[] | undefined;
  /** Insights recommendations of the InsightsOperator read, when it was one holding a report. */
  insights?: InsightsRecommendation[] | undefined;
}

/**
 * Reads what facts are made of — ClusterVersion, Infrastructure, the gather's `timestamp`
 * files and CVO logs — in the same pass as the rules.
 */
export class FactsCollector implements ParallelConsumer<FactsTaken> {
  private clusterVersion: K8sObject | undefined;
  private clusterVersionFile: string | undefined;
  private infrastructure: K8sObject | undefined;
  private readonly timestamps: GatherTimestamps[] = [];
  private timestampText = '';
  private readonly pods: CvoPod[] = [];
  private current: { pod: CvoPod; facts: CvoLogFacts; lines: LineSplitter; last?: { line: string; lineNo: number; fed: boolean } } | undefined;
  private layout: LayoutKind = 'unknown';
  /** Alerts of every monitoring file read; undefined until one is. */
  private alerts: Alert[] | undefined;
  /** The last InsightsOperator read that held a report wins (List and object file hold the same). */
  private insights: InsightsRecommendation[] | undefined;

  constructor(private readonly maxLineBytes: number) {}

  need(entry: ClassifiedEntry): Need | undefined {
    if (entry.group === 'config.openshift.io' && (entry.resource === 'clusterversions' || entry.resource === 'infrastructures')) {
      return { objects: true };
    }
    if (holdsAlerts(entry)) return { objects: true };
    if (entry.group === 'operator.openshift.io' && entry.resource === 'insightsoperators') return { objects: true };
    if (entry.metadata === 'timestamp') return { text: true };
    if (isCvoLog(entry)) return { text: true };
    return undefined;
  }

  object(object: K8sObject, entry: ClassifiedEntry, _place: ObjectPlace): void {
    if (holdsAlerts(entry)) {
      (this.alerts ??= []).push(...alertsOf(object, entry.path));
      return;
    }
    // The first copy read wins, as for the rules (must-gather writes each twice, in its own file
    // and in the List, and a directory is read in name order: the own file first).
    if (object.kind === 'ClusterVersion' && (object.metadata?.name ?? 'version') === 'version') {
      if (this.clusterVersion) return;
      this.clusterVersion = object;
      this.clusterVersionFile = entry.path;
    } else if (object.kind === 'Infrastructure' && (object.metadata?.name ?? 'cluster') === 'cluster') {
      this.infrastructure ??= object;
    } else if (object.kind === 'InsightsOperator' && (object.metadata?.name ?? 'cluster') === 'cluster') {
      this.insights = insightsRecommendations(object, entry.path) ?? this.insights;
    }
  }

  text(chunk: Buffer, entry: ClassifiedEntry): void {
    if (entry.metadata === 'timestamp') {
      this.timestampText += chunk.toString('utf8', 0, Math.min(chunk.length, 4096));
      return;
    }
    if (!this.current) {
      const pod: CvoPod = { file: entry.path, namespace: entry.namespace, pod: entry.pod ?? entry.path, stream: entry.logStream ?? 'current', moments: [] };
      const facts = new CvoLogFacts();
      // Only the first line, lines that can carry a fact and the last line (fed at the end)
      // are parsed: the lifetime needs the first and last times, nothing else in between.
      const lines = new LineSplitter((line, lineNo) => {
        const fed = lineNo === 1 || mayCarryCvoFact(line);
        if (fed) feedLine(facts, line, lineNo);
        current.last = { line, lineNo, fed };
      }, this.maxLineBytes);
      const current: NonNullable<FactsCollector['current']> = { pod, facts, lines };
      this.current = current;
    }
    this.current.lines.push(chunk);
  }

  endText(entry: ClassifiedEntry): void {
    if (entry.metadata === 'timestamp') {
      const parsed = parseGatherTimestamps(this.timestampText);
      if (parsed) this.timestamps.push(parsed);
      this.timestampText = '';
      return;
    }
    if (!this.current) return;
    const { pod, facts, lines } = this.current;
    lines.end();
    const last = this.current.last;
    if (last && !last.fed) feedLine(facts, last.line, last.lineNo);
    this.current = undefined;
    const summary = facts.summary();
    // A single log given alone counts only when it reads like a CVO log.
    const isCvo = entry.namespace === CVO_NAMESPACE || summary.build !== undefined || facts.moments.length > 0;
    if (isCvo) this.pods.push({ ...pod, build: summary.build, firstTime: summary.firstTime, lastTime: summary.lastTime, moments: facts.moments });
  }

  takeEntry(): FactsTaken {
    const cv = this.clusterVersion;
    const taken: FactsTaken = {
      clusterVersion: cv ? { object: cv, file: this.clusterVersionFile ?? '' } : undefined,
      infrastructure: this.infrastructure,
      timestamps: this.timestamps.splice(0),
      pods: this.pods.splice(0),
      alerts: this.alerts,
      insights: this.insights,
    };
    this.clusterVersion = this.clusterVersionFile = this.infrastructure = undefined;
    this.alerts = this.insights = undefined;
    return taken;
  }

  /** The first ClusterVersion and Infrastructure read win, as when read here. */
  mergeEntry(taken: FactsTaken): void {
    if (taken.clusterVersion && !this.clusterVersion) {
      this.clusterVersion = taken.clusterVersion.object;
      this.clusterVersionFile = taken.clusterVersion.file;
    }
    this.infrastructure ??= taken.infrastructure;
    this.timestamps.push(...taken.timestamps);
    this.pods.push(...taken.pods);
    if (taken.alerts) (this.alerts ??= []).push(...taken.alerts);
    if (taken.insights) this.insights = taken.insights;
  }

  end(summary: WalkSummary): void {
    this.layout = summary.layout;
  }

  facts(): Facts {
    const cv = this.clusterVersion;
    const cluster = cv ? clusterIdentity(cv, this.infrastructure) : undefined;
    return {
      layout: this.layout,
      clusterVersionFile: this.clusterVersionFile,
      cluster,
      history: cv ? analyzeHistory(cv) : undefined,
      collectedAt: collectionTime(this.timestamps),
      cvo: { pods: this.pods },
      alerts: this.alerts && sortAlerts(uniqueAlerts(this.alerts)),
      updates: cv ? updateRecommendations(cv, this.clusterVersionFile ?? '', cluster?.currentVersion) : undefined,
      insights: this.insights,
    };
  }
}

function feedLine(facts: CvoLogFacts, line: string, lineNo: number): void {
  const parsed = parseLogLine(line, lineNo);
  facts.feed(parsed.text, parsed.time, lineNo);
}

/** Files holding the monitoring stack's alerts (layout rows `mg-monitoring` and `insights-alerts`). */
function holdsAlerts(entry: ClassifiedEntry): boolean {
  if (entry.rule === 'insights-alerts') return true;
  return entry.rule === 'mg-monitoring' && (entry.name === 'alerts.json' || entry.name === 'prometheus/rules.json' || entry.name === 'prometheus/alerts.json');
}

/** CVO container logs, and a single log given alone (it may be a saved CVO log). */
function isCvoLog(entry: ClassifiedEntry): boolean {
  if (entry.kind !== 'pod-log') return false;
  if (entry.namespace === CVO_NAMESPACE) return entry.container === undefined || entry.container === CVO_CONTAINER;
  return entry.namespace === undefined && entry.pod === undefined;
}
