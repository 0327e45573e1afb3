/**
 * Path → what the entry is (`classifyPath`), and paths → what the whole input is
 * (`LayoutDetector`, `detectLayout`, `findRoots`). All knowledge of path shapes lives in
 * `LAYOUT_TABLE`; this file only walks it.
 */
import { CAPTURE_FIELDS, LAYOUT_TABLE, type Evidence, type LayoutRule } from './table.js';
import type { ClassifiedEntry, EntryFormat, LayoutKind, LogStream } from './types.js';

/** `rule` of an entry no table row matched. */
export const UNMATCHED_RULE = 'unmatched';
/** `rule` of an entry whose path is longer than `MAX_PATH_LENGTH` (not tried against the table). */
export const TOO_LONG_RULE = 'too-long';
/** Longest path tried against the table (PATH_MAX on Linux); longer ones are `other`. */
export const MAX_PATH_LENGTH = 4096;

// ---------------------------------------------------------------------------------------------
// Precompiled table walk

interface CompiledRule {
  readonly rule: LayoutRule;
  readonly needleIndex: number;
  /** Capture fields the pattern actually declares, in CAPTURE_FIELDS order. */
  readonly captures: readonly (typeof CAPTURE_FIELDS)[number][];
}

const NEEDLES: string[] = [];
const COMPILED: readonly CompiledRule[] = LAYOUT_TABLE.map((rule) => {
  let needleIndex = NEEDLES.indexOf(rule.needle);
  if (needleIndex < 0) {
    needleIndex = NEEDLES.length;
    NEEDLES.push(rule.needle);
  }
  const captures = CAPTURE_FIELDS.filter((field) => rule.pattern.source.includes(`(?<${field}>`));
  return { rule, needleIndex, captures };
});

const RULES_BY_NAME: ReadonlyMap<string, LayoutRule> = new Map(LAYOUT_TABLE.map((rule) => [rule.name, rule]));

/** Per-call cache of `path.includes(needle)`: 0 = not checked, 1 = present, 2 = absent. */
const needleCache = new Uint8Array(NEEDLES.length);

const LOG_STREAMS: ReadonlySet<string> = new Set<LogStream>(['current', 'previous', 'rotated']);

function formatByExtension(path: string): EntryFormat {
  if (/\.ya?ml(?:\.gz)?$/i.test(path)) return 'yaml';
  if (/\.json(?:\.gz)?$/i.test(path)) return 'json';
  return 'text';
}

/** Root = the text before the match, without a trailing slash ('' at the top of the input). */
function rootBefore(path: string, index: number): string {
  return index > 0 && path.charCodeAt(index - 1) === 47 /* / */ ? path.slice(0, index - 1) : path.slice(0, index);
}

function unmatched(path: string, rule: string): ClassifiedEntry {
  return { kind: 'other', path, format: formatByExtension(path), rule };
}

/** The table row an entry matched (undefined for `unmatched` and `too-long`). */
export function ruleOf(entry: Pick<ClassifiedEntry, 'rule'>): LayoutRule | undefined {
  return RULES_BY_NAME.get(entry.rule);
}

/**
 * What an entry is, from its path alone. Walks `LAYOUT_TABLE` in order; the first matching row
 * wins. Never throws: any string (absolute, with `..`, empty, binary) gets a result, kind
 * `other` when no row matches.
 */
export function classifyPath(path: string): ClassifiedEntry {
  if (typeof path !== 'string' || path.length === 0) return unmatched(String(path ?? ''), UNMATCHED_RULE);
  if (path.length > MAX_PATH_LENGTH) return unmatched(path, TOO_LONG_RULE);
  needleCache.fill(0);
  for (const compiled of COMPILED) {
    let seen = needleCache[compiled.needleIndex];
    if (seen === 0) {
      seen = path.includes(NEEDLES[compiled.needleIndex] as string) ? 1 : 2;
      needleCache[compiled.needleIndex] = seen;
    }
    if (seen !== 1) continue;
    const rule = compiled.rule;
    const match = rule.pattern.exec(path);
    if (match === null) continue;
    return build(path, rule, compiled.captures, match);
  }
  return unmatched(path, UNMATCHED_RULE);
}

