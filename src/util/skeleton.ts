/**
 * The skeleton of a text: what is left to recognise a secret by once an echoing provider's choice of encoding is
 * undone. Escapes are decoded (JSON `\uXXXX` and `\xXX`, `%XX` on any byte, HTML numeric `&#115;`/`&#x73;`
 * entities, each undone again when it decodes to the start of another: `%2541`), then only ASCII letters and digits are kept, lowercased: separators, whitespace and line breaks
 * (a secret or its base64 wrapped across lines, hex written `73:65`), zero-width characters, punctuation and
 * case all drop out. One pass, linear in the text.
 */

const HEX = /^[0-9a-fA-F]+$/;

/** For each UTF-16 unit, the lowercase ASCII letter or digit it stands for, or -1 (dropped from the skeleton). */
const KEPT = new Int16Array(0x10000).fill(-1);
for (let c = 0x30; c <= 0x39; c++) KEPT[c] = c;
for (let c = 0x61; c <= 0x7a; c++) KEPT[c] = c;
for (let c = 0x41; c <= 0x5a; c++) KEPT[c] = c + 0x20;

const isHexAt = (text: string, at: number, length: number): boolean =>
  at + length <= text.length && HEX.test(text.slice(at, at + length));

/** JSON and C escapes that stand for whitespace or punctuation: consumed whole so their letter does not remain. */
const CONTROL_ESCAPES = new Set(['n', 'r', 't', 'b', 'f', 'v', '0']);

/**
 * The escape starting at `i`, if any: the character it stands for and where it ends. Runs of backslashes
 * (JSON inside JSON: `\\u0073`) count as one.
 */
function escapeAt(text: string, i: number): { code: number; end: number } | undefined {
  const c = text.charCodeAt(i);
  if (c === 0x5c) {
    let j = i + 1;
    while (text.charCodeAt(j) === 0x5c) j++;
    const letter = text[j];
    if ((letter === 'u' || letter === 'U') && isHexAt(text, j + 1, 4))
      return { code: Number.parseInt(text.slice(j + 1, j + 5), 16), end: j + 5 };
    if (letter === 'x' && isHexAt(text, j + 1, 2))
      return { code: Number.parseInt(text.slice(j + 1, j + 3), 16), end: j + 3 };
    if (letter !== undefined && CONTROL_ESCAPES.has(letter)) return { code: 0x20, end: j + 1 };
    return undefined;
  }
  if (c === 0x25 && isHexAt(text, i + 1, 2)) return { code: Number.parseInt(text.slice(i + 1, i + 3), 16), end: i + 3 };
  if (c === 0x26 && text.charCodeAt(i + 1) === 0x23) {
    const hex = text[i + 2] === 'x' || text[i + 2] === 'X';
    let j = i + (hex ? 3 : 2);
    const start = j;
    while (j < text.length && j - start < 8 && (hex ? isHexAt(text, j, 1) : /[0-9]/.test(text[j] ?? ''))) j++;
    if (j === start) return undefined;
    const code = Number.parseInt(text.slice(start, j), hex ? 16 : 10);
    return { code: code <= 0xffff ? code : 0, end: text[j] === ';' ? j + 1 : j };
  }
  return undefined;
}

/** Characters an escape may decode to that can start another escape: `%2541` is `%41` once decoded. */
const ESCAPE_STARTS = new Set([0x25, 0x5c, 0x26]);
/** How many encodings deep an escape is undone (`%252541` is three): each level consumes at least two characters. */
const MAX_ESCAPE_LEVELS = 8;

/**
 * The escape at `i` with iterated encodings undone (issue 32): an escape that decodes to `%`, `\` or `&` is read
 * again with the text after it (`%2541` → `%41` → `A`, `&#37;41` → `A`, `%5Cu0041` → `A`). Linear: every level
 * consumes characters of the text.
 */
function iteratedEscapeAt(text: string, i: number): { code: number; end: number } | undefined {
  let decoded = escapeAt(text, i);
  for (let level = 0; decoded && level < MAX_ESCAPE_LEVELS && ESCAPE_STARTS.has(decoded.code); level++) {
    const head = String.fromCharCode(decoded.code) + text.slice(decoded.end, decoded.end + 12);
    const next = escapeAt(head, 0);
    if (!next || next.end <= 1) break;
    decoded = { code: next.code, end: decoded.end + next.end - 1 };
  }
  return decoded;
}

export interface Skeleton {
  text: string;
  /** With `withMap`: for each skeleton character, where the text it came from starts and ends. */
  from?: Int32Array;
  to?: Int32Array;
}

/** Reused between calls (masking is synchronous): no allocation per string but the skeleton itself. */
let buffer = new Uint16Array(1024);
const utf16 = new TextDecoder('utf-16le');

/** The code units of buffer[0, n) as a string: an argument list for short ones, a decoder for long ones. */
const bufferText = (n: number): string =>
  n <= 256
    ? String.fromCharCode.apply(null, buffer.subarray(0, n) as unknown as number[])
    : utf16.decode(buffer.subarray(0, n));

/** The skeleton of `text`; with `withMap`, where each of its characters came from (to mask the original). */
export function skeletonOf(text: string, withMap = false): Skeleton {
  if (buffer.length < text.length) buffer = new Uint16Array(Math.max(text.length, buffer.length * 2));
  const from = withMap ? new Int32Array(text.length) : undefined;
  const to = withMap ? new Int32Array(text.length) : undefined;
  let n = 0;
  for (let i = 0; i < text.length; ) {
    let unit = text.charCodeAt(i);
    let end = i + 1;
    // Only a backslash, a percent sign or an ampersand can start an escape.
    if (unit === 0x5c || unit === 0x25 || unit === 0x26) {
      const decoded = iteratedEscapeAt(text, i);
      if (decoded) {
        unit = decoded.code;
        end = decoded.end;
      }
    }
    const code = KEPT[unit] ?? -1;
    if (code >= 0) {
      buffer[n] = code;
      if (from && to) {
        from[n] = i;
        to[n] = end;
      }
      n++;
    }
    i = end;
  }
  const out = bufferText(n);
  return from && to ? { text: out, from, to } : { text: out };
}
