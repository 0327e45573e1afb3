import { defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';
import { SLOW_FILES } from './test/suites.js';

/** The slow suites of test/suites.ts (`npm run test:slow`; `test:real` and `test:browser` filter it). */
export default defineConfig({ test: { ...shared, include: [...SLOW_FILES] } });
