/**
 * The unrecognised-errors digest: every failure line of every log (see `patterns.ts`) folded
 * into templates per component, counted, with first and last time, files and real examples.
 * Memory is bounded whatever the archive: templates per component and in all, files listed and
 * examples kept per template are capped; lines past a cap are counted, not folded.
 */
import type { Need, ParallelConsumer } from '../ingest/consumer.js';
import type { ClassifiedEntry } from '../layout/types.js';
import { parseLogLine } from '../parsers/logline.js';
import { LiteralScanner, type ScannedLine } from '../parsers/scan.js';
import { failureLine, failureLiterals, type FailureLine, type PatternName } from './patterns.js';
import { maskMessage, templateId } from './template.js';
import { bestTemplate, generalize, tokenCount, tokenize } from './drain.js';

export interface DigestLimits {
  /** Distinct templates kept per component. */
  templatesPerComponent: number;
  /** Distinct templates kept in all. */
  templates: number;
  /** Files listed per template (the others are counted). */
  filesPerTemplate: number;
  /** Example lines kept per template (one is shown; the others stand in when it is explained). */
  examplesPerTemplate: number;
}

export const DIGEST_LIMITS: DigestLimits = { templatesPerComponent: 200, templates: 2000, filesPerTemplate: 5, examplesPerTemplate: 3 };

const FAILURE_LITERALS = failureLiterals();

/** Longest example text kept (as for rule evidence). */
const MAX_EXAMPLE_TEXT = 2000;

/**
 * Lines without a year (journal, bare klog) are timed in the year 2000 (a leap year, so 29
 * February parses) and moved next to the collection time at the end, once it is known.
 */
const YEARLESS_REFERENCE = Date.UTC(2000, 11, 31);

export interface DigestExample {
  file: string;
  line: number;
  /** Epoch ms. */
  time?: number | undefined;
  /** The raw line (with its prefix), cut at 2000 characters. */
  text: string;
}

export interface DigestTemplate {
  /** Stable id of component + template (`mgsift rules new --from <id>`). */
  id: string;
  component: string;
  pattern: PatternName;
  /** The lines' level as they write it: `E`/`F` (klog), `error`, `ERROR`, `panic`, ... */
  level: string;
  template: string;
  count: number;
  /** Epoch ms of the first and last line with a time. */
  first?: number | undefined;
  last?: number | undefined;
  /** Files with most lines first, capped; `moreFiles` counts the others. */
  files: { path: string; count: number }[];
  moreFiles: number;
  example: DigestExample;
}

export interface DigestComponent {
  name: string;
  /** Failure lines folded into this component's templates. */
  count: number;
  /** Most lines first. */
  templates: DigestTemplate[];
  /** Failure lines not folded: the template caps were reached. */
  unfolded: number;
}

export interface Digest {
  /** Failure lines seen, explained ones included. */
  lines: number;
  /** Failure lines that are evidence of a finding, left out of the templates. */
  explained: number;
  /** Components with most lines first. */
  components: DigestComponent[];
}

/** A template with its lines in the window before the collection (`recentTemplates`). */
export interface RecentTemplate extends DigestTemplate {
  recent: {
    /** Lines (with a year) in the window. */
    count: number;
    /** Epoch ms: the start of the minute of its first line in the window, the end of the minute of its last. */
    from: number;
    to: number;
    /** Minutes of the window with a line. */
    minutes: number;
  };
}

/** A log line some finding holds as evidence (same file and line: that line is explained). */
export interface ExplainedLine {
  file: string;
  line: number;
  text: string;
}

/** Earliest and latest time seen. */
interface Span {
  first: number;
  last: number;
}

interface TemplateState {
  component: string;
  pattern: PatternName;
  level: string;
  site: string | undefined;
  /** The masked message as tokens and blanks (see `drain.ts`); tokens become wildcards as lines join. */
  parts: string[];
  count: number;
  /** Lines per listed file. */
  files: Map<string, number>;
  /** Distinct files, listed or not (entries are read one after the other, so a new file is a new path). */
  fileCount: number;
  lastFile: string;
  /** Times of lines with a year, and of yearless lines (in the year 2000, placed at the end). */
  dated: Span | undefined;
  yearless: Span | undefined;
  examples: (DigestExample & { yearless: boolean })[];
  /** Lines with a year per minute (epoch ms / 60 000), the latest {@link MINUTES_KEPT} minutes of the template: how often it repeats near the collection. */
  minutes: Map<number, number>;
}

