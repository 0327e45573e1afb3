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
import { auditMarkdownSection, auditWindowText } from './audit.js';
import { findingId, type Evidence, type Finding } from '../engine/findings.js';
import { historyNewestFirst, olderEntriesNote } from '../facts/history.js';
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
  findingTitle,
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
import { channelText, fromClusterVersion } from '../facts/cluster.js';
import { fenced, known, mdParagraphs, mdText, mdUrl, table, tableRow } from './md.js';
import { digestMarkdown } from './digest.js';
import { reportUpdateRisks, updateRisksMarkdown } from './update-risks.js';
import { verdictsMarkdown } from './verdicts.js';
import { diagnosisMarkdown, diagnosisMarkdownShort } from './diagnosis.js';
import { summaryMarkdown } from './summary.js';

/** Characters a Markdown report takes at most by default: it fits a GitHub comment (65,536) and most case tools. */
export const MD_DEFAULT_LIMIT = 60_000;
/** Shares of the limit the extracts may take at most, so the findings keep the room they need. */
const EXTRACT_SHARES = { digest: 0.25, 'timeline-items': 0.25 };
/** Evidence items of a finding taken before any finding's later ones. */
const KEY_EVIDENCE = 3;

/**
 * What each part is worth to the budget (lower is taken first). The findings table's rows come
 * first, then the summary above them; evidence past the key items, the extracts and the lists of
 * rules go first when room is short.
 */
const PRIORITY = {
  /** Title, counts, the findings table's head: always kept. */
  always: 0,
  /** A row per finding in the findings table. */
  findingRows: 1,
  /** The diagnosis, "Read this first" and the cluster's identity (shorter forms when room is short). */
  summary: 2,
  /** Each finding's message and remediation, the cluster's verdicts, risks, rules checked in part, what could not be read, the limits. */
  findings: 3,
  /** A finding's first evidence items; the update history. */
  keyEvidence: 4,
  /** The digest and timeline extracts. */
  extracts: 5,
  /** Later evidence items; the digest's example lines. */
  moreEvidence: 6,
  /** The rules not checked, not applicable or passed. */
  reference: 7,
} as const;

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
 * under the counts says what was left out and where to see it. A small budget keeps a row per
 * finding in the findings table, in shorter forms if need be, before anything else.
 */
