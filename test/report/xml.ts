/**
 * A small, strict XML 1.0 reader for the tests: enough of the spec to prove the JUnit output is
 * well-formed (one root, balanced tags, quoted unique attributes, only the five predefined
 * entities and character references, no illegal characters, no `<` or `]]>` in text) and to
 * walk it as a tree. Throws on the first violation, with the offset.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Character data directly inside this element, entities decoded. */
  text: string;
}

const NAME = /[A-Za-z_:][A-Za-z0-9_.:-]*/y;
// Legal XML 1.0 characters, as code points.
function legal(cp: number): boolean {
  return (
    cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

export function parseXml(source: string): XmlElement {
  for (let i = 0; i < source.length; ) {
    const cp = source.codePointAt(i) ?? 0;
    if (!legal(cp)) throw new Error(`illegal character U+${cp.toString(16)} at ${i}`);
    i += cp > 0xffff ? 2 : 1;
  }
  let pos = 0;
  const fail = (msg: string): never => {
    throw new Error(`${msg} at ${pos}: ${JSON.stringify(source.slice(pos, pos + 40))}`);
  };
  const skipSpace = (): void => {
    while (pos < source.length && /\s/.test(source[pos] ?? '')) pos++;
  };
  const name = (): string => {
    NAME.lastIndex = pos;
    const m = NAME.exec(source);
    if (m === null) return fail('expected a name');
    pos += m[0].length;
    return m[0];
  };
  const decode = (raw: string, where: string): string =>
    raw.replace(/&([^;]*);?/g, (all, ref: string) => {
      if (!all.endsWith(';')) fail(`unterminated reference in ${where}`);
      switch (ref) {
        case 'amp':
          return '&';
        case 'lt':
          return '<';
        case 'gt':
          return '>';
        case 'quot':
          return '"';
        case 'apos':
          return "'";
      }
      const m = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(ref);
      if (m === null) return fail(`unknown entity &${ref}; in ${where}`);
      const cp = m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2] ?? '', 10);
      if (!legal(cp)) fail(`reference to illegal character ${cp} in ${where}`);
      return String.fromCodePoint(cp);
    });

  if (source.startsWith('<?xml')) {
    const end = source.indexOf('?>');
    if (end < 0) fail('unterminated XML declaration');
    pos = end + 2;
  }
  const skipMisc = (): void => {
    for (;;) {
      skipSpace();
      if (source.startsWith('<!--', pos)) {
        const end = source.indexOf('-->', pos + 4);
        if (end < 0) fail('unterminated comment');
        pos = end + 3;
      } else return;
    }
  };

  const element = (): XmlElement => {
    if (source[pos] !== '<') fail('expected <');
    pos++;
    const el: XmlElement = { name: name(), attrs: {}, children: [], text: '' };
    for (;;) {
      const before = pos;
      skipSpace();
      if (source.startsWith('/>', pos)) {
        pos += 2;
        return el;
      }
      if (source[pos] === '>') {
        pos++;
        break;
      }
      if (pos === before) fail('expected space before attribute');
      const attr = name();
      if (attr in el.attrs) fail(`duplicate attribute ${attr}`);
      skipSpace();
      if (source[pos] !== '=') fail('expected =');
      pos++;
      skipSpace();
      const quote = source[pos];
      if (quote !== '"' && quote !== "'") return fail('expected a quoted value');
      const end = source.indexOf(quote, pos + 1);
      if (end < 0) fail('unterminated attribute value');
      const raw = source.slice(pos + 1, end);
      if (raw.includes('<')) fail('< in attribute value');
      el.attrs[attr] = decode(raw, `attribute ${attr}`);
      pos = end + 1;
    }
    // Content.
    for (;;) {
      const next = source.indexOf('<', pos);
      if (next < 0) fail(`unclosed element ${el.name}`);
      const raw = source.slice(pos, next);
      if (raw.includes(']]>')) fail(']]> in text');
      el.text += decode(raw, `text of ${el.name}`);
      pos = next;
      if (source.startsWith('</', pos)) {
        pos += 2;
        const closing = name();
        if (closing !== el.name) fail(`</${closing}> closes <${el.name}>`);
        skipSpace();
        if (source[pos] !== '>') fail('expected >');
        pos++;
        return el;
      }
      if (source.startsWith('<!--', pos)) {
        const end = source.indexOf('-->', pos + 4);
        if (end < 0) fail('unterminated comment');
        pos = end + 3;
        continue;
      }
      if (source.startsWith('<![CDATA[', pos)) {
        const end = source.indexOf(']]>', pos);
        if (end < 0) fail('unterminated CDATA');
        el.text += source.slice(pos + 9, end);
        pos = end + 3;
        continue;
      }
      el.children.push(element());
    }
  };

  skipMisc();
  const root = element();
  skipMisc();
  if (pos !== source.length) fail('content after the root element');
  return root;
}

/** All descendants named `name`, depth first. */
export function findAll(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of el.children) {
    if (child.name === name) out.push(child);
    out.push(...findAll(child, name));
  }
  return out;
}
