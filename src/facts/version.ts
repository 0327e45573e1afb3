/**
 * OpenShift version ordering and ranges, built on `semver`.
 *
 * Parsing (`parseVersion`):
 * - Any valid SemVer 2.0 string is taken as is, with an optional leading `v`, surrounding
 *   whitespace ignored: `4.5.15`, `4.7.0-fc.3`, `4.7.0-rc.1`, `4.14.0-ec.2`,
 *   `4.8.0-0.nightly-2021-07-31-065602`, `4.6.0-0.ci-2020-10-14-152012`, `4.15.0-0.okd-...`.
 * - A partial `MAJOR.MINOR` (`4.10`, `4.9`) means `MAJOR.MINOR.0` (GA) and is flagged `partial`.
 * - Anything else (empty, `latest`, an image pullspec, `4`) is unparsable: `undefined`.
 *
 * Ordering (`compareVersions`) is SemVer 2.0 precedence on the normalised version, so:
 * - numbers compare as numbers: `4.10.0` > `4.9.0`; `4.10` == `4.10.0`;
 * - a pre-release sorts before its release, and pre-release identifiers compare left to
 *   right, numeric identifiers below alphanumeric ones, alphanumerics by ASCII. For the
 *   OpenShift streams of one `x.y.z` this gives
 *   `0.ci-*` < `0.nightly-*` < `ec.N` < `fc.N` < `rc.N` < GA (nightlies of one stream by date);
 *   a `ci` build and a `nightly` build of the same `x.y.z` have no real order (ASCII decides).
 * - build metadata (`+...`) is ignored;
 * - unparsable strings sort after every parsable one (among themselves by plain string
 *   order, `undefined`/`null` as the empty string). Never throws.
 *
 * Ranges (`satisfiesRange`) use node-semver range syntax (`>=4.5.15 <4.7.0-0`, `4.6.x`,
 * `~4.6`, `<4.7.0`, `4.5.15 - 4.5.99`, `||`) with `includePrerelease: true`: a pre-release is
 * judged purely by its precedence, whatever the comparators' own tuples. Consequences:
 * - `4.7.0-fc.3` and every 4.7.0 nightly/ci build ARE in `<4.7.0` (they precede 4.7.0);
 *   write `<4.7.0-0` to stop before the first 4.7 pre-release;
 * - `4.6.x` / `4.6` / `~4.6` mean `>=4.6.0-0 <4.7.0-0`: every 4.6 GA and pre-release,
 *   including `4.6.0-0.nightly-*`, and no 4.7 pre-release;
 * - `>=4.6.0` excludes `4.6.0-rc.1`; write `>=4.6.0-0` to include the 4.6 pre-releases.
 * - An unparsable version or an invalid range satisfies nothing (`false`, never a throw).
 *   A partial version is judged as `x.y.0`.
 */
import semver from 'semver';

/** Which stream a version belongs to, from its pre-release tag. */
export type VersionKind = 'ga' | 'ec' | 'fc' | 'rc' | 'nightly' | 'ci' | 'okd' | 'other';

export interface OpenShiftVersion {
  /** The input, trimmed. */
  raw: string;
  /** Full SemVer used for comparison (`4.10` → `4.10.0`; leading `v` and `+build` dropped). */
  normalized: string;
  major: number;
  minor: number;
  patch: number;
  /** Pre-release identifiers (`['fc', 3]`, `[0, 'nightly-2021-07-31-065602']`); empty for GA. */
  prerelease: ReadonlyArray<string | number>;
  kind: VersionKind;
  /** True when the input had only `MAJOR.MINOR`. */
  partial: boolean;
}

const PARTIAL = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)$/;
const MAX_VERSION_LENGTH = 256;

function kindOf(prerelease: ReadonlyArray<string | number>): VersionKind {
  if (prerelease.length === 0) return 'ga';
  const first = String(prerelease[0]);
  if (first === 'ec' || first === 'fc' || first === 'rc') return first;
  const rest = prerelease.slice(1).map(String).join('.');
  if (first === '0') {
    if (/(^|-)nightly(-|$)/.test(rest) || rest.startsWith('nightly')) return 'nightly';
    if (rest.startsWith('ci')) return 'ci';
    if (rest.startsWith('okd')) return 'okd';
  }
  return 'other';
}