interface ComponentState {
  /** Templates by pattern, level, call site and token count: the lines that may join them. */
  groups: Map<string, TemplateState[]>;
  /** Masked messages already placed (a cache in front of the group scan, capped). */
  placed: Map<string, TemplateState>;
  size: number;
  unfolded: number;
}

/**
 * Minutes of lines kept per template, counted back from its latest line: the window rules read
 * (`log.templates`, the 30 minutes before the collection) with room for logs gathered a while
 * after the collection time was written.
 */
const MINUTES_KEPT = 90;

/** Messages whose mask is remembered (the cache is emptied when full). */
const MASK_CACHE_SIZE = 4096;

/** Masked messages remembered per component, as a multiple of its template cap. */
const PLACED_PER_TEMPLATE = 4;

/** Which log entries the digest reads: container and host logs, but not audit logs (no levels). */
export function digestsEntry(entry: ClassifiedEntry): boolean {
  if (entry.kind !== 'pod-log' && entry.kind !== 'host-log') return false;
  return entry.rule !== 'ge-audit-log' && entry.service !== 'audit';
}

/**
 * Where a line came from: `namespace/container` for container logs, `host/<service>` for host
 * logs (one component across nodes; the files say which node), the file name for a bare log.
 */
export function componentOf(entry: ClassifiedEntry): string {
  const base = entry.path.slice(entry.path.lastIndexOf('/') + 1);
  if (entry.kind === 'host-log') return `host/${entry.service ?? entry.name ?? base}`;
  if (entry.namespace !== undefined && entry.container !== undefined) return `${entry.namespace}/${entry.container}`;
  return entry.container ?? entry.name ?? base;
}

/**
 * One failure line as read (see {@link ParallelConsumer}): reading, parsing and masking may run
 * in a worker; folding into templates runs on the main thread in archive order, as Drain's
 * templates depend on the order lines come in.
 */
export interface FailureSeen {
  file: string;
  component: string;
  failure: FailureLine;
  masked: string;
  lineNo: number;
  raw: string;
  time: number | undefined;
  /** The time was computed in the reference year (the line has none). */
  yearless: boolean;
}

/**
 * One entry's failure lines as a worker hands them over: each distinct kind (pattern, level,
 * call site, masked message) once, and per line four numbers. A kind's fourth line on needs no
 * text: lines of one kind in one file join the same template, which holds its examples by then.
 */
export interface FailuresTaken {
  file: string;
  component: string;
  kinds: { failure: FailureLine; masked: string }[];
  /** Per line: kind index, line number, time (NaN: none), 1 when the time is yearless. */
  lines: number[];
  /** Per line: the raw text, or '' when not needed. */
  raws: string[];
}

export class DigestCollector implements ParallelConsumer<FailuresTaken | undefined> {
  private readonly components = new Map<string, ComponentState>();
  private readonly fileComponents = new Map<string, string>();
  private templateCount = 0;
  private logsSeen = 0;
  private lines = 0;
  /** Latest time with a year seen, the reference for yearless lines when the archive has no collection time. */
  private latest: number | undefined;
  private current: { entry: ClassifiedEntry; component: string; scanner: LiteralScanner<PatternName> } | undefined;
  /** Recent messages and their masks: many lines repeat their message exactly. */
  private readonly masks = new Map<string, string>();
  /**
   * Where each kind of line of the file being folded went (null: not folded, the caps were
   * reached); at most {@link kindsPerFile} kinds, so one file of all-different lines stays bounded.
   */
  private inFile: { file: string; kinds: Map<string, TemplateState | null> } = { file: '', kinds: new Map() };
  /** In a worker: the current entry's failure lines, for the main thread, and its kinds by key. */
  private taken: { lines: FailuresTaken | undefined; kinds: Map<string, { index: number; count: number }> } | undefined;

  constructor(
    private readonly maxLineBytes: number,
    private readonly limits: DigestLimits = DIGEST_LIMITS,
  ) {}

  /** Kinds of line remembered per file (here and, in a worker, per entry): as many as the placement cache holds. */
  private get kindsPerFile(): number {
    return this.limits.templatesPerComponent * PLACED_PER_TEMPLATE;
  }

  need(entry: ClassifiedEntry): Need | undefined {
    if (!digestsEntry(entry)) return undefined;
    this.logsSeen++;
    return { text: true };
  }

