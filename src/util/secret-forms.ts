import type { LiteralPattern } from './literal-pattern.js';
import { skeletonOf } from './skeleton.js';

/** Shorter secrets would mask ordinary words everywhere; they are not searched for at all. */
const MIN_SECRET_LENGTH = 4;
/** Below this a secret is masked only whole: its pieces and encodings are too short to identify it. */
const MIN_LENGTH_FOR_FORMS = 6;
/** A piece of a secret at least this long (or half the secret, if longer) identifies it. */
const MIN_PIECE = 8;
/** Past this, a piece identifies any secret; keeps the pattern small for very long tokens. */
const MAX_PIECE = 64;
/** Encoded fragments shorter than this are left alone (they would match random text). */
const MIN_ENCODED = 6;

const unique = (values: Iterable<string>): string[] => [...new Set(values)].filter((v) => v.length > 0);

/** Lowercase percent-escapes too: `%2f` is as valid as `%2F`. */
const withLowerPercent = (encoded: string): string[] => [
  encoded,
  encoded.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
];

function jsonForms(secret: string): string[] {
  const escaped = JSON.stringify(secret).slice(1, -1);
  const asciiOnly = escaped.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // Some serializers (PHP, some Java) also escape the slash.
  return [escaped, asciiOnly, escaped.replace(/\//g, '\\/')];
}

function urlForms(secret: string): string[] {
  const component = encodeURIComponent(secret);
  const form = new URLSearchParams({ v: secret }).toString().slice(2);
  return [component, component.replace(/%20/g, '+'), form].flatMap(withLowerPercent);
}

/**
 * Base64 and base64url of the secret wherever it sits in a longer encoded text: its bytes may start at
 * offset 0, 1 or 2 modulo 3, and each alignment encodes differently. Only the characters made entirely
 * of the secret's bits are kept (the first and last may mix in neighbouring bytes).
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const start = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    const fragment = encoded.slice(start, end);
    if (fragment.length >= MIN_ENCODED) forms.push(fragment, fragment.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

function hexForms(secret: string): string[] {
  const hex = Buffer.from(secret, 'utf8').toString('hex');
  return [hex, hex.toUpperCase()];
}

/** How long a piece of a secret must be to be masked on its own. */
const pieceLength = (secret: string): number => Math.min(MAX_PIECE, Math.max(MIN_PIECE, Math.ceil(secret.length / 2)));

/** Adds to `pattern` every form of `secret` that must never be shown. */
export function addSecretForms(pattern: LiteralPattern, secret: string): void {
  if (secret.length < MIN_SECRET_LENGTH) return;
  pattern.add(secret);
  if (secret.length < MIN_LENGTH_FOR_FORMS) return;
  for (const form of unique([...jsonForms(secret), ...urlForms(secret), ...base64Forms(secret), ...hexForms(secret)]))
    pattern.add(form);
  const piece = pieceLength(secret);
  if (secret.length <= piece) return;
  // Every suffix, matching from `piece` characters on (and from where the piece stops reading like words).
  for (let i = 0; i + piece <= secret.length; i++) {
    const suffix = secret.slice(i, i + MAX_PIECE * 2);
    let length = piece;
    while (length <= suffix.length && looksLikeWords(suffix.slice(0, length))) length++;
    if (length <= suffix.length) pattern.add(suffix, length);
  }
}

/**
 * Lowercase (or uppercase) words and separators only: "-credential" in "test-credential-7f3a" is also in
 * "wrong-credential", so it does not identify the secret. Random keys always have digits or mixed case.
 */
const looksLikeWords = (piece: string): boolean => /^[a-z\s._-]*$/.test(piece) || /^[A-Z\s._-]*$/.test(piece);

/** A skeleton form shorter than this is not searched for: it would match ordinary text. */
const MIN_SKELETON = 8;

/**
 * Adds to `pattern` the skeletons (skeleton.ts) of the secret, its hex and its base64 in every alignment, whole:
 * what is left of them once any encoding, separator, line break, zero-width character or case is undone.
 * Matched against the skeleton of a text, they catch `\u0073…`, `%73%6b…`, `&#115;…`, `73:6b:…`, base64
 * wrapped across lines and a secret split across lines or upper-cased. Pieces are not: lowercased and without
 * separators, a piece of "test-credential-7f3a" would read like the words of any text.
 */
export function addSkeletonForms(pattern: LiteralPattern, secret: string): void {
  if (secret.length < MIN_LENGTH_FOR_FORMS) return;
  const forms = [secret, ...hexForms(secret), ...base64Forms(secret)].map((form) => skeletonOf(form).text);
  for (const form of unique(forms)) if (form.length >= MIN_SKELETON) pattern.add(form);
}
