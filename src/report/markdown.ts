/**
 * Markdown report (GitHub-flavoured), to paste into a ticket: the same content as the HTML
 * report, the timeline as tables, evidence in fenced code blocks.
 *
 * Safety: no raw HTML ever. Archive text in prose and table cells goes through
 * {@link mdText} / {@link mdCell}: `&`, `<`, `>` become entities (so no tag, autolink or
 * entity can form), Markdown punctuation is backslash-escaped, `|` is escaped in cells and line
 * breaks are flattened there. Evidence sits in fenced blocks whose fence is longer than any
 * run of backticks in the text, so it cannot close its block. Links are made only from
 * `http:`/`https:` URLs.
 */
import type { Evidence, Finding } from '../engine/findings.js';
import type { Report } from './model.js';
import { keepByLanePriority } from './timeline.js';
import { anchorNote, moreRowsNote, omissionNote, TIMELINE_HEAD, timelineCells, type TimelineDoc } from './timeline-table.js';
import {
  COMPRESSED_LINES_NOTE,
  countsDesc,
  displayTime,
  EVIDENCE_SHOWN,
  evidenceNotShown,
  formatByteCount,
  formatUtc,
  httpUrl,
  laneTitle,
  namesCompressedFile,
  limitRows,
  remediationBlocks,
  sanitizeText,
  sortByRuleId,
  sortFindings,
  sortProblems,
  sortTimeline,
  splitMatch,
  verifiedLabel,
} from './common.js';
import { fenced, known, mdParagraphs, mdText, mdUrl, table } from './md.js';
import { digestMarkdown } from './digest.js';
import { verdictsMarkdown } from './verdicts.js';
import { diagnosisMarkdown } from './diagnosis.js';

export interface MarkdownOptions {
  /** Evidence items shown per finding (default 10); the rest are counted. */
  evidencePerFinding?: number | undefined;
  /** Rows of the timeline table at most (default 300); the JSON report holds them all. */
  maxTimelineRows?: number | undefined;
}

/** The report as GitHub-flavoured Markdown. */
export function renderMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const shown = Math.max(0, options.evidencePerFinding ?? EVIDENCE_SHOWN);
  const maxRows = Math.max(0, options.maxTimelineRows ?? 300);
  const out: string[] = [];
  const c = report.cluster;

  out.push(`# mgsift report${c.id !== undefined && c.id !== '' ? ` — ${mdText(c.id)}` : ''}`, '');
  out.push(...diagnosisMarkdown(report));
  out.push(
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
        ['Report made', `${displayTime(report.generatedAt)} by ${report.tool.name} ${report.tool.version}`],
      ],
    ),
  );
  out.push(
    `**Findings:** ${countsDesc(report)
      .map((x) => `${x.count} ${x.severity}`)
      .join(' · ')}`,
    '',
  );
  for (const banner of report.banners) out.push(`> **Read this first:** ${mdText(banner)}`, '');

  // Findings.
  out.push('## Findings', '');
  if (namesCompressedFile(report)) out.push(`*${COMPRESSED_LINES_NOTE}*`, '');
  const findings = sortFindings(report.findings);
  if (findings.length === 0) {
    out.push(
      'No rule found a problem in this archive. Check “Rules not checked” and “What could not be read” before concluding the cluster is healthy.',
      '',
    );
  }
  for (const f of findings) out.push(...finding(f, shown));
  out.push(...verdictsMarkdown(report.facts.verdicts));
  if (report.digest) out.push(...digestMarkdown(report.digest));

  // Timeline.
  out.push('## Timeline', '');
  const history = report.facts.history;
  if (history.length === 0) {
    out.push('The archive holds no ClusterVersion update history.', '');
  } else {
    out.push(
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
    );
  }
  const items = sortTimeline(report.facts.timeline);
  if (items.length > 0) {
    out.push(`### Timeline items (${items.length})`, '', mdText(anchorNote(report.collectedAt)), '');
    const shownItems = keepByLanePriority(items, (t) => t.lane, maxRows);
    out.push(table(TIMELINE_HEAD, shownItems.map(timelineCells)));
    const notShown = items.length - shownItems.length;
    if (notShown > 0) out.push(`*${mdText(moreRowsNote(notShown))}*`, '');
  }
  for (const o of report.facts.timelineOmitted) out.push(`- ${mdText(omissionNote(o))}`);
  if (report.facts.timelineOmitted.length > 0) out.push('- `mgsift timeline <input>` lists everything left out here.', '');

  // Rules not checked / passed.
  out.push('## Rules not checked', '');
  if (report.notChecked.length === 0) out.push('Every rule could be evaluated.', '');
  else {
    out.push(table(['Rule', 'Title', 'Why not'], sortByRuleId(report.notChecked).map((n) => [n.ruleId, n.title, n.reason])));
  }
  out.push('## Rules that passed', '');
  if (report.passed.length === 0) out.push('No rule passed.', '');
  else {
    for (const p of sortByRuleId(report.passed)) out.push(`- ${mdText(p.ruleId)} — ${mdText(p.title)}`);
    out.push('');
  }

  // Problems, limits.
  out.push('## What could not be read', '');
  if (report.problems.length === 0) out.push('Everything the rules needed could be read.', '');
  else {
    out.push(
      table(
        ['Severity', 'Path in the archive', 'Reason'],
        sortProblems(report.problems).map((p) => [p.severity, p.path === '' ? '(the input as a whole)' : p.path, p.reason]),
      ),
    );
  }
  out.push('## Limits', '');
  const l = report.limits;
  out.push(
    table(
      ['Limit', 'Value'],
      [
        ...limitRows(l).map((row) => [mdText(row.label), row.value]),
        ['Entries read', String(report.stats.entries)],
        ['Bytes read', formatByteCount(report.stats.bytesRead)],
        ['Duration', `${Math.round(report.stats.durationMs)} ms`],
      ],
    ),
  );
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
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

