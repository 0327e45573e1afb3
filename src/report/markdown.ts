/**
 * Markdown report (GitHub-flavoured), to paste into a case comment or an issue: sized to fit one
 * (a shared budget, {@link MD_DEFAULT_LIMIT} characters by default), summary first, the timeline
 * as tables, evidence in fenced code blocks.
 *
 * Safety: no raw HTML ever. Archive text in prose and table cells goes through
 * {@link mdText} / {@link mdCell}: `&`, `<`, `>` become entities (so no tag, autolink or
 * entity can form), Markdown punctuation is backslash-escaped, `|` is escaped in cells and line
 * breaks are flattened there; code spans in prose show their text literally. Evidence sits in fenced blocks whose fence is longer than any
 * run of backticks in the text, so it cannot close its block. Links are made only from
 * `http:`/`https:` URLs.
 */
import type { Evidence, Finding } from '../engine/findings.js';
import type { Report, TimelineItem } from './model.js';
import { keepByLanePriority, lanePriority } from './timeline.js';
import { countList, layoutParts, type GroupNote, type MdPart } from './md-budget.js';
import { anchorNote, moreRowsNote, omissionNote, TIMELINE_HEAD, timelineCells, type TimelineDoc } from './timeline-table.js';
import {
  COMPRESSED_LINES_NOTE,
  countsDesc,
  displayTime,
  EVIDENCE_SHOWN,
  evidenceNotShown,
  extraCaptures,
  findingGlance,
  formatByteCount,
  formatUtc,
  httpUrl,
  namesCompressedFile,
  limitRows,
  remediationBlocks,
  sanitizeText,
  shortPath,
  sortByRuleId,
  sortFindings,
  sortProblems,
  sortTimeline,
  splitMatch,
  verifiedLabel,
  toolLine,
} from './common.js';
import { fenced, known, mdParagraphs, mdText, mdUrl, table, tableRow } from './md.js';
import { digestMarkdown } from './digest.js';
import { reportUpdateRisks, updateRisksMarkdown } from './update-risks.js';
import { verdictsMarkdown } from './verdicts.js';
import { diagnosisMarkdown } from './diagnosis.js';
import { summaryMarkdown } from './summary.js';

/** Characters a Markdown report takes at most by default: it fits a GitHub comment (65,536) and most case tools. */
export const MD_DEFAULT_LIMIT = 60_000;
/** Shares of the limit the extracts may take at most, so the findings keep the room they need. */
const EXTRACT_SHARES = { digest: 0.25, 'timeline-items': 0.25 };
/** Evidence items of a finding taken before any finding's later ones. */
const KEY_EVIDENCE = 3;

export interface MarkdownOptions {
  /** Evidence items shown per finding (default 10; every one with `full`); the rest are counted. */
  evidencePerFinding?: number | undefined;
  /** Rows of the timeline table at most (default 300; every row with `full`). */
  maxTimelineRows?: number | undefined;
  /** Characters at most (default {@link MD_DEFAULT_LIMIT}); what is left out is said, with where to see it. */
  limit?: number | undefined;
  /** Everything: no size limit, and no cap on evidence, digest or timeline rows. */
  full?: boolean | undefined;
}

/**
 * The report as GitHub-flavoured Markdown, summary first: identity, counts, the findings with
 * their key evidence and remediation, then extracts of the digest and the timeline, then the
 * rules and limits. Sections share a size budget in priority order ({@link layoutParts}); a line
 * under the counts says what was left out and where to see it.
 */
