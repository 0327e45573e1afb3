/**
 * The diagnosis as every renderer words it: each root cause in one sentence (title, objects,
 * since when) and under it the chain of what it explains, each link with its reason. Pure
 * strings (sanitized); each renderer escapes for its own format.
 */
import type { DiagnosisNode, ObjectRef } from '../engine/diagnosis.js';
import { describeObject } from '../engine/diagnosis.js';
import type { Report } from './model.js';
import { sanitizeText, sinceText, sortFindings, truncationSummary } from './common.js';
import { findingId, type Finding } from '../engine/findings.js';
import { mdText } from './md.js';

/** Objects named per finding in the diagnosis; the finding itself lists them all. */
const OBJECTS_SHOWN = 4;

/**
 * Why no rule could be checked on an archive (no finding, none passed, none checked even in
 * part), in one line naming the first reasons; undefined when some rule was checked.
 */
export function nothingChecked(report: Report): string | undefined {
  // Rules not run for want of data the command line did not give (update risks) count too:
  // a run where they are all that is left checked nothing. So do rules that cannot apply here.
  const notRun = report.notRun.reduce((n, r) => n + r.rules.length, 0);
  const unchecked = report.notChecked.length + report.notApplicable.length + notRun;
  if (unchecked === 0 || report.findings.length > 0 || report.passed.length > 0 || report.checkedInPart.length > 0) return undefined;
  const parts = [
    ...firstReasons('not checked', report.notChecked),
    ...firstReasons('not applicable', report.notApplicable),
    ...report.notRun.map((n) => n.note),
  ];
  return `no rule could be checked (${parts.join('; ')})`;
}

/** `N <what>: id: reason; id: reason; and M more`, or nothing for no rule. */
function firstReasons(what: string, rules: readonly { ruleId: string; reason: string }[]): string[] {
  if (rules.length === 0) return [];
  const shown = rules.slice(0, 2).map((n) => `${n.ruleId}: ${n.reason}`);
  const more = rules.length > shown.length ? `; and ${rules.length - shown.length} more` : '';
  return [`${rules.length} ${what}: ${shown.join('; ')}${more}`];
}

/**
 * Said when no finding at warning or above remains: a plain sentence, for every format. When no
 * rule could be checked at all it says so instead: "no problem found" would vouch for what was
 * never read.
 */
export function noProblemSentence(report: Report): string {
  if (nothingChecked(report) !== undefined) {
    const see = [...(report.notChecked.length > 0 ? ['"Rules not checked"'] : []), ...(report.notApplicable.length > 0 ? ['"Rules not applicable"'] : [])];
    return `Nothing checked: no rule could be checked on this input, so this report says nothing about the cluster's health${see.length > 0 ? ` (see ${see.join(' and ')})` : ''}.`;
  }
  const info = report.counts.info ?? 0;
  const context = info > 0 ? ` (${info} informational finding${info === 1 ? '' : 's'} below, none of them a problem)` : '';
  const truncated = report.input.truncated;
  // What was never read cannot be vouched for: the sentence is about the part read.
  const where = truncated ? ` in the part that could be read (${truncationSummary(truncated)}; the rest was not checked)` : '';
  return `No problem found${where}: no rule found anything at warning or above${context}.`;
}

/**
 * The line above the roots: how many, and for an input that stopped early, that they are those
 * of the part read.
 */
function rootsSentence(report: Report, rest: string): string {
  const n = report.diagnosis.roots.length;
  const part = report.input.truncated ? ' in the part that could be read' : '';
  return `${n} root cause${n === 1 ? '' : 's'}${part}, ${rest}`;
}


/** `MachineConfigPool master, MachineConfigPool worker` (at most four, then how many more). */
export function objectsText(about: readonly ObjectRef[]): string {
  const shown = about.slice(0, OBJECTS_SHOWN).map(describeObject);
  const more = about.length - shown.length;
  return sanitizeText(shown.join(', ') + (more > 0 ? ` and ${more} more` : ''));
}

/**
 * One node as the diagnosis leads with it: its headline, then its rule's title as the class
 * (`headline · title`); a node for part of its finding adds that part's objects and since.
 */
export function nodeSentence(node: DiagnosisNode, collectedAt: string | undefined): string {
  return sanitizeText(`${node.headline} · ${node.title}${partDetail(node, collectedAt)}`);
}

/** ` — objects, since 2021-04-29 23:34:37Z` of a node for part of its finding (empty for a whole one, or when neither is known). */
function partDetail(node: DiagnosisNode, collectedAt: string | undefined): string {
  if (!node.partial) return '';
  const objects = node.about.length > 0 ? ` — ${objectsText(node.about)}` : '';
  // To the second: a sentence, not a log line.
  const since = node.since !== undefined ? `${objects === '' ? ' —' : ','} since ${sinceText(Math.floor(node.since / 1000) * 1000, collectedAt)}` : '';
  return sanitizeText(`${objects}${since}`);
}

