/**
 * What the API servers' audit logs say about who did what: changes made by people and by
 * accounts that are not the platform's own, clients throttled (429) or refused (401, 403), and
 * the busiest clients. Memory is bounded whatever the logs' size: tables keep at most
 * {@link MAX_KEYS} keys (the rest is counted), changes the newest `maxChanges`.
 */
import type { AuditEvent, AuditRequest } from '../parsers/audit.js';

/** Verbs that change what the API server stores. */
export const MUTATING_VERBS: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * Resources that are questions asked with `create` (`oc auth can-i`, a token's review): never a
 * change.
 */
const REVIEW_RESOURCES: ReadonlySet<string> = new Set([
  'tokenreviews',
  'subjectaccessreviews',
  'selfsubjectaccessreviews',
  'selfsubjectrulesreviews',
  'localsubjectaccessreviews',
  'selfsubjectreviews',
  'localresourceaccessreviews',
  'resourceaccessreviews',
  'subjectrulesreviews',
  'podsecuritypolicyreviews',
  'podsecuritypolicyselfsubjectreviews',
  'podsecuritypolicysubjectreviews',
]);

/** Stages that close a request: one event per request (ResponseStarted and RequestReceived would count it twice). */
const FINAL_STAGES: ReadonlySet<string> = new Set(['ResponseComplete', 'Panic']);

/**
 * Whether an event closes its request. A failed authentication (401) is logged once, at
 * ResponseStarted, with no user (k8s.io/apiserver filters/authn_audit.go): it has no closing stage.
 */
function closes(request: AuditRequest): boolean {
  return FINAL_STAGES.has(request.stage) || (request.stage === 'ResponseStarted' && request.code === 401);
}

const HOUR_MS = 60 * 60_000;
/** Throttled and refused requests are counted by 5 minutes over the last hour of each client: `lastHour` is read from them. */
const BUCKET_MS = 5 * 60_000;

/** Keys a table (clients, throttled, denied) keeps; requests of other keys are counted only. */
export const MAX_KEYS = 20_000;

/**
 * Whether a user is the platform's own: nodes and control-plane components (`system:node:*`,
 * `system:kube-*`, `system:apiserver`, and every other `system:` identity a component
 * authenticates as, such as `system:multus:*` or `system:ovn-node:*`), and the service accounts
 * of `openshift`, `openshift-*`, `kube-*` namespaces. `system:admin` (the installer's kubeconfig,
 * used by people), `system:anonymous` and service accounts of other namespaces are not.
 */
export function isPlatformUser(user: string): boolean {
  if (!user.startsWith('system:')) return false;
  if (user === 'system:admin' || user === 'system:anonymous') return false;
  if (!user.startsWith('system:serviceaccount:')) return true;
  const namespace = user.slice('system:serviceaccount:'.length).split(':', 1)[0] ?? '';
  return namespace === 'openshift' || namespace.startsWith('openshift-') || namespace.startsWith('kube-');
}

/** Whether a user is a person (not `system:` and not a service account), for rules about hands-on changes. */
export function isPerson(user: string): boolean {
  return user !== '' && (!user.startsWith('system:') || user === 'system:admin');
}

export interface AuditFilter {
  user?: string | undefined;
  verb?: string | undefined;
  resource?: string | undefined;
  /** With `resource`: the object's name. */
  name?: string | undefined;
  namespace?: string | undefined;
  /** Milliseconds; events without a time never match a time bound. */
  since?: number | undefined;
  until?: number | undefined;
  /** Changes by platform accounts too. */
  all?: boolean | undefined;
}

/** One mutating request, as `changes` lists it. */
export interface AuditChange {
  time: string;
  user: string;
  verb: string;
  resource: string;
  apiGroup: string;
  namespace: string;
  name: string;
  subresource: string;
  code: number;
  userAgent: string;
  sourceIP: string;
  server: string;
  /** A person (not `system:` and no service account), as against a non-platform account. */
  person: boolean;
}

export interface AuditThrottled {
  user: string;
  userAgent: string;
  count: number;
  /** Of `count`, those in the hour (to 5 minutes) before the newest event of the logs. */
  lastHour: number;
  first: string;
  last: string;
}

export interface AuditDenied {
  /** '' for a failed authentication (401): the API server knows no user. */
  user: string;
  sourceIP: string;
  /** The user agent of the last refused request. */
  userAgent: string;
  code: number;
  count: number;
  /** Of `count`, those in the hour (to 5 minutes) before the newest event of the logs. */
  lastHour: number;
  first: string;
  last: string;
}

export interface AuditClient {
  user: string;
  count: number;
  /** Requests by HTTP status code (`"200": 1234`), most first. */
  codes: Record<string, number>;
}

/** One audit log file read. */
export interface AuditFile {
  path: string;
  server: string;
  node: string;
  /** Audit events (lines) read in it, every stage. */
  events: number;
  /** Why it was not read whole (a truncated `.gz`, a limit); absent when it was. */
  notReadWhole?: string | undefined;
}

export interface AuditWindow {
  first: string;
  last: string;
}

export interface AuditCounts {
  /** Audit events read (lines of every stage). */
  read: number;
  /** Requests: events at a closing stage (ResponseComplete, Panic). */
  requests: number;
  /** Requests the filters kept. */
  matched: number;
  /** Lines that were no audit event (other text, a line cut where its fields are). */
  notEvents: number;
  /** Changes among the matched requests beyond those listed (the newest are listed). */
  changesNotListed: number;
  /** Requests counted in totals only: their user, client or source was past the table's key limit. */
  pastKeyLimit: number;
}

/** What `mgsift audit` and the report say about the audit logs. */
export interface AuditSummary {
  files: AuditFile[];
  events: AuditCounts;
  /** The time the logs cover (every event read), absent when no event had a time. */
  window?: AuditWindow | undefined;
  changes: AuditChange[];
  throttled: AuditThrottled[];
  denied: AuditDenied[];
  clients: AuditClient[];
}

interface Span {
  count: number;
  first: number;
  last: number;
  /** Requests by 5-minute bucket (its start / BUCKET_MS), only those of the hour before `last`. */
  recent: Map<number, number>;
}

interface ClientTally {
  count: number;
  codes: Map<number, number>;
}

/** A change before it is listed (times in ms: sorted and cut cheaply). */
interface HeldChange extends Omit<AuditChange, 'time'> {
  at: number;
}

/** What a collector holds: plain data (maps and arrays), handed from a worker thread as it is. */
export interface AuditState {
  files: AuditFile[];
  counts: AuditCounts;
  first: number;
  last: number;
  changes: HeldChange[];
  throttled: Map<string, Span & { user: string; userAgent: string }>;
  denied: Map<string, Span & { user: string; sourceIP: string; userAgent: string; code: number }>;
  clients: Map<string, ClientTally>;
}

export interface AuditLimits {
  /** Changes listed (the newest). */
  maxChanges: number;
  /** Rows of the throttled, denied and clients tables. */
  maxRows: number;
}

export const DEFAULT_AUDIT_LIMITS: AuditLimits = { maxChanges: 1000, maxRows: 20 };
/** What an analysis keeps for its report and rules: `mgsift audit` lists the rest. */
export const REPORT_AUDIT_LIMITS: AuditLimits = { maxChanges: 200, maxRows: 10 };

export function emptyAuditState(): AuditState {
  return {
    files: [],
    counts: { read: 0, requests: 0, matched: 0, notEvents: 0, changesNotListed: 0, pastKeyLimit: 0 },
    first: Infinity,
    last: -Infinity,
    changes: [],
    throttled: new Map(),
    denied: new Map(),
    clients: new Map(),
  };
}

/** Adds audit events, file after file, within bounded memory; `summary()` says what they show. */
export class AuditTally {
  state: AuditState = emptyAuditState();

  /** Whether the filters name an object: every request's line is then read for it. */
  private readonly filtersObjects: boolean;

  constructor(
    private readonly filter: AuditFilter = {},
    private readonly limits: AuditLimits = DEFAULT_AUDIT_LIMITS,
  ) {
    this.filtersObjects = filter.resource !== undefined || filter.name !== undefined || filter.namespace !== undefined;
  }

  /** A file begins: its events are counted on it. */
  file(path: string, server: string, node: string): AuditFile {
    const file: AuditFile = { path, server, node, events: 0 };
    this.state.files.push(file);
    return file;
  }

  notEvent(): void {
    this.state.counts.notEvents++;
  }

  /**
   * Adds one event: `request` is what it is counted by; `detail` reads the rest of its line,
   * asked only for the requests listed (changes, refusals, throttling) or filtered by object.
   */
  add(request: AuditRequest, detail: () => AuditEvent | undefined, file: AuditFile): void {
    const state = this.state;
    file.events++;
    state.counts.read++;
    const at = request.time;
    if (at !== undefined) {
      if (at < state.first) state.first = at;
      if (at > state.last) state.last = at;
    }
    if (!closes(request)) return;
    state.counts.requests++;
    const filter = this.filter;
    if (!matchesRequest(request, filter)) return;
    const code = request.code;
    const listed = code === 429 || code === 401 || code === 403 || this.isChange(request);
    const event = listed || this.filtersObjects ? detail() : undefined;
    if (this.filtersObjects && (event === undefined || !matchesObject(event, filter))) return;
    state.counts.matched++;
    const time = at ?? -Infinity;
    if (event !== undefined && this.isChange(event) && !REVIEW_RESOURCES.has(event.resource)) this.holdChange({ ...changeOf(event, file.server), at: time });
    if (event !== undefined && code === 429) {
      const key = `${event.user}\0${event.userAgent}`;
      const span = this.spanIn(state.throttled, key, () => ({ user: event.user, userAgent: event.userAgent }));
      if (span) widen(span, time);
    } else if (event !== undefined && (code === 401 || code === 403)) {
      const key = `${event.user}\0${event.sourceIP}\0${code}`;
      const span = this.spanIn(state.denied, key, () => ({ user: event.user, sourceIP: event.sourceIP, userAgent: event.userAgent, code }));
      if (span) {
        if (time >= span.last) span.userAgent = event.userAgent;
        widen(span, time);
      }
    }
    let client = state.clients.get(request.user);
    if (client === undefined && state.clients.size < MAX_KEYS) {
      client = { count: 0, codes: new Map() };
      state.clients.set(request.user, client);
    }
    if (client === undefined) {
      state.counts.pastKeyLimit++;
      return;
    }
    client.count++;
    client.codes.set(code, (client.codes.get(code) ?? 0) + 1);
  }

  /** Adds what another tally holds (a worker thread's, for one entry). */
  merge(other: AuditState): void {
    const state = this.state;
    state.files.push(...other.files);
    for (const key of Object.keys(other.counts) as (keyof AuditCounts)[]) state.counts[key] += other.counts[key];
    state.first = Math.min(state.first, other.first);
    state.last = Math.max(state.last, other.last);
    for (const change of other.changes) this.holdChange(change);
    for (const [key, span] of other.throttled) {
      const mine = this.spanIn(state.throttled, key, () => ({ user: span.user, userAgent: span.userAgent }), span.count);
      if (mine) mergeSpan(mine, span);
    }
    for (const [key, span] of other.denied) {
      const mine = this.spanIn(state.denied, key, () => ({ user: span.user, sourceIP: span.sourceIP, userAgent: span.userAgent, code: span.code }), span.count);
      if (mine) {
        if (span.last >= mine.last) mine.userAgent = span.userAgent;
        mergeSpan(mine, span);
      }
    }
    for (const [user, tally] of other.clients) {
      const mine = state.clients.get(user);
      if (mine === undefined) {
        if (state.clients.size < MAX_KEYS) state.clients.set(user, tally);
        else state.counts.pastKeyLimit += tally.count;
        continue;
      }
      mine.count += tally.count;
      for (const [code, n] of tally.codes) mine.codes.set(code, (mine.codes.get(code) ?? 0) + n);
    }
  }

  /** Hands the state over and starts afresh (a worker thread, after each entry). */
  take(): AuditState {
    const taken = this.state;
    this.state = emptyAuditState();
    return taken;
  }

  summary(): AuditSummary {
    const state = this.state;
    this.trimChanges();
    // Those refused or throttled most in the last hour first: what goes on at the collection.
    const lastHour = (span: Span): number => recentCount(span, state.last);
    const byCount = (a: Span, b: Span): number => lastHour(b) - lastHour(a) || b.count - a.count || b.last - a.last;
    return {
      files: state.files,
      events: { ...state.counts },
      window: state.first <= state.last ? { first: isoOf(state.first), last: isoOf(state.last) } : undefined,
      changes: state.changes.map(({ at, ...change }) => ({ time: isoOf(at), ...change })),
      throttled: [...state.throttled.values()].sort(byCount).slice(0, this.limits.maxRows).map((s) => ({ user: s.user, userAgent: s.userAgent, count: s.count, lastHour: lastHour(s), first: isoOf(s.first), last: isoOf(s.last) })),
      denied: [...state.denied.values()].sort(byCount).slice(0, this.limits.maxRows).map((s) => ({ user: s.user, sourceIP: s.sourceIP, userAgent: s.userAgent, code: s.code, count: s.count, lastHour: lastHour(s), first: isoOf(s.first), last: isoOf(s.last) })),
      clients: [...state.clients.entries()]
        .sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1))
        .slice(0, this.limits.maxRows)
        .map(([user, tally]) => ({ user, count: tally.count, codes: codesOf(tally.codes) })),
    };
  }

  /** A mutating request by a person or a non-platform account (any account with `all`); reviews are told apart once the object is read. */
  private isChange(request: AuditRequest): boolean {
    return MUTATING_VERBS.has(request.verb) && (this.filter.all === true || !isPlatformUser(request.user));
  }

  private holdChange(change: HeldChange): void {
    this.state.changes.push(change);
    // Cut now and then, not at every change: the list stays within twice the limit.
    if (this.state.changes.length >= 2 * this.limits.maxChanges) this.trimChanges();
  }

  /** The newest `maxChanges` changes, newest first; the others counted. */
  private trimChanges(): void {
    const changes = this.state.changes;
    changes.sort((a, b) => b.at - a.at);
    if (changes.length > this.limits.maxChanges) {
      this.state.counts.changesNotListed += changes.length - this.limits.maxChanges;
      changes.length = this.limits.maxChanges;
    }
  }

  /** The span of a key, made when the table has room; `count` requests are counted past its limit otherwise. */
  private spanIn<T extends object>(table: Map<string, Span & T>, key: string, make: () => T, count = 1): (Span & T) | undefined {
    let span = table.get(key);
    if (span === undefined) {
      if (table.size >= MAX_KEYS) {
        this.state.counts.pastKeyLimit += count;
        return undefined;
      }
      span = { ...make(), count: 0, first: Infinity, last: -Infinity, recent: new Map() };
      table.set(key, span);
    }
    return span;
  }
}