export function renderMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const full = options.full === true;
  const shown = full ? Number.POSITIVE_INFINITY : Math.max(0, options.evidencePerFinding ?? EVIDENCE_SHOWN);
  const maxRows = full ? Number.POSITIVE_INFINITY : Math.max(0, options.maxTimelineRows ?? 300);
  const limit = full ? Number.POSITIVE_INFINITY : Math.max(0, options.limit ?? MD_DEFAULT_LIMIT);
  const parts: MdPart[] = [];
  const notes: Record<string, GroupNote> = {};
  const add = (priority: number, lines: string[], extra: Omit<MdPart, 'text' | 'priority'> = {}): void => {
    parts.push({ text: `${lines.join('\n')}\n`, priority, ...extra });
  };
  const c = report.cluster;

  add(0, [`# mgsift report${c.id !== undefined && c.id !== '' ? ` — ${mdText(c.id)}` : ''}`, '']);
  // The cluster at a glance, then the diagnosis: both always kept (a few lines and two small tables).
  add(0, summaryMarkdown(report.summary));
  // The diagnosis first (issue 13): always kept, it is the summary of the findings.
  add(0, diagnosisMarkdown(report));
  add(0, [
    table(
      ['Field', 'Value'],
      [
        ['Cluster ID', known(c.id)],
        ['Version', known(c.version)],
        ...(c.desiredVersion !== undefined && c.desiredVersion !== c.version ? [['Desired version', c.desiredVersion]] : []),
        ['Platform', known(c.platform)],
        ['Channel', known(c.channel)],
        ['Input', report.input.path],
        ['Container / layout', `${report.input.container} / ${report.input.layout}`],
        ['Collected', report.collectedAt !== undefined && report.collectedAt !== '' ? displayTime(report.collectedAt) : 'unknown'],
        ['Report made', `${displayTime(report.generatedAt)} by ${toolLine(report.tool)}`],
      ],
    ),
  ]);
  add(0, [
    `**Findings:** ${countsDesc(report)
      .map((x) => `${x.count} ${x.severity}`)
      .join(' · ')}`,
    '',
  ]);
  for (const banner of report.banners) add(0, [`> **Read this first:** ${mdText(banner)}`, '']);
  parts.push({ text: '', priority: 0, leftOutLine: true });

  // Findings: a table of them all, then each with its key evidence first.
  add(0, ['## Findings', '']);
  if (namesCompressedFile(report)) add(0, [`*${COMPRESSED_LINES_NOTE}*`, '']);
  const findings = sortFindings(report.findings);
  if (findings.length === 0) {
    add(0, [
      'No rule found a problem in this archive. Check “Rules not checked” and “What could not be read” before concluding the cluster is healthy.',
      '',
    ]);
  } else {
    parts.push(...findingsTable(findings));
  }
  findings.forEach((f, i) => parts.push(...finding(f, i, shown, notes)));
  add(1, verdictsMarkdown(report.facts.verdicts), { unit: "section of the cluster's own verdicts" });
  add(1, updateRisksMarkdown(report.updateRisks ?? reportUpdateRisks(undefined)), { unit: 'update risks section' });

  if (report.digest) {
    notes['digest'] = (n) => (n > 0 ? `*${n} more part${n === 1 ? '' : 's'} of the digest left out here for size; the HTML and JSON reports hold them.*` : '');
    for (const p of digestMarkdown(report.digest, full)) parts.push({ ...p, group: p.priority === 0 ? undefined : 'digest', unit: 'digest part' });
  }

  // Timeline.
  add(0, ['## Timeline', '']);
  const history = report.facts.history;
  if (history.length === 0) {
    add(0, ['The archive holds no ClusterVersion update history.', '']);
  } else {
    add(2, [
      table(
        ['Version', 'State', 'Verified', 'Started (UTC)', 'Completed (UTC)', 'Notes', 'Image'],
        history.map((h) => [
          h.version === '' ? '(no version)' : h.version,
          h.state,
          verifiedLabel(h),
          displayTime(h.started),
          h.completed !== undefined ? displayTime(h.completed) : 'not completed',
          [h.rollback !== undefined ? `**rollback (${h.rollback})**` : '', h.forced ? 'forced' : '', h.install ? 'install' : '']
            .filter((x) => x !== '')
            .join(', '),
          h.image ?? '',
        ]),
        new Set([5]),
      ),
    ], { unit: 'history table' });
  }
  const items = sortTimeline(report.facts.timeline);
  if (items.length > 0) {
    add(0, [`### Timeline items (${items.length})`, '', mdText(anchorNote(report.collectedAt)), '']);
    const capped = keepByLanePriority(items, (t) => t.lane, maxRows);
    // Taken a row of each lane at a time (findings, CVO, nodes, operators, events), so the
    // extract shows every source; printed by time.
    const seen = new Map<string, number>();
    const rank = (t: TimelineItem): number => {
      const nth = seen.get(t.lane) ?? 0;
      seen.set(t.lane, nth + 1);
      return nth * 1000 + lanePriority(t.lane);
    };
    add(3, [table(TIMELINE_HEAD, []).trimEnd()], { group: 'timeline-items', rank: -1, unit: 'timeline row' });
    for (const t of capped) add(3, [tableRow(timelineCells(t))], { group: 'timeline-items', rank: rank(t), unit: 'timeline row' });
    add(0, ['']);
    const capNotShown = items.length - capped.length;
    notes['timeline-items'] = (n) => (n + capNotShown > 0 ? `*${mdText(moreRowsNote(n + capNotShown, '(a few rows of each lane are kept, findings, alerts, CVO and nodes first)'))}*` : '');
  }
  for (const o of report.facts.timelineOmitted) add(0, [`- ${mdText(omissionNote(o))}`]);
  if (report.facts.timelineOmitted.length > 0) add(0, ['- `mgsift timeline <input>` lists everything left out here.', '']);

  // Rules not checked / passed.
  add(0, ['## Rules not checked', '']);
  for (const n of report.notRun) add(0, [`${mdText(n.note.charAt(0).toUpperCase() + n.note.slice(1))}`, '']);
  const others = report.notRun.length > 0 ? 'other ' : '';
  if (report.notChecked.length === 0) add(0, [report.selection ? `Every ${others}rule that ran could be evaluated (see the rule selection above).` : `Every ${others}rule could be evaluated.`, '']);
  else add(1, [table(['Rule', 'Title', 'Why not'], sortByRuleId(report.notChecked).map((n) => [n.ruleId, n.title, n.reason]))], { unit: 'table of rules not checked' });
  if (report.checkedInPart.length > 0) {
    add(0, ['## Rules checked in part', '', 'These rules found nothing in what the input holds, but the input holds only part of what they look at: they did not pass.', '']);
    add(1, [table(['Rule', 'Title', 'What was not gathered'], sortByRuleId(report.checkedInPart).map((n) => [n.ruleId, n.title, n.reason]))], { unit: 'table of rules checked in part' });
  }
  add(0, ['## Rules that passed', '']);
  if (report.passed.length === 0) add(0, ['No rule passed.', '']);
  else add(5, [...sortByRuleId(report.passed).map((p) => `- ${mdText(p.ruleId)} — ${mdText(p.title)}`), ''], { unit: 'list of rules that passed' });

  // Problems, limits.
  add(0, ['## What could not be read', '']);
  if (report.problems.length === 0) add(0, ['Everything the rules needed could be read.', '']);
  else {
    const rows = sortProblems(report.problems).map((p) => [p.severity, p.path === '' ? '(the input as a whole)' : p.path, p.reason]);
    add(1, [table(['Severity', 'Path in the archive', 'Reason'], []).trimEnd()], { group: 'problems', rank: -1, unit: 'unreadable part' });
    for (const row of rows) add(1, [tableRow(row)], { group: 'problems', unit: 'unreadable part' });
    add(0, ['']);
    notes['problems'] = (n) => (n > 0 ? `*${n} more unreadable part${n === 1 ? '' : 's'}; see the JSON report.*` : '');
  }
  add(0, ['', '## Limits', '']);
  const l = report.limits;
  add(5, [
    table(
      ['Limit', 'Value'],
      [
        ...limitRows(l).map((row) => [row.label, row.value]),
        ['Entries read', String(report.stats.entries)],
        ['Bytes read', formatByteCount(report.stats.bytesRead)],
        ['Duration', `${Math.round(report.stats.durationMs)} ms`],
      ],
    ),
  ], { unit: 'limits table' });

  const shares = full ? undefined : EXTRACT_SHARES;
  const { text } = layoutParts(parts, { limit, shares, notes }, (leftOut) => leftOutLine(leftOut, limit));
  return text;
}

