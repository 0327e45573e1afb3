/**
 * One API server audit event (`audit.k8s.io/v1` Event, one JSON object per line of an
 * `audit.log`), reduced to the fields that say who did what to which object, and how it ended.
 *
 * Audit logs are the largest files of an archive that has them: the fields are taken by a scan
 * of the line rather than by `JSON.parse`, which would build every request and response body a
 * `WriteRequestBodies` or `AllRequestBodies` profile logs. The API server's encoder writes the
 * fields in the order of the Go struct (k8s.io/apiserver/pkg/apis/audit/v1 Event): the request's
 * fields (stage, verb, user, sourceIPs, userAgent, objectRef, responseStatus) come before the
 * bodies, the timestamps and annotations after them. So the head is read up to the first body,
 * the tail from the last timestamp key. A line in another shape is parsed by `JSON.parse`.
 */
export interface AuditEvent {
  /** `stageTimestamp` (when the stage was reached), else `requestReceivedTimestamp`, in ms. */
  time: number | undefined;
  stage: string;
  verb: string;
  user: string;
  groups: readonly string[];
  /** The first source IP (the client; later ones are proxies). */
  sourceIP: string;
  userAgent: string;
  resource: string;
  namespace: string;
  name: string;
  subresource: string;
  apiGroup: string;
  /** HTTP status of the response; 0 when the event has none. */
  code: number;
  /** `authorization.k8s.io/decision` (`allow`, `forbid`), '' when absent. */
  decision: string;
}

/** The key a line must hold near its start to be read as an audit event. */
const API_VERSION = '"apiVersion":"audit.k8s.io/';
/** Where the head's fields end: the first request or response body. */
const BODIES = [',"requestObject":', ',"responseObject":'];

/**
 * The audit event a line holds, or undefined when the line is no audit event (another log's
 * line, an empty line, a line cut where its fields cannot be read).
 */
export function parseAuditLine(line: string): AuditEvent | undefined {
  const start = line.indexOf('{');
  if (start < 0 || start > 8) return undefined;
  const marker = line.indexOf(API_VERSION, start);
  if (marker < 0 || marker > start + 64) return undefined;
  // The API server's own order; anything else (a line re-encoded by another tool) is parsed.
  return (line.startsWith('{"kind":"Event"', start) ? scanEvent(line, start) : undefined) ?? parsedEvent(line.slice(start));
}

function scanEvent(line: string, start: number): AuditEvent | undefined {
  let headEnd = line.length;
  for (const body of BODIES) {
    const at = line.indexOf(body, start);
    if (at >= 0 && at < headEnd) headEnd = at;
  }
  const head = new Fields(line, start, headEnd);
  const stage = head.string('"stage":"');
  const verb = head.string('"verb":"');
  if (stage === undefined || verb === undefined) return undefined;
  const userAt = line.indexOf('"user":{', start);
  if (userAt < 0 || userAt > headEnd) return undefined;
  const userFields = new Fields(line, userAt, headEnd);
  const user = userFields.string('"username":"') ?? '';
  const groups = userFields.strings('"groups":[');
  const objectAt = line.indexOf('"objectRef":{', userAt);
  const objectEnd = objectAt >= 0 && objectAt < headEnd ? line.indexOf('}', objectAt) : -1;
  const object = objectEnd >= 0 ? new Fields(line, objectAt, objectEnd) : undefined;
  const statusAt = line.indexOf('"responseStatus":{', userAt);
  const code = statusAt >= 0 && statusAt < headEnd ? new Fields(line, statusAt, headEnd).integer('"code":') : undefined;
  // The tail: the last timestamp keys of the line are the event's (a body could hold the words, never after them).
  const receivedAt = line.lastIndexOf('"requestReceivedTimestamp":"');
  const tail = new Fields(line, receivedAt >= 0 ? receivedAt : headEnd, line.length);
  const received = tail.string('"requestReceivedTimestamp":"');
  const reached = tail.string('"stageTimestamp":"');
  return {
    time: timeOf(reached) ?? timeOf(received),
    stage,
    verb,
    user,
    groups,
    sourceIP: head.strings('"sourceIPs":[')[0] ?? '',
    userAgent: head.string('"userAgent":"') ?? '',
    resource: object?.string('"resource":"') ?? '',
    namespace: object?.string('"namespace":"') ?? '',
    name: object?.string('"name":"') ?? '',
    subresource: object?.string('"subresource":"') ?? '',
    apiGroup: object?.string('"apiGroup":"') ?? '',
    code: code ?? 0,
    decision: tail.string('"authorization.k8s.io/decision":"') ?? '',
  };
}

/** The fields of a part of a line (`from` to `to`), each found by its key's first occurrence there. */
class Fields {
  constructor(
    private readonly line: string,
    private readonly from: number,
    private readonly to: number,
  ) {}

  /** The string after `key` (which ends with its opening quote). */
  string(key: string): string | undefined {
    const at = this.find(key);
    return at < 0 ? undefined : readString(this.line, at + key.length, this.to);
  }

