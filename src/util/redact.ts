import { API_KEY_HEADER, COMPAT_SIGNATURE_HEADER, SIGNATURE_HEADER } from '../model/contract-constants.js';
import { LiteralPattern } from './literal-pattern.js';
import { addSecretForms } from './secret-forms.js';

/** What a masked value is replaced with. */
export const MASK = '****';

/** Headers whose values are credentials or derived from them: always masked, whatever their value. */
const SENSITIVE_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  API_KEY_HEADER,
  SIGNATURE_HEADER,
  COMPAT_SIGNATURE_HEADER,
  'x-signature',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'x-auth-token',
  'x-admin-token',
]);
/** Custom names a provider may use for the same things (x-session-token, x-client-secret, …). */
const SENSITIVE_NAME = /token|secret|passw|api-?key|signature|hmac|credential|session|cookie/i;

export const isSensitiveHeader = (name: string): boolean =>
  SENSITIVE_HEADERS.has(name.toLowerCase()) || SENSITIVE_NAME.test(name);

function maskHeaderValue(name: string, value: string): string {
  if (!isSensitiveHeader(name)) return value;
  // Keep the scheme word: "Bearer ****" still tells the reader which kind of credential was sent.
  const scheme = /^(Bearer|Basic)\s+/i.exec(value)?.[0] ?? '';
  return `${scheme}${MASK}`;
}

/** Masks by header name only; `Redactor.headers` also masks secrets found in other headers. */
export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = maskHeaderValue(name, value);
  return out;
}

/** Beyond this depth `deep` stops copying: report values are never this deep unless hostile. */
const MAX_DEEP = 64;
export const TOO_DEEP = '[nested too deep to show]';

/** Records as JSON has them; class instances (Date, Map…) are left as they are. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The one masker. It knows every secret in play (credential, webhook secret(s), admin token) and
 * replaces, in any string, the raw value, its JSON-escaped, URL-encoded, base64/base64url (any
 * alignment) and hex forms, and any piece long enough to identify it. The forms are compiled once into
 * one regex, so each string costs one pass. Secrets shorter than 4 characters are not searched for.
 */
export class Redactor {
  private readonly pattern: RegExp | undefined;

  constructor(secrets: readonly (string | undefined)[]) {
    const pattern = new LiteralPattern();
    for (const secret of new Set(secrets)) {
      if (typeof secret !== 'string') continue;
      addSecretForms(pattern, secret);
      // A secret read with stray whitespace is often sent trimmed.
      if (secret.trim() !== secret) addSecretForms(pattern, secret.trim());
    }
    this.pattern = pattern.compile();
  }

  text(value: string): string {
    return this.pattern ? value.replace(this.pattern, MASK) : value;
  }

  /** Header values masked by name, then every other value searched for secrets. */
  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers))
      out[this.text(name.toLowerCase())] = this.text(maskHeaderValue(name, value));
    return out;
  }

  /**
   * A copy with every string (object keys too) masked, and every `headers` record masked by name.
   * Recursion is bounded: deeper values are replaced by a note instead of overflowing the stack.
   */
  deep<T>(value: T): T {
    return this.walk(value, 0, false) as T;
  }

  private walk(value: unknown, depth: number, isHeaders: boolean): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= MAX_DEEP) return TOO_DEEP;
    if (Array.isArray(value)) return value.map((item) => this.walk(item, depth + 1, false));
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const shown = isHeaders && typeof item === 'string' ? maskHeaderValue(key, item) : item;
      out[this.text(key)] = this.walk(shown, depth + 1, key === 'headers');
    }
    return out;
  }
}

/** Masks header names only: for text whose secrets are not known (reports read back from a file). */
export const NO_SECRETS = new Redactor([]);