  /** Whether any log was offered: without one, what repeats in the logs is unknown. */
  get readLogs(): boolean {
    return this.logsSeen > 0;
  }

  text(chunk: Buffer, entry: ClassifiedEntry): void {
    if (this.current?.entry !== entry) {
      const component = componentOf(entry);
      const scanner = new LiteralScanner(FAILURE_LITERALS, [], this.maxLineBytes, (line) => this.onLine(line, entry.path, component));
      this.current = { entry, component, scanner };
    }
    this.current.scanner.push(chunk);
  }

  endText(entry: ClassifiedEntry): void {
    if (this.current?.entry === entry) this.current.scanner.end();
    this.current = undefined;
  }

  private onLine(scanned: ScannedLine<PatternName>, file: string, component: string): void {
    const line = parseLogLine(scanned.text, scanned.lineNo, { referenceTime: YEARLESS_REFERENCE });
    const failure = failureLine(line);
    if (!failure) return;
    let masked = this.masks.get(failure.message);
    if (masked === undefined) {
      if (this.masks.size >= MASK_CACHE_SIZE) this.masks.clear();
      this.masks.set(failure.message, (masked = maskMessage(failure.message)));
    }
    const time = line.time;
    const yearless = time !== undefined && (line.journal?.yearFrom ?? line.klog?.yearFrom) === 'reference';
    if (this.taken) this.takeLine(this.taken, { file, component, failure, masked, lineNo: line.lineNo, raw: line.raw, time, yearless });
    else this.fold({ file, component, failure, masked, lineNo: line.lineNo, raw: line.raw, time, yearless });
  }

  keepEntriesApart(): void {
    this.taken = { lines: undefined, kinds: new Map() };
  }

  takeEntry(): FailuresTaken | undefined {
    if (!this.taken) return undefined;
    const lines = this.taken.lines;
    this.taken = { lines: undefined, kinds: new Map() };
    return lines;
  }

  /** Each line folded as if read here: placement runs again for every line, in order. */
  mergeEntry(taken: FailuresTaken | undefined): void {
    if (!taken) return;
    const { file, component, kinds, lines, raws } = taken;
    for (let i = 0, n = 0; i < lines.length; i += 4, n++) {
      const kind = kinds[lines[i]!]!;
      const time = lines[i + 2]!;
      this.fold({ file, component, failure: kind.failure, masked: kind.masked, lineNo: lines[i + 1]!, raw: raws[n]!, time: Number.isNaN(time) ? undefined : time, yearless: lines[i + 3] === 1 });
    }
  }

  private takeLine(taken: NonNullable<DigestCollector['taken']>, seen: FailureSeen): void {
    const lines = (taken.lines ??= { file: seen.file, component: seen.component, kinds: [], lines: [], raws: [] });
    const key = placementKey(seen.failure, seen.masked);
    let kind = taken.kinds.get(key);
    if (!kind) {
      kind = { index: lines.kinds.length, count: 0 };
      // Past the per-file cap the main thread places each such line anew (see `fold`): it is
      // sent with its text, as a kind of its own.
      if (taken.kinds.size < this.kindsPerFile) taken.kinds.set(key, kind);
      lines.kinds.push({ failure: seen.failure, masked: seen.masked });
    }
    kind.count++;
    lines.lines.push(kind.index, seen.lineNo, seen.time ?? NaN, seen.yearless ? 1 : 0);
    lines.raws.push(kind.count <= this.limits.examplesPerTemplate ? seen.raw : '');
  }

  private fold(seen: FailureSeen): void {
    const { file, component } = seen;
    this.lines++;
    this.fileComponents.set(file, component);
    let owner = this.components.get(component);
    if (!owner) this.components.set(component, (owner = { groups: new Map(), placed: new Map(), size: 0, unfolded: 0 }));
    const key = placementKey(seen.failure, seen.masked);
    if (this.inFile.file !== file) this.inFile = { file, kinds: new Map() };
    // Within one file, lines of one kind go where the first went (the masked-message cache
    // below can be full): a worker relies on it to send a kind's text only while it may be an example.
    let state = this.inFile.kinds.get(key);
    if (state === undefined) {
      state = this.place(owner, component, seen.failure, seen.masked, key) ?? null;
      if (this.inFile.kinds.size < this.kindsPerFile) this.inFile.kinds.set(key, state);
    }
    if (state) this.add(state, seen);
    else owner.unfolded++;
  }