function matchesRequest(request: AuditRequest, filter: AuditFilter): boolean {
  if (filter.user !== undefined && request.user !== filter.user) return false;
  if (filter.verb !== undefined && request.verb !== filter.verb) return false;
  if (filter.since !== undefined && (request.time === undefined || request.time < filter.since)) return false;
  if (filter.until !== undefined && (request.time === undefined || request.time > filter.until)) return false;
  return true;
}

function matchesObject(event: AuditEvent, filter: AuditFilter): boolean {
  if (filter.resource !== undefined && event.resource !== filter.resource) return false;
  if (filter.name !== undefined && event.name !== filter.name) return false;
  if (filter.namespace !== undefined && event.namespace !== filter.namespace) return false;
  return true;
}

function changeOf(event: AuditEvent, server: string): Omit<AuditChange, 'time'> {
  return {
    user: event.user,
    verb: event.verb,
    resource: event.resource,
    apiGroup: event.apiGroup,
    namespace: event.namespace,
    name: event.name,
    subresource: event.subresource,
    code: event.code,
    userAgent: event.userAgent,
    sourceIP: event.sourceIP,
    server,
    person: isPerson(event.user),
  };
}

function widen(span: Span, time: number): void {
  span.count++;
  if (time < span.first) span.first = time;
  if (time > span.last) span.last = time;
  if (Number.isFinite(time)) addRecent(span, Math.floor(time / BUCKET_MS), 1);
}

