import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readBuildOutput } from '../../src/core/build-output.js';
import { tempDir } from '../helpers/archives.js';

describe('readBuildOutput: a JSON file the build wrote, or the fallback', () => {
  it('reads the file when it is there, and falls back when it is absent or not JSON', () => {
    const dir = tempDir();
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'words.json'), '{"a":["b"]}');
    writeFileSync(join(dir, 'broken.json'), '{"a":');
    expect(readBuildOutput(pathToFileURL(join(dir, 'words.json')), {})).toEqual({ a: ['b'] });
    expect(readBuildOutput(pathToFileURL(join(dir, 'absent.json')), { none: true })).toEqual({ none: true });
    expect(readBuildOutput(pathToFileURL(join(dir, 'broken.json')), [])).toEqual([]);
  });
});
