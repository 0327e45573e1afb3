import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readBuildOutput } from '../../src/core/build-output.js';
import { tempDir } from '../helpers/archives.js';

describe('readBuildOutput: a JSON file the build wrote, or the fallback', () => {
  it('reads the file beside the module when it is there, and falls back when it is absent, not JSON, or the module has no URL', () => {
    const dir = tempDir();
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'words.json'), '{"a":["b"]}');
    writeFileSync(join(dir, 'broken.json'), '{"a":');
    const moduleUrl = pathToFileURL(join(dir, 'module.js')).href;
    expect(readBuildOutput('./words.json', moduleUrl, {})).toEqual({ a: ['b'] });
    expect(readBuildOutput('./absent.json', moduleUrl, { none: true })).toEqual({ none: true });
    expect(readBuildOutput('./broken.json', moduleUrl, [])).toEqual([]);
    // The single file (CommonJS) has no module URL: no file, no error.
    expect(readBuildOutput('./words.json', undefined, { bundled: true })).toEqual({ bundled: true });
  });
});
