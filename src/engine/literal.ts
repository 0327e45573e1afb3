/**
 * The literal text every match of a regex must contain, used as a prefilter so that a regex
 * runs only on lines around a literal hit (ripgrep's trick). Conservative: when in doubt it
 * returns nothing, and the regex runs on every line of the files in its scope.
 */
const META = new Set(['.', '^', '$', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}', '\\']);
const ESCAPED_LITERAL = /[-\\/^$.*+?()[\]{}|:"'=<>!@#%&,;~` ]/;

export function requiredLiteral(source: string): string | undefined {
  let best = '';
  let run = '';
  let depth = 0;
  const flush = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '|' && depth === 0) return undefined; // top-level alternation: no single literal
    if (c === '(') {
      flush();
      depth++;
      continue;
    }
    if (c === ')') {
      depth--;
      flush();
      // a group made optional or repeated from zero removes nothing from the run before it
      continue;
    }
    if (depth > 0) {
      if (c === '\\') i++;
      continue;
    }
    if (c === '[') {
      flush();
      i = skipClass(source, i);
      continue;
    }
    let literal: string | undefined;
    if (c === '\\') {
      if (next !== undefined && ESCAPED_LITERAL.test(next)) literal = next;
      i++;
    } else if (!META.has(c)) {
      literal = c;
    }
    const quantifier = source[i + 1];
    if (literal === undefined) {
      flush();
      continue;
    }
    if (quantifier === '?' || quantifier === '*' || (quantifier === '{' && /^\{0/.test(source.slice(i + 1)))) {
      flush(); // this character is optional
      continue;
    }
    if (quantifier === '+' || quantifier === '{') {
      run += literal;
      flush(); // repeated: the run cannot extend past it
      continue;
    }
    run += literal;
  }
  flush();
  return best.length >= 3 ? best : undefined;
}

function skipClass(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']' && i > start + 1) return i;
  }
  return source.length;
}
