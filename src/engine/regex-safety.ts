import safeRegex from 'safe-regex2';

/** Why a rule's regex is refused, or undefined when it is acceptable. */
export function unsafeRegexReason(source: string, flags = ''): string | undefined {
  try {
    new RegExp(source, flags);
  } catch (err) {
    return `invalid regular expression: ${(err as Error).message}`;
  }
  if (source.length > 2000) return 'regular expression longer than 2000 characters';
  if (/\\[1-9]|\\k</.test(source)) return 'back-references can take exponential time';
  if (!safeRegex(source)) return 'can backtrack catastrophically (nested or overlapping quantifiers); rewrite it';
  return undefined;
}
