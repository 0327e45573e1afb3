import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readBuildOutput, readBuildOutputPart } from '../../src/core/build-output.js';
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

describe('readBuildOutputPart: a part of a file the build wrote, by its byte range', () => {
  it('reads the bytes its index points to as UTF-8, and throws when the file is absent or shorter than the index says', () => {
    const dir = tempDir();
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    // Two parts, the second holding a character of three bytes.
    writeFileSync(join(dir, 'parts.code'), 'first…second');
    const moduleUrl = pathToFileURL(join(dir, 'module.js')).href;
    expect(readBuildOutputPart('./parts.code', moduleUrl, 0, 5)).toBe('first');
    expect(readBuildOutputPart('./parts.code', moduleUrl, 5, 9)).toBe('…second');
    expect(() => readBuildOutputPart('./parts.code', moduleUrl, 5, 20)).toThrow(/shorter than its index says/);
    expect(() => readBuildOutputPart('./absent.code', moduleUrl, 0, 1)).toThrow();
  });
});
