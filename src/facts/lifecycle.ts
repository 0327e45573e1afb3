/**
 * Where an OpenShift 4 minor version stood in Red Hat's published life cycle at a given time.
 *
 * Phases (Red Hat OpenShift Container Platform Life Cycle Policy): Full Support from GA; then
 * Maintenance Support up to 18 months after GA; for even minors from 4.12 on (and 4.8 before)
 * an Extended Update Support term after that, for subscribers of the EUS add-on; then end of life.
 * The dates are data, kept here with their source and the day they were taken; a minor the table
 * does not list (newer than the table) has no status, so rules on it are not checked rather than
 * guessed.
 */
import { parseVersion } from './version.js';

export const LIFECYCLE_SOURCE = {
  policy: 'https://access.redhat.com/support/policy/updates/openshift#dates',
  /** The dates as endoflife.date records them from the policy page. */
  data: 'https://github.com/endoflife-date/endoflife.date/blob/a70eca337600e7d721dc48112c271f98661d208b/products/red-hat-openshift.md',
  taken: '2026-08-22',
} as const;

/** GA, end of Full Support, end of Maintenance Support, end of the EUS term (when there is one). */
type Dates = readonly [ga: string, fullSupportEnds: string, maintenanceEnds: string, eusEnds?: string];

const DATES: Readonly<Record<string, Dates>> = {
  '4.1': ['2019-06-18', '2019-11-16', '2020-05-05'],
  '4.2': ['2019-10-29', '2020-02-23', '2020-07-13'],
  '4.3': ['2020-02-12', '2020-06-05', '2020-10-27'],
  '4.4': ['2020-05-18', '2020-08-13', '2021-02-24'],
  '4.5': ['2020-07-16', '2020-11-27', '2021-07-27'],
  '4.6': ['2020-11-09', '2021-03-24', '2022-10-27'],
  '4.7': ['2021-02-24', '2021-10-27', '2022-08-24'],
  '4.8': ['2021-07-27', '2022-01-27', '2023-01-27', '2023-04-27'],
  '4.9': ['2021-10-18', '2022-06-10', '2023-04-18'],
  '4.10': ['2022-03-10', '2022-11-10', '2023-09-10'],
  '4.11': ['2022-08-10', '2023-04-17', '2024-02-10'],
  '4.12': ['2023-01-17', '2023-08-17', '2024-07-17', '2025-01-17'],
  '4.13': ['2023-05-17', '2024-01-31', '2024-11-17'],
  '4.14': ['2023-10-31', '2024-05-27', '2025-05-01', '2025-10-31'],
  '4.15': ['2024-02-27', '2024-09-27', '2025-08-27'],
  '4.16': ['2024-06-27', '2025-01-01', '2025-12-27', '2026-06-27'],
  '4.17': ['2024-10-01', '2025-05-25', '2026-04-01'],
  '4.18': ['2025-02-25', '2025-09-17', '2026-08-25', '2027-02-25'],
  '4.19': ['2025-06-17', '2026-01-21', '2026-12-17'],
  '4.20': ['2025-10-21', '2026-05-03', '2027-04-21'],
  '4.21': ['2025-10-21', '2026-09-09', '2027-08-03'],
  '4.22': ['2026-06-09', '2026-12-31', '2027-12-31'],
};

/** `pre-release`: before GA (a nightly or candidate of that minor). */
export type LifecyclePhase = 'pre-release' | 'full-support' | 'maintenance' | 'extended-update-support' | 'end-of-life';

export interface LifecycleStatus {
  /** The version looked up and its `MAJOR.MINOR`. */
  version: string;
  minor: string;
  phase: LifecyclePhase;
  /** Epoch ms the phase is for (the collection time). */
  at: number;
  /** The minor's dates (YYYY-MM-DD). */
  ga: string;
  fullSupportEnds: string;
  maintenanceEnds: string;
  eusEnds?: string | undefined;
  source: string;
  sourceTaken: string;
}

/** The life cycle phase of `version` at `at` (epoch ms); undefined for a version the table does not list. */
export function lifecycleStatus(version: string, at: number): LifecycleStatus | undefined {
  const parsed = parseVersion(version);
  if (!parsed) return undefined;
  const minor = `${parsed.major}.${parsed.minor}`;
  const dates = DATES[minor];
  if (!dates) return undefined;
  const [ga, fullSupportEnds, maintenanceEnds, eusEnds] = dates;
  // A phase's end date is its last day: it ends when that day (UTC) is over.
  const after = (day: string): boolean => at >= Date.parse(`${day}T00:00:00Z`) + 86_400_000;
  const phase: LifecyclePhase =
    at < Date.parse(`${ga}T00:00:00Z`) ? 'pre-release'
    : !after(fullSupportEnds) ? 'full-support'
    : !after(maintenanceEnds) ? 'maintenance'
    : eusEnds !== undefined && !after(eusEnds) ? 'extended-update-support'
    : 'end-of-life';
  return { version, minor, phase, at, ga, fullSupportEnds, maintenanceEnds, eusEnds, source: LIFECYCLE_SOURCE.policy, sourceTaken: LIFECYCLE_SOURCE.taken };
}
