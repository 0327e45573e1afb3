const DURATION_UNITS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

/** A duration such as `2h`, `90m`, `1d12h` in ms; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  if (!/^(\d+(\.\d+)?[dhms])+$/.test(text)) return undefined;
  let total = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)([dhms])/g)) total += Number(m[1]) * DURATION_UNITS[m[2]!]!;
  return total;
}
