import { JOURNAL_BANNER_RE, journalPrefixLength, klogHeaderEnd, prefixLength } from './logline.js';

/** Non-empty lines looked at: enough to see a log's shape, few enough to decide fast. */
const SAMPLE_LINES = 200;
/** Bytes looked at, for files whose lines are very long (or that have none). */
const SAMPLE_BYTES = 1024 * 1024;
/** Share of the sampled lines that must carry a log header (the rest: stack traces, wrapped text). */
const MIN_SHARE = 0.2;

/** `time="2021-08-03T09:28:09Z" level=info msg=…` (logrus, as the installer and some operators write). */
const LOGFMT_TIME = /^time="\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d/;
/** An RFC 3339 time with its `T`, then a tab or space: zap's console format, Go's log package with RFC 3339. */
const RFC3339_THEN_FIELD = /^\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:[Zz]|[+-]\d\d:?\d\d)?[\t ]/;
/** What the Go runtime writes when a program dies: `panic: …`, `fatal error: …`, `goroutine 1 [running]:`. */
const GO_RUNTIME = /^(?:panic: |fatal error: |goroutine \d+ \[)/;
/** A JSON log record (zap, klog's JSON format): an object with a time or level key. */
const JSON_RECORD = /^\{.*"(?:ts|time|timestamp|level)"\s*:/;

/**
 * Whether a line begins as a log line does. What counts (see `README.md`, Inputs):
 * - an RFC 3339 time, the kubelet / CRI prefix (`2021-08-03T09:28:09.655Z [stdout F] …`);
 * - a klog header (`I0803 09:28:09.655711       1 sync_worker.go:602] …`);
 * - a journal prefix (`Aug 03 09:10:41 host kubelet[1234]: …`) or journalctl's `-- Logs begin at … --`;
 * - an RFC 3339 time then a tab (zap's console format);
 * - a logrus `time="…"` field first, or a JSON record with a `ts`/`time`/`level` key;
 * - the Go runtime's `panic:`, `fatal error:` or `goroutine N [` lines.
 * A time without the `T` (`2021-08-03 09:10:11,123 INFO`, Python's default) is not enough: that is
 * how a sosreport's own sos.log begins, and a sosreport is no cluster archive.
 */
export function looksLikeLogLine(line: string): boolean {
  return (
    prefixLength(line) > 0 ||
    klogHeaderEnd(line) >= 0 ||
    journalPrefixLength(line) > 0 ||
    JOURNAL_BANNER_RE.test(line) ||
    RFC3339_THEN_FIELD.test(line) ||
    GO_RUNTIME.test(line) ||
    LOGFMT_TIME.test(line) ||
    JSON_RECORD.test(line)
  );
}

/**
 * Decides from a file's first lines whether it is a log: some of its first 200 non-empty lines
 * (within its first MB) begin with a log header, and they are at least a fifth of them. Random
 * bytes, a text file named `.tar.gz`, an empty file or a YAML document are no log.
 */
export class LogShape {
  private lines = 0;
  private logLines = 0;
  private bytes = 0;
  private partial = '';

  /** Feeds the next chunk of the file; cheap once the sample is full. */
  push(chunk: Buffer): void {
    if (this.full()) return;
    const take = chunk.subarray(0, SAMPLE_BYTES - this.bytes);
    this.bytes += take.length;
    const parts = (this.partial + take.toString('utf8')).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.count(line);
    if (this.bytes >= SAMPLE_BYTES) this.end();
  }

  /** The file ended: its last line counts too. */
  end(): void {
    if (this.partial !== '') this.count(this.partial);
    this.partial = '';
  }

  isLog(): boolean {
    return this.logLines > 0 && this.logLines >= MIN_SHARE * this.lines;
  }

  private full(): boolean {
    return this.lines >= SAMPLE_LINES || this.bytes >= SAMPLE_BYTES;
  }

  private count(raw: string): void {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '' || this.lines >= SAMPLE_LINES) return;
    this.lines++;
    if (looksLikeLogLine(line)) this.logLines++;
  }
}