function mergeSpan(span: Span, other: Span): void {
  span.count += other.count;
  span.first = Math.min(span.first, other.first);
  span.last = Math.max(span.last, other.last);
  for (const [bucket, n] of other.recent) addRecent(span, bucket, n);
}

/** Counts `n` requests in a bucket, and forgets the buckets past an hour before the span's last request (memory stays bounded). */
function addRecent(span: Span, bucket: number, n: number): void {
  const oldest = Math.floor((span.last - HOUR_MS) / BUCKET_MS);
  if (bucket < oldest) return;
  span.recent.set(bucket, (span.recent.get(bucket) ?? 0) + n);
  if (span.recent.size > HOUR_MS / BUCKET_MS + 2) for (const key of span.recent.keys()) if (key < oldest) span.recent.delete(key);
}

/** The requests of a span in the buckets that reach into the hour before `end`. */
function recentCount(span: Span, end: number): number {
  const oldest = Math.floor((end - HOUR_MS) / BUCKET_MS);
  let count = 0;
  for (const [bucket, n] of span.recent) if (bucket >= oldest) count += n;
  return count;
}

function codesOf(codes: Map<number, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [code, n] of [...codes].sort((a, b) => b[1] - a[1] || a[0] - b[0])) out[String(code)] = n;
  return out;
}

/** ISO 8601 of a time in ms; '' for an event without one. */
function isoOf(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : '';
}
