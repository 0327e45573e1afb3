import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAuditLine, scanAuditRequest, type AuditEvent } from '../../src/parsers/audit.js';

const FIXTURE = new URL('../fixtures/audit/must-gather.local.5512', import.meta.url).pathname;
const IMAGE = join(FIXTURE, readdirSync(FIXTURE).find((n) => n.startsWith('quay-io'))!);

/** The fields as a whole-line JSON.parse reads them: what the scans must agree with. */
function expected(line: string): AuditEvent {
  const e = JSON.parse(line) as {
    stage: string;
    verb: string;
    user: { username: string };
    sourceIPs: string[];
    userAgent: string;
    objectRef?: Record<string, string>;
    responseStatus?: { code: number };
    requestReceivedTimestamp: string;
    stageTimestamp: string;
  };
  return {
    time: Date.parse(e.stageTimestamp),
    stage: e.stage,
    verb: e.verb,
    user: e.user.username,
    code: e.responseStatus?.code ?? 0,
    sourceIP: e.sourceIPs[0]!,
    userAgent: e.userAgent,
    resource: e.objectRef?.resource ?? '',
    namespace: e.objectRef?.namespace ?? '',
    name: e.objectRef?.name ?? '',
    subresource: e.objectRef?.subresource ?? '',
    apiGroup: e.objectRef?.apiGroup ?? '',
  };
}

const lines = ['kube-apiserver/master-0.lab.example.net-audit.log', 'kube-apiserver/master-0.lab.example.net-audit-2026-03-14T07-58-02.771.log', 'kube-apiserver/master-1.lab.example.net-audit.log']
  .flatMap((file) => readFileSync(join(IMAGE, 'audit_logs', file), 'utf8').split('\n'))
  .filter((line) => line !== '');

describe('audit line parsing', () => {
  it('agrees with JSON.parse on every fixture line', () => {
    for (const line of lines) {
      const want = expected(line);
      expect(parseAuditLine(line)).toEqual(want);
      const { time, stage, verb, user, code } = want;
      expect(scanAuditRequest(line)).toEqual({ time, stage, verb, user, code });
    }
  });

  it('reads escaped strings, and a body holding key-like words, right', () => {
    const line = lines.find((l) => l.includes('"paused":true'))!;
    expect(line).toContain('\\"verb\\":\\"get\\"');
    expect(parseAuditLine(line)?.verb).toBe('patch');
    const escaped = line.replace('"username":"alice"', '"username":"al\\"ice\\u00e9"');
    expect(scanAuditRequest(escaped)?.user).toBe('al"iceé');
    expect(parseAuditLine(escaped)?.user).toBe('al"iceé');
  });

  it('reads a line in another key order (re-encoded by another tool) whole', () => {
    const line = lines[5]!;
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(line) as Record<string, unknown>).reverse()));
    expect(scanAuditRequest(reordered)).toBeUndefined();
    expect(parseAuditLine(reordered)).toEqual(expected(line));
  });

  it('takes no other line for an event', () => {
    expect(parseAuditLine('I0314 07:58:01.000000       1 main.go:42] Received SIGTERM')).toBeUndefined();
    expect(parseAuditLine('{"kind":"Pod","apiVersion":"v1"}')).toBeUndefined();
    expect(scanAuditRequest('')).toBeUndefined();
  });
});