/** A root and everything under it, depth-first, as flat lines (depth 0 is the root). */
export function flattenChain(root: DiagnosisNode): { depth: number; node: DiagnosisNode }[] {
  const out: { depth: number; node: DiagnosisNode }[] = [];
  const walk = (node: DiagnosisNode, depth: number): void => {
    out.push({ depth, node });
    for (const child of node.explains) walk(child, depth + 1);
  };
  walk(root, 0);
  return out;
}

/** Rule ids of every finding a root explains, in chain order. */
export function symptomsOf(root: DiagnosisNode): DiagnosisNode[] {
  return flattenChain(root)
    .slice(1)
    .map((x) => x.node);
}

/** Findings in no root's chain (context, mostly info), most severe first. */
function findingsOutsideChains(report: Report): Finding[] {
  const inChains = new Set(report.diagnosis.roots.flatMap((root) => flattenChain(root).map((x) => x.node.ruleId)));
  return sortFindings(report.findings).filter((f) => !inChains.has(findingId(f)));
}

/** A finding outside the chains as the diagnosis names it: its headline (a history's says it is over). */
function findingLabel(f: Finding): string {
  return sanitizeText(f.headline);
}

/** Rules listed per section in the terminal; the reports list them all. */
const TEXT_RULES_SHOWN = 8;

/** `Rules not checked (3):` and a line per rule, at most {@link TEXT_RULES_SHOWN}. */
function ruleLines(heading: string, rules: readonly { ruleId: string; reason: string }[]): string[] {
  if (rules.length === 0) return [];
  const shown = rules.slice(0, TEXT_RULES_SHOWN).map((r) => sanitizeText(`  ${r.ruleId}: ${r.reason}`));
  const more = rules.length - shown.length;
  return [`${heading} (${rules.length}):`, ...shown, ...(more > 0 ? [`  and ${more} more (every one in the HTML, Markdown and JSON reports)`] : [])];
}

/**
 * The diagnosis for a terminal (`analyze --format text`): the roots and their chains, then one
 * line per finding outside them and per rule not checked, so "Read this first" is answered on
 * the same screen.
 */
export function renderDiagnosisText(report: Report): string {
  const lines: string[] = [];
  const c = report.cluster;
  const cluster = [c.id, c.version].filter((x) => x !== undefined && x !== '').join(' ');
  lines.push(sanitizeText(`Diagnosis of ${report.input.path}${cluster !== '' ? ` (cluster ${cluster})` : ''}`));
  lines.push(...report.summary.headline);
  for (const banner of report.banners) lines.push(sanitizeText(`Read this first: ${banner}`));
  const roots = report.diagnosis.roots;
  if (roots.length === 0) {
    lines.push(noProblemSentence(report));
  } else {
    lines.push(rootsSentence(report, 'most severe first:'));
    roots.forEach((root, i) => {
      for (const { depth, node } of flattenChain(root)) {
        const head = depth === 0 ? `${i + 1}. ` : `${'   '.repeat(depth)}→ `;
        const reason = node.reason !== undefined ? ` [${sanitizeText(node.reason)}]` : '';
        lines.push(`${head}${node.severity.toUpperCase()} ${nodeSentence(node, report.collectedAt)} (${sanitizeText(node.ruleId)})${reason}`);
      }
    });
  }
  for (const cycle of report.diagnosis.cyclesBroken) lines.push(sanitizeText(`Cycle broken: ${cycle}`));
  const others = findingsOutsideChains(report);
  if (others.length > 0) {
    lines.push(`${roots.length === 0 ? 'Findings' : 'Outside any chain'} (${others.length}):`);
    for (const f of others) lines.push(`  ${f.severity.toUpperCase()} ${sanitizeText(findingId(f))}: ${findingLabel(f)}`);
  }
  lines.push(
    ...ruleLines('Rules not checked', report.notChecked),
    ...ruleLines('Rules checked in part', report.checkedInPart),
    ...ruleLines('Rules not applicable', report.notApplicable),
  );
  for (const n of report.notRun) lines.push(sanitizeText(`Not run: ${n.note}`));
  return `${lines.join('\n')}\n`;
}

