/**
 * A small, strict XML 1.0 parser for tests: elements, attributes, text, the five predefined entities
 * and character references, comments and an XML declaration. Anything malformed throws.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Direct text content, entities decoded. */
  text: string;
}

const NAME = /^[A-Za-z_][\w.-]*/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

function decode(raw: string, where: string): string {
  if (FORBIDDEN.test(raw)) throw new Error(`forbidden character in ${where}`);
  return raw.replace(/&([^;&]*);|&/g, (_match, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare & in ${where}`);
    if (ref.startsWith('#x')) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
    const value = ENTITIES[ref];
    if (value === undefined) throw new Error(`unknown entity &${ref}; in ${where}`);
    return value;
  });
}

export function parseXml(source: string): XmlElement {
  let pos = 0;
  const fail = (why: string): never => {
    throw new Error(`malformed XML at ${pos}: ${why}`);
  };
  const skipSpace = (): void => {
    while (pos < source.length && /\s/.test(source[pos] ?? '')) pos++;
  };
  const skipMisc = (): void => {
    for (;;) {
      skipSpace();
      if (source.startsWith('<!--', pos)) {
        const end = source.indexOf('-->', pos);
        if (end < 0) fail('unterminated comment');
        pos = end + 3;
      } else return;
    }
  };
  const readName = (): string => {
    const match = NAME.exec(source.slice(pos));
    if (!match) return fail('expected a name');
    pos += match[0].length;
    return match[0];
  };

  const parseElement = (): XmlElement => {
    if (source[pos] !== '<') fail('expected <');
    pos++;
    const element: XmlElement = { name: readName(), attributes: {}, children: [], text: '' };
    for (;;) {
      skipSpace();
      if (source.startsWith('/>', pos)) {
        pos += 2;
        return element;
      }
      if (source[pos] === '>') {
        pos++;
        break;
      }
      const attr = readName();
      skipSpace();
      if (source[pos] !== '=') fail(`expected = after ${attr}`);
      pos++;
      skipSpace();
      const quote = source[pos];
      if (quote !== '"' && quote !== "'") return fail('expected a quoted attribute value');
      const end = source.indexOf(quote, pos + 1);
      if (end < 0) fail('unterminated attribute value');
      const raw = source.slice(pos + 1, end);
      if (raw.includes('<')) fail(`< in attribute ${attr}`);
      if (attr in element.attributes) fail(`duplicate attribute ${attr}`);
      // Raw whitespace in attribute values is normalised to spaces (XML 1.0 §3.3.3).
      element.attributes[attr] = decode(raw.replace(/[\t\n\r]/g, ' '), `attribute ${attr}`);
      pos = end + 1;
    }
    for (;;) {
      const next = source.indexOf('<', pos);
      if (next < 0) fail(`unclosed <${element.name}>`);
      const text = source.slice(pos, next);
      if (text.includes(']]>')) fail(']]> in text');
      element.text += decode(text, `text of ${element.name}`);
      pos = next;
      if (source.startsWith('</', pos)) {
        pos += 2;
        const closing = readName();
        if (closing !== element.name) fail(`</${closing}> closes <${element.name}>`);
        skipSpace();
        if (source[pos] !== '>') fail('expected >');
        pos++;
        return element;
      }
      if (source.startsWith('<!--', pos)) {
        skipMisc();
        continue;
      }
      if (source.startsWith('<![CDATA[', pos)) {
        const end = source.indexOf(']]>', pos);
        if (end < 0) fail('unterminated CDATA');
        element.text += source.slice(pos + 9, end);
        pos = end + 3;
        continue;
      }
      element.children.push(parseElement());
    }
  };

  if (source.startsWith('<?xml')) {
    const end = source.indexOf('?>');
    if (end < 0) fail('unterminated declaration');
    pos = end + 2;
  }
  skipMisc();
  const root = parseElement();
  skipMisc();
  if (pos !== source.length) fail('content after the root element');
  return root;
}

export const childrenNamed = (element: XmlElement, name: string): XmlElement[] =>
  element.children.filter((c) => c.name === name);

export function onlyChild(element: XmlElement, name: string): XmlElement {
  const found = childrenNamed(element, name);
  if (found.length !== 1) throw new Error(`expected one <${name}> in <${element.name}>, found ${found.length}`);
  const [first] = found;
  if (!first) throw new Error('unreachable');
  return first;
}
