import type { KeyObject } from 'node:crypto';
import { keyFromJwk, publicJwkOf, thumbprint } from './keys.js';
import type { TrustedKey } from './verify.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * The trusted keys of a JWKS (serve's /.well-known/jwks.json): its Ed25519 keys, each with its validity. A key whose
 * kid is not its thumbprint is refused (a key set must not let one key pose as another). Throws a one-line error.
 */
export function trustedKeysFromJwks(jwks: unknown): TrustedKey[] {
  const keys = typeof jwks === 'object' && jwks !== null ? (jwks as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(keys)) throw new Error('it is not a JWKS (an object with a "keys" list)');
  const out: TrustedKey[] = [];
  for (const jwk of keys) {
    const key = keyFromJwk(jwk);
    if (!key) continue; // Another key type: not one a certificate is signed with.
    const { kid, x, validFrom, validUntil } = jwk as Record<string, unknown>;
    if (typeof kid !== 'string' || kid !== thumbprint(String(x)))
      throw new Error(`its key ${String(kid)} does not carry its own thumbprint as kid`);
    out.push({
      kid,
      key,
      ...(typeof validFrom === 'string' && ISO.test(validFrom) ? { validFrom } : {}),
      ...(typeof validUntil === 'string' && ISO.test(validUntil) ? { validUntil } : {}),
    });
  }
  if (out.length === 0) throw new Error('it holds no Ed25519 key');
  return out;
}

/** A single public key the person trusts (its kid is its thumbprint, as serve and `run --attest-key` name it). */
export function trustedKey(key: KeyObject): TrustedKey {
  return { kid: publicJwkOf(key).kid, key };
}
