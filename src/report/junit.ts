/**
 * JUnit XML for CI dashboards (Prow/Spyglass, GitLab, Jenkins): `<testsuites>` holding one
 * `<testsuite name="mgsift">`, one `<testcase>` per rule evaluated, by ruleId:
 * - a root cause of the diagnosis whose chain holds a finding at or above `failOn`:
 *   `<failure message type>` (the message, first evidence, where to look next, then the
 *   symptoms it explains); so one failure per root cause;
 * - a finding a root cause explains (a symptom): passes, its text in `<system-out>` with the
 *   root that explains it;
 * - a rule whose findings are all below `failOn`: passes, the findings in `<system-out>`;
 * - a rule not checked: `<skipped message="reason"/>`; a rule checked in part (it found nothing
 *   in the part of its scope the input holds): `<skipped message="checked in part: reason"/>`;
 * - a rule that passed: an empty testcase;
 * - a cut or corrupt archive: a testcase `mgsift.input` failing with how far it was read.
 * `classname` is `mgsift.<component>` (`mgsift.rules` when a rule names none). Banners, problems and the
 * Known update risks summary go to the suite's `<system-out>`.
 *
 * Escaping: characters illegal in XML 1.0 (NUL and other control characters, lone surrogates,
 * U+FFFE/U+FFFF) are replaced by visible stand-ins ({@link sanitizeText}); `& < > " '` are
 * escaped; CR, LF and TAB in attributes are written as character references so they survive
 * attribute normalization. No CDATA sections (archive text may hold `]]>`).
 */
import { findingId, severityRank } from '../engine/findings.js';
import { channelText, fromClusterVersion } from '../facts/cluster.js';
import type { Finding, Severity } from '../engine/findings.js';
import type { Report } from './model.js';
import { compareStrings, displayTime, formatUtc, sanitizeText, sortFindings, sortProblems, truncationText } from './common.js';
import { reportUpdateRisks, updateRisksSummary } from './update-risks.js';
import { nodeSentence, symptomsOf } from './diagnosis.js';
import type { DiagnosisNode } from '../engine/diagnosis.js';

/** Message attributes longer than this are cut (the body holds the full text). */
const MESSAGE_ATTR_MAX = 500;
/** Classname of rules the report gives no component for. */
const NO_COMPONENT = 'rules';

interface Case {
  ruleId: string;
  classname: string;
  name: string;
  kind: 'failure' | 'passed-with-findings' | 'skipped' | 'passed';
  findings: Finding[];
  reason: string;
  /** For a root cause: the chain it explains; for a symptom: its root's rule id. */
  root?: DiagnosisNode | undefined;
  explainedBy?: string | undefined;
}

function classname(component: string): string {
  return `mgsift.${component === '' ? NO_COMPONENT : component}`;
}

