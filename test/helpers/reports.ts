/**
 * The report views several test files read from the built CLI: the timeline as JSON, the digest
 * of unrecognised errors, the Markdown report.
 */
import { expect } from 'vitest';
import { mgsift } from './cli.js';

export interface Item {
  lane: string;
  start: string;
  end?: string;
  open?: boolean;
  relative?: string;
  label: string;
  detail?: string;
  namespace?: string;
  count?: number;
  ruleId?: string;
}
export interface TimelineJson {
  input: string;
  collectedAt?: string;
  filters: string[];
  notes: string[];
  items: Item[];
  omitted: { lane: string; count: number; reason: string }[];
}

export function timelineJson(args: string[]): TimelineJson {
  const run = mgsift(['timeline', ...args, '--format', 'json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as TimelineJson;
}

export interface Digest {
  lines: number;
  explained: number;
  templates: number;
  components: { name: string; count: number; templates: { template: string; count: number; example: { text: string } }[] }[];
}

export function digestOf(input: string): Digest {
  const run = mgsift(['analyze', input, '--format', 'json', '-o', '-', '--fail-on', 'critical']);
  expect(run.stderr).toBe('');
  return (JSON.parse(run.stdout) as { digest: Digest }).digest;
}

/** Every template with its component and count, most lines first. */
export function topTemplates(digest: Digest, n: number): [number, string, string][] {
  return digest.components
    .flatMap((c) => c.templates.map((t): [number, string, string] => [t.count, c.name, t.template]))
    .sort((a, b) => b[0] - a[0] || (a[2] < b[2] ? -1 : 1))
    .slice(0, n);
}

export function markdownReport(input: string, extra: string[] = []): string {
  const run = mgsift(['analyze', input, '--format', 'md', '-o', '-', '--fail-on', 'critical', ...extra]);
  expect(run.stderr).toBe('');
  return run.stdout;
}
