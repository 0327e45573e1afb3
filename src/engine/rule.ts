import type { ConditionNode } from './condition.js';
import type { CelProgram } from './cel.js';
import type { Template } from './templates.js';
import type { Severity } from './findings.js';

/** A rule as loaded, validated and compiled from its YAML file. */
export interface Rule {
  id: string;
  title: string;
  severity: Severity;
  status: 'experimental' | 'stable' | 'deprecated';
  component: string;
  tags: string[];
  /** Templates: a reference may name the evidence's own link (an alert's runbook); empty ones are dropped. */
  references: Template[];
  falsepositives: string;
  applies: { versions?: string | undefined; inputs?: string[] | undefined };
  signals: Signal[];
  condition: ConditionNode;
  severityWhen: { condition: ConditionNode; severity: Severity }[];
  message: Template;
  remediation: Template | undefined;
  banner: Template | undefined;
  /** One finding per key this renders from each evidence item (see `per` in rules/README.md). */
  per: Template | undefined;
  maxEvidence: number;
  /** Where the rule came from. */
  file: string;
  builtin: boolean;
}

export interface LogSelector {
  namespace?: string | undefined;
  pod?: RegExp | undefined;
  container?: string | undefined;
  stream?: string | undefined;
  path?: RegExp | undefined;
  bare?: boolean | undefined;
}

interface SignalBase {
  name: string;
}

export interface LogSignal extends SignalBase {
  type: 'log';
  files: LogSelector[];
  regex: RegExp;
  /** Any of these must occur in a line before the regex runs; undefined: no prefilter. */
  literals: string[] | undefined;
  levels: Set<string> | undefined;
  /** When set, the signal's data counts as present only once a line matching this is seen. */
  presence: LogSignal | undefined;
}

export interface ResourceSignal extends SignalBase {
  type: 'resource';
  group: string;
  kind: string;
  /** Plural resource, as the archive's folders and file names carry it. */
  resource: string;
  namespace: string | undefined;
  objectName: string | undefined;
  where: CelProgram | undefined;
  summary: Template | undefined;
}

export interface EventSignal extends SignalBase {
  type: 'event';
  reason: RegExp | undefined;
  message: RegExp | undefined;
  literal: string | undefined;
  namespace: string | undefined;
  involvedKind: string | undefined;
  involvedName: RegExp | undefined;
  /** CEL over `object` (the event). */
  where: CelProgram | undefined;
}

export interface FactSignal extends SignalBase {
  type: 'fact';
  fact: string;
  where: CelProgram | undefined;
  summary: Template | undefined;
}

export type Signal = LogSignal | ResourceSignal | EventSignal | FactSignal;