/** Under the counts: what the size limit left out, and where to read it. */
function leftOutLine(leftOut: Map<string, number>, limit: number): string {
  if (leftOut.size === 0) return '';
  return (
    `> **Shortened to ${limit.toLocaleString('en-US')} characters:** ${countList(leftOut)} left out (each place says so). ` +
    'The HTML and JSON reports hold everything, `mgsift timeline <input>` lists the whole timeline, and `--md-full` writes everything here.\n\n'
  );
}

/** The table of findings at the top: severity, title, what it is about, since when. */
function findingsTable(findings: readonly Finding[]): MdPart[] {
  const head: MdPart = { text: `${table(['Severity', 'Finding', 'Object', 'Since (UTC)'], []).trimEnd()}\n`, priority: 0 };
  const slugs = findingSlugs(findings);
  const rows = findings.map((f, i): MdPart => {
    const glance = findingGlance(f);
    const row = tableRow([f.severity, `[${mdText(f.title)}](#${slugs[i]!})`, glance.object, glance.since], new Set([1]));
    return { text: `${row}\n`, priority: 1, group: 'findings-table', unit: 'finding table row' };
  });
  return [head, ...rows, { text: '\n', priority: 0 }];
}

/**
 * The anchors GitHub gives the findings' headings (`### WARNING: Title — key` →
 * `warning-title--key`; a repeated heading gets `-1`, `-2`, … in document order).
 */
