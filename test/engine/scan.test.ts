import { describe, it, expect } from 'vitest';
import { LogScanner, type CandidateLine } from '../../src/engine/scan.js';
import type { LogSignal } from '../../src/engine/rule.js';

function signal(name: string, regex: RegExp, literals?: string[]): LogSignal {
  return { type: 'log', name, files: [{}], regex, literals, levels: undefined, presence: undefined, resolution: { resolvers: [], persists: undefined } };
}

function scan(text: string, signals: LogSignal[], chunkSize: number): CandidateLine[] {
  const found: CandidateLine[] = [];
  const scanner = new LogScanner(signals, 1024, (line) => found.push(line));
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += chunkSize) scanner.push(bytes.subarray(i, i + chunkSize));
  scanner.end();
  return found;
}

const LOG = ['I0119 22:23:59.787724       1 sync_worker.go:477] Loading payload', 'noise', 'E0119 22:24:15.924216       1 cvo.go:344] unable to perform final sync: context canceled', 'more noise', 'last line without newline: final sync'].join('\n');

describe('log scanner', () => {
  it('finds lines around literal hits with their line numbers, across any chunking', () => {
    const signals = [signal('final', /final sync: (?<reason>.+)$/, ['final sync']), signal('payload', /Loading payload/, ['Loading payload'])];
    for (const size of [1, 3, 7, 64, 4096]) {
      const lines = scan(LOG, signals, size).map((l) => [l.lineNo, l.signals.map((s) => s.name).join(',')]);
      expect(lines, `chunk ${size}`).toEqual([
        [1, 'payload'],
        [3, 'final'],
        [5, 'final'],
      ]);
    }
  });

  it('searches a literal shared by many signals once and hands the line to all of them', () => {
    const many = Array.from({ length: 10 }, (_, i) => signal(`s${i}`, /final sync/, ['final sync']));
    const lines = scan(LOG, many, 4096);
    expect(lines.map((l) => l.lineNo)).toEqual([3, 5]);
    expect(lines[0]!.signals.length).toBe(10);
  });

  it('gives every line to a signal without literal', () => {
    expect(scan(LOG, [signal('all', /./)], 5).map((l) => l.lineNo)).toEqual([1, 2, 3, 4, 5]);
  });

  it('cuts an endless line at the line limit', () => {
    const found: CandidateLine[] = [];
    const scanner = new LogScanner([signal('x', /x/, ['x'])], 100, (line) => found.push(line));
    for (let i = 0; i < 100; i++) scanner.push(Buffer.alloc(10_000, 'x'));
    scanner.push(Buffer.from('\nx\n'));
    scanner.end();
    expect(found.map((l) => [l.lineNo, l.text.length])).toEqual([
      [1, 100],
      [2, 1],
    ]);
  });
});
