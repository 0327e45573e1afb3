/**
 * Log line → template, in the spirit of the Drain log-template miner: the variable parts of a
 * message (times, numbers, addresses, identifiers) are masked by placeholders, so that the many
 * lines one call site prints fold into one template. Each placeholder also has a general
 * pattern, so a template can be turned back into a regex that matches every line it folds
 * (`templateRegex`, used to write a rule skeleton from a template).
 */
import { createHash } from 'node:crypto';

/** Kubernetes' random suffix alphabet (no vowels, no 0/1/3): pod, ReplicaSet and Job suffixes. */
const SUFFIX = '[bcdfghjklmnpqrstvwxz2456789]';

interface Mask {
  placeholder: string;
  /** Global regex over the message. */
  find: RegExp;
  /** The replacement, or a function of the match (placeholders that keep part of it). */
  replace: string | ((match: string, ...groups: string[]) => string);
  /** Regex source that matches whatever the placeholder replaced: no nested quantifiers (safe-regex clean). */
  general: string;
}

/**
 * Quoted names are masked when they look like identifiers (a digit or a separator in them:
 * `"openshift-monitoring/prometheus-k8s-0"`, `"kube-root-ca.crt"`) and kept when they are plain
 * words, which are mostly kinds and enum values (`"ClusterVersion"`, `"Build"`); JSON keys
 * (a name followed by `:`) are never masked.
 */
function maskQuoted(match: string, open: string, name: string, close: string): string {
  return /[\d\-./:_@]/.test(name) ? `${open}<name>${close}` : match;
}

/** Applied in this order: the more specific placeholders first. */
const MASKS: readonly Mask[] = [
  {
    placeholder: '<query>',
    find: /(https?:\/\/[^\s"'?]*)\?[^\s"']*/g,
    replace: '$1?<query>',
    general: `[^\\s"']*`,
  },
  {
    placeholder: '<time>',
    find: /\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?(?: [+-]\d{4})?(?: [A-Z]{2,5})?(?: m=[+-]\d+(?:\.\d+)?)?|\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d(?:\.\d+)?|(?<![\w:.])\d\d:\d\d:\d\d(?:\.\d+)?(?![\w:])/g,
    replace: '<time>',
    // Loose (`+0000 UTC m=+0.1` too), and without nested quantifiers, which the rule loader refuses.
    general: '\\d[\\w:.,+/ =-]*',
  },
  {
    placeholder: '<uuid>',
    find: /\b[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\b/g,
    replace: '<uuid>',
    general: '[0-9a-fA-F-]{36}',
  },
  {
    placeholder: '<ip>',
    // Bracketed IPv6 (with zone and port), IPv4 (with port), bare IPv6 with `::` or 8 groups.
    find: /\[[0-9a-fA-F]{0,4}:[0-9a-fA-F:.]*(?:%\w+)?\](?::\d{1,5})?|(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?(?![\w]|\.\d)|(?<![\w:.])(?:(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|(?:[0-9a-fA-F]{1,4}:){1,6}:(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){0,5})?|::[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){0,5})(?![\w:])/g,
    replace: '<ip>',
    general: '[\\[\\]0-9a-fA-F:.%]+',
  },
  {
    placeholder: '<host>',
    // AWS node names: ip-10-0-187-218, ip-10-0-187-218.ec2.internal
    find: /(?<![\w-])ip-\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3}(?:\.[a-z0-9-]+)*/g,
    replace: '<host>',
    // Any host name, not the AWS form it was seen in: a rule from an aws archive must fire on the
    // same line of a metal cluster (`master-2.ci-ln-….rhcloud.com`, masked there as a quoted name).
    general: '[A-Za-z0-9][A-Za-z0-9.-]*',
  },
  {
    placeholder: '<pod>',
    // router-default-6dd4c95495-7dqkw → router-default-<pod>; ovnkube-master-t8phs → ovnkube-master-<pod>
    find: new RegExp(`(?<=[a-z0-9]-)(?:${SUFFIX}{6,10}-)?${SUFFIX}{5}(?![\\w-])`, 'g'),
    replace: '<pod>',
    general: `${SUFFIX.slice(0, -1)}-]{5,16}`,
  },
  {
    placeholder: '<hex>',
    // 0x… and runs of 8+ hex digits holding both a digit and a letter (hashes, digests, ids).
    find: /(?<![\w])(?:0x[0-9a-fA-F]+|(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}|[0-9a-f]{32,})(?![\w])/g,
    replace: '<hex>',
    general: '(?:0x)?[0-9a-fA-F]+',
  },
  {
    placeholder: '<dur>',
    find: /(?<![\w.])\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h)(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))*(?![\w])/g,
    replace: '<dur>',
    general: '[\\d.]+[nuµmsh][\\d.nuµmsh]*',
  },
  {
    placeholder: '<name>',
    find: /(?<![\w"'\\])(\\?["'])([^"'\s\\]{1,253})(\1)(?![\w]|\s*:)/g,
    replace: maskQuoted,
    general: `[^"'\\s\\\\]+`,
  },
  {
    placeholder: '<num>',
    find: /(?<![\w.])\d+(?:\.\d+)*(?![\w])/g,
    replace: '<num>',
    general: '\\d[\\d.]*',
  },
];

/** Longest message part kept (before masking); the rest of a longer line is cut at a word. */
export const MAX_MESSAGE_CHARS = 1000;
/** Marks a template whose message was cut. */
export const CUT_MARK = ' …';

/** The message with its variable parts masked; whitespace as in the line. */
export function maskMessage(message: string): string {
  let text = message;
  let cut = false;
  if (text.length > MAX_MESSAGE_CHARS) {
    const space = text.lastIndexOf(' ', MAX_MESSAGE_CHARS);
    text = text.slice(0, space > MAX_MESSAGE_CHARS / 2 ? space : MAX_MESSAGE_CHARS);
    cut = true;
  }
  for (const mask of MASKS) {
    mask.find.lastIndex = 0;
    text = typeof mask.replace === 'string' ? text.replace(mask.find, mask.replace) : text.replace(mask.find, mask.replace);
  }
  return cut ? `${text}${CUT_MARK}` : text;
}

/** Stable short id of a template: the same component and template give the same id on any input. */
export function templateId(component: string, template: string): string {
  return createHash('sha256').update(`${component}\n${template}`).digest('hex').slice(0, 10);
}

/** Drain's wildcard: a whole token (no blank, no comma) that differs between the lines of one template. */
export const WILDCARD = '<*>';

const GENERAL = new Map([...MASKS.map((m): [string, string] => [m.placeholder, m.general]), [WILDCARD, '[^\\s,]+']]);
const PLACEHOLDER = new RegExp(`(${[...GENERAL.keys()].map(escapeRegex).join('|')})`);
/** A klog call site at the start of a template: `sync_worker.go:602] `. */
const CALL_SITE = /^([\w.-]+\.go:)(\d+)(?=\])/;

