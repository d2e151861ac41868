import { stripControl } from '../report/format.js';
import { htmlEscape } from '../report/html.js';

/** Markup that is already safe: only the `html` template and the console's own constants make it. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = string | number | Html | readonly Html[] | undefined | null | false;

/**
 * Escaping template: every interpolated string is text (control and bidi characters made visible, then
 * `& < > " '` escaped, so it is safe in element content and in quoted attributes alike); only Html values
 * pass through. Provider-supplied strings can therefore never become markup.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

function render(value: HtmlValue): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map((v: Html) => v.text).join('');
  return htmlEscape(String(value));
}

/**
 * Data for the live stream, escaped as the page escapes text: every string with control, bidi and line/paragraph
 * separator characters made visible by the same rule htmlEscape applies (`stripControl`). The page's script puts
 * it in with textContent, so markup characters need no entity; what is shown is what the static page shows.
 */
export function streamText<T>(value: T): T {
  if (typeof value === 'string') return stripControl(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => streamText(v)) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [stripControl(k), streamText(v)])) as T;
  return value;
}

/** A console-internal constant known to be markup (never provider text). */
export const trusted = (text: string): Html => new Html(text);

/** A path segment for a console link: percent-encoded, then escaped by the template. */
export const seg = (value: string): string => encodeURIComponent(value);
