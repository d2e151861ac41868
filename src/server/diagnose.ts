import { hmacDigest } from '../util/hmac.js';
import { ACCEPTED_SIGNATURE_HEADERS } from './signature.js';

/** The plausible signing mistakes a failing webhook signature can be matched against. */
export type SignatureMistake =
  | 'missing-header'
  | 'non-canonical-header'
  | 'empty-value'
  | 'malformed-value'
  | 'base64'
  | 'sha256-prefix'
  | 'secret-whitespace'
  | 'reserialized-body'
  | 'different-secret';

export interface SignatureDiagnosis {
  mistakes: SignatureMistake[];
  /** One line for people. Never contains the secret or the expected signature. */
  message: string;
  /**
   * The digest was made with the expected secret (but for a fixable mistake such as a re-serialized body): the
   * sender holds the secret, so the request is that provider's own, not a stranger's.
   */
  sameSecret: boolean;
}

export interface SignatureDiagnosisInput {
  rawBody: Buffer | string;
  /** The secret the receiver expected (used to try variants; never printed). */
  secret: string;
  headers: Record<string, string | string[] | undefined>;
}

const CANONICAL = ACCEPTED_SIGNATURE_HEADERS[0];

interface Variant<T> {
  value: T;
  /** undefined = the correct one; otherwise how it differs, for the message. */
  label?: string;
}

const headerValue = (raw: string | string[] | undefined): string | undefined => (Array.isArray(raw) ? raw[0] : raw);

/** Where the sender put its signature: an accepted header, or a look-alike header name. */
function locateSignature(
  headers: SignatureDiagnosisInput['headers'],
): { name: string; value: string; canonical: boolean } | undefined {
  for (const name of ACCEPTED_SIGNATURE_HEADERS) {
    const value = headerValue(headers[name]);
    if (value !== undefined) return { name, value, canonical: true };
  }
  for (const [name, raw] of Object.entries(headers)) {
    const value = headerValue(raw);
    if (value !== undefined && /signature|hmac/i.test(name))
      return { name: name.toLowerCase(), value, canonical: false };
  }
  return undefined;
}

/** Decode the received value into a digest, noting encoding mistakes on the way. */
function decodeDigest(value: string): { digest?: Buffer; mistakes: SignatureMistake[] } {
  const mistakes: SignatureMistake[] = [];
  let v = value.trim();
  const prefix = /^sha-?256[=:]/i.exec(v);
  if (prefix) {
    mistakes.push('sha256-prefix');
    v = v.slice(prefix[0].length);
  }
  // Hex in either case is accepted (DECISIONS.md, Credentials): uppercase is no mistake.
  if (/^[0-9a-fA-F]{64}$/.test(v)) {
    return { digest: Buffer.from(v, 'hex'), mistakes };
  }
  const asBase64 = Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (asBase64.length === 32 && /^[A-Za-z0-9+/_-]{43}=?$/.test(v)) {
    mistakes.push('base64');
    return { digest: asBase64, mistakes };
  }
  return { mistakes };
}

