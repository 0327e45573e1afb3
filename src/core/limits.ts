/** Bounds on what one analysis reads; options of the CLI, printed in every report. */
export interface Limits {
  /** Largest uncompressed entry read; larger ones are skipped and reported. */
  maxEntryBytes: number;
  /** Total uncompressed bytes read from one input before the rest is skipped. */
  maxTotalBytes: number;
  /** Entries read from one input before the rest is skipped. */
  maxEntries: number;
  /** Longest log line kept whole; a longer one is cut to this length. */
  maxLineBytes: number;
  /**
   * Largest file parsed whole in memory (YAML: js-yaml does not stream); larger ones are
   * skipped and reported. JSON read for its objects alone is streamed whatever its size.
   */
  maxParseBytes: number;
  /** Largest ratio of uncompressed to compressed bytes tolerated (bomb guard). */
  maxInflationRatio: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxEntryBytes: 1024 * 1024 * 1024,
  maxTotalBytes: 32 * 1024 * 1024 * 1024,
  maxEntries: 1_000_000,
  maxLineBytes: 64 * 1024,
  // A parsed YAML List of Pods costs about 9 times its size: 32 MiB keeps a run under 512 MB
  // (the largest YAML file of the real must-gathers is 3.5 MB).
  maxParseBytes: 32 * 1024 * 1024,
  maxInflationRatio: 200,
};
