/**
 * Facts from cluster-version operator (CVO) pod logs, gathered by a streaming scan.
 *
 * Feed each line of one container log, in file order, to {@link CvoLogFacts.feed} with the
 * line's time as epoch ms when the caller could resolve it (must-gather prefixes an RFC 3339
 * timestamp; a bare klog `I0119 22:24:15.924216` has no year, so resolving it is the caller's
 * business). Lines may carry those prefixes: patterns are searched anywhere in the line.
 *
 * - build: the first line naming `ClusterVersionOperator <version>` (`start.go:21]` writes it
 *   first thing), e.g. `v4.5.0-202011132127.p0-dirty` or
 *   `4.8.0-202107291502.p0.git.ea6e779.assembly.stream-ea6e779`. Its `x.y.z` is the branch
 *   the CVO was built from (`4.6.0-...` ships in 4.6.8), not the release version.
 * - lifetime: the first and the last time fed (file order, not min/max), and lines counted.
 * - moments: lifecycle lines worth a timeline (payload, preconditions, and how a CVO stops: its
 *   leader lease lost, a signal, the final status sync failed), capped; on overflow the first half of the cap
 *   and the latest half are kept (so the closing `final sync` line survives) and the rest
 *   are counted in `droppedMoments`.
 */

export interface CvoBuild {
  /** As logged, without the leading `v`: `4.5.0-202011132127.p0-dirty`. */
  raw: string;
  /** `x.y.z` the CVO was built from. */
  version: string;
  /** `x.y`. */
  minor: string;
  /** `YYYYMMDDhhmm` build stamp when present (`202011132127`). */
  buildStamp?: string | undefined;
  /** Short git commit when present (`ea6e779`, `39a4256`). */
  commit?: string | undefined;
  /** True for `-dirty` builds. */
  dirty: boolean;
}

export type CvoMomentKind =
  | 'loading-payload'
  | 'payload-loaded'
  | 'preconditions-skipped'
  | 'precondition-passed'
  | 'lease-lost'
  | 'shutdown'
  | 'final-sync-failed';

export interface CvoMoment {
  kind: CvoMomentKind;
  /** Epoch ms as fed; undefined when the caller had none. */
  time: number | undefined;
  /** Line number in its log, when the caller gave one. */
  line?: number | undefined;
  /** The line, trimmed and cut to {@link MAX_MOMENT_TEXT} characters. */
  text: string;
  /** `payload-loaded`: the release image pullspec. */
  image?: string | undefined;
  /** `payload-loaded`: the payload hash. */
  hash?: string | undefined;
  /** `precondition-passed`: the precondition name (`ClusterVersionUpgradeable`). */
  precondition?: string | undefined;
  /** `final-sync-failed`: the error (`context canceled`). */
  error?: string | undefined;
  /** `shutdown`: why (`terminated` for the signal, `stopped leading`). */
  reason?: string | undefined;
}

export interface CvoLogSummary {
  build?: CvoBuild | undefined;
  firstTime?: number | undefined;
  lastTime?: number | undefined;
  lines: number;
  moments: CvoMoment[];
  droppedMoments: number;
  /** True when a `final-sync-failed` moment was seen (even if dropped by the cap). */
  finalSyncFailed: boolean;
}

export const MAX_MOMENT_TEXT = 2000;
export const DEFAULT_MAX_MOMENTS = 200;

const BUILD = /\bClusterVersionOperator v?(\d+\.\d+\.\d+[0-9A-Za-z.+-]*)/;

/** Parse the CVO build out of a log line; undefined when the line does not name one. */
export function parseCvoBuild(line: string): CvoBuild | undefined {
  const m = BUILD.exec(line);
  const raw = m?.[1];
  if (raw === undefined) return undefined;
  const core = /^(\d+)\.(\d+)\.(\d+)/.exec(raw);
  if (!core) return undefined;
  const stamp = /^\d+\.\d+\.\d+-(\d{12})\b/.exec(raw);
  const commit = /\.git\.([0-9a-f]{7,40})\b/.exec(raw) ?? /-([0-9a-f]{7,40})$/.exec(raw);
  return {
    raw,
    version: `${core[1]}.${core[2]}.${core[3]}`,
    minor: `${core[1]}.${core[2]}`,
    buildStamp: stamp?.[1],
    commit: commit?.[1] !== undefined && commit[1] !== stamp?.[1] ? commit[1] : undefined,
    dirty: /-dirty$/.test(raw),
  };
}

