/**
 * A rule skeleton for a template of the unrecognised-errors digest: the rule YAML (a log signal
 * scoped to the template's component, a regex built from the template, the klog level) and its
 * fixtures (the real example line must fire; the same line at info level must stay quiet), in
 * the format `rules/README.md` describes. Everything a person must still say (title aside: what
 * the failure means, what to do) is marked `EDIT:`.
 */
import { posix } from 'node:path';
import yaml from 'js-yaml';
import { classifyPath } from '../layout/classify.js';
import { failurePattern } from '../digest/patterns.js';
import { CUT_MARK, longestLiteral, templateRegex, variableCount } from '../digest/template.js';
import { unsafeRegexReason } from '../engine/regex-safety.js';
import { PLACEHOLDER } from '../engine/rule-source.js';

/** What a skeleton needs of a digest template (a report's template row plus its component). */
export interface SkeletonSource {
  id: string;
  component: string;
  pattern: string;
  level: string;
  template: string;
  count: number;
  example: { file: string; line: number; text: string };
}

export interface SkeletonOptions {
  /** Rule id; default: from the component and the template's first words. */
  ruleId?: string | undefined;
  /** The input was a single log file (the example's file is that file). */
  bareInput: boolean;
  /** Where the template came from (a report or an input path), for the comments. */
  origin: string;
}

export interface RuleSkeleton {
  ruleId: string;
  /** Files to write, relative to the rules folder. */
  files: { path: string; content: string }[];
}

const RULE_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** A rule regex must stay short (the loader refuses more than 2000 characters). */
const MAX_REGEX = 1500;
const SIGNAL = 'error';

export class SkeletonError extends Error {}

export function ruleSkeleton(source: SkeletonSource, options: SkeletonOptions): RuleSkeleton {
  const pattern = failurePattern(source.pattern);
  if (!pattern) throw new SkeletonError(`template ${source.id}: unknown pattern '${source.pattern}'`);
  const ruleId = options.ruleId ?? defaultRuleId(source);
  if (!RULE_ID.test(ruleId)) throw new SkeletonError(`rule id '${ruleId}' is not kebab-case (a-z, 0-9 and single dashes)`);
  const folder = slug(lastSegment(source.component)) || 'digest';
  const { regex, literal } = ruleRegex(source.template);

  const exampleLine = firstLine(source.example.text);
  const quietLine = pattern.demote(exampleLine);
  // A klog near-miss may match the regex: the rule's level filter keeps it quiet.
  if (quietLine === undefined || (source.pattern !== 'klog' && new RegExp(regex).test(quietLine))) {
    throw new SkeletonError(`template ${source.id}: no near-miss line can be made from the example`);
  }
  const logFile = options.bareInput ? 'input.log' : `input/${source.example.file.replace(/\.(gz|xz)$/, '')}`;
  const evidenceFile = options.bareInput ? 'input.log' : source.example.file.replace(/\.(gz|xz)$/, '');

  const log: Record<string, unknown> = { files: [selector(source.example.file, options.bareInput)], regex };
  if (literal !== '') log['literal'] = literal;
  if (source.pattern === 'klog') log['level'] = source.level;
  // A line records a moment: the author says what shows the failure over by the collection (lint asks).
  log['persists'] = `${PLACEHOLDER} replace with resolvedBy (a later success, the object's state now, or quietFor: <span>) or say why nothing later supersedes this line.`;
  const rule = {
    id: ruleId,
    title: title(source),
    severity: 'warning',
    status: 'experimental',
    component: lastSegment(source.component),
    tags: ['digest'],
    falsepositives: `${PLACEHOLDER} when this line is expected and harmless (during install, during an update, ...).`,
    signals: { [SIGNAL]: { description: `Lines of digest template ${source.id} (${source.component}).`, log } },
    headline: `${PLACEHOLDER} what happened, in one line: {{plural signals.${SIGNAL}.count "line"}} from {{names (unique evidence 'pod') 3}} since {{time since}}`,
    message: [
      `${PLACEHOLDER} what this failure is and why it matters.`,
      `{{plural signals.${SIGNAL}.count "matching line"}}, the first at {{signals.${SIGNAL}.first.file}}:{{signals.${SIGNAL}.first.line}}:`,
      `{{signals.${SIGNAL}.first.text}}`,
    ].join('\n'),
    remediation: `${PLACEHOLDER} what to check or do about it.`,
  };
  const header = [
    `# Written by \`mgsift rules new --from ${source.id}\` from ${oneLine(options.origin)}: the digest template`,
    `#   ${oneLine(source.template)}`,
    `# (${source.count} line${source.count === 1 ? '' : 's'} in ${oneLine(source.component)}). Edit what says EDIT, then run`,
    '# `mgsift rules lint --rules <dir>` and `mgsift rules test --rules <dir>`.',
  ].join('\n');
  const ruleText = `${header}\n${yaml.dump(rule, { lineWidth: -1, noRefs: true, quotingType: "'" })}`;

  const fixtures = `${folder}/${ruleId}.fixtures`;
  const fireExpect = { fires: true, severity: 'warning', evidence: [{ file: evidenceFile, line: 2 }] };
  const readme = [
    `# ${ruleId} fixtures`,
    '',
    `Written by \`mgsift rules new\` from template \`${source.id}\` of ${oneLine(options.origin)}.`,
    '',
    `- \`fires-example\`: the real line (${oneLine(source.example.file)}:${source.example.line}) after the same line at info level.`,
    '- `quiet-info-level`: the same line at info level only: a near-miss that must stay quiet.',
    '',
  ].join('\n');
  return {
    ruleId,
    files: [
      { path: `${folder}/${ruleId}.yaml`, content: ruleText },
      { path: `${fixtures}/README.md`, content: readme },
      { path: `${fixtures}/fires-example/expect.yaml`, content: yaml.dump(fireExpect, { lineWidth: -1 }) },
      { path: `${fixtures}/fires-example/${logFile}`, content: `${quietLine}\n${exampleLine}\n` },
      { path: `${fixtures}/quiet-info-level/expect.yaml`, content: yaml.dump({ fires: false }) },
      { path: `${fixtures}/quiet-info-level/${logFile}`, content: `${quietLine}\n` },
    ],
  };
}

