import type { BodyKind } from './types.js';

/**
 * JSON nested deeper than this is refused before parsing: the contract's payloads are a few levels
 * deep, and validating or formatting a hostile 5,000-level answer would overflow the stack.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `text`, read as JSON, opens more than `limit` arrays/objects at once (strings skipped). */
export function jsonDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > limit) return true;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return false;
}

/**
 * The content coding of an answer, when it is not identity ('' otherwise). provcert asks for
 * `accept-encoding: identity` and does not decompress: a compressed body is named, not guessed at.
 */
export function contentCoding(headers: Record<string, string>): string {
  const coding = (headers['content-encoding'] ?? '').trim().toLowerCase();
  return coding === 'identity' ? '' : coding;
}

/** Classify a response body so checks can say what the provider really answered. */
export function classifyBody(contentType: string, text: string): { kind: BodyKind; json: unknown } {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'empty', json: undefined };
  const looksHtml = /html/i.test(contentType) || /^<(!doctype|html|head|body)/i.test(trimmed);
  try {
    return { kind: 'json', json: JSON.parse(text) as unknown };
  } catch {
    if (looksHtml) return { kind: 'html', json: undefined };
    if (/^[[{]/.test(trimmed)) return { kind: 'truncated-json', json: undefined };
    return { kind: 'not-json', json: undefined };
  }
}

/** A short phrase for what a non-JSON body was, for messages. */
export function describeBody(kind: BodyKind, contentType: string): string {
  const ct = contentType ? ` (content-type ${contentType})` : ' (no content-type)';
  switch (kind) {
    case 'json':
      return `JSON${ct}`;
    case 'empty':
      return `an empty body${ct}`;
    case 'html':
      return `an HTML page${ct}: the base URL looks like a website or frontend, not the provider API`;
    case 'truncated-json':
      return `truncated or malformed JSON${ct}`;
    case 'not-json':
      return `a body that is not JSON${ct}`;
  }
}
