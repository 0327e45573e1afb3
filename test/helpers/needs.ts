/**
 * What a test needs that a machine may lack, for its name: a skipped test says why in the
 * report of the run (`… (needs ../shared/samples-real/must-gather-aws.tar.xz: not in CI)`).
 */

/** `(needs <what>)`, for a test or describe name. */
export function needs(what: string): string {
  return `(needs ${what})`;
}

/** `(needs ../shared/<path>: not in CI)`, for tests of the data beside the repository. */
export function needsShared(path: string): string {
  return needs(`../shared/${path}: not in CI`);
}