/**
 * The template's regex and literal prefilter; a template with too many variable parts for a
 * safe regex keeps its head only (the longest that the rule loader accepts).
 */
function ruleRegex(template: string): { regex: string; literal: string } {
  for (let variables = variableCount(template); variables >= 0; variables--) {
    const regex = templateRegex(template, variables);
    if (regex.length <= MAX_REGEX && unsafeRegexReason(regex) === undefined) return { regex, literal: longestLiteral(template, variables) };
  }
  throw new SkeletonError('no safe regex can be made from this template');
}

/** Which logs the rule reads: the container, the host log file (any node), or the bare log. */
function selector(file: string, bareInput: boolean): Record<string, string | boolean> {
  if (bareInput) return { bare: true };
  const entry = classifyPath(file);
  if (entry.kind === 'pod-log' && entry.namespace !== undefined && entry.container !== undefined) {
    return { namespace: entry.namespace, container: entry.container };
  }
  const below = entry.root !== undefined && file.startsWith(`${entry.root}/`) ? file.slice(entry.root.length + 1) : file;
  const segments = below.replace(/\.(gz|xz)$/, '').split('/');
  const glob = segments.map((segment) => (entry.node !== undefined && segment === entry.node ? '*' : segment)).join('/');
  return { path: `**/${glob}*` };
}

/** `<container>-<first words of the message>`, kebab-case, whole words up to 64 characters. */
function defaultRuleId(source: SkeletonSource): string {
  const message = source.template.replace(/^[\w.-]+:\d+\] /, '').replace(/<[^>\s]*>/g, ' ');
  let id = slug(lastSegment(source.component)).slice(0, 40);
  for (const word of (message.match(/[A-Za-z][A-Za-z0-9]+/g) ?? []).slice(0, 5)) {
    const next = id === '' ? slug(word) : `${id}-${slug(word)}`;
    if (next.length > 64) break;
    id = next;
  }
  return id || `digest-${source.id}`;
}

function title(source: SkeletonSource): string {
  const message = source.template.replace(/^[\w.-]+:\d+\] /, '').replace(CUT_MARK, '');
  const short = message.length > 80 ? `${message.slice(0, 80)}…` : message;
  return oneLine(`${lastSegment(source.component)}: ${short}`);
}

function lastSegment(component: string): string {
  return posix.basename(component);
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Text for a comment or a title: one line, no control characters. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

function firstLine(text: string): string {
  return text.split(/\r?\n/, 1)[0] ?? '';
}
