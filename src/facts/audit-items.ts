import type { AuditSummary } from './audit.js';
import { isPlatformUser } from './audit.js';

/**
 * The audit facts as rules read them (`audit.changes`, `audit.throttled`, `audit.denied`): the
 * summary's rows with times in ms and their age, in minutes, at the collection time (the last
 * audit event's time without one), so that a rule can tell a burst long ago from one at the end.
 */
export function auditItems(summary: AuditSummary, name: 'audit.changes' | 'audit.throttled' | 'audit.denied', collectedAt: number | undefined): unknown[] {
  const end = collectedAt ?? (summary.window ? Date.parse(summary.window.last) : undefined);
  const age = (ms: number): number | undefined => (end === undefined || !Number.isFinite(ms) ? undefined : Math.max(0, Math.round((end - ms) / 60_000)));
  const file = summary.files[0]?.path ?? '';
  switch (name) {
    case 'audit.changes':
      return summary.changes.map((c) => ({ ...c, time: Date.parse(c.time), ageMinutes: age(Date.parse(c.time)), file }));
    case 'audit.throttled':
      return summary.throttled.map((t) => ({ ...t, firstTime: Date.parse(t.first), lastMs: Date.parse(t.last), ageMinutes: age(Date.parse(t.last)), platform: isPlatformUser(t.user), file }));
    case 'audit.denied':
      return summary.denied.map((d) => ({ ...d, firstTime: Date.parse(d.first), lastMs: Date.parse(d.last), ageMinutes: age(Date.parse(d.last)), platform: isPlatformUser(d.user), file }));
  }
}