export function findingSlugs(findings: readonly Finding[]): string[] {
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const slug = `${f.severity} ${f.title}${f.key !== undefined ? ` — ${f.key}` : ''}`
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-');
    const repeats = seen.get(slug) ?? 0;
    seen.set(slug, repeats + 1);
    return repeats === 0 ? slug : `${slug}-${repeats}`;
  });
}
/** The timeline alone (`mgsift timeline --format md`): every item, one table. */
export function renderTimelineMarkdown(doc: TimelineDoc): string {
  const out = [`# Timeline of ${mdText(doc.input)}`, '', mdText(anchorNote(doc.collectedAt)), ''];
  if (doc.filters.length > 0) out.push(`Filters: ${mdText(doc.filters.join(', '))}`, '');
  if (doc.items.length === 0) out.push('No item.', '');
  else out.push(table(TIMELINE_HEAD, doc.items.map(timelineCells)));
  for (const o of doc.omitted) out.push(`- ${mdText(omissionNote(o))}`);
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

/**
 * One finding: its head, message, remediation and references first (priority 1, kept as a group
 * across findings, most severe first), then its first evidence items (2), then the others (4).
 */
function finding(f: Finding, index: number, shown: number, notes: Record<string, GroupNote>): MdPart[] {
  const head: string[] = [];
  head.push(`### ${f.severity.toUpperCase()}: ${mdText(f.title)}${f.key !== undefined ? ` — ${mdText(f.key)}` : ''}`, '');
  const tags = f.tags.length > 0 ? ` · tags: ${f.tags.map(mdText).join(', ')}` : '';
  head.push(`Rule ${mdText(f.ruleId)} · component ${mdText(f.component)}${tags}`, '');
  const links = [
    f.explainedBy.length > 0 ? `Explained by ${f.explainedBy.map((id) => `\`${id}\``).join(', ')}.` : '',
    f.explains.length > 0 ? `Explains ${f.explains.map((id) => `\`${id}\``).join(', ')}.` : '',
  ].filter((x) => x !== '');
  if (links.length > 0) head.push(links.join(' '), '');
  head.push(mdParagraphs(f.message), '');
  const blocks = remediationBlocks(f.remediation);
  if (blocks.length > 0) {
    head.push('#### Remediation', '');
    for (const b of blocks) {
      if (b.kind === 'code') head.push(...fenced(b.text, 'sh'));
      else head.push(mdParagraphs(b.text), '');
    }
  }
  if (f.references.length > 0) {
    head.push('#### References', '');
    for (const ref of f.references) {
      const href = httpUrl(ref);
      head.push(href !== undefined ? `- [${mdText(ref)}](${mdUrl(href)})` : `- ${mdText(ref)}`);
    }
    head.push('');
  }
  const parts: MdPart[] = [{ text: `${head.join('\n')}\n`, priority: 1, group: 'findings', rank: index, unit: 'finding' }];
  if (f.evidence.length > 0) {
    const group = `evidence-${index}`;
    const list = f.evidence.slice(0, shown);
    parts.push({ text: '#### Evidence\n\n', priority: 2, group, rank: -1, unit: 'evidence heading' });
    list.forEach((e, i) =>
      parts.push({ text: `${evidence(e, i + 1).join('\n')}\n`, priority: i < KEY_EVIDENCE ? 2 : 4, group, rank: i, unit: 'evidence item' }),
    );
    const beyondCap = evidenceNotShown(f, list.length);
    const dropped = Math.max(f.evidenceDropped, 0);
    notes[group] = (n) => {
      const more = n + beyondCap;
      if (more === 0) return '';
      return `*${more} more evidence item${more === 1 ? '' : 's'}${dropped > 0 ? ` (${dropped} not kept by the per-signal cap)` : ''}; see the HTML or JSON report.*`;
    };
  }
  return parts;
}

function evidence(e: Evidence, n: number): string[] {
  const where = e.file === '' ? '(derived fact)' : shortPath(e.file);
  const parts = [`**Evidence ${n}:** ${mdText(where)}${e.line !== undefined ? `:${e.line}` : ''}`];
  if (e.time !== undefined && Number.isFinite(e.time)) parts.push(formatUtc(e.time));
  parts.push(`signal ${mdText(e.signal)}`);
  if (e.object !== undefined) {
    const ns = e.object.namespace !== undefined && e.object.namespace !== '' ? `${e.object.namespace}/` : '';
    parts.push(mdText(`${e.object.kind} ${ns}${e.object.name}`));
  }
  const text = sanitizeText(e.text);
  const m = splitMatch(text, e.match);
  if (m.match !== '') parts.push(`match: «${mdText(m.match.replace(/[\r\n]+/g, ' '))}»`);
  const captures = extraCaptures(e);
  if (captures.length > 0) parts.push(captures.map(([k, v]) => `${mdText(k)}=${mdText(v.replace(/[\r\n]+/g, ' '))}`).join(', '));
  // Not a list: a fenced block after a list item would need indenting to stay in it.
  return [parts.join(' · '), '', ...fenced(text, 'text')];
}
