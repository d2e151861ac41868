import { createHmac, timingSafeEqual } from 'node:crypto';
import { COMPAT_SIGNATURE_HEADER, SIGNATURE_HEADER } from '../model/contract-constants.js';

/** Headers that carry a webhook signature, canonical first (DECISIONS.md, Webhooks). */
export const ACCEPTED_SIGNATURE_HEADERS = [SIGNATURE_HEADER, COMPAT_SIGNATURE_HEADER] as const;

/** Lowercase hex HMAC-SHA256 of the exact bytes. */
export function signHex(secret: string, bytes: Buffer | string): string {
  return createHmac('sha256', secret).update(bytes).digest('hex');
}

export function hmacDigest(secret: string, bytes: Buffer | string): Buffer {
  return createHmac('sha256', secret).update(bytes).digest();
}

/** Constant-time comparison of a received signature with the expected lowercase hex. */
export function signatureMatches(secret: string, bytes: Buffer | string, received: string): boolean {
  const expected = Buffer.from(signHex(secret, bytes), 'utf8');
  const given = Buffer.from(received, 'utf8');
  // timingSafeEqual needs equal lengths; compare against itself so a length mismatch costs the same.
  if (given.length !== expected.length) {
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(expected, given);
}

export interface SignatureHeader {
  name: string;
  value: string;
}

/** The accepted signature header present on a request (canonical wins), if any. */
export function findSignatureHeader(headers: Record<string, string | string[] | undefined>): SignatureHeader | undefined {
  for (const name of ACCEPTED_SIGNATURE_HEADERS) {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined) return { name, value };
  }
  return undefined;
}

/** Constant-time check of a received signature against an HMAC digest computed while the body streamed in. */
export function digestMatches(digest: Buffer, received: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(received)) return false;
  return timingSafeEqual(digest, Buffer.from(received, 'hex'));
}
