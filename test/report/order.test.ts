import { describe, expect, it } from 'vitest';
import type { Finding, Severity } from '../../src/engine/findings.js';
import { sortFindings } from '../../src/report/common.js';

function finding(ruleId: string, severity: Severity, explainedBy: string[] = []): Finding {
  return {
    ruleId,
    severity,
    title: ruleId,
    headline: ruleId,
    component: 'test',
    tags: [],
    message: '',
    remediation: '',
    references: [],
    evidence: [],
    evidenceDropped: 0,
    about: [],
    explains: [],
    explainedBy,
  } as Finding;
}

describe('findings order in every report', () => {
  it('puts root problems first, then what they explain, then info context, however severe the symptoms', () => {
    const sorted = sortFindings([
      finding('context-note', 'info'),
      finding('operator-unavailable', 'critical', ['ignition-spec']),
      finding('ignition-spec', 'error'),
      finding('explained-note', 'info', ['ignition-spec']),
      finding('second-root', 'warning'),
    ]);
    expect(sorted.map((f) => f.ruleId)).toEqual(['ignition-spec', 'second-root', 'operator-unavailable', 'explained-note', 'context-note']);
  });
});
