import { describe, expect, it } from 'vitest';
import { literalsRequiredBy } from '../../src/engine/cel-literals.js';

describe('literalsRequiredBy: the words a file must hold for a where to match in it', () => {
  it("takes a condition's value over the field names every object of the kind holds", () => {
    expect(literalsRequiredBy("has(object.status) && has(object.status.conditions) && object.status.conditions.exists(c, c.type == 'Degraded' && c.status == 'True')")).toEqual(['Degraded']);
    expect(literalsRequiredBy('has(object.status.removedInRelease) && object.status.removedInRelease != ""')).toEqual(['removedInRelease']);
  });

  it('takes one of the words of a list, or of both sides of an or', () => {
    expect(literalsRequiredBy("object.status.phase in ['Pending', 'Running']")).toEqual(['Pending', 'Running']);
    expect(literalsRequiredBy("object.spec.paused == 'Evicted' || object.metadata.labels['role'] == 'master'")).toEqual(['Evicted', 'master']);
  });

  it('requires nothing where the file could hold the value otherwise, or not at all', () => {
    // One side of an or, a negation, an `all`, a value transformed before comparing, a word with a space.
    expect(literalsRequiredBy("object.status.phase == 'Failed' || size(object.spec.containers) > 3")).toBeUndefined();
    expect(literalsRequiredBy("!(object.status.phase == 'Running')")).toBeUndefined();
    expect(literalsRequiredBy("object.status.conditions.all(c, c.type == 'Ready')")).toBeUndefined();
    expect(literalsRequiredBy("object.status.reason.lowerAscii() == 'evicted'")).toBeUndefined();
    expect(literalsRequiredBy("object.status.message == 'no space left'")).toBeUndefined();
  });

  it('requires nothing of a text that does not parse, and says so again without failing', () => {
    expect(literalsRequiredBy("object.status.phase == 'Failed' &&")).toBeUndefined();
    expect(literalsRequiredBy("object.status.phase == 'Failed' &&")).toBeUndefined();
  });
});
