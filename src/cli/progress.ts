/** A one-line progress display on stderr, only when stderr is a terminal. */
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

  update(bytes: number): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.last < 200) return;
    this.last = now;
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const rate = bytes / seconds / 1024 / 1024;
    process.stderr.write(`\r${this.label}: ${(bytes / 1024 / 1024).toFixed(0)} MB read, ${rate.toFixed(0)} MB/s   `);
  }

  done(): void {
    if (this.enabled && this.last > 0) process.stderr.write('\r\x1b[K');
  }
}
