/**
 * Loads the update risks that OpenShift publishes as data: `blocked-edges/*.yaml` of
 * openshift/cincinnati-graph-data, read from a checkout the user points at (never fetched).
 *
 * Each file blocks the edges *to* one release (`to`) *from* releases matching `from` (a regular
 * expression matched against the whole version, as Cincinnati anchors it). A file with `name`,
 * `url`, `message` and `matchingRules` declares a conditional risk (the cluster decides whether
 * it applies); a file with none of these is an unconditional block (the edge is not served).
 */
import { readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { isRecord, recordAt, stringAt } from '../facts/internal.js';
import { parseEdgeYaml } from './edge-yaml.js';
import { parsePromql, PromqlError, selectedMetrics, type Expr } from '../promql/index.js';

export type MatchingRule = { type: 'Always' } | { type: 'PromQL'; promql: string } | { type: 'unknown'; name: string };

export interface BlockedEdge {
  /** File name inside `blocked-edges/`. */
  file: string;
  to: string;
  /** The `from` regex as written. */
  from: string;
  fromRegex: RegExp;
  /** Absent for an unconditional block. */
  name?: string | undefined;
  url?: string | undefined;
  message?: string | undefined;
  fixedIn?: string | undefined;
  matchingRules: MatchingRule[];
}

export interface RiskData {
  /** The folder the files came from. */
  dir: string;
  edges: BlockedEdge[];
  /** Files that could not be read, with why. */
  problems: { file: string; reason: string }[];
  /** Distinct PromQL queries parsed so far (or why they cannot be): filled as risks are evaluated. */
  queries: Map<string, Expr | PromqlError>;
  /** The metric names the queries may read (a superset: every name-like word of their text; see `metricsNamed`). */
  metrics: string[];
}

/** `DIR` may be a cincinnati-graph-data checkout or its `blocked-edges/` folder. */
export async function loadRiskData(dir: string): Promise<RiskData> {
  const folder = await blockedEdgesFolder(dir);
  const names = (await readdir(folder)).filter((n) => n.endsWith('.yaml') || n.endsWith('.yml'));
  // Read one after another: some 1,700 small files cost a tenth of the CPU this way that as many promises do.
  return riskDataOf(folder, names.map((file) => ({ file, text: () => readFileSync(join(folder, file), 'utf8') })));
}

/** The edges of blocked-edges files however they are held (a folder, or the single file's embedded fixtures). */
export async function riskDataOf(dir: string, files: { file: string; text: () => Promise<string> | string }[]): Promise<RiskData> {
  const edges: BlockedEdge[] = [];
  const problems: RiskData['problems'] = [];
  await Promise.all(
    files.map(async ({ file, text }) => {
      try {
        const edge = parseBlockedEdge(file, await text());
        if (typeof edge === 'string') problems.push({ file, reason: edge });
        else edges.push(edge);
      } catch (err) {
        problems.push({ file, reason: (err as Error).message.split('\n')[0] ?? 'unreadable' });
      }
    }),
  );
  edges.sort((a, b) => a.file.localeCompare(b.file));
  problems.sort((a, b) => a.file.localeCompare(b.file));
  // Queries are parsed when first evaluated: most are on edges that never touch the archive's cluster.
  const queries = new Map<string, Expr | PromqlError>();
  const texts = new Set<string>();
  for (const edge of edges) for (const rule of edge.matchingRules) if (rule.type === 'PromQL') texts.add(rule.promql);
  return { dir, edges, problems, queries, metrics: metricsNamed(texts, queries) };
}

const NAME = /[a-zA-Z_:][a-zA-Z0-9_:]*/g;
const ALL_KINDS = 'apiserver_storage_objects';

/**
 * The metric names the queries may read, without parsing them all: every name-like word of
 * their text (label names, functions and words in strings too — reading more than needed changes
 * no verdict). `apiserver_storage_objects` alone makes the metrics read every kind, so it is
 * kept only when a query that parses selects it (parsed here, into `queries`).
 */
function metricsNamed(texts: ReadonlySet<string>, queries: Map<string, Expr | PromqlError>): string[] {
  const names = new Set<string>();
  const counting: string[] = [];
  for (const text of texts) {
    for (const word of text.match(NAME) ?? []) {
      if (word === ALL_KINDS) counting.push(text);
      else names.add(word);
    }
  }
  for (const text of counting) {
    let expr = queries.get(text);
    if (!expr) queries.set(text, (expr = parseQuery(text)));
    // A query that does not parse reads nothing (it cannot be evaluated).
    if (!(expr instanceof PromqlError) && selectedMetrics(expr, new Set()).has(ALL_KINDS)) {
      names.add(ALL_KINDS);
      break;
    }
  }
  return [...names].sort();
}

/** A query parsed, or why it cannot be evaluated. */
export function parseQuery(query: string): Expr | PromqlError {
  try {
    return parsePromql(query);
  } catch (err) {
    return err instanceof PromqlError ? err : new PromqlError(String(err));
  }
}

async function blockedEdgesFolder(dir: string): Promise<string> {
  const inner = join(dir, 'blocked-edges');
  if (await isDirectory(inner)) return inner;
  if (await isDirectory(dir)) return dir;
  throw new Error(`${dir}: not a cincinnati-graph-data checkout or its blocked-edges folder`);
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** One file's text → the edge it blocks, or why it cannot be read. */
export function parseBlockedEdge(file: string, text: string): BlockedEdge | string {
  const doc: unknown = parseEdgeYaml(text) ?? yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA });
  if (!isRecord(doc)) return 'not a YAML map';
  const to = scalar(doc['to']);
  const from = scalar(doc['from']);
  if (!to || !from) return 'needs `to` and `from`';
  let fromRegex: RegExp;
  try {
    fromRegex = new RegExp(`^(?:${from})$`);
  } catch {
    return `invalid from regex ${JSON.stringify(from)}`;
  }
  const rules = Array.isArray(doc['matchingRules']) ? doc['matchingRules'] : [];
  const matchingRules: MatchingRule[] = rules.map((rule): MatchingRule => {
    const type = stringAt(rule, 'type') ?? '';
    if (type === 'Always') return { type: 'Always' };
    const promql = stringAt(recordAt(rule, 'promql'), 'promql');
    if (type === 'PromQL' && promql) return { type: 'PromQL', promql };
    return { type: 'unknown', name: type || '(no type)' };
  });
  return {
    file,
    to,
    from,
    fromRegex,
    name: stringAt(doc, 'name'),
    url: stringAt(doc, 'url'),
    message: stringAt(doc, 'message')?.trim(),
    fixedIn: scalar(doc['fixedIn']),
    matchingRules,
  };
}

/** Scalars load as text (failsafe schema), so an unquoted `4.10` stays `4.10`. */
function scalar(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