/** The Markdown section: roots as a numbered list, each chain as nested bullets. */
export function diagnosisMarkdown(report: Report): string[] {
  const out: string[] = ['## Diagnosis', ''];
  const roots = report.diagnosis.roots;
  if (roots.length === 0) return [...out, mdText(noProblemSentence(report)), ''];
  out.push(rootsSentence(report, 'most severe first; each explains the findings nested under it (details under Findings).'), '');
  roots.forEach((root, i) => {
    for (const { depth, node } of flattenChain(root)) {
      const marker = depth === 0 ? `${i + 1}. ` : `${'   '.repeat(depth)}- → `;
      const reason = node.reason !== undefined ? ` *(${mdText(node.reason)})*` : '';
      out.push(`${marker}**${node.severity.toUpperCase()}** ${mdText(sanitizeText(node.headline))} · *${mdText(sanitizeText(node.title))}*${mdText(partDetail(node, report.collectedAt))} \`${node.ruleId}\`${reason}`);
    }
  });
  out.push('');
  for (const cycle of report.diagnosis.cyclesBroken) out.push(`*Cycle broken: ${mdText(cycle)}*`, '');
  return out;
}

/**
 * The Markdown section when the size budget is tight: the roots alone, each by its rule and first
 * object with the number of findings it explains; `oneLine` puts them in one sentence.
 */
export function diagnosisMarkdownShort(report: Report, oneLine = false): string[] {
  const roots = report.diagnosis.roots;
  if (roots.length === 0) return oneLine ? [`**Diagnosis:** ${mdText(noProblemSentence(report))}`, ''] : ['## Diagnosis', '', mdText(noProblemSentence(report)), ''];
  const explains = (root: DiagnosisNode): string => {
    const n = symptomsOf(root).length;
    return n > 0 ? `explains ${n}` : '';
  };
  if (oneLine) {
    const list = roots.map((root) => `\`${root.ruleId}\`${explains(root) !== '' ? ` (${explains(root)})` : ''}`).join(', ');
    return [`**Diagnosis:** ${roots.length} root cause${roots.length === 1 ? '' : 's'}: ${list}.`, ''];
  }
  const lines = roots.map((root, i) => {
    const object = root.about.length > 0 ? ` — ${mdText(objectsText(root.about.slice(0, 1)))}${root.about.length > 1 ? ` +${root.about.length - 1}` : ''}` : '';
    const tail = explains(root) !== '' ? `; ${explains(root)}` : '';
    return `${i + 1}. **${root.severity.toUpperCase()}** \`${root.ruleId}\`${object}${tail}`;
  });
  return ['## Diagnosis', '', rootsSentence(report, 'most severe first (the chains under them are left out for size):'), '', ...lines, ''];
}

export interface DiagnosisNodeView {
  href: string;
  severity: string;
  ruleId: string;
  /** The finding's headline, the link; then its rule's title, the class, in smaller type. */
  headline: string;
  title: string;
  /** For a node standing for part of its finding: that part's objects and since. */
  detail: string;
  reason: string | null;
  children: DiagnosisNodeView[];
  hasChildren: boolean;
}

export interface DiagnosisView {
  roots: DiagnosisNodeView[];
  hasRoots: boolean;
  summary: string;
  /** Findings outside every chain (context, mostly info), linked so each finding is one click from the top. */
  /** Shown by rule id (the title on hover): the line must stay on the first screen. */
  others: { href: string; severity: string; title: string; ruleId: string; resolved: boolean }[];
  hasOthers: boolean;
  cycles: string[];
}

/** What the HTML partial prints: each node links to its finding (`#finding-<ruleId>`). */
export function diagnosisView(report: Report): DiagnosisView {
  const view = (node: DiagnosisNode): DiagnosisNodeView => ({
    href: `#${findingAnchor(node.ruleId)}`,
    severity: node.severity,
    ruleId: sanitizeText(node.ruleId),
    headline: sanitizeText(node.headline),
    title: sanitizeText(node.title),
    detail: partDetail(node, report.collectedAt),
    reason: node.reason !== undefined ? sanitizeText(node.reason) : null,
    children: node.explains.map(view),
    hasChildren: node.explains.length > 0,
  });
  const roots = report.diagnosis.roots;
  const others = findingsOutsideChains(report).map((f) => ({ href: `#${findingAnchor(findingId(f))}`, severity: f.severity, title: findingLabel(f), ruleId: sanitizeText(findingId(f)), resolved: f.resolved !== undefined }));
  return {
    roots: roots.map(view),
    hasRoots: roots.length > 0,
    others,
    hasOthers: others.length > 0,
    summary:
      roots.length === 0
        ? noProblemSentence(report)
        : rootsSentence(report, 'most severe first; each explains the findings nested under it.'),
    cycles: report.diagnosis.cyclesBroken.map((c) => sanitizeText(`Cycle broken: ${c}`)),
  };
}

/** The id of a finding's element in the HTML report (rule ids are kebab-case by schema). */
export function findingAnchor(ruleId: string): string {
  return `finding-${ruleId.replace(/[^a-z0-9-]/gi, '_')}`;
}
