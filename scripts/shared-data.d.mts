/** Types of shared-data.mjs. */
export function sharedPath(sub: string): string | undefined;