export function renderMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const full = options.full === true;
  const shown = full ? Number.POSITIVE_INFINITY : Math.max(0, options.evidencePerFinding ?? EVIDENCE_SHOWN);
  const maxRows = full ? Number.POSITIVE_INFINITY : Math.max(0, options.maxTimelineRows ?? 300);
  const limit = full ? Number.POSITIVE_INFINITY : Math.max(0, options.limit ?? MD_DEFAULT_LIMIT);
  const parts: MdPart[] = [];
  const notes: Record<string, GroupNote> = {};
  const add = (priority: number, lines: string[], extra: Omit<MdPart, 'text' | 'priority'> = {}): void => {
    if (lines.length > 0) parts.push({ text: `${lines.join('\n')}\n`, priority, ...extra });
  };
  /** A section's heading: printed only when something of the section is. */
  const heading = (section: string, lines: string[], within?: string): void => add(PRIORITY.always, lines, { opens: section, heading: true, section: within });
  const c = report.cluster;

  add(PRIORITY.always, [`# mgsift report${c.id !== undefined && c.id !== '' ? ` — ${mdText(c.id)}` : ''}`, '']);
  // The cluster at a glance (issue 25), before the diagnosis; its headline alone when room is short.
  const glance = summaryMarkdown(report.summary);
  add(PRIORITY.summary, glance, { tighter: [`${mdText((report.summary?.headline ?? []).join(' · '))}\n\n`], rank: -1 });
  // The diagnosis first (issue 13): it is the summary of the findings.
  add(PRIORITY.summary, diagnosisMarkdown(report), {
    tighter: [diagnosisMarkdownShort(report), diagnosisMarkdownShort(report), diagnosisMarkdownShort(report, true)].map((l) => `${l.join('\n')}\n`),
    rank: 0,
  });
  const collected = report.collectedAt !== undefined && report.collectedAt !== '' ? displayTime(report.collectedAt) : 'unknown';
  add(
    PRIORITY.summary,
    [
      table(
        ['Field', 'Value'],
        [
          ['Cluster ID', known(c.id)],
          ['Version', known(c.version)],
          ...(c.desiredVersion !== undefined && c.desiredVersion !== c.version ? [['Desired version', c.desiredVersion]] : []),
          ['Platform', known(c.platform)],
          ['Channel', channelText(c.channel, fromClusterVersion(c))],
          ['Input', report.input.path],
          ['Container / layout', `${report.input.container} / ${report.input.layout}`],
          ['Collected', collected],
          ...(report.audit ? [['Audit logs', auditWindowText(report.audit.summary)]] : []),
          ['Report made', `${displayTime(report.generatedAt)} by ${toolLine(report.tool)}`],
        ],
      ),
    ],
    { tighter: [`${mdText(`Version ${known(c.version)} · ${known(c.platform)} · collected ${collected} · ${report.input.path}`)}\n\n`], rank: 2 },
  );
  add(PRIORITY.always, [
    `**Findings:** ${countsDesc(report)
      .map((x) => `${x.count} ${x.severity}`)
      .join(' · ')}`,
    '',
  ]);
  for (const banner of report.banners) add(PRIORITY.summary, [`> **Read this first:** ${mdText(banner)}`, ''], { rank: 1 });
  parts.push({ text: '', priority: PRIORITY.always, leftOutLine: true });

  // Findings: a table of them all, then each with its key evidence first.
  add(PRIORITY.always, ['## Findings', '']);
  if (namesCompressedFile(report)) add(PRIORITY.findings, [`*${COMPRESSED_LINES_NOTE}*`, ''], { rank: -1 });
  const findings = sortFindings(report.findings);
  if (findings.length === 0) {
    add(PRIORITY.always, [
      'No rule found a problem in this archive. Check “Rules not checked” and “What could not be read” before concluding the cluster is healthy.',
      '',
    ]);
  } else {
    parts.push(...findingsTable(findings, report.collectedAt));
    notes['findings-table'] = (n) => (n > 0 ? `*${n} more finding${n === 1 ? '' : 's'}; see the HTML or JSON report.*` : '');
  }
  findings.forEach((f, i) => parts.push(...finding(f, i, shown, notes)));
  add(PRIORITY.findings, verdictsMarkdown(report.facts.verdicts), { unit: "section of the cluster's own verdicts" });
  add(PRIORITY.findings, updateRisksMarkdown(report.updateRisks ?? reportUpdateRisks(undefined)), { unit: 'update risks section' });
  if (report.audit) add(PRIORITY.findings, auditMarkdownSection(report.audit), { unit: 'audit section' });

  if (report.digest) {
    notes['digest'] = (n) => (n > 0 ? `*${n} more part${n === 1 ? '' : 's'} of the digest left out here for size; the HTML and JSON reports hold them.*` : '');
    for (const p of digestMarkdown(report.digest, full, { table: PRIORITY.extracts, examples: PRIORITY.moreEvidence })) parts.push({ ...p, group: 'digest' });
  }

  // Timeline.
  heading('timeline', ['## Timeline', '']);
  const history = report.facts.history;
  if (history.length === 0) {
    add(PRIORITY.keyEvidence, ['The archive holds no ClusterVersion update history.', ''], { section: 'timeline' });
  } else {
    const { shown: newest, older } = historyNewestFirst(history, full);
    add(PRIORITY.keyEvidence, [
      '*Newest first.*',
      '',
      table(
        ['Version', 'State', 'Verified', 'Started (UTC)', 'Completed (UTC)', 'Notes', 'Image'],
        newest.map((h) => [
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
      ...(older.length > 0 ? [`*${mdText(olderEntriesNote(older.length, 'the HTML and JSON reports hold them.'))}*`, ''] : []),
    ], { unit: 'history table', section: 'timeline' });
  }
  const items = sortTimeline(report.facts.timeline);
  if (items.length > 0) {
    heading('timeline-items', [`### Timeline items (${items.length})`, '', mdText(anchorNote(report.collectedAt)), '', table(TIMELINE_HEAD, []).trimEnd()], 'timeline');
    const capped = keepByLanePriority(items, (t) => t.lane, maxRows);
    // Taken a row of each lane at a time (findings, CVO, nodes, operators, events), so the
    // extract shows every source; printed by time.
    const seen = new Map<string, number>();
    const rank = (t: TimelineItem): number => {
      const nth = seen.get(t.lane) ?? 0;
      seen.set(t.lane, nth + 1);
      return nth * 1000 + lanePriority(t.lane);
    };
    for (const t of capped) add(PRIORITY.extracts, [tableRow(timelineCells(t))], { group: 'timeline-items', rank: rank(t), unit: 'timeline row', section: 'timeline-items' });
    const capNotShown = items.length - capped.length;
    notes['timeline-items'] = (n) => (n + capNotShown > 0 ? `*${mdText(moreRowsNote(n + capNotShown, '(a few rows of each lane are kept, findings, alerts, CVO and nodes first)'))}*` : '');
    const omitted = report.facts.timelineOmitted.map((o) => `- ${mdText(omissionNote(o))}`);
    if (omitted.length > 0) add(PRIORITY.extracts, ['', ...omitted, '- `mgsift timeline <input>` lists everything left out here.', ''], { section: 'timeline-items', rank: Number.MAX_SAFE_INTEGER });
  }

  // Rules not checked / passed.
  heading('not-checked', ['## Rules not checked', '']);
  for (const n of report.notRun) add(PRIORITY.findings, [`${mdText(n.note.charAt(0).toUpperCase() + n.note.slice(1))}`, ''], { section: 'not-checked' });
  const others = report.notRun.length > 0 ? 'other ' : '';
  if (report.notChecked.length === 0) {
    const applying = report.notApplicable.length > 0 ? ' that applies here' : '';
    const sentence = report.selection ? `Every ${others}rule${applying} that ran could be evaluated (see the rule selection above).` : `Every ${others}rule${applying} could be evaluated.`;
    add(PRIORITY.findings, [sentence, ''], { section: 'not-checked' });
  } else {
    // Row by row, after the rules checked in part and the limits: on a small input most of the
    // pack lacks its data, and that list must not push out what says how to read more.
    heading('not-checked-rows', [table(['Rule', 'Title', 'Why not'], []).trimEnd()], 'not-checked');
    for (const n of sortByRuleId(report.notChecked)) {
      add(PRIORITY.reference, [tableRow([n.ruleId, n.title, n.reason])], { group: 'not-checked', unit: 'not-checked rule', section: 'not-checked-rows' });
    }
    add(PRIORITY.always, ['']);
    notes['not-checked'] = (n) => (n > 0 ? `*${n} more rule${n === 1 ? '' : 's'} not checked; the HTML and JSON reports list them.*` : '');
  }
  if (report.checkedInPart.length > 0) {
    heading('checked-in-part', ['## Rules checked in part', '', 'These rules found nothing in what the input holds, but the input holds only part of what they look at: they did not pass.', '']);
    add(PRIORITY.findings, [table(['Rule', 'Title', 'What was not gathered'], sortByRuleId(report.checkedInPart).map((n) => [n.ruleId, n.title, n.reason]))], { unit: 'table of rules checked in part', section: 'checked-in-part' });
  }
  if (report.notApplicable.length > 0) {
    heading('not-applicable', ['## Rules not applicable', '', 'What these rules look at cannot exist on this cluster or in this kind of input: nothing is missing.', '']);
    add(PRIORITY.reference, [table(['Rule', 'Title', 'Why it does not apply'], sortByRuleId(report.notApplicable).map((n) => [n.ruleId, n.title, n.reason]))], { unit: 'table of rules not applicable', section: 'not-applicable' });
  }
  heading('passed', ['## Rules that passed', '']);
  if (report.passed.length === 0) add(PRIORITY.reference, ['No rule passed.', ''], { section: 'passed' });
  else add(PRIORITY.reference, [...sortByRuleId(report.passed).map((p) => `- ${mdText(p.ruleId)} — ${mdText(p.title)}`), ''], { unit: 'list of rules that passed', section: 'passed' });

  // Problems, limits.
  heading('problems', ['## What could not be read', '']);
  if (report.problems.length === 0) add(PRIORITY.findings, ['Everything the rules needed could be read.', ''], { section: 'problems' });
  else {
    heading('problem-rows', [table(['Severity', 'Path in the archive', 'Reason'], []).trimEnd()], 'problems');
    for (const p of sortProblems(report.problems)) {
      add(PRIORITY.findings, [tableRow([p.severity, p.path === '' ? '(the input as a whole)' : p.path, p.reason])], { group: 'problems', unit: 'unreadable part', section: 'problem-rows' });
    }
    add(PRIORITY.always, ['']);
    notes['problems'] = (n) => (n > 0 ? `*${n} more unreadable part${n === 1 ? '' : 's'}; see the JSON report.*` : '');
  }
  heading('limits', ['', '## Limits', '']);
  const l = report.limits;
  // Small, and it names the flags that read more: kept with the findings.
  add(PRIORITY.findings, [
    table(
      ['Limit', 'Value'],
      [
        ...limitRows(l).map((row) => [row.label, row.value]),
        ['Entries read', String(report.stats.entries)],
        ['Bytes read', formatByteCount(report.stats.bytesRead)],
        ['Duration', `${Math.round(report.stats.durationMs)} ms`],
      ],
    ),
  ], { unit: 'limits table', section: 'limits' });

  const shares = full ? undefined : EXTRACT_SHARES;
  const { text } = layoutParts(parts, { limit, shares, notes, essential: PRIORITY.summary }, (leftOut, level) => leftOutLine(leftOut, limit, level));
  return text;
}

/** Under the counts: what the size limit left out, and where to read it (in a few words when room is short). */
function leftOutLine(leftOut: Map<string, number>, limit: number, level: number): string {
  if (leftOut.size === 0) return '';
  const head = `> **Shortened to ${limit.toLocaleString('en-US')} characters:**`;
  if (level > 0) {
    const n = [...leftOut.values()].reduce((a, b) => a + b, 0);
    return `${head} ${n} part${n === 1 ? '' : 's'} left out; the HTML and JSON reports hold everything, \`--md-full\` writes everything here.\n\n`;
  }
  return (
    `${head} ${countList(leftOut)} left out (each place says so). ` +
    'The HTML and JSON reports hold everything, `mgsift timeline <input>` lists the whole timeline, and `--md-full` writes everything here.\n\n'
  );
}

/** Characters of an object's name in the findings table's shortest forms. */
const SHORT_OBJECT = 40;

/**
 * The table of findings at the top: severity, title, what it is about, since when; in shorter
 * forms when room is short (title without its link; rule and first object; rule alone).
 */
function findingsTable(findings: readonly Finding[], collectedAt: string | undefined): MdPart[] {
  const headAt = (columns: string[]): string => `${table(columns, []).trimEnd()}\n`;
  const full = ['Severity', 'Finding', 'Object', 'Since (UTC)'];
  const head: MdPart = {
    text: headAt(full),
    tighter: [headAt(full), headAt(['Severity', 'Rule', 'Object']), headAt(['Severity', 'Rule'])],
    priority: PRIORITY.always,
  };
  const slugs = findingSlugs(findings);
  const rows = findings.map((f, i): MdPart => {
    const glance = findingGlance(f, collectedAt);
    const rule = findingId(f);
    const first = glance.first.length > SHORT_OBJECT ? `${glance.first.slice(0, SHORT_OBJECT - 1)}…` : glance.first;
    const object = `${first}${glance.others > 0 ? ` +${glance.others}` : ''}`;
    return {
      text: `${tableRow([f.severity, `[${mdText(findingTitle(f))}](#${slugs[i]!})`, glance.object, glance.since], new Set([1]))}\n`,
      tighter: [
        `${tableRow([f.severity, findingTitle(f), glance.object, glance.since])}\n`,
        `${tableRow([f.severity, rule, object])}\n`,
        `${tableRow([f.severity, rule])}\n`,
      ],
      priority: PRIORITY.findingRows,
      group: 'findings-table',
      unit: 'finding table row',
    };
  });
  return [head, ...rows, { text: '\n', priority: PRIORITY.always }];
}

/**
 * The anchors GitHub gives the findings' headings (`### WARNING: Title — key` →
 * `warning-title--key`; a repeated heading gets `-1`, `-2`, … in document order).
 */
export function findingSlugs(findings: readonly Finding[]): string[] {
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const slug = `${f.severity} ${findingTitle(f)}`
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
  for (const note of doc.notes) out.push(mdText(note), '');
  for (const o of doc.omitted) out.push(`- ${mdText(omissionNote(o))}`);
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

/**
 * One finding: its head, message, remediation and references first (kept as a group across
 * findings, most severe first), then its first evidence items, then the others; its evidence
 * only with its head.
 */
function finding(f: Finding, index: number, shown: number, notes: Record<string, GroupNote>): MdPart[] {
  const head: string[] = [];
  head.push(`### ${f.severity.toUpperCase()}: ${mdText(findingTitle(f))}`, '');
  const tags = f.tags.length > 0 ? ` · tags: ${f.tags.map(mdText).join(', ')}` : '';
  head.push(`Rule ${mdText(f.ruleId)} · component ${mdText(f.component)}${tags}`, '');
  const links = [
    f.explainedBy.length > 0 ? `Explained by ${f.explainedBy.map((id) => `\`${id}\``).join(', ')}.` : '',
    f.explains.length > 0 ? `Explains ${f.explains.map((id) => `\`${id}\``).join(', ')}.` : '',
  ].filter((x) => x !== '');
  if (links.length > 0) head.push(links.join(' '), '');
  head.push(`**${mdText(sanitizeText(f.headline))}**`, '', mdParagraphs(f.message), '');
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
  const section = `finding-${index}`;
  const parts: MdPart[] = [{ text: `${head.join('\n')}\n`, priority: PRIORITY.findings, group: 'findings', rank: index, unit: 'finding', opens: section }];
  if (f.evidence.length > 0) {
    const group = `evidence-${index}`;
    const list = f.evidence.slice(0, shown);
    parts.push({ text: '#### Evidence\n\n', priority: PRIORITY.always, heading: true, section, opens: group });
    list.forEach((e, i) =>
      parts.push({
        text: `${evidence(e, i + 1).join('\n')}\n`,
        priority: i < KEY_EVIDENCE ? PRIORITY.keyEvidence : PRIORITY.moreEvidence,
        group,
        rank: i,
        unit: 'evidence item',
        section: group,
      }),
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