  /**
   * The template a failure line joins (generalizing it when needed), or a new one while the
   * caps allow; undefined when they do not.
   */
  private place(owner: ComponentState, component: string, failure: FailureLine, masked: string, key: string): TemplateState | undefined {
    const placed = owner.placed.get(key);
    if (placed) return placed;
    const parts = tokenize(masked);
    const group = groupKey(failure, parts);
    let state = bestTemplate(owner.groups.get(group) ?? [], parts);
    if (state) {
      generalize(state.parts, parts);
    } else {
      if (owner.size >= this.limits.templatesPerComponent || this.templateCount >= this.limits.templates) return undefined;
      state = { component, pattern: failure.pattern, level: failure.level, site: failure.site, parts, count: 0, files: new Map(), fileCount: 0, lastFile: '', dated: undefined, yearless: undefined, examples: [], minutes: new Map() };
      const members = owner.groups.get(group);
      if (members) members.push(state);
      else owner.groups.set(group, [state]);
      owner.size++;
      this.templateCount++;
    }
    if (owner.placed.size < this.limits.templatesPerComponent * PLACED_PER_TEMPLATE) owner.placed.set(key, state);
    return state;
  }

  private add(state: TemplateState, line: FailureSeen): void {
    const { file, time, yearless } = line;
    state.count++;
    if (state.lastFile !== file) {
      state.fileCount++;
      state.lastFile = file;
    }
    if (time !== undefined) {
      if (yearless) state.yearless = widen(state.yearless, time);
      else {
        state.dated = widen(state.dated, time);
        if (this.latest === undefined || time > this.latest) this.latest = time;
        countMinute(state, time);
      }
    }
    const lines = state.files.get(file);
    if (lines !== undefined) state.files.set(file, lines + 1);
    else if (state.files.size < this.limits.filesPerTemplate) state.files.set(file, 1);
    if (state.examples.length < this.limits.examplesPerTemplate) {
      const text = line.raw.length > MAX_EXAMPLE_TEXT ? `${line.raw.slice(0, MAX_EXAMPLE_TEXT)}…` : line.raw;
      state.examples.push({ file, line: line.lineNo, time, yearless, text });
    }
  }

  /**
   * The digest, without the explained lines. A line is explained when a finding holds it as
   * evidence (same file and line); evidence a rule did not keep (past its `maxEvidence`) is not
   * known by line, so those lines stay in the digest. Counts and files leave explained lines
   * out; first and last times do not (they are not kept per line). Yearless times are placed
   * by `referenceTime` (the collection time), else by the latest dated line.
   */
  digest(explained: readonly ExplainedLine[], referenceTime?: number): Digest {
    const explainedCount = this.subtract(explained);
    const reference = referenceTime ?? this.latest;
    const components: DigestComponent[] = [];
    for (const [name, owner] of this.components) {
      const templates: DigestTemplate[] = [];
      for (const group of owner.groups.values()) for (const state of group) if (state.count > 0) templates.push(templateOf(state, reference));
      templates.sort((a, b) => b.count - a.count || compare(a.template, b.template));
      const count = templates.reduce((n, t) => n + t.count, 0);
      if (count + owner.unfolded > 0) components.push({ name, count, templates, unfolded: owner.unfolded });
    }
    components.sort((a, b) => b.count + b.unfolded - (a.count + a.unfolded) || compare(a.name, b.name));
    return { lines: this.lines, explained: explainedCount, components };
  }

  /**
   * The templates with lines (with a year) from `from` to `to` (epoch ms; the window before the
   * collection), most such lines first: what repeats near the collection, whatever rules
   * explain. Undefined when no log was read.
   */
  recentTemplates(from: number, to: number): RecentTemplate[] | undefined {
    if (!this.readLogs) return undefined;
    const first = Math.floor(from / 60_000);
    const last = Math.floor(to / 60_000);
    const recent: RecentTemplate[] = [];
    for (const owner of this.components.values()) {
      for (const group of owner.groups.values()) {
        for (const state of group) {
          let count = 0;
          const minutes: number[] = [];
          for (const [minute, lines] of state.minutes) {
            if (minute < first || minute > last) continue;
            count += lines;
            minutes.push(minute);
          }
          if (count === 0) continue;
          recent.push({ ...templateOf(state, to), recent: { count, from: Math.min(...minutes) * 60_000, to: (Math.max(...minutes) + 1) * 60_000, minutes: minutes.length } });
        }
      }
    }
    return recent.sort((a, b) => b.recent.count - a.recent.count || compare(a.id, b.id));
  }

