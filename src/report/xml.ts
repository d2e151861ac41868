import { sanitizeTerminalText } from '../util/terminal.js';

/**
 * XML 1.0 text: characters the format forbids (most C0 controls, lone surrogates, U+FFFE/U+FFFF)
 * are dropped, because one stray byte from a provider would make the whole file unreadable to CI.
 */
const FORBIDDEN_XML_CHARS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const stripXmlForbidden = (text: string): string => text.replace(FORBIDDEN_XML_CHARS, '');

/**
 * Element content. Controls, C1 and bidi characters are shown escaped (`\u202e`) as in every format, never
 * interpreted by a CI page; `>` is escaped too, so a provider's `]]>` stays harmless text.
 */
export function xmlEscape(text: string): string {
  return stripXmlForbidden(sanitizeTerminalText(text))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Attribute values: quotes escaped, line breaks and tabs kept (parsers normalise raw ones to spaces). */
export const xmlAttr = (text: string): string =>
  xmlEscape(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
