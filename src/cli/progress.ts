import type { WalkProgress } from '../ingest/walk.js';
import { formatBytes } from '../report/common.js';

/**
 * A one-line progress display on stderr, only when stderr is a terminal: bytes read, rate,
 * and — for an archive, whose compressed size is known — the share done and time left.
 */
export class Progress {
  private readonly enabled: boolean;
  private readonly started = Date.now();
  private last = 0;

  constructor(
    private readonly label: string,
    wanted: boolean,
  ) {
    this.enabled = wanted && process.stderr.isTTY === true;
  }

  update(progress: WalkProgress): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.last < 200) return;
    this.last = now;
    process.stderr.write(`\r${fitLine(this.label, progressLine(progress, (now - this.started) / 1000))}\x1b[K`);
  }

  done(): void {
    if (this.enabled && this.last > 0) process.stderr.write('\r\x1b[K');
  }
}

/** Columns a progress line may take: one fewer than a classic 80-column terminal, so it never wraps. */
const PROGRESS_COLUMNS = 79;

/**
 * `label: status` in at most PROGRESS_COLUMNS characters: a long path keeps its end (the file
 * name), cut at the front with `…`. Exported for tests.
 */
export function fitLine(label: string, status: string): string {
  const room = PROGRESS_COLUMNS - status.length - 2;
  if (room <= 1) return status.slice(0, PROGRESS_COLUMNS);
  const shown = label.length <= room ? label : `…${label.slice(label.length - room + 1)}`;
  return `${shown}: ${status}`;
}

/**
 * `42 % of 1 GiB, 180 MiB/s, about 12 s left` for an archive (its compressed bytes, the only
 * total known in advance); `310 MiB read, 180 MiB/s` for a folder. Exported for tests.
 */
export function progressLine(progress: WalkProgress, seconds: number): string {
  const elapsed = Math.max(seconds, 0.001);
  const rate = (bytes: number): string => `${formatBytes(Math.round(bytes / elapsed))}/s`;
  const input = progress.input;
  if (!input || input.total <= 0 || input.read <= 0) return `${formatBytes(progress.bytesRead)} read, ${rate(progress.bytesRead)}`;
  const share = Math.min(input.read / input.total, 1);
  const left = (elapsed * (1 - share)) / share;
  return `${(share * 100).toFixed(0)} % of ${formatBytes(input.total)}, ${rate(input.read)}, about ${left.toFixed(0)} s left`;
}
