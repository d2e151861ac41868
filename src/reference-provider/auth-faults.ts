import type { IncomingHttpHeaders } from 'node:http';
import { API_KEY_HEADER, type AuthMethod } from '../model/contract-constants.js';
import { hmacDigest } from '../util/hmac.js';
import type { ActiveFaults } from './faults.js';

/*
 * The faults of the authentication probe table (issue 33): each loosens exactly one comparison or skips one route,
 * so wrong-credential or signature must catch it on the row class it breaks.
 */

/** A presented credential shorter than this is never taken for a prefix (the fault is a sloppy compare, not none). */
const MIN_PREFIX = 8;

/** auth-skipped-offering, auth-skipped-cancel: one route answers without any credential check. */
export function authSkipped(method: string, pathname: string, faults: ActiveFaults): boolean {
  if (faults.has('auth-skipped-offering') && method === 'GET' && pathname.startsWith('/offerings/')) return true;
  return faults.has('auth-skipped-cancel') && method === 'POST' && /^\/actions\/[^/]+\/cancel$/.test(pathname);
}

/** credential-any-header: the API key is also taken from `Authorization: Bearer <key>`. */
export function credentialInOtherHeader(
  method: AuthMethod,
  headers: IncomingHttpHeaders,
  faults: ActiveFaults,
): string | undefined {
  if (!faults.has('credential-any-header') || method !== 'API_KEY' || headers[API_KEY_HEADER] !== undefined)
    return undefined;
  const value = headers.authorization;
  return typeof value === 'string' ? /^Bearer (.*)$/i.exec(value)?.[1] : undefined;
}

export interface Secrets {
  credential: string;
  webhookSecret?: string;
}

/**
 * bearer-scheme-unchecked: the token is the Authorization value's last word, whatever comes before it ("Basic
 * <token>" and "Token Bearer <token>" pass). Undefined without the fault.
 */
export function bearerSchemeUnchecked(
  method: AuthMethod,
  headers: IncomingHttpHeaders,
  faults: ActiveFaults,
): string | undefined {
  if (!faults.has('bearer-scheme-unchecked') || method !== 'BEARER_TOKEN') return undefined;
  const value = headers.authorization;
  return typeof value === 'string' ? value.split(' ').pop() : undefined;
}

/** Whether a fault accepts a presented key or token that the exact comparison refused. */
export function looselyAccepted(presented: string, secrets: Secrets, faults: ActiveFaults): boolean {
  const { credential } = secrets;
  if (faults.has('credential-prefix-accepted') && presented.length >= MIN_PREFIX && credential.startsWith(presented))
    return true;
  if (faults.has('credential-suffix-accepted') && presented.startsWith(credential)) return true;
  if (faults.has('credential-case-insensitive') && presented.toLowerCase() === credential.toLowerCase()) return true;
  if (faults.has('credential-trimmed') && presented.trim() === credential) return true;
  return faults.has('webhook-secret-accepted') && presented === secrets.webhookSecret;
}

/** signature-truncated-accepted: a signature that begins the right one (16 hex digits or more) is accepted. */
export function truncatedSignatureAccepted(
  presented: string,
  credential: string,
  rawBody: Buffer,
  faults: ActiveFaults,
): boolean {
  if (!faults.has('signature-truncated-accepted') || !/^[0-9a-fA-F]{16,63}$/.test(presented)) return false;
  return hmacDigest(credential, rawBody).toString('hex').startsWith(presented.toLowerCase());
}