function build(
  path: string,
  rule: LayoutRule,
  captures: CompiledRule['captures'],
  match: RegExpExecArray,
): ClassifiedEntry {
  const entry: ClassifiedEntry = {
    kind: rule.kind,
    path,
    format: rule.format === 'by-extension' ? formatByExtension(path) : rule.format,
    rule: rule.name,
  };
  const groups = match.groups;
  if (rule.rooted) {
    const base = groups?.['base'];
    entry.root =
      base === undefined
        ? rootBefore(path, match.index)
        : path.slice(0, match.index + (match[0].charCodeAt(0) === 47 /* / */ ? 1 : 0) + base.length);
  }
  if (groups !== undefined) {
    for (const field of captures) {
      const value = groups[field];
      if (value === undefined) continue;
      if (field === 'logStream') {
        if (LOG_STREAMS.has(value)) entry.logStream = value as LogStream;
      } else {
        entry[field] = value;
      }
    }
  }
  if (rule.copy !== undefined) {
    for (const [to, from] of Object.entries(rule.copy) as [keyof typeof rule.copy, string][]) {
      const value = groups?.[from];
      if (value !== undefined && to !== 'logStream') entry[to] = value;
    }
  }
  if (rule.set !== undefined) Object.assign(entry, rule.set);
  if (rule.aliases !== undefined && entry.resource !== undefined) {
    const alias = Object.prototype.hasOwnProperty.call(rule.aliases, entry.resource)
      ? rule.aliases[entry.resource]
      : undefined;
    if (alias !== undefined) {
      entry.group = alias.group;
      entry.resource = alias.resource;
    }
  }
  return entry;
}

// ---------------------------------------------------------------------------------------------
// Layout detection

/** Layout of one gather root. */
export type RootLayout = 'must-gather' | 'inspect' | 'gather-extra';

/** One folder that holds gathered data. */
export interface GatherRoot {
  /** Path prefix of the folder inside the input, without trailing slash ('' = the input's top). */
  path: string;
  layout: RootLayout;
  /** Data entries seen below it (tree, must-gather-only and gather-extra rows). */
  entries: number;
  /** Path of its `timestamp` file, if any. */
  timestamp?: string | undefined;
  /** Path of its `version` file, if any (must-gather image folders only). */
  version?: string | undefined;
  /** Path of its `event-filter.html`, if any. */
  eventFilter?: string | undefined;
}

/** A folder holding only markers (the must-gather top folder around the image folders). */
export interface MarkerFolder {
  path: string;
  timestamp?: string | undefined;
  version?: string | undefined;
  eventFilter?: string | undefined;
}

export interface LayoutReport {
  layout: LayoutKind;
  /** Data roots, sorted by path. Several when an archive holds several image folders. */
  roots: GatherRoot[];
  /** Marker folders that are not data roots (e.g. `must-gather.local.N/` with its own `timestamp`). */
  outerFolders: MarkerFolder[];
  /** Entries seen per evidence kind (unmatched entries count as `none`). */
  evidence: Record<Evidence, number>;
  /** Entries seen in total. */
  entries: number;
}

interface RootTally {
  tree: number;
  mustGather: number;
  gatherExtra: number;
}

interface Markers {
  timestamp?: string;
  version?: string;
  eventFilter?: string;
}

/** A must-gather image folder: the image reference with every non-alphanumeric run made `-`. */
const IMAGE_FOLDER = /-sha256-[0-9a-f]{64}$|^(?:quay-io|registry-[a-z0-9-]+?-(?:io|com|org))-/;
const INSPECT_FOLDER = /^inspect\.local\.[0-9]+$/;
const MUST_GATHER_NAME = /must-gather/i;

