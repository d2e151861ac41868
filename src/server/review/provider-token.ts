import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Provider bearer tokens start with this, so a leaked one is recognizable (and a scanner can find it). */
export const PROVIDER_TOKEN_PREFIX = 'pvt_';

/** A new provider bearer token (shown once at registration; only its hash is stored). */
export function newProviderToken(): string {
  return `${PROVIDER_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The bearer token of a request, or undefined. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  const token = match?.[1]?.trim();
  return token === undefined || token === '' ? undefined : token;
}

/** Constant-time comparison of two hex hashes of equal length. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
