import { timingSafeEqual } from 'node:crypto';
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

/** Constant-time check of a received signature against an HMAC digest computed while the body streamed in. */
export function digestMatches(digest: Buffer, received: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(received)) return false;
  return timingSafeEqual(digest, Buffer.from(received, 'hex'));
}
