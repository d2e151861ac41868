/**
 * Characters that are invisible or move text yet are valid inside any string: C1 controls (U+0085 next line,
 * U+009B CSI…), bidi controls and marks (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C) and the line and
 * paragraph separators U+2028/U+2029. The one list: every format escapes them (terminal text, Markdown, HTML
 * and GitHub annotations through sanitizeTerminalText, JSON and the NDJSON stream through jsonTerminalSafe,
 * JUnit through xmlEscape, which calls sanitizeTerminalText).
 */
const INVISIBLE = String.raw`\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069`;
const CONTROL = new RegExp(String.raw`[\u0000-\u0008\u000B-\u001F${INVISIBLE}]`, 'g');
const CONTROL_ONE_LINE = new RegExp(String.raw`[\u0000-\u001F${INVISIBLE}]`, 'g');
const JSON_UNSAFE = new RegExp(`[${INVISIBLE}]`, 'g');

const escaped = (ch: string): string => {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * Untrusted text (provider answers, webhook slugs, report contents) is shown, never interpreted: C0/C1
 * control characters (ESC, BEL, CR, so OSC and CSI sequences too), Unicode bidi controls (U+202E right-to-left
 * override…) and line separators are written as visible escapes (`\x1b`, `\u202e`).
 * Newline (and CRLF, as a newline) and tab are kept unless `oneLine` is set (log lines must stay one line each).
 */
export function sanitizeTerminalText(text: string, options: { oneLine?: boolean } = {}): string {
  // CRLF is a line break; only a lone CR (return to the line start and overwrite it) is escaped.
  return text.replace(/\r\n/g, '\n').replace(options.oneLine ? CONTROL_ONE_LINE : CONTROL, escaped);
}

/**
 * JSON text safe to print: JSON.stringify already escapes C0 controls, not C1 or bidi controls; those
 * can only occur inside strings, where `\uXXXX` is the same value, so the data is unchanged.
 */
export const jsonTerminalSafe = (json: string): string =>
  json.replace(JSON_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
