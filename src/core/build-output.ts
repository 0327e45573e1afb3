import { readFileSync } from 'node:fs';

/**
 * A JSON file `npm run build` wrote beside a module (scripts/pack-prebuilt.mjs), by its name and
 * the module's `import.meta.url`; `fallback` when there is none: the tests run the TypeScript
 * sources, and the single file carries none (nor a module URL), and each such file only saves
 * work its reader can do itself.
 */
export function readBuildOutput<T>(name: string, moduleUrl: string | undefined, fallback: T): T {
  try {
    return JSON.parse(readFileSync(new URL(name, moduleUrl), 'utf8')) as T;
  } catch {
    return fallback;
  }
}
