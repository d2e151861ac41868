import { decodeJwt } from 'jose';
import { looksLikeJwt } from './core-tokens.js';
import type { LedgerEntry, TokenLedger } from './token-ledger.js';

/**
 * The ledger entry of a token the API already verified and a session holds (in server memory only): still valid
 * while the ledger knows its jti, it is not revoked and not expired. Synchronous, for checks on every page view;
 * it never replaces verification of a presented token. Undefined for an opaque token, or one no longer valid.
 */
export function heldToken(token: string, ledger: TokenLedger, now: Date): LedgerEntry | undefined {
  if (!looksLikeJwt(token)) return undefined;
  let jti: unknown;
  try {
    jti = decodeJwt(token).jti;
  } catch {
    return undefined;
  }
  const entry = typeof jti === 'string' ? ledger.get(jti) : undefined;
  if (!entry || entry.revokedAt !== undefined || Date.parse(entry.expiresAt) <= now.getTime()) return undefined;
  return entry;
}
