import type { K8sObject } from '../parsers/k8s.js';
import { recordAt, timeAt } from './internal.js';

/**
 * First and last occurrence of one event, from whichever of the core/v1 and events.k8s.io/v1
 * fields it carries (`eventTime` + `series` for the newer recorder, `firstTimestamp` /
 * `lastTimestamp` for the older one).
 */
export function eventTimes(event: K8sObject): { first?: number | undefined; last?: number | undefined } {
  const first =
    timeAt(event, 'firstTimestamp') ??
    timeAt(event, 'deprecatedFirstTimestamp') ??
    timeAt(event, 'eventTime') ??
    timeAt(event.metadata, 'creationTimestamp');
  const last =
    timeAt(recordAt(event, 'series'), 'lastObservedTime') ??
    timeAt(event, 'lastTimestamp') ??
    timeAt(event, 'deprecatedLastTimestamp') ??
    timeAt(event, 'eventTime') ??
    first;
  return { first, last };
}

/** Occurrences one event stands for: `series.count`, else `count` / `deprecatedCount`, else 1. */
export function eventCount(event: K8sObject): number {
  for (const value of [recordAt(event, 'series')?.['count'], event['count'], event['deprecatedCount']]) {
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  }
  return 1;
}
