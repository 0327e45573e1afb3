import { describe, it, expect } from 'vitest';
import { requiredLiteral } from '../../src/engine/literal.js';
import { unsafeRegexReason } from '../../src/engine/regex-safety.js';

describe('prefilter literal of a regex', () => {
  it('takes the longest mandatory literal run', () => {
    expect(requiredLiteral('unable to perform final sync: (?<reason>.+)$')).toBe('unable to perform final sync: ');
    expect(requiredLiteral('No longer leader; exiting')).toBe('No longer leader; exiting');
    expect(requiredLiteral('Failed to pull image "registry\\.stage\\.redhat\\.io/')).toBe('Failed to pull image "registry.stage.redhat.io/');
    expect(requiredLiteral('Unsupported value: "(?<value>[^"]+)"')).toBe('Unsupported value: "');
  });

  it('drops optional characters and gives up on top-level alternation', () => {
    expect(requiredLiteral('colou?r mismatch')).toBe('r mismatch');
    expect(requiredLiteral('foo|bar')).toBeUndefined();
    expect(requiredLiteral('\\d+\\s+')).toBeUndefined();
  });
});

describe('regex safety', () => {
  it('refuses catastrophic and invalid patterns', () => {
    expect(unsafeRegexReason('(a+)+$')).toMatch(/backtrack/);
    expect(unsafeRegexReason('(a*)*b')).toBeDefined();
    expect(unsafeRegexReason('(?<a>x)\\k<a>')).toMatch(/back-references/);
    expect(unsafeRegexReason('([')).toMatch(/invalid/);
    expect(unsafeRegexReason('unable to perform final sync: (?<reason>.+)$')).toBeUndefined();
  });
});
