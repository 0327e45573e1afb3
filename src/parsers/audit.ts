/**
 * API server audit events (`audit.k8s.io/v1` Event, one JSON object per line of an
 * `audit.log`), reduced to the fields that say who did what to which object, and how it ended.
 *
 * Audit logs are the largest files of an archive that has them, and most of their lines are the
 * platform's own reads: every line is read at two depths. {@link scanAuditRequest} takes what
 * every request is counted by (stage, verb, user, code, time) with a few searches, where the
 * API server's encoder puts them: it writes the fields in the order of the Go struct
 * (k8s.io/apiserver/pkg/apis/audit/v1 Event), so the stage, verb and user come first, the
 * response status after the object, the bodies (logged above the Metadata level) after it, the
 * timestamps and annotations last. {@link parseAuditLine} parses the request's fields (the line
 * without its bodies) for the lines worth listing: a change, a refusal, a throttled request.
 */

/** What every request is counted by. */
export interface AuditRequest {
  /** `stageTimestamp` (when the stage was reached), else `requestReceivedTimestamp`, in ms. */
  time: number | undefined;
  stage: string;
  verb: string;
  user: string;
  /** HTTP status of the response; 0 when the event has none (a stage before the response). */
  code: number;
}

/** A request with the object it is about and where it came from. */
export interface AuditEvent extends AuditRequest {
  /** The first source IP (the client; later ones are proxies). */
  sourceIP: string;
  userAgent: string;
  resource: string;
  namespace: string;
  name: string;
  subresource: string;
  apiGroup: string;
}

/** The key a line must hold near its start to be read as an audit event. */
const API_VERSION = '"apiVersion":"audit.k8s.io/';
/** Bodies a level above Metadata logs, in the order of the Event's fields. */
const BODIES = [',"requestObject":', ',"responseObject":'];
const RECEIVED_KEY = ',"requestReceivedTimestamp":"';
const STAGE_TIME_KEY = ',"stageTimestamp":"';
const STAGE_KEY = '"stage":"';
const VERB_KEY = '"verb":"';
const USERNAME_KEY = '"user":{"username":"';
const STATUS_KEY = '"responseStatus":{';
const CODE_KEY = '"code":';
/** Stages before the response: they carry no response status. */
const BEFORE_RESPONSE: ReadonlySet<string> = new Set(['RequestReceived']);

/** Where a line's event starts (`{`), or -1 when the line is no audit event. */
function eventStart(line: string): number {
  const start = line.indexOf('{');
  if (start < 0 || start > 8) return -1;
  const marker = line.indexOf(API_VERSION, start);
  return marker < 0 ? -1 : start;
}

/**
 * What a request is counted by, found by searching the line in the API server's field order;
 * undefined when the line is no audit event or its fields are not in that order (then
 * {@link parseAuditLine} reads it, whatever the order).
 */
export function scanAuditRequest(line: string): AuditRequest | undefined {
  const start = eventStart(line);
  if (start < 0) return undefined;
  const stageAt = line.indexOf(STAGE_KEY, start);
  const stage = stageAt < 0 ? undefined : plainString(line, stageAt + STAGE_KEY.length);
  const verbAt = stage === undefined ? -1 : line.indexOf(VERB_KEY, stageAt);
  const verb = verbAt < 0 ? undefined : plainString(line, verbAt + VERB_KEY.length);
  const userAt = verb === undefined ? -1 : line.indexOf(USERNAME_KEY, verbAt);
  const user = userAt < 0 ? undefined : plainString(line, userAt + USERNAME_KEY.length);
  const tail = line.lastIndexOf(RECEIVED_KEY);
  if (stage === undefined || verb === undefined || user === undefined || tail < 0) return undefined;
  let code = 0;
  if (!BEFORE_RESPONSE.has(stage)) {
    const statusAt = line.indexOf(STATUS_KEY, userAt);
    const codeAt = statusAt < 0 || statusAt > tail ? -1 : line.indexOf(CODE_KEY, statusAt);
    code = codeAt < 0 || codeAt > tail ? 0 : integerAt(line, codeAt + CODE_KEY.length);
  }
  return { time: timesOf(line, tail), stage, verb, user, code };
}

/**
 * The audit event a line holds, or undefined when the line is no audit event (another log's
 * line, an empty line, a line cut where its fields cannot be read). Only the request's fields
 * are parsed: the text before the first body (or before the timestamps), closed with `}`.
 */
export function parseAuditLine(line: string): AuditEvent | undefined {
  const start = eventStart(line);
  if (start < 0) return undefined;
  const tail = line.lastIndexOf(RECEIVED_KEY);
  if (tail >= 0) {
    let head = tail;
    if (!line.startsWith('"level":"Metadata"', line.indexOf('"level":"', start))) {
      for (const body of BODIES) {
        const at = line.indexOf(body, start);
        if (at >= 0 && at < head) head = at;
      }
    }
    const event = eventOf(parsed(`${line.slice(start, head)}}`));
    if (event !== undefined) {
      event.time = timesOf(line, tail);
      return event;
    }
  }
  // Not in the API server's order (re-encoded by another tool): parsed whole.
  return eventOf(parsed(line.slice(start)));
}

/** `stageTimestamp`, else `requestReceivedTimestamp`, from the tail starting at `tail`. */
function timesOf(line: string, tail: number): number | undefined {
  const stageAt = line.indexOf(STAGE_TIME_KEY, tail);
  return timeOf(stageAt < 0 ? undefined : plainString(line, stageAt + STAGE_TIME_KEY.length)) ?? timeOf(plainString(line, tail + RECEIVED_KEY.length));
}

