/**
 * The merging half of Drain (He et al., ICWS 2017, "Drain: An Online Log Parsing Approach with
 * Fixed Depth Tree"): masked messages of one component, one call site and one token count are
 * compared token by token; a message that repeats at least half of a template's constant tokens
 * joins it, and the tokens that differ become wildcards. Masking catches the variable parts it
 * knows (numbers, addresses, ...); this catches the others (an operator's name without quotes).
 */
import { WILDCARD } from './template.js';

/** Share of a template's tokens a message must repeat to join it (Drain's similarity threshold). */
export const SIMILARITY = 0.5;

/**
 * `a  b,c` → `['a', '  ', 'b', ',', 'c']`: tokens at even indices, the blanks and commas between
 * them at odd ones. Commas split too, so a JSON line's fields are tokens of their own (its
 * `"level":"error"` never becomes a wildcard with the field beside it).
 */
export function tokenize(text: string): string[] {
  return text.split(/([\s,]+)/);
}

export function tokenCount(parts: readonly string[]): number {
  return (parts.length + 1) >> 1;
}

/** Constant tokens of `template` that `message` repeats, and whether it repeats all of them. */
function compare(template: readonly string[], message: readonly string[]): { same: number; covered: boolean } {
  let same = 0;
  let covered = true;
  for (let i = 0; i < template.length; i += 2) {
    const token = template[i];
    if (token === WILDCARD) continue;
    if (token === message[i]) same++;
    else covered = false;
  }
  return { same, covered };
}

/**
 * The template a message (same token count) belongs to: the first that covers it (every
 * constant token equal), else the most similar at or above the threshold, else none.
 */
export function bestTemplate<T extends { parts: string[] }>(templates: readonly T[], message: readonly string[]): T | undefined {
  const tokens = tokenCount(message);
  let best: T | undefined;
  let bestSame = Math.ceil(tokens * SIMILARITY) - 1;
  for (const template of templates) {
    const { same, covered } = compare(template.parts, message);
    if (covered) return template;
    if (same > bestSame) {
      best = template;
      bestSame = same;
    }
  }
  return best;
}

/** Turns the tokens of `template` that `message` does not repeat into wildcards. */
export function generalize(template: string[], message: readonly string[]): void {
  for (let i = 0; i < template.length; i += 2) if (template[i] !== message[i]) template[i] = WILDCARD;
}