/** A template's pieces: constant text (`literal`) and variable parts, each with its regex source. */
interface Part {
  literal: boolean;
  text: string;
  source: string;
}

/** Blanks that are not a single space (tabs, runs): any run of blanks in the regex. */
const LOOSE_BLANKS = /\t|\s{2,}/;

function literal(text: string): Part {
  return { literal: true, text, source: text.split(LOOSE_BLANKS).map(escapeRegex).join('\\s+') };
}

/**
 * The template cut into constant text and placeholders, in order. A klog call site's line
 * number counts as variable (`sync_worker.go:\d+]`): it moves between releases.
 */
function templateParts(template: string): Part[] {
  const body = template.endsWith(CUT_MARK) ? template.slice(0, -CUT_MARK.length) : template;
  const parts: Part[] = [];
  body.split(PLACEHOLDER).forEach((text, i) => {
    if (i % 2 === 1) {
      parts.push({ literal: false, text, source: GENERAL.get(text)! });
      return;
    }
    const site = i === 0 ? CALL_SITE.exec(text) : null;
    if (site) {
      parts.push(literal(site[1]!), { literal: false, text: site[2]!, source: '\\d+' });
      text = text.slice(site[0].length);
    }
    if (text !== '') parts.push(literal(text));
  });
  return parts;
}

/**
 * The parts a regex needs: from the first constant part (a regex is unanchored, so leading
 * placeholders such as a zap line's `<time>` add nothing) up to `variables` variable parts.
 */
function leadingParts(template: string, variables: number): Part[] {
  const parts = templateParts(template);
  const start = parts.findIndex((part) => part.literal);
  if (start < 0) return [];
  let seen = 0;
  const end = parts.findIndex((part, i) => i > start && !part.literal && ++seen > variables);
  return parts.slice(start, end < 0 ? parts.length : end);
}

/** How many variable parts (placeholders, a call site's line number) a template's regex may hold. */
export function variableCount(template: string): number {
  return leadingParts(template, Infinity).filter((part) => !part.literal).length;
}

/**
 * A regex (source) matching every line the template folds: constant text escaped, each
 * placeholder general. With `variables`, only the template's head up to that many variable
 * parts (a regex may not repeat without bound; the rest of the line is then not checked).
 */
export function templateRegex(template: string, variables = Infinity): string {
  return leadingParts(template, variables)
    .map((part) => part.source)
    .join('');
}

/** The longest constant run of a template (or its head): what a rule searches for before its regex runs. */
export function longestLiteral(template: string, variables = Infinity): string {
  let best = '';
  for (const part of leadingParts(template, variables)) {
    if (!part.literal) continue;
    // Only text the regex holds verbatim: no loose blanks (\s+) or control characters (\xNN).
    for (const run of part.text.split(LOOSE_BLANKS).flatMap((piece) => piece.split(/[\u0000-\u001f\u007f]+/))) {
      const trimmed = run.trim();
      if (trimmed.length > best.length) best = trimmed;
    }
  }
  return best;
}

/** Escapes regex syntax (the set the rule loader checks literals against) and control characters. */
export function escapeRegex(text: string): string {
  return text
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
