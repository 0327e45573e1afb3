import { DEFAULT_LIMITS, type Limits } from '../core/limits.js';
import { parseDuration } from '../core/duration.js';

/** Thrown for bad command-line use: exit code 2 with one line. */
export class UsageError extends Error {}

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** `512M`, `1G`, `1048576`. */
export function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?$/i.exec(text.trim());
  if (!match) throw new UsageError(`not a size: '${text}' (use e.g. 512M or 2G)`);
  return Math.floor(Number(match[1]) * UNITS[match[2]!.toLowerCase()]!);
}

/** The shortest exact text `parseSize` reads back: `64M`, `1G`, `1000`. */
export function formatSize(bytes: number): string {
  for (const unit of ['t', 'g', 'm', 'k'] as const) {
    const size = UNITS[unit]!;
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit.toUpperCase()}`;
  }
  return String(bytes);
}

export function parseCount(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`not a positive whole number: '${text}'`);
  return value;
}

export interface LimitFlags {
  maxEntryBytes?: string;
  maxTotalBytes?: string;
  maxEntries?: string;
  maxLineBytes?: string;
  maxParseBytes?: string;
  maxInflationRatio?: string;
}

export function limitsFrom(flags: LimitFlags): Limits {
  return {
    maxEntryBytes: flags.maxEntryBytes ? parseSize(flags.maxEntryBytes) : DEFAULT_LIMITS.maxEntryBytes,
    maxTotalBytes: flags.maxTotalBytes ? parseSize(flags.maxTotalBytes) : DEFAULT_LIMITS.maxTotalBytes,
    maxEntries: flags.maxEntries ? parseCount(flags.maxEntries) : DEFAULT_LIMITS.maxEntries,
    maxLineBytes: flags.maxLineBytes ? parseSize(flags.maxLineBytes) : DEFAULT_LIMITS.maxLineBytes,
    maxParseBytes: flags.maxParseBytes ? parseSize(flags.maxParseBytes) : DEFAULT_LIMITS.maxParseBytes,
    maxInflationRatio: flags.maxInflationRatio ? parseCount(flags.maxInflationRatio) : DEFAULT_LIMITS.maxInflationRatio,
  };
}

/** `--threads` as given, or `auto` (cores − 1, one thread for small inputs) when left out. */
export function threadsFrom(text: string | undefined): number | 'auto' {
  if (text === undefined) return 'auto';
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--threads needs a whole number of at least 1, not '${text}'`);
  return value;
}

/**
 * A list option taking one value per flag, repeated or comma-separated (`--only a,b --only c`):
 * a variadic option would swallow the input paths that follow it.
 */
export function collectList(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(',').map((item) => item.trim()).filter(Boolean)];
}

/** The same, one whole value per flag (a folder name may hold a comma). */
export function collectRepeated(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `--since`/`--until`: an ISO 8601 time, or a duration (`2h`, `1d12h`, `90m`) before `anchor`. */
export function timeBound(flag: string, text: string, anchor: number | undefined): number {
  const trimmed = text.trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(trimmed)) {
    const ms = Date.parse(trimmed);
    if (Number.isFinite(ms)) return ms;
    throw new UsageError(`${flag}: not a time: '${text}'`);
  }
  const duration = parseDuration(trimmed);
  if (duration === undefined) throw new UsageError(`${flag}: '${text}' is neither an ISO 8601 time nor a duration such as 2h or 1d12h`);
  if (anchor === undefined) throw new UsageError(`${flag} ${text}: the input has no collection time and no dated item to count back from`);
  return anchor - duration;
}