function lastSegment(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

function parentOf(path: string): string | undefined {
  if (path === '') return undefined;
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/**
 * Decides the layout from paths given one by one (entries stream). `add` classifies and
 * returns the classification, so a caller need not classify twice; `addClassified` takes an
 * entry classified already. `report()` can be called at any time and answers for what was
 * seen so far (markers such as `timestamp` come last in real tar order, so ask at the end).
 */
export class LayoutDetector {
  private readonly tallies = new Map<string, RootTally>();
  private readonly markers = new Map<string, Markers>();
  private readonly evidence: Record<Evidence, number> = {
    tree: 0,
    'must-gather': 0,
    'gather-extra': 0,
    'root-marker': 0,
    log: 0,
    none: 0,
  };
  private total = 0;

  add(path: string): ClassifiedEntry {
    const entry = classifyPath(path);
    this.addClassified(entry);
    return entry;
  }

  /** Records a directory entry (the path may lack its trailing slash). */
  addDirectory(path: string): ClassifiedEntry {
    return this.add(path.endsWith('/') ? path : `${path}/`);
  }

  addClassified(entry: ClassifiedEntry): void {
    this.total++;
    const rule = ruleOf(entry);
    const evidence: Evidence = rule?.evidence ?? 'none';
    this.evidence[evidence]++;
    const root = entry.root;
    if (root === undefined) return;
    switch (evidence) {
      case 'tree':
        this.tally(root).tree++;
        break;
      case 'must-gather':
        this.tally(root).mustGather++;
        break;
      case 'gather-extra':
        this.tally(root).gatherExtra++;
        break;
      case 'root-marker': {
        const key: keyof Markers | undefined =
          entry.metadata === 'timestamp'
            ? 'timestamp'
            : entry.metadata === 'version'
              ? 'version'
              : entry.rule === 'event-filter'
                ? 'eventFilter'
                : undefined;
        if (key === undefined) break;
        let markers = this.markers.get(root);
        if (markers === undefined) {
          markers = {};
          this.markers.set(root, markers);
        }
        markers[key] ??= entry.path;
        break;
      }
      default:
        break;
    }
  }

  private tally(root: string): RootTally {
    let tally = this.tallies.get(root);
    if (tally === undefined) {
      tally = { tree: 0, mustGather: 0, gatherExtra: 0 };
      this.tallies.set(root, tally);
    }
    return tally;
  }

  private rootLayout(path: string, tally: RootTally): RootLayout {
    if (tally.tree === 0 && tally.mustGather === 0) return 'gather-extra';
    // Evidence only must-gather writes.
    if (tally.mustGather > 0) return 'must-gather';
    if (this.markers.get(path)?.version !== undefined) return 'must-gather';
    const name = lastSegment(path);
    if (IMAGE_FOLDER.test(name)) return 'must-gather';
    if (INSPECT_FOLDER.test(name)) return 'inspect';
    // The must-gather top folder holds a timestamp of its own around the image folders.
    const parent = parentOf(path);
    if (parent !== undefined && this.markers.get(parent)?.timestamp !== undefined) return 'must-gather';
    if (path.split('/').some((segment) => MUST_GATHER_NAME.test(segment))) return 'must-gather';
    return 'inspect';
  }

  report(): LayoutReport {
    const roots: GatherRoot[] = [];
    for (const [path, tally] of this.tallies) {
      const markers = this.markers.get(path);
      roots.push({
        path,
        layout: this.rootLayout(path, tally),
        entries: tally.tree + tally.mustGather + tally.gatherExtra,
        timestamp: markers?.timestamp,
        version: markers?.version,
        eventFilter: markers?.eventFilter,
      });
    }
    roots.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const outerFolders: MarkerFolder[] = [];
    for (const [path, markers] of this.markers) {
      if (this.tallies.has(path)) continue;
      outerFolders.push({ path, ...markers });
    }
    outerFolders.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

    let layout: LayoutKind = 'unknown';
    if (roots.some((root) => root.layout === 'must-gather')) layout = 'must-gather';
    else if (roots.some((root) => root.layout === 'inspect')) layout = 'inspect';
    else if (roots.length > 0) layout = 'gather-extra';
    else if (this.evidence.log > 0) layout = 'bare-log';

    return { layout, roots, outerFolders, evidence: { ...this.evidence }, entries: this.total };
  }

  /** Shorthand for `report().layout`. */
  layout(): LayoutKind {
    return this.report().layout;
  }
}

/** The layout of a whole input from all its paths. See `LayoutDetector` for streaming use. */
export function detectLayout(paths: Iterable<string>): LayoutKind {
  return detectLayoutReport(paths).layout;
}

/** Like `detectLayout`, with roots and evidence counts. */
export function detectLayoutReport(paths: Iterable<string>): LayoutReport {
  const detector = new LayoutDetector();
  for (const path of paths) detector.add(path);
  return detector.report();
}

/**
 * The gather roots of an input: must-gather image folders, inspect dirs, gather-extra
 * artifact folders, each with its `timestamp`/`version`/`event-filter.html` when present.
 */
export function findRoots(paths: Iterable<string>): GatherRoot[] {
  return detectLayoutReport(paths).roots;
}
