// The shipped pack's log regexes (JavaScript) rewritten for the tools users type: GNU `grep -E`
// (POSIX ERE with GNU's \s \S \w \W \b \B), ripgrep's default engine (Rust regex) and ripgrep's
// `-P` (PCRE2, issue 33's baseline: `rg -P -f <the pack's regexes>`). Only line selection must
// agree, so for ERE and Rust lazy quantifiers become greedy ones; named groups become plain groups
// everywhere (rg joins its patterns into one, where two groups of one name would clash); a
// construct a tool lacks (lookaround, back-reference outside PCRE) makes the pattern "not
// expressible" for it.

const ERE_SPECIAL = new Set(['.', '[', '(', ')', '|', '*', '+', '?', '{', '^', '$', '\\']);
const RUST_META = new Set(['\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$', '#', '&', '-', '~']);

class NotExpressible extends Error {}

/** Rewrites one JavaScript regex source for `dialect` ('ere', 'rust' or 'pcre'). */
function rewrite(source, dialect) {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      out += escapeOutside(source[i + 1], dialect);
      i += 2;
    } else if (c === '(') {
      const rest = source.slice(i + 1);
      const named = /^\?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
      const lookaround = /^\?(?:=|!|<=|<!)/.exec(rest);
      if (named) i += 1 + named[0].length;
      else if (rest.startsWith('?:')) i += 3;
      else if (lookaround && dialect === 'pcre') {
        out += `(${lookaround[0]}`;
        i += 1 + lookaround[0].length;
        continue;
      } else if (rest.startsWith('?')) throw new NotExpressible(`group (${rest.slice(0, 3)}…`);
      else i += 1;
      out += '(';
    } else if (c === '[' && dialect === 'pcre') {
      // PCRE2's classes read JavaScript's escapes as JavaScript does: copied as written.
      const end = bracketEnd(source, i);
      out += source.slice(i, end);
      i = end;
    } else if (c === '[') {
      const { text, end } = bracket(source, i, dialect);
      out += text;
      i = end;
    } else if ((c === '*' || c === '+' || c === '?' || c === '}') && source[i + 1] === '?' && dialect !== 'pcre') {
      out += c; // lazy → greedy: the same lines match
      i += 2;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

function escapeOutside(x, dialect) {
  if (x === undefined) throw new NotExpressible('trailing backslash');
  if ('sSwWbB'.includes(x)) return `\\${x}`;
  // PCRE2 reads these escapes as JavaScript does; a punctuation escape is the character itself in both.
  if (dialect === 'pcre' && (!/[A-Za-z0-9]/.test(x) || 'dDnrtf'.includes(x))) return `\\${x}`;
  if (x === 'd') return dialect === 'ere' ? '[0-9]' : '\\d';
  if (x === 'D') return dialect === 'ere' ? '[^0-9]' : '\\D';
  if (/[A-Za-z0-9]/.test(x)) throw new NotExpressible(`escape \\${x}`);
  if (dialect === 'ere') return ERE_SPECIAL.has(x) ? `\\${x}` : x;
  return RUST_META.has(x) ? `\\${x}` : x;
}

/** Where the bracket expression opened at `start` ends (past its `]`). */
function bracketEnd(source, start) {
  let i = start + 1;
  if (source[i] === '^') i++;
  for (; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
  if (source[i] !== ']') throw new NotExpressible('unterminated bracket');
  return i + 1;
}

/** A bracket expression from `start` (at '['); ERE has no escapes inside brackets, so items move. */
function bracket(source, start, dialect) {
  let i = start + 1;
  const negated = source[i] === '^';
  if (negated) i += 1;
  let items = '';
  let closing = false;
  let dash = false;
  for (; i < source.length && source[i] !== ']'; i++) {
    const c = source[i];
    if (c !== '\\') {
      if (c === '-' && (i === start + 1 + (negated ? 1 : 0) || source[i + 1] === ']')) dash = true;
      else items += c;
      continue;
    }
    const x = source[++i];
    if (dialect === 'rust') {
      items += RUST_META.has(x) || /[A-Za-z]/.test(x) ? `\\${x}` : x;
      continue;
    }
    if (x === ']') closing = true;
    else if (x === '-') dash = true;
    else if (x === 'n' && negated) continue; // a line holds no newline: [^\n…] is [^…]
    else if (x === 'd') items += '0-9';
    else if (x === 's') items += '[:space:]';
    else if (x === 'w') items += '[:alnum:]_';
    else if (/[A-Za-z0-9]/.test(x)) throw new NotExpressible(`escape \\${x} in a bracket`);
    else items += x;
  }
  if (source[i] !== ']') throw new NotExpressible('unterminated bracket');
  if (negated && items === '' && !closing && !dash) return { text: '.', end: i + 1 };
  const text = `[${negated ? '^' : ''}${closing ? ']' : ''}${items}${dash ? '-' : ''}]`;
  return { text, end: i + 1 };
}

/**
 * Every log regex of the pack (each log signal's regex and presence pattern), as JavaScript,
 * ERE, Rust and PCRE2; `ere`/`rust`/`pcre` are undefined with a `reason` when a tool cannot
 * express it.
 */
export function logPatterns(rules) {
  const out = [];
  for (const rule of rules) {
    for (const signal of rule.signals) {
      if (signal.type !== 'log') continue;
      for (const [kind, regex] of [['regex', signal.regex], ['presence', signal.presence?.regex]]) {
        if (!regex) continue;
        const entry = { ruleId: rule.id, signal: signal.name, kind, js: regex.source, flags: regex.flags };
        for (const dialect of ['ere', 'rust', 'pcre']) {
          try {
            if (regex.ignoreCase && dialect === 'ere') throw new NotExpressible('case-insensitive (grep -i is all or nothing)');
            entry[dialect] = (regex.ignoreCase ? '(?i)' : '') + rewrite(regex.source, dialect);
          } catch (err) {
            if (!(err instanceof NotExpressible)) throw err;
            entry[`${dialect}Reason`] = err.message;
          }
        }
        out.push(entry);
      }
    }
  }
  return out;
}
