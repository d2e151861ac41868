import type { BodyKind } from './types.js';

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
