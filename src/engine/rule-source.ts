import yaml from 'js-yaml';

/** A problem in a rule file (or a file of shared signals), with where it is. */
export interface RuleIssue {
  file: string;
  line: number;
  reason: string;
}

/** A problem at a YAML path (keys; indices are skipped when finding its line). */
export interface PathProblem {
  path: string[];
  reason: string;
}

/** A pack file's YAML document, or the issue that says why it is not one. */
export function parseRuleYaml(file: string, text: string): { document: unknown } | { issue: RuleIssue } {
  try {
    return { document: yaml.load(text, { schema: yaml.JSON_SCHEMA, filename: file }) };
  } catch (err) {
    const mark = (err as { mark?: { line?: number } }).mark;
    return { issue: { file, line: (mark?.line ?? 0) + 1, reason: `YAML: ${(err as Error).message.split('\n', 1)[0]}` } };
  }
}

/** The 1-based line where a YAML path (keys, indices ignored) is written, best effort. */
export function lineOfPath(text: string, path: readonly string[]): number {
  const lines = text.split('\n');
  let line = 0;
  for (const key of path) {
    if (/^\d+$/.test(key)) continue;
    const pattern = new RegExp(`^\\s*(- )?["']?${escapeRegExp(key)}["']?\\s*:`);
    for (let i = line; i < lines.length; i++) {
      if (pattern.test(lines[i]!)) {
        line = i;
        break;
      }
    }
  }
  return line + 1;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
