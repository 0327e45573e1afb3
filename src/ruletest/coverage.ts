/**
 * The pack's coverage as `rules/README.md` shows it: per domain, each rule with the data it reads
 * and where the text it matches is written upstream, generated from the rule files alone (a test
 * fails when the README's copy drifts; `npm run coverage` writes it).
 */
import type { Rule, Signal } from '../engine/rule.js';

export const COVERAGE_START = '<!-- coverage:start (generated from the rule files by `npm run coverage`; do not edit) -->';
export const COVERAGE_END = '<!-- coverage:end -->';

/** The coverage table in Markdown: a summary line, then one row per rule, by domain. */
export function coverageTable(rules: readonly Rule[]): string {
  const sorted = [...rules].sort((a, b) => a.domain.localeCompare(b.domain) || a.id.localeCompare(b.id));
  const domains = new Map<string, number>();
  for (const rule of sorted) domains.set(rule.domain, (domains.get(rule.domain) ?? 0) + 1);
  const summary = `${rules.length} rules in ${domains.size} domains: ${[...domains].map(([d, n]) => `${d} ${n}`).join(', ')}.`;
  const rows = sorted.map((r) => `| ${r.domain} | \`${r.id}\` | ${r.severity} | ${cell(readsOf(r))} | ${cell(textSourceOf(r))} |`);
  return [summary, '', '| Domain | Rule | Severity | Reads | Text from |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** The README with its coverage section replaced; undefined when the markers are missing. */
export function withCoverage(readme: string, table: string): string | undefined {
  const start = readme.indexOf(COVERAGE_START);
  const end = readme.indexOf(COVERAGE_END);
  if (start === -1 || end < start) return undefined;
  return `${readme.slice(0, start + COVERAGE_START.length)}\n${table}\n${readme.slice(end)}`;
}

function readsOf(rule: Rule): string {
  return [...new Set(rule.signals.map(describeSignal))].join('; ');
}

function describeSignal(signal: Signal): string {
  switch (signal.type) {
    case 'resource':
      return `${signal.kinds.join(', ')}${signal.namespace ? ` in ${signal.namespace}` : ''}`;
    case 'event':
      return `events${signal.reason ? ` ${plainPattern(signal.reason.source)}` : ''}${signal.namespace ? ` in ${signal.namespace}` : ''}`;
    case 'fact':
      return `fact ${signal.fact}`;
    case 'log': {
      const where = signal.files.map((f) => (f.bare ? 'a single log' : [f.namespace, f.container].filter(Boolean).join('/') || (f.pathGlob ? `\`${f.pathGlob}\`` : 'any'))).join(', ');
      return `logs of ${where}`;
    }
  }
}

/** `^FailedScheduling$` → `FailedScheduling`: anchors say nothing in a table. */
function plainPattern(source: string): string {
  return source.replace(/^\^/, '').replace(/\$$/, '');
}

/**
 * Where the rule's text is written: the references that point at source or a bug (a file, a pull
 * request, an issue, a Bugzilla or Jira entry), else the first reference.
 */
function textSourceOf(rule: Rule): string {
  const references = rule.references.map((r) => r({}).trim()).filter((r) => r !== '');
  const sources = references.filter((r) => /github\.com\/[^/]+\/[^/]+\/(blob|tree|pull|issues|commit)\/|bugzilla\.redhat\.com|issues\.redhat\.com\/browse|access\.redhat\.com\/solutions/.test(r));
  const chosen = sources.length > 0 ? sources.slice(0, 2) : references.slice(0, 1);
  return chosen.map((url) => `[${shortName(url)}](${url})`).join(', ') || '—';
}

/** `https://github.com/openshift/oc/blob/master/pkg/cli/x.go` → `openshift/oc x.go`. */
function shortName(url: string): string {
  const github = /github\.com\/([^/]+\/[^/]+)(?:\/(?:blob|tree)\/[^/]+\/(?:.*\/)?([^/#?]+))?(?:\/(pull|issues|commit)\/([^/#?]+))?/.exec(url);
  if (github) return [github[1], github[2], github[3] ? `${github[3]} ${github[4]}` : undefined].filter(Boolean).join(' ');
  const bug = /(?:show_bug\.cgi\?id=|browse\/)([A-Z]*-?\d+)/.exec(url);
  if (bug) return bug[1]!.includes('-') ? bug[1]! : `BZ ${bug[1]}`;
  return url.replace(/^https?:\/\//, '').split('/')[0]!;
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}