const LOADING = /\bLoading payload\b/;
const LOADED = /\bPayload loaded from (\S+) with hash ([^\s,]+)/;
const SKIPPED = /\bSkipping preconditions for a local operator image payload\b/;
const PASSED = /\bPrecondition (\S+) passed\b/;
const FINAL_SYNC = /\bunable to perform final sync: (.*)$/;
// client-go leader election: the lease could not be renewed in time (the API server did not answer).
const LEASE_LOST = /\bfailed to renew lease \S+|\bleaderelection lost\b/;
// start.go: `Shutting down due to terminated` (a signal) or `Stopped leading; shutting down.`
const SHUTDOWN = /\bShutting down due to (\S+)|\b(Stopped leading); shutting down\b/;

/** Recognise one lifecycle moment in a line (without time); undefined for other lines. */
export function matchCvoMoment(line: string): Omit<CvoMoment, 'time'> | undefined {
  const text = line.trim().slice(0, MAX_MOMENT_TEXT);
  let m: RegExpExecArray | null;
  if ((m = FINAL_SYNC.exec(line))) return { kind: 'final-sync-failed', text, error: (m[1] ?? '').trim() };
  if ((m = LOADED.exec(line))) return { kind: 'payload-loaded', text, image: m[1], hash: m[2] };
  if (LOADING.test(line)) return { kind: 'loading-payload', text };
  if (SKIPPED.test(line)) return { kind: 'preconditions-skipped', text };
  if ((m = PASSED.exec(line))) return { kind: 'precondition-passed', text, precondition: m[1] };
  if (LEASE_LOST.test(line)) return { kind: 'lease-lost', text };
  if ((m = SHUTDOWN.exec(line))) return { kind: 'shutdown', text, reason: m[1] ?? 'stopped leading' };
  return undefined;
}

/** Whether a line can carry a build or a moment: every pattern here holds one of these words. */
export function mayCarryCvoFact(line: string): boolean {
  return line.includes('ClusterVersionOperator') || /ayload|recondition|final sync|lease|hutting down/.test(line);
}

/** Accumulates CVO facts over the lines of one container log. */
export class CvoLogFacts {
  build: CvoBuild | undefined;
  firstTime: number | undefined;
  lastTime: number | undefined;
  lines = 0;
  droppedMoments = 0;
  finalSyncFailed = false;
  private readonly head: CvoMoment[] = [];
  private readonly tail: CvoMoment[] = [];
  private tailNext = 0;
  private readonly headCap: number;
  private readonly tailCap: number;

  constructor(options: { maxMoments?: number } = {}) {
    const cap = Math.max(0, Math.floor(options.maxMoments ?? DEFAULT_MAX_MOMENTS));
    this.headCap = Math.ceil(cap / 2);
    this.tailCap = cap - this.headCap;
  }

  /** Feed one line; `timeMs` is the line's time (epoch ms) when known, `lineNo` its line number. */
  feed(line: string, timeMs?: number, lineNo?: number): void {
    this.lines++;
    const time = typeof timeMs === 'number' && Number.isFinite(timeMs) ? timeMs : undefined;
    if (time !== undefined) {
      if (this.firstTime === undefined) this.firstTime = time;
      this.lastTime = time;
    }
    if (!mayCarryCvoFact(line)) return;
    if (this.build === undefined && line.includes('ClusterVersionOperator')) this.build = parseCvoBuild(line);
    const moment = matchCvoMoment(line);
    if (!moment) return;
    if (moment.kind === 'final-sync-failed') this.finalSyncFailed = true;
    this.keep({ ...moment, time, ...(lineNo !== undefined ? { line: lineNo } : {}) });
  }

  private keep(moment: CvoMoment): void {
    if (this.head.length < this.headCap) {
      this.head.push(moment);
      return;
    }
    if (this.tailCap === 0) {
      this.droppedMoments++;
      return;
    }
    if (this.tail.length < this.tailCap) {
      this.tail.push(moment);
      return;
    }
    this.tail[this.tailNext] = moment;
    this.tailNext = (this.tailNext + 1) % this.tailCap;
    this.droppedMoments++;
  }

  /** Kept moments in the order fed. */
  get moments(): CvoMoment[] {
    return [...this.head, ...this.tail.slice(this.tailNext), ...this.tail.slice(0, this.tailNext)];
  }

  summary(): CvoLogSummary {
    return {
      build: this.build,
      firstTime: this.firstTime,
      lastTime: this.lastTime,
      lines: this.lines,
      moments: this.moments,
      droppedMoments: this.droppedMoments,
      finalSyncFailed: this.finalSyncFailed,
    };
  }
}
