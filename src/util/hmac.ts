import { createHmac } from 'node:crypto';

/**
 * The one HMAC-SHA256 of the contract (DECISIONS.md, Credentials and Webhooks): over the exact bytes given,
 * no timestamp prefix; a request without a body signs the empty string.
 */
export function hmacDigest(secret: string, bytes: Buffer | string): Buffer {
  return createHmac('sha256', secret).update(bytes).digest();
}

/** Lowercase hex HMAC-SHA256 of the exact bytes: the `x-service-signature` value. */
export const hmacHex = (secret: string, bytes: Buffer | string): string => hmacDigest(secret, bytes).toString('hex');
