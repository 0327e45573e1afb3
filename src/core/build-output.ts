import { readFileSync } from 'node:fs';

/**
 * A JSON file `npm run build` wrote beside a module (scripts/pack-prebuilt.mjs), or `fallback`
 * when there is none: the tests run the TypeScript sources and the single file carries none, and
 * each such file only saves work its reader can do itself.
 */
export function readBuildOutput<T>(url: URL, fallback: T): T {
  try {
    return JSON.parse(readFileSync(url, 'utf8')) as T;
  } catch {
    return fallback;
  }
}