/** The JSON string starting at `from`, unescaped; undefined when it does not close. */
function plainString(line: string, from: number): string | undefined {
  const end = line.indexOf('"', from);
  if (end < 0) return undefined;
  const plain = line.slice(from, end);
  if (!plain.includes('\\')) return plain;
  // Escapes: rare in these fields; the string may go on past the quote found, JSON reads it.
  const close = /^(?:[^"\\]|\\.)*"/.exec(line.slice(from));
  if (close === null) return undefined;
  try {
    return JSON.parse(`"${close[0]}`) as string;
  } catch {
    return undefined;
  }
}

function integerAt(line: string, from: number): number {
  let value = 0;
  for (let i = from; i < line.length; i++) {
    const digit = line.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  return value;
}

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    return record(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function eventOf(event: Record<string, unknown> | undefined): AuditEvent | undefined {
  if (event === undefined || typeof event.verb !== 'string' || typeof event.stage !== 'string') return undefined;
  const user = record(event.user);
  const object = record(event.objectRef);
  const status = record(event.responseStatus);
  return {
    time: timeOf(text(event.stageTimestamp)) ?? timeOf(text(event.requestReceivedTimestamp)),
    stage: event.stage,
    verb: event.verb,
    user: text(user?.username) ?? '',
    sourceIP: Array.isArray(event.sourceIPs) ? (text(event.sourceIPs[0]) ?? '') : '',
    userAgent: text(event.userAgent) ?? '',
    resource: text(object?.resource) ?? '',
    namespace: text(object?.namespace) ?? '',
    name: text(object?.name) ?? '',
    subresource: text(object?.subresource) ?? '',
    apiGroup: text(object?.apiGroup) ?? '',
    code: typeof status?.code === 'number' ? status.code : 0,
  };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The day of the last time read (`2026-03-14`) and its start in ms: the lines of a file share a few days. */
let lastDay = '';
let lastDayMs = NaN;

/** `2026-03-14T08:40:03.512000Z` (the API server's form) read by its digits; any other form by `Date.parse`. */
function timeOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (text.length >= 21 && text.length <= 30 && text.charCodeAt(10) === 84 /* T */ && text.charCodeAt(19) === 46 /* . */ && text.charCodeAt(text.length - 1) === 90 /* Z */) {
    const day = text.slice(0, 10);
    if (day !== lastDay) {
      lastDay = day;
      lastDayMs = Date.parse(`${day}T00:00:00Z`);
    }
    const fraction = Math.min(3, text.length - 21);
    const ms = lastDayMs + ((digits(text, 11, 13) * 60 + digits(text, 14, 16)) * 60 + digits(text, 17, 19)) * 1000 + digits(text, 20, 20 + fraction) * 10 ** (3 - fraction);
    if (Number.isFinite(ms)) return ms;
  }
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The number written in `text` from `from` to `to`; NaN unless all are digits. */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return NaN;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Splits a stream of chunks into lines for `parseAuditLine`. A line longer than `maxLineBytes`
 * (a large request body) keeps its first `maxLineBytes` bytes and its last {@link TAIL_BYTES}:
 * the request's fields and the timestamps are there, the bodies between are not needed. Lines
 * are found in the bytes and decoded one by one (decoding whole chunks and cutting the text
 * costs ten times more).
 */
export class AuditLineSplitter {
  /** The start of a line continued in the next chunk. */
  private carry: Buffer | undefined;
  /** The end of an over-long line, while its middle is skipped. */
  private tail: Buffer | undefined;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineBytes: number,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) break;
      if (this.carry === undefined && nl - start <= this.maxLineBytes) this.onLine(chunk.toString('utf8', start, nl));
      else this.finish(chunk.subarray(start, nl));
      start = nl + 1;
    }
    if (start < chunk.length) this.hold(chunk.subarray(start));
  }

  end(): void {
    if (this.carry !== undefined) this.finish(Buffer.alloc(0));
  }

  private hold(rest: Buffer): void {
    if (this.tail !== undefined) {
      this.tail = lastBytes(Buffer.concat([this.tail, rest]), TAIL_BYTES);
      return;
    }
    // Copied: the chunk it is part of is not kept for one line's start.
    const carried = this.carry ? Buffer.concat([this.carry, rest]) : Buffer.from(rest);
    if (carried.length > this.maxLineBytes) {
      this.tail = lastBytes(carried.subarray(this.maxLineBytes), TAIL_BYTES);
      this.carry = carried.subarray(0, this.maxLineBytes);
    } else {
      this.carry = carried;
    }
  }

  private finish(end: Buffer): void {
    const head = this.carry ?? Buffer.alloc(0);
    let line: Buffer;
    if (this.tail !== undefined) {
      line = Buffer.concat([head, lastBytes(Buffer.concat([this.tail, end]), TAIL_BYTES)]);
    } else {
      line = Buffer.concat([head, end]);
      if (line.length > this.maxLineBytes) line = Buffer.concat([line.subarray(0, this.maxLineBytes), lastBytes(line, TAIL_BYTES)]);
    }
    this.carry = undefined;
    this.tail = undefined;
    this.onLine(line.toString('utf8'));
  }
}

function lastBytes(bytes: Buffer, count: number): Buffer {
  return bytes.length > count ? bytes.subarray(bytes.length - count) : bytes;
}

/** Bytes kept of the end of an over-long line: the timestamps and annotations (a few hundred). */
const TAIL_BYTES = 4096;
