import { describe, expect, it } from 'vitest';
import { fitLine, progressLine } from '../../src/cli/progress.js';

describe('progressLine', () => {
  it('shows the share of an archive done, its rate and the time left', () => {
    expect(progressLine({ bytesRead: 400 * 1024 * 1024, input: { read: 25 * 1024 * 1024, total: 100 * 1024 * 1024 } }, 5)).toBe(
      '25 % of 100 MiB, 5 MiB/s, about 15 s left',
    );
  });

  it('shows bytes read and rate for a folder, whose total is unknown', () => {
    expect(progressLine({ bytesRead: 30 * 1024 * 1024 }, 3)).toBe('30 MiB read, 10 MiB/s');
  });
});

describe('fitLine', () => {
  it('fits a long input path and the status in 79 columns, keeping the file name', () => {
    const label = `/cases/03123456/${'attachments/'.repeat(8)}must-gather.tar.xz`;
    const status = progressLine({ bytesRead: 0, input: { read: 25 * 1024 * 1024, total: 1024 * 1024 * 1024 } }, 5);
    const line = fitLine(label, status);
    expect(line.length).toBeLessThanOrEqual(79);
    expect(line).toMatch(/^….*must-gather\.tar\.xz: \d+ % of 1 GiB/);
    expect(fitLine('mg.tar.gz', '30 MiB read, 10 MiB/s')).toBe('mg.tar.gz: 30 MiB read, 10 MiB/s');
  });
});