  /** Takes explained lines out of their templates; returns how many were failure lines. */
  private subtract(explained: readonly ExplainedLine[]): number {
    const seen = new Set<string>();
    let count = 0;
    for (const item of explained) {
      const key = `${item.file}\n${item.line}`;
      const component = this.fileComponents.get(item.file);
      if (component === undefined || seen.has(key)) continue;
      seen.add(key);
      const failure = failureLine(parseLogLine(item.text, item.line));
      const owner = this.components.get(component);
      const state = failure && owner ? find(owner, failure) : undefined;
      if (!state || state.count === 0) continue;
      count++;
      state.count--;
      const lines = state.files.get(item.file);
      if (lines === 1) {
        state.files.delete(item.file);
        state.fileCount--;
      } else if (lines !== undefined) {
        state.files.set(item.file, lines - 1);
      }
      // An explained example goes last: the one shown is unexplained while there is one.
      const isItem = (e: DigestExample): boolean => e.file === item.file && e.line === item.line;
      state.examples = [...state.examples.filter((e) => !isItem(e)), ...state.examples.filter(isItem)];
    }
    return count;
  }
}

/** A template as the digest gives it: times placed, files most lines first, the first unexplained example. */
function templateOf(state: TemplateState, reference: number | undefined): DigestTemplate {
  const files = [...state.files].map(([path, count]) => ({ path, count })).sort((a, b) => b.count - a.count || compare(a.path, b.path));
  const placed = state.yearless && reference !== undefined ? { first: nearYear(state.yearless.first, reference), last: nearYear(state.yearless.last, reference) } : undefined;
  const times = [state.dated, placed].filter((span): span is Span => span !== undefined);
  const { yearless, ...example } = state.examples[0]!;
  if (yearless) example.time = example.time !== undefined && reference !== undefined ? nearYear(example.time, reference) : undefined;
  const message = state.parts.join('');
  const template = state.site !== undefined ? `${state.site}] ${message}` : message;
  return {
    id: templateId(state.component, template),
    component: state.component,
    pattern: state.pattern,
    level: state.level,
    template,
    count: state.count,
    first: times.length > 0 ? Math.min(...times.map((t) => t.first)) : undefined,
    last: times.length > 0 ? Math.max(...times.map((t) => t.last)) : undefined,
    files,
    moreFiles: Math.max(0, state.fileCount - state.files.size),
    example,
  };
}

/** What a masked message is remembered by: lines of one kind and call site with this message. */
function placementKey(failure: FailureLine, masked: string): string {
  return `${failure.pattern}\0${failure.level}\0${failure.site ?? ''}\0${masked}`;
}

/** The templates a message may join: same kind, call site and token count. */
function groupKey(failure: FailureLine, parts: readonly string[]): string {
  return `${failure.pattern}\0${failure.level}\0${failure.site ?? ''}\0${tokenCount(parts)}`;
}

/** The template a failure line was folded into, if any (nothing is changed). */
function find(owner: ComponentState, failure: FailureLine): TemplateState | undefined {
  const masked = maskMessage(failure.message);
  const parts = tokenize(masked);
  return owner.placed.get(placementKey(failure, masked)) ?? bestTemplate(owner.groups.get(groupKey(failure, parts)) ?? [], parts);
}

/** One more line in its minute; minutes older than {@link MINUTES_KEPT} before the template's latest line are dropped. */
function countMinute(state: TemplateState, time: number): void {
  const minute = Math.floor(time / 60_000);
  state.minutes.set(minute, (state.minutes.get(minute) ?? 0) + 1);
  if (state.minutes.size <= MINUTES_KEPT * 2) return;
  const oldest = Math.floor(state.dated!.last / 60_000) - MINUTES_KEPT;
  for (const kept of state.minutes.keys()) if (kept < oldest) state.minutes.delete(kept);
}

function widen(span: Span | undefined, time: number): Span {
  if (!span) return { first: time, last: time };
  if (time < span.first) span.first = time;
  if (time > span.last) span.last = time;
  return span;
}

/** A time computed in the year 2000 moved to the latest year that does not put it after `reference` (+ 1 day). */
function nearYear(time: number, reference: number): number {
  const limit = reference + 86_400_000;
  const date = new Date(time);
  let year = new Date(reference).getUTCFullYear();
  date.setUTCFullYear(year);
  while (date.getTime() > limit) date.setUTCFullYear(--year);
  return date.getTime();
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