function finding(f: Finding, shown: number): string[] {
  const out: string[] = [];
  out.push(`### ${f.severity.toUpperCase()}: ${mdText(f.title)}${f.key !== undefined ? ` — ${mdText(f.key)}` : ''}`, '');
  const tags = f.tags.length > 0 ? ` · tags: ${f.tags.map(mdText).join(', ')}` : '';
  out.push(`Rule ${mdText(f.ruleId)} · component ${mdText(f.component)}${tags}`, '');
  const links = [
    f.explainedBy.length > 0 ? `Explained by ${f.explainedBy.map((id) => `\`${id}\``).join(', ')}.` : '',
    f.explains.length > 0 ? `Explains ${f.explains.map((id) => `\`${id}\``).join(', ')}.` : '',
  ].filter((x) => x !== '');
  if (links.length > 0) out.push(links.join(' '), '');
  out.push(mdParagraphs(f.message), '');
  if (f.evidence.length > 0) {
    out.push('#### Evidence', '');
    f.evidence.slice(0, shown).forEach((e, i) => out.push(...evidence(e, i + 1)));
    const notShown = evidenceNotShown(f, Math.min(shown, f.evidence.length));
    if (notShown > 0) {
      const dropped = Math.max(f.evidenceDropped, 0);
      out.push(
        `*${notShown} more evidence item${notShown === 1 ? '' : 's'}${dropped > 0 ? ` (${dropped} not kept by the per-signal cap)` : ''}; see the JSON report.*`,
        '',
      );
    }
  }
  const blocks = remediationBlocks(f.remediation);
  if (blocks.length > 0) {
    out.push('#### Remediation', '');
    for (const b of blocks) {
      if (b.kind === 'code') out.push(...fenced(b.text, 'sh'));
      else out.push(mdParagraphs(b.text), '');
    }
  }
  if (f.references.length > 0) {
    out.push('#### References', '');
    for (const ref of f.references) {
      const href = httpUrl(ref);
      out.push(href !== undefined ? `- [${mdText(ref)}](${mdUrl(href)})` : `- ${mdText(ref)}`);
    }
    out.push('');
  }
  return out;
}

function evidence(e: Evidence, n: number): string[] {
  const where = e.file === '' ? '(derived fact)' : e.file;
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
  const captures = e.captures !== undefined ? Object.keys(e.captures).sort() : [];
  if (captures.length > 0) {
    parts.push(captures.map((k) => `${mdText(k)}=${mdText((e.captures?.[k] ?? '').replace(/[\r\n]+/g, ' '))}`).join(', '));
  }
  // Not a list: a fenced block after a list item would need indenting to stay in it.
  return [parts.join(' · '), '', ...fenced(text, 'text')];
}
