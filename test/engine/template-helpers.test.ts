/** Template helpers a rule's message uses to say a hint only where it applies. */
import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../src/engine/templates.js';

describe('textHas', () => {
  const hint = compileTemplate('{{#if (textHas value "is forbidden" "already exists")}}yes{{else}}no{{/if}}');

  it('finds one of the words in a text', () => {
    expect(hint({ value: 'roles "x" is forbidden: user cannot create' })).toBe('yes');
    expect(hint({ value: 'configmaps "x" already exists' })).toBe('yes');
    expect(hint({ value: 'Role "x" is invalid: metadata.ownerReferences.apiVersion' })).toBe('no');
  });

  it("finds them in any item's text of a list (a signal's items), or in a list of texts", () => {
    expect(hint({ value: [{ text: 'error validating existing CRs' }, { text: 'roles "x" is forbidden' }] })).toBe('yes');
    expect(hint({ value: [{ text: 'error validating existing CRs' }] })).toBe('no');
    expect(hint({ value: ['a', 'b already exists'] })).toBe('yes');
  });

  it('is false for what holds no text', () => {
    expect(hint({ value: undefined })).toBe('no');
    expect(hint({ value: [{ name: 'is forbidden' }] })).toBe('no');
    expect(compileTemplate('{{#if (textHas value)}}yes{{else}}no{{/if}}')({ value: 'anything' })).toBe('no');
  });
});