function secretVariants(secret: string): Variant<string>[] {
  const variants: Variant<string>[] = [{ value: secret }];
  const trimmed = secret.trim();
  if (trimmed !== secret && trimmed.length > 0)
    variants.push({ value: trimmed, label: 'the secret without its surrounding whitespace' });
  variants.push(
    { value: `${secret}\n`, label: 'the secret followed by a newline' },
    { value: `${secret}\r\n`, label: 'the secret followed by CR LF' },
    { value: `${secret} `, label: 'the secret followed by a space' },
    { value: ` ${secret}`, label: 'the secret preceded by a space' },
    { value: `"${secret}"`, label: 'the secret wrapped in quotes' },
  );
  return variants;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

/** Events are flat; a body nested deeper than this is not re-serialized (the recursion would overflow the stack). */
const MAX_RESERIALIZED_DEPTH = 64;

/** How deeply a JSON text nests, by counting brackets outside strings: linear, no recursion. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

function bodyVariants(raw: Buffer): Variant<Buffer>[] {
  const variants: Variant<Buffer>[] = [{ value: raw }];
  const seen = new Set([raw.toString('utf8')]);
  const add = (text: string, label: string): void => {
    if (seen.has(text)) return;
    seen.add(text);
    variants.push({ value: Buffer.from(text, 'utf8'), label });
  };
  const text = raw.toString('utf8');
  let parsed: unknown;
  try {
    parsed = nestingDepth(text) <= MAX_RESERIALIZED_DEPTH ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined) {
    add(JSON.stringify(parsed), 'compact JSON.stringify output');
    add(JSON.stringify(parsed, null, 2), 'JSON pretty-printed with 2 spaces');
    add(JSON.stringify(parsed, null, 4), 'JSON pretty-printed with 4 spaces');
    add(JSON.stringify(sortKeys(parsed)), 'JSON with sorted keys');
    add(JSON.stringify(sortKeys(parsed), null, 2), 'JSON with sorted keys, pretty-printed');
  }
  add(text.trim(), 'the body without its surrounding whitespace');
  add(`${text}\n`, 'the body plus a trailing newline');
  return variants;
}

const MISTAKE_TEXT: Record<
  Exclude<SignatureMistake, 'secret-whitespace' | 'reserialized-body' | 'non-canonical-header'>,
  string
> = {
  'missing-header': `no signature header: send the hex HMAC-SHA256 of the raw body in ${CANONICAL}`,
  'empty-value': `the ${CANONICAL} header is empty`,
  'malformed-value': 'the value is neither 64 hex characters nor a base64 SHA-256 digest',
  base64: 'the digest is base64-encoded; send it as hex',
  'sha256-prefix': 'the value carries a "sha256=" prefix; send the bare hex digest',
  'different-secret':
    "it matches no common mistake (re-serialized JSON, whitespace around the secret, encodings): most likely it was signed with a different secret (an old or rotated one, or another environment's) — which one cannot be known here",
};

/**
 * Explain why a webhook signature failed, by trying the plausible mistakes against the known secret.
 * Pure: no I/O. The message never contains the secret or the expected signature.
 */
export function diagnoseSignature(input: SignatureDiagnosisInput): SignatureDiagnosis {
  const raw = typeof input.rawBody === 'string' ? Buffer.from(input.rawBody, 'utf8') : input.rawBody;
  const found = locateSignature(input.headers);
  if (!found) return conclude(['missing-header'], []);

  const mistakes: SignatureMistake[] = [];
  const notes: string[] = [];
  if (!found.canonical) {
    mistakes.push('non-canonical-header');
    notes.push(
      `signature sent in header "${found.name}", which is not accepted; send it in ${CANONICAL} (${ACCEPTED_SIGNATURE_HEADERS[1]} is accepted for compatibility)`,
    );
  }
  if (found.value.trim() === '') return conclude([...mistakes, 'empty-value'], notes);

  const decoded = decodeDigest(found.value);
  mistakes.push(...decoded.mistakes);
  if (!decoded.digest) return conclude([...mistakes, 'malformed-value'], notes);

  for (const body of bodyVariants(raw)) {
    for (const secret of secretVariants(input.secret)) {
      if (!hmacDigest(secret.value, body.value).equals(decoded.digest)) continue;
      if (secret.label) {
        mistakes.push('secret-whitespace');
        notes.push(`signed with ${secret.label}; trim the secret where the sender reads it`);
      }
      if (body.label) {
        mistakes.push('reserialized-body');
        notes.push(`signed ${body.label} instead of the exact bytes sent; sign the raw body bytes you send`);
      }
      return conclude(mistakes, notes, true);
    }
  }
  return conclude([...mistakes, 'different-secret'], notes);
}

function conclude(mistakes: SignatureMistake[], notes: string[], digestMatched = false): SignatureDiagnosis {
  const texts: string[] = [];
  let noteIndex = 0;
  for (const m of mistakes) {
    if (m === 'non-canonical-header' || m === 'secret-whitespace' || m === 'reserialized-body') {
      const note = notes[noteIndex++];
      if (note !== undefined) texts.push(note);
    } else {
      texts.push(MISTAKE_TEXT[m]);
    }
  }
  const tail = digestMatched ? ' (the digest is otherwise right)' : '';
  return { mistakes, message: `signature rejected: ${texts.join('; ')}${tail}`, sameSecret: digestMatched };
}
