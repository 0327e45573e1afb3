import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SLOW_FILES } from './suites.js';

describe('the slow suites', () => {
  it('name test files that exist: a renamed one would leave its script', () => {
    const root = new URL('../', import.meta.url).pathname;
    expect(SLOW_FILES.filter((file) => !existsSync(`${root}${file}`))).toEqual([]);
  });
});
