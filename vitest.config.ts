import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The default report, then a line per skipped test saying what it needs.
    reporters: ['default', './test/helpers/skipped-reporter.ts'],
  },
});
