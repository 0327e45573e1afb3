import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { SLOW_FILES } from './test/suites.js';

/** What every suite runs with (vitest.slow.config.ts takes it too). */
export const shared = {
  // Vitest leaves a core free by default: one worker on 2 cores. Most time goes to CLI child
  // processes and waiting on them, so two workers there keep both cores busy.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  globalSetup: ['./test/helpers/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // The default report, then a line per skipped test saying what it needs.
  reporters: ['default', './test/helpers/skipped-reporter.ts'],
};

/** `npm test`: every test but the slow suites of test/suites.ts (vitest.slow.config.ts runs those). */
export default defineConfig({
  test: { ...shared, include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SLOW_FILES] },
});
