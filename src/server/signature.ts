import { createHash, type Hash, timingSafeEqual } from 'node:crypto';
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

/** Hex in either case: the contract says "hex" (DECISIONS.md, Credentials); provcert itself sends lowercase. */
const HEX_64 = /^[0-9a-fA-F]{64}$/;

/**
 * Constant-time check of a received signature against an HMAC digest computed while the body streamed in. The
 * hex is decoded to bytes first, so the comparison is case-insensitive and its time does not depend on the case.
 */
export function digestMatches(digest: Buffer, received: string): boolean {
  if (received.length !== 64 || !HEX_64.test(received)) return false;
  return timingSafeEqual(digest, Buffer.from(received, 'hex'));
}

/** What the body reader feeds: an HMAC-SHA256 being computed over the body as it streams in. */
export interface SignatureHmac {
  update(chunk: Buffer): void;
  digest(): Buffer;
}

const SHA256_BLOCK_BYTES = 64;
/** A secret's HMAC (RFC 2104) hash states after the padded key blocks; each request continues copies of them. */
interface KeyedStates {
  inner: Hash;
  outer: Hash;
}
const keyed = new Map<string, KeyedStates>();
const SECRETS_KEPT = 1_024;

function keyedStates(secret: string): KeyedStates {
  let states = keyed.get(secret);
  if (states === undefined) {
    if (keyed.size >= SECRETS_KEPT) keyed.clear();
    const raw = Buffer.from(secret, 'utf8');
    const key = Buffer.alloc(SHA256_BLOCK_BYTES);
    (raw.length > SHA256_BLOCK_BYTES ? createHash('sha256').update(raw).digest() : raw).copy(key);
    const padded = (byte: number): Buffer => Buffer.from(key.map((b) => b ^ byte));
    states = {
      inner: createHash('sha256').update(padded(0x36)),
      outer: createHash('sha256').update(padded(0x5c)),
    };
    keyed.set(secret, states);
  }
  return states;
}

/**
 * HMAC-SHA256 keyed by `secret`: the same bytes as util/hmac.ts (a test compares them). node's Hmac sets its
 * key up again on every request, about half the cost of checking a small event; copying the keyed states
 * once made does not.
 */
export function signatureHmac(secret: string): SignatureHmac {
  const { inner, outer } = keyedStates(secret);
  const running = inner.copy();
  return {
    update: (chunk) => void running.update(chunk),
    digest: () => outer.copy().update(running.digest()).digest(),
  };
}
