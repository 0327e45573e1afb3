/**
 * The literal scanner (ripgrep-style: each literal searched over whole buffers): with a scope that
 * sees every line, each line still gets exactly the tags whose literal it holds (an `accept` may
 * refuse one hit and take a later one on the same line), with its line number, across chunks.
 */
import { describe, expect, it } from 'vitest';
import { LiteralScanner, type ScannedLine } from '../../src/parsers/scan.js';

function scanned(chunks: string[], everyLine: string[]): ScannedLine<string>[] {
  const lines: ScannedLine<string>[] = [];
  const scanner = new LiteralScanner<string>(
    [
      { text: 'error', tag: 'err' },
      // Only an `E` that starts the line counts (as a klog level letter must).
      { text: 'E', tag: 'klogE', accept: (_buffer, at, lineStart) => at === lineStart },
    ],
    everyLine,
    1024,
    (line) => lines.push(line),
  );
  for (const chunk of chunks) scanner.push(Buffer.from(chunk));
  scanner.end();
  return lines;
}

describe('LiteralScanner', () => {
  const text = ['first line', 'an error here', 'xE then E0803 late', 'E0803 klog error', 'last'];

  it('with an every-line scope: every line, each with the tags of the literals it holds', () => {
    const lines = scanned([text.join('\n') + '\n'], ['digest']);
    expect(lines.map((l) => [l.lineNo, l.text, l.tags])).toEqual([
      [1, 'first line', ['digest']],
      [2, 'an error here', ['digest', 'err']],
      [3, 'xE then E0803 late', ['digest']],
      [4, 'E0803 klog error', ['digest', 'err', 'klogE']],
      [5, 'last', ['digest']],
    ]);
  });

  it('gives the same lines split across chunks anywhere, and only the hits without an every-line scope', () => {
    const whole = text.join('\n') + '\n';
    const reference = scanned([whole], ['digest']);
    for (const cut of [1, 5, 12, 20, 30, whole.length - 2]) {
      expect(scanned([whole.slice(0, cut), whole.slice(cut)], ['digest'])).toEqual(reference);
    }
    expect(scanned([whole], []).map((l) => [l.lineNo, l.tags])).toEqual([
      [2, ['err']],
      [4, ['err', 'klogE']],
    ]);
  });
});
