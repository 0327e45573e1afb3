/**
 * After the run, one line per skipped test with its full name, which says what it needs (see
 * needs.ts and test/skip-reasons.test.ts): `npm test` says why it skipped what it skipped, where
 * the default reporter only counts them.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SkippedReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const skipped = modules.flatMap((m) => [...m.children.allTests('skipped')].map((test) => `${m.relativeModuleId} > ${test.fullName}`));
    if (skipped.length === 0) return;
    process.stdout.write(`\nSkipped (${skipped.length}), each saying what it needs:\n${skipped.map((line) => `  ↓ ${line}\n`).join('')}`);
  }
}