  /** The strings of the array after `key` (which ends with `[`). */
  strings(key: string): string[] {
    const at = this.find(key);
    if (at < 0) return [];
    const out: string[] = [];
    let i = at + key.length;
    while (i < this.to && this.line.charCodeAt(i) === 34 /* " */) {
      const end = stringEnd(this.line, i + 1, this.to);
      if (end < 0) break;
      out.push(unescape(this.line, i + 1, end));
      i = end + 1;
      if (this.line.charCodeAt(i) === 44 /* , */) i++;
    }
    return out;
  }

  integer(key: string): number | undefined {
    const at = this.find(key);
    if (at < 0) return undefined;
    let i = at + key.length;
    let value = 0;
    const first = i;
    for (; i < this.to; i++) {
      const digit = this.line.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    return i > first ? value : undefined;
  }

  private find(key: string): number {
    const at = this.line.indexOf(key, this.from);
    return at >= 0 && at + key.length <= this.to ? at : -1;
  }
}

function readString(line: string, from: number, to: number): string | undefined {
  const end = stringEnd(line, from, to);
  return end < 0 ? undefined : unescape(line, from, end);
}

/** Index of the quote closing a JSON string whose text starts at `from`; -1 when it does not close before `to`. */
function stringEnd(line: string, from: number, to: number): number {
  let i = line.indexOf('"', from);
  while (i >= 0 && i < to) {
    let slashes = 0;
    for (let j = i - 1; j >= from && line.charCodeAt(j) === 92 /* \ */; j--) slashes++;
    if (slashes % 2 === 0) return i;
    i = line.indexOf('"', i + 1);
  }
  return -1;
}

function unescape(line: string, from: number, end: number): string {
  const text = line.slice(from, end);
  if (!text.includes('\\')) return text;
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}

function timeOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The slow path: a line not in the API server's field order (re-encoded by another tool). */
function parsedEvent(text: string): AuditEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const event = record(value);
  if (event === undefined || typeof event.verb !== 'string' || typeof event.stage !== 'string') return undefined;
  const user = record(event.user);
  const object = record(event.objectRef);
  const status = record(event.responseStatus);
  const annotations = record(event.annotations);
  return {
    time: timeOf(text_(event.stageTimestamp)) ?? timeOf(text_(event.requestReceivedTimestamp)),
    stage: event.stage,
    verb: event.verb,
    user: text_(user?.username) ?? '',
    groups: Array.isArray(user?.groups) ? user.groups.filter((g): g is string => typeof g === 'string') : [],
    sourceIP: Array.isArray(event.sourceIPs) ? (text_(event.sourceIPs[0]) ?? '') : '',
    userAgent: text_(event.userAgent) ?? '',
    resource: text_(object?.resource) ?? '',
    namespace: text_(object?.namespace) ?? '',
    name: text_(object?.name) ?? '',
    subresource: text_(object?.subresource) ?? '',
    apiGroup: text_(object?.apiGroup) ?? '',
    code: typeof status?.code === 'number' ? status.code : 0,
    decision: text_(annotations?.['authorization.k8s.io/decision']) ?? '',
  };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function text_(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Splits a stream of chunks into lines for `parseAuditLine`. A line longer than `maxLineBytes`
 * (a large request body) keeps its first `maxLineBytes` characters and its last
 * {@link TAIL_CHARS}: the request's fields and the timestamps are there, the bodies between are
 * not needed.
 */
export class AuditLineSplitter {
  private readonly decoder = new TextDecoder('utf-8');
  private carry = '';
  /** The end of an over-long line, while its middle is skipped. */
  private tail: string | undefined;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineBytes: number,
  ) {}

  push(chunk: Uint8Array): void {
    this.take(this.decoder.decode(chunk, { stream: true }));
  }

  end(): void {
    this.take(this.decoder.decode());
    if (this.carry !== '' || this.tail !== undefined) this.finish('');
  }

  private take(text: string): void {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      this.finish(text.slice(start, nl));
      start = nl + 1;
    }
    if (start < text.length) this.hold(text.slice(start));
  }

  private hold(rest: string): void {
    if (this.tail !== undefined) {
      this.tail = (this.tail + rest).slice(-TAIL_CHARS);
      return;
    }
    this.carry += rest;
    if (this.carry.length > this.maxLineBytes) {
      this.tail = this.carry.slice(this.maxLineBytes).slice(-TAIL_CHARS);
      this.carry = this.carry.slice(0, this.maxLineBytes);
    }
  }

  private finish(end: string): void {
    let line: string;
    if (this.tail !== undefined) {
      line = this.carry + (this.tail + end).slice(-TAIL_CHARS);
      this.tail = undefined;
    } else {
      line = this.carry === '' ? end : this.carry + end;
      if (line.length > this.maxLineBytes) line = line.slice(0, this.maxLineBytes) + line.slice(-TAIL_CHARS);
    }
    this.carry = '';
    this.onLine(line);
  }
}

/** Characters kept of the end of an over-long line: the timestamps and annotations (a few hundred). */
const TAIL_CHARS = 4096;
