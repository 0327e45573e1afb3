/**
 * The test files `npm test` leaves to their own scripts: minutes each, on real archives, a
 * browser, the single-file build or every fixture twice over. `.ci/run` runs them all; the
 * README names each script. Paths are relative to the repository.
 */
export const SLOW_SUITES = {
  /** `npm run test:real`: the planted cases, the precision runs and the reports on real archives. */
  real: ['test/planted/planted.test.ts', 'test/precision/precision.test.ts', 'test/precision/real-reports.test.ts'],
  /** `npm run test:browser`: the HTML report in headless Chromium. */
  browser: ['test/report/browser.test.ts'],
  /**
   * `npm run test:slow` runs these with the two above: hostile inputs, threads against one
   * thread, the single file, memory (the peak RSS and what parsed files stay alive), the bench,
   * and the CLI suites that run many archives each (every README command, batches, diffs).
   */
  heavy: [
    'test/cli/readme-commands.test.ts',
    'test/cli/batch.test.ts',
    'test/cli/diff.test.ts',
    'test/hostile/hostile.test.ts',
    'test/hostile/fuzz.test.ts',
    'test/ingest/threads.test.ts',
    'test/cli/trust.test.ts',
    'test/package/single-file.test.ts',
    'test/bounds/memory.test.ts',
    'test/core/detach.test.ts',
    'test/bench/bench.test.ts',
  ],
} as const;

export const SLOW_FILES: readonly string[] = Object.values(SLOW_SUITES).flat();
