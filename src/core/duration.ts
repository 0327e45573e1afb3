const DURATION_UNITS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

/** `2h`, `1d12h`, `90s`, `4.5m` → milliseconds; undefined when the text is not such a duration. */
export function parseDuration(text: string): number | undefined {
  if (!/^(\d+(\.\d+)?[dhms])+$/.test(text)) return undefined;
  let total = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)([dhms])/g)) total += Number(m[1]) * DURATION_UNITS[m[2]!]!;
  return total;
}

/** Milliseconds as `3h4m`, `2d1h0m`, `45s`: what reports and rule templates (`elapsed`) print. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${Math.floor(ms / 1000)}s`;
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  return [days > 0 ? `${days}d` : '', hours > 0 ? `${hours}h` : '', `${minutes % 60}m`].filter(Boolean).join('');
}

/** Epoch ms as ISO 8601 to the second when whole (`2021-09-13T15:02:46Z`): how rule texts give a time. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