/** The report as JUnit XML; findings at or above `failOn` fail their testcase. */
export function renderJunit(report: Report, failOn: Severity): string {
  const threshold = severityRank(failOn);
  const roots = new Map(report.diagnosis.roots.map((r) => [r.ruleId, r]));
  const rootOf = new Map<string, string>();
  for (const root of report.diagnosis.roots) for (const s of symptomsOf(root)) if (!rootOf.has(s.ruleId)) rootOf.set(s.ruleId, root.ruleId);
  const worst = (root: DiagnosisNode): number => Math.max(severityRank(root.severity), ...symptomsOf(root).map((s) => severityRank(s.severity)));
  const cases = new Map<string, Case>();
  // A rule with `per` makes one finding per key (an alert, a risk): each is its own testcase.
  for (const f of sortFindings(report.findings)) {
    const id = findingId(f);
    const existing = cases.get(id);
    const root = roots.get(id);
    const explainedBy = rootOf.get(id);
    const fails = root !== undefined ? worst(root) >= threshold : explainedBy === undefined && severityRank(f.severity) >= threshold;
    if (existing !== undefined) {
      existing.findings.push(f);
      if (fails) existing.kind = 'failure';
      continue;
    }
    cases.set(id, {
      ruleId: id,
      classname: classname(f.component),
      name: `${id}: ${f.title}`,
      kind: fails ? 'failure' : 'passed-with-findings',
      findings: [f],
      reason: '',
      root,
      explainedBy,
    });
  }
  const fired = new Set(report.findings.map((f) => f.ruleId));
  // A rule that cannot apply is skipped too, saying so: the suite still lists every rule of the pack.
  const unchecked = [
    ...report.notChecked,
    ...report.checkedInPart.map((n) => ({ ...n, reason: `checked in part: ${n.reason}` })),
    ...report.notApplicable.map((n) => ({ ...n, reason: `not applicable: ${n.reason}` })),
  ];
  for (const n of unchecked) {
    if (cases.has(n.ruleId) || fired.has(n.ruleId)) continue;
    cases.set(n.ruleId, {
      ruleId: n.ruleId,
      classname: classname(n.component),
      name: `${n.ruleId}: ${n.title}`,
      kind: 'skipped',
      findings: [],
      reason: n.reason,
    });
  }
  // Not a pass: skipped, saying which data was not given.
  for (const n of report.notRun) {
    for (const r of n.rules) {
      if (cases.has(r.ruleId) || fired.has(r.ruleId)) continue;
      cases.set(r.ruleId, { ruleId: r.ruleId, classname: classname(r.component), name: `${r.ruleId}: ${r.title}`, kind: 'skipped', findings: [], reason: n.note });
    }
  }
  for (const p of report.passed) {
    if (cases.has(p.ruleId) || fired.has(p.ruleId)) continue;
    cases.set(p.ruleId, {
      ruleId: p.ruleId,
      classname: classname(p.component),
      name: `${p.ruleId}: ${p.title}`,
      kind: 'passed',
      findings: [],
      reason: '',
    });
  }
  const ordered = [...cases.values()].sort((a, b) => compareStrings(a.ruleId, b.ruleId));
  // A cut or corrupt archive fails a testcase of its own: the rules' passes hold for the part read only.
  const truncation = report.input.truncated?.by === 'damage' ? report.input.truncated : undefined;
  const tests = ordered.length + (truncation ? 1 : 0);
  const failures = ordered.filter((c) => c.kind === 'failure').length + (truncation ? 1 : 0);
  const skipped = ordered.filter((c) => c.kind === 'skipped').length;
  const time = (Math.max(0, Number.isFinite(report.stats.durationMs) ? report.stats.durationMs : 0) / 1000).toFixed(3);

  const counts = `tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}"`;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="mgsift" ${counts}>`);
  out.push(`  <testsuite name="mgsift" ${counts} timestamp="${attr(report.generatedAt)}">`);
  out.push('    <properties>');
  const props: [string, string | undefined][] = [
    ['mgsift.version', report.tool.version],
    ['mgsift.build', report.tool.build],
    ['fail-on', failOn],
    ['input.path', report.input.path],
    ['input.container', report.input.container],
    ['input.layout', report.input.layout],
    ['cluster.id', report.cluster.id],
    ['cluster.version', report.cluster.version],
    ['cluster.desiredVersion', report.cluster.desiredVersion],
    ['cluster.platform', report.cluster.platform],
    ['cluster.channel', fromClusterVersion(report.cluster) ? channelText(report.cluster.channel, true) : undefined],
    ['collectedAt', report.collectedAt],
    // The headline: the version and update in progress, then the health counts (also first in system-out).
    ['summary.update', report.summary.headline[0]],
    ['summary.health', report.summary.headline[1]],
    ['summary.update.assessment', report.summary.update?.assessment],
    ['summary.update.target', report.summary.update?.target],
    ['summary.update.completionPercent', report.summary.update === null ? undefined : String(report.summary.update.completionPercent)],
  ];
  for (const [name, value] of props) {
    if (value !== undefined && value !== '') out.push(`      <property name="${attr(name)}" value="${attr(value)}"/>`);
  }
  out.push('    </properties>');
  if (truncation) {
    const message = `${truncationText(truncation)}; anything after it was not checked`;
    out.push(
      `    <testcase classname="mgsift.input" name="input: the archive was read to its end" time="0">`,
      `      <failure message="${attr(cut(message, MESSAGE_ATTR_MAX))}" type="truncated">${text(message)}</failure>`,
      '    </testcase>',
    );
  }

  for (const c of ordered) {
    const open = `    <testcase classname="${attr(c.classname)}" name="${attr(c.name)}" time="0"`;
    if (c.kind === 'passed') {
      out.push(`${open}/>`);
    } else if (c.kind === 'skipped') {
      out.push(`${open}>`, `      <skipped message="${attr(c.reason)}"/>`, '    </testcase>');
    } else if (c.kind === 'failure') {
      const failing = c.findings.filter((f) => severityRank(f.severity) >= threshold);
      const first = failing[0] ?? c.findings[0];
      const message = first !== undefined ? cut(`[${first.severity}] ${firstLine(first.message)}`, MESSAGE_ATTR_MAX) : '';
      const severity = first?.severity ?? failOn;
      const body = [...c.findings.map(describe), ...(c.root ? [symptomsText(c.root, report.collectedAt)] : [])].filter((x) => x !== '');
      out.push(
        `${open}>`,
        `      <failure message="${attr(message)}" type="${attr(severity)}">${text(body.join('\n\n'))}</failure>`,
        '    </testcase>',
      );
    } else {
      const note = c.explainedBy !== undefined ? [`Explained by root cause ${c.explainedBy} (its failure lists this finding).`] : [];
      out.push(
        `${open}>`,
        `      <system-out>${text([...note, ...c.findings.map(describe)].join('\n\n'))}</system-out>`,
        '    </testcase>',
      );
    }
  }

  const suiteOut: string[] = [...report.summary.headline];
  for (const banner of report.banners) suiteOut.push(`BANNER: ${banner}`);
  for (const p of sortProblems(report.problems)) suiteOut.push(`could not read (${p.severity}) ${p.path || '(input)'}: ${p.reason}`);
  if (report.collectedAt !== undefined) suiteOut.push(`collected: ${displayTime(report.collectedAt)}`);
  // Risks that apply are the update-risk rules' testcases; the rest of the section in one line.
  suiteOut.push(`known update risks: ${updateRisksSummary(report.updateRisks ?? reportUpdateRisks(undefined))}`);
  if (suiteOut.length > 0) out.push(`    <system-out>${text(suiteOut.join('\n'))}</system-out>`);
  out.push('  </testsuite>', '</testsuites>', '');
  return out.join('\n');
}

/** One finding as plain text: message, first evidence, how much more there is. */
function describe(f: Finding): string {
  const lines = [`[${f.severity}] ${f.title}`, f.message];
  const e = f.evidence[0];
  if (e !== undefined) {
    const where = `${e.file === '' ? '(derived fact)' : e.file}${e.line !== undefined ? `:${e.line}` : ''}`;
    const when = e.time !== undefined && Number.isFinite(e.time) ? ` (${formatUtc(e.time)})` : '';
    lines.push('', `Evidence: ${where}${when}`, `  ${e.text}`);
    const more = f.evidence.length - 1 + Math.max(f.evidenceDropped, 0);
    if (more > 0) lines.push(`  (${more} more evidence item${more === 1 ? '' : 's'} in the full report)`);
  }
  if (f.remediation.trim() !== '') lines.push('', 'Remediation:', f.remediation.trimEnd());
  return lines.join('\n');
}

/** The findings a root cause explains, one line each, indented by depth. */
function symptomsText(root: DiagnosisNode, collectedAt: string | undefined): string {
  const lines: string[] = [];
  const walk = (node: DiagnosisNode, depth: number): void => {
    for (const child of node.explains) {
      lines.push(`${'  '.repeat(depth)}→ [${child.severity}] ${child.ruleId}: ${nodeSentence(child, collectedAt)}${child.reason !== undefined ? ` (${child.reason})` : ''}`);
      walk(child, depth + 1);
    }
  };
  walk(root, 0);
  return lines.length > 0 ? `Symptoms it explains (testcases of their own, passing):\n${lines.join('\n')}` : '';
}

function firstLine(s: string): string {
  return (s.split(/\r?\n/).find((line) => line.trim() !== '') ?? '').trim();
}

function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** XML character data. */
export function text(s: string): string {
  return sanitizeText(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

/** XML attribute value (double-quoted). */
export function attr(s: string): string {
  return sanitizeText(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}
