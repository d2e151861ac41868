import { createHash, createHmac, hash, timingSafeEqual } from 'node:crypto';
import { COMPAT_SIGNATURE_HEADER, SIGNATURE_HEADER } from '../model/contract-constants.js';

/** Headers that carry a webhook signature, canonical first (DECISIONS.md, Webhooks). */
export const ACCEPTED_SIGNATURE_HEADERS = [SIGNATURE_HEADER, COMPAT_SIGNATURE_HEADER] as const;

export interface SignatureHeader {
  name: string;
  value: string;
}

/** The accepted signature header present on a request (canonical wins), if any. */
export function findSignatureHeader(
  headers: Record<string, string | string[] | undefined>,
): SignatureHeader | undefined {
  for (const name of ACCEPTED_SIGNATURE_HEADERS) {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined) return { name, value };
  }
  return undefined;
}

/**
 * Constant-time check of a received signature against the body's HMAC digest. The hex (either case: the contract
 * says "hex", DECISIONS.md, Credentials; provcert itself sends lowercase) is decoded to bytes first, so the
 * comparison is case-insensitive and its time does not depend on the case. Decoding stops at the first pair that
 * is not hex: 64 characters giving 32 bytes are 64 hex digits, no pattern needed.
 */
export function digestMatches(digest: Buffer, received: string): boolean {
  if (received.length !== 2 * digest.length) return false;
  const bytes = Buffer.from(received, 'hex');
  return bytes.length === digest.length && timingSafeEqual(digest, bytes);
}

const SHA256_BLOCK_BYTES = 64;
const SHA256_BYTES = 32;
/** Bodies above this are hashed by node's streaming Hmac (no copy of the body with the key block in front). */
const ONE_SHOT_MAX_BYTES = 16 * 1024;

/** A secret's padded key blocks (RFC 2104), made once: `outer` has room for the inner digest after its block. */
interface PaddedKey {
  inner: Buffer;
  outer: Buffer;
}
const padded = new Map<string, PaddedKey>();
const SECRETS_KEPT = 1_024;

function paddedKey(secret: string): PaddedKey {
  let key = padded.get(secret);
  if (key === undefined) {
    if (padded.size >= SECRETS_KEPT) padded.clear();
    const raw = Buffer.from(secret, 'utf8');
    const block = Buffer.alloc(SHA256_BLOCK_BYTES);
    (raw.length > SHA256_BLOCK_BYTES ? createHash('sha256').update(raw).digest() : raw).copy(block);
    const inner = Buffer.alloc(SHA256_BLOCK_BYTES);
    const outer = Buffer.alloc(SHA256_BLOCK_BYTES + SHA256_BYTES);
    for (let i = 0; i < SHA256_BLOCK_BYTES; i++) {
      inner[i] = (block[i] as number) ^ 0x36;
      outer[i] = (block[i] as number) ^ 0x5c;
    }
    key = { inner, outer };
    padded.set(secret, key);
  }
  return key;
}

/**
 * HMAC-SHA256 of a whole body keyed by `secret`: the same bytes as util/hmac.ts (a test compares them). A small
 * event is hashed by two one-shot hashes over the padded key blocks made once per secret: node's Hmac object
 * (or a copy of a keyed Hash) costs more than the hashing itself. The shared outer buffer is safe: hash() is
 * synchronous.
 */
export function signatureDigest(secret: string, body: Buffer): Buffer {
  if (body.length > ONE_SHOT_MAX_BYTES) return createHmac('sha256', secret).update(body).digest();
  const { inner, outer } = paddedKey(secret);
  const innerDigest = hash('sha256', Buffer.concat([inner, body], SHA256_BLOCK_BYTES + body.length), 'buffer');
  innerDigest.copy(outer, SHA256_BLOCK_BYTES);
  return hash('sha256', outer, 'buffer');
}
