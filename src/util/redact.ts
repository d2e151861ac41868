import { API_KEY_HEADER, COMPAT_SIGNATURE_HEADER, SIGNATURE_HEADER } from '../model/contract-constants.js';
import { LiteralPattern } from './literal-pattern.js';
import { addSecretForms, addSkeletonForms } from './secret-forms.js';
import { SecretPieces } from './secret-pieces.js';
import { skeletonOf } from './skeleton.js';
import { TextMemo } from './text-memo.js';

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

/** Where in a text the skeleton pattern matched, as ranges of the original text, merged and in order. */
function skeletonRanges(text: string, pattern: RegExp): [number, number][] {
  const { text: skeleton, from, to } = skeletonOf(text, true);
  const ranges: [number, number][] = [];
  if (!from || !to) return ranges;
  for (const match of skeleton.matchAll(pattern)) {
    const start = from[match.index] ?? 0;
    const end = to[match.index + match[0].length - 1] ?? start;
    const last = ranges.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else ranges.push([start, end]);
  }
  return ranges;
}

/** `text` with every range whose skeleton matches `pattern` masked; `text` itself (cheaply) when none does. */
function maskSkeletonMatches(text: string, pattern: RegExp): string {
  if (text.length < 8 || skeletonOf(text).text.search(pattern) < 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of skeletonRanges(text, pattern)) {
    out += text.slice(at, start) + MASK;
    at = end;
  }
  return out + text.slice(at);
}

/**
 * The one masker. It knows every secret in play (credential, webhook secret(s), admin token, a base URL's
 * password) and replaces, in any string, the raw value, its JSON-escaped, URL-encoded, base64/base64url (any
 * alignment) and hex forms, and any piece long enough to identify it: one regex of literal forms, one pass.
 * Then it normalizes before it matches: in the skeleton of the text (skeleton.ts: escapes of every kind
 * decoded, separators, line breaks and zero-width characters dropped, case folded) it looks for the skeleton
 * of each whole secret, hex and base64, and masks the original text they came from. Both patterns are
 * compiled once per Redactor; the second pass maps positions only when it found something.
 * Secrets shorter than 4 characters are not searched for.
 */
export class Redactor {
  private readonly pattern: RegExp | undefined;
  private readonly skeletonPattern: RegExp | undefined;
  /** Pieces of the secrets, judged by what they show together (secret-pieces.ts). */
  private readonly pieces: SecretPieces;
  /** A run masks the same header names, values and bodies many times: each distinct text is masked once. */
  private readonly masked = new TextMemo((value) => this.maskText(value));

  constructor(secrets: readonly (string | undefined)[]) {
    const pattern = new LiteralPattern();
    const skeletons = new LiteralPattern();
    const known: string[] = [];
    for (const secret of new Set(secrets)) {
      if (typeof secret !== 'string') continue;
      known.push(secret);
      addSecretForms(pattern, secret);
      addSkeletonForms(skeletons, secret);
      // A secret read with stray whitespace is often sent trimmed.
      if (secret.trim() !== secret) addSecretForms(pattern, secret.trim());
    }
    this.pattern = pattern.compile();
    this.skeletonPattern = skeletons.compile();
    this.pieces = new SecretPieces(known);
  }

  text(value: string): string {
    return this.masked.get(value);
  }

  private maskText(value: string): string {
    const whole = this.wholeForms(value);
    if (!this.pieces.active) return whole;
    // What this one string shows of a secret, in pieces: masked when together they reveal it.
    const { runs, covered } = this.pieces.scan(whole);
    return runs.length === 0 ? whole : this.pieces.mask(whole, runs, this.pieces.revealed(covered), MASK);
  }

  /** Every whole form of every secret (and any URL's password) masked. */
  private wholeForms(value: string): string {
    // The skeleton first: masking pieces first would cut a secret split across lines into unrecognisable halves.
    const normalized = this.skeletonPattern ? maskSkeletonMatches(value, this.skeletonPattern) : value;
    const masked = this.pattern ? normalized.replace(this.pattern, MASK) : normalized;
    // Any URL's password, known or not: `https://user:****@host`.
    return masked.includes('@') ? masked.replace(URL_PASSWORD, `$1${MASK}@`) : masked;
  }

  /**
   * Whether `texts` together reveal a secret in pieces (secret-pieces.ts) that no one of them reveals alone: an
   * answer's headers and body, a report's strings.
   */
  revealsTogether(texts: readonly string[]): boolean {
    if (!this.pieces.active) return false;
    const covered = new Map<number, Set<number>>();
    for (const text of texts) this.pieces.scan(this.text(text), covered);
    return this.pieces.revealed(covered).size > 0;
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
    const masked = this.walk(value, 0, false);
    if (!this.pieces.active) return masked as T;
    // Pieces spread over many strings count together: a second pass masks them when, together, they reveal a secret.
    const covered = new Map<number, Set<number>>();
    this.visitStrings(masked, 0, (text) => void this.pieces.scan(text, covered));
    const revealed = this.pieces.revealed(covered);
    if (revealed.size === 0) return masked as T;
    return this.mapStrings(masked, 0, (text) => {
      const { runs } = this.pieces.scan(text);
      return runs.length === 0 ? text : this.pieces.mask(text, runs, revealed, MASK);
    }) as T;
  }

  private visitStrings(value: unknown, depth: number, visit: (text: string) => void): void {
    if (typeof value === 'string') return visit(value);
    if (typeof value !== 'object' || value === null || depth >= MAX_DEEP) return;
    if (Array.isArray(value)) {
      for (const item of value) this.visitStrings(item, depth + 1, visit);
      return;
    }
    if (!isPlainObject(value)) return;
    for (const [key, item] of Object.entries(value)) {
      visit(key);
      this.visitStrings(item, depth + 1, visit);
    }
  }

  private mapStrings(value: unknown, depth: number, map: (text: string) => string): unknown {
    if (typeof value === 'string') return map(value);
    if (typeof value !== 'object' || value === null || depth >= MAX_DEEP) return value;
    if (Array.isArray(value)) return value.map((item) => this.mapStrings(item, depth + 1, map));
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[map(key)] = this.mapStrings(item, depth + 1, map);
    return out;
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

/** `scheme://user:password@`: the password of a URL's userinfo, wherever a URL appears in a text. */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^/\s@]+@/gi;

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * The password of a URL's userinfo, as written and decoded: secrets for a Redactor, so that every form of it is
 * masked wherever the URL's parts surface (the URL itself is masked by `text` whatever the secrets).
 */
export function urlSecrets(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const { password } = new URL(url);
    return password ? [password, safeDecode(password)] : [];
  } catch {
    return [];
  }
}

/** Masks header names only: for text whose secrets are not known (reports read back from a file). */
export const NO_SECRETS = new Redactor([]);
