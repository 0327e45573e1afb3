/**
 * A skipped test says why: every `skipIf`, `runIf` and `skip` in the tests names, in its test or
 * describe name, what it needs (`needs(…)`, `needsShared(…)`, `(needs …)`) or why it was skipped
 * (`skipped: …`), so `npm test` never skips without saying what it lacked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const TEST = fileURLToPath(new URL('./', import.meta.url));
const files = readdirSync(TEST, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && f !== 'skip-reasons.test.ts')
  .map((f) => join(TEST, f));

/** The text from `open` (an opening parenthesis) to its closing one. */
function balanced(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}

/** Each conditional or plain skip with the name it gives: `it.skipIf(c)('name'…`, `describe.runIf(c).each(x)(…`, `it.skip('name'…`. */
function skips(source: string): { call: string; name: string }[] {
  const out: { call: string; name: string }[] = [];
  for (const m of source.matchAll(/\b(?:it|test|describe)\.(skipIf|runIf|skip)\b/g)) {
    let at = m.index + m[0].length;
    if (m[1] !== 'skip') at += balanced(source, at).length;
    if (source.startsWith('.each', at)) at += '.each'.length + balanced(source, at + '.each'.length).length;
    const args = balanced(source, at);
    out.push({ call: m[0], name: /^\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/s.exec(args)?.[2] ?? args.slice(0, 80) });
  }
  return out;
}

describe('skipped tests say why', () => {
  it.each(files.map((f) => [relative(TEST, f), f]))('%s', (_name, file) => {
    for (const { call, name } of skips(readFileSync(file, 'utf8'))) {
      expect(name, `${call}: its name does not say what it needs`).toMatch(/\bneeds(Shared)?\(|\(needs |skipped: /);
    }
  });

  it('finds the conditional tests', () => {
    expect(files.flatMap((f) => skips(readFileSync(f, 'utf8'))).length).toBeGreaterThan(15);
  });
});