/** Parse an OpenShift version; `undefined` when it is not one (see the module comment). */
export function parseVersion(input: string | null | undefined): OpenShiftVersion | undefined {
  if (typeof input !== 'string') return undefined;
  const raw = input.trim();
  if (raw === '' || raw.length > MAX_VERSION_LENGTH) return undefined;
  let partial = false;
  let parsed = semver.parse(raw);
  if (parsed === null) {
    const m = PARTIAL.exec(raw);
    if (!m) return undefined;
    parsed = semver.parse(`${m[1]}.${m[2]}.0`);
    partial = true;
    if (parsed === null) return undefined;
  }
  const prerelease = [...parsed.prerelease];
  return {
    raw,
    normalized: parsed.version,
    major: parsed.major,
    minor: parsed.minor,
    patch: parsed.patch,
    prerelease,
    kind: kindOf(prerelease),
    partial,
  };
}

/**
 * The day a CI, nightly or OKD build was made, from its name (`4.7.0-0.ci-2021-04-29-142719`,
 * `4.8.0-0.nightly-2021-07-31-065602`, `4.15.0-0.nightly-multi-2023-11-02-101011`) as `YYYY-MM-DD`;
 * undefined for releases, which carry no date. Whether a build holds a fix is a question of
 * when it was built, not of its place in version order (a 4.7 CI build sorts before 4.7.0-rc.0).
 */
export function buildDateOf(version: string | null | undefined): string | undefined {
  const parsed = parseVersion(version);
  if (!parsed || (parsed.kind !== 'ci' && parsed.kind !== 'nightly' && parsed.kind !== 'okd')) return undefined;
  const m = /-(\d{4})-(\d{2})-(\d{2})-\d{6}$/.exec(parsed.raw);
  if (!m) return undefined;
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  return Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ? undefined : day;
}

function plainOrder(a: string, b: string): -1 | 0 | 1 {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Order two versions: negative when `a` < `b`, 0 when equal, positive when `a` > `b`
 * (exactly -1, 0 or 1). Unparsable values sort last. Usable directly with `Array#sort`.
 */
export function compareVersions(a: string | null | undefined, b: string | null | undefined): -1 | 0 | 1 {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (pa && pb) return semver.compare(pa.normalized, pb.normalized);
  if (pa) return -1;
  if (pb) return 1;
  return plainOrder(typeof a === 'string' ? a : '', typeof b === 'string' ? b : '');
}

/** Whether `version` is in the node-semver `range`, pre-releases included (see the module comment). */
export function satisfiesRange(version: string | null | undefined, range: string): boolean {
  const parsed = parseVersion(version);
  if (!parsed) return false;
  try {
    return semver.satisfies(parsed.normalized, range, { includePrerelease: true });
  } catch {
    return false;
  }
}

/** Whether `range` is a usable node-semver range (for validating rule files). */
export function isValidRange(range: string): boolean {
  try {
    return semver.validRange(range, { includePrerelease: true }) !== null;
  } catch {
    return false;
  }
}

/** `MAJOR.MINOR` of a version (`4.8.0-0.nightly-...` → `4.8`), or undefined when unparsable. */
export function minorOf(version: string | null | undefined): string | undefined {
  const parsed = parseVersion(version);
  return parsed ? `${parsed.major}.${parsed.minor}` : undefined;
}

/** True when both parse and the `MAJOR.MINOR` differs (either direction). */
export function isYStreamChange(from: string | null | undefined, to: string | null | undefined): boolean {
  const a = parseVersion(from);
  const b = parseVersion(to);
  if (!a || !b) return false;
  return a.major !== b.major || a.minor !== b.minor;
}

/** True when both parse and `to` orders strictly before `from`. */
export function isDowngrade(from: string | null | undefined, to: string | null | undefined): boolean {
  const a = parseVersion(from);
  const b = parseVersion(to);
  if (!a || !b) return false;
  return semver.compare(b.normalized, a.normalized) < 0;
}

/**
 * Whether the update service could offer `to` to a cluster at `from`: a newer release of the
 * same minor version or of the next one (the OpenShift update graph has no edge that skips a
 * minor version; EUS-to-EUS updates pass through the minor between). Never out of a CI or nightly
 * build, which the graph does not hold.
 */
export function isUpdateCandidate(from: string | null | undefined, to: string | null | undefined): boolean {
  const a = parseVersion(from);
  const b = parseVersion(to);
  if (!a || !b || a.major !== b.major) return false;
  // CI and nightly builds are no nodes of the update graph: nothing is offered out of them.
  if (a.kind === 'ci' || a.kind === 'nightly') return false;
  const step = b.minor - a.minor;
  return (step === 0 || step === 1) && compareVersions(from, to) < 0;
}
