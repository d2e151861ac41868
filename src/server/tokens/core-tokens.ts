import { randomUUID } from 'node:crypto';
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import { keyFromJwk } from '../../certificates/keys.js';
import type { KeyStore } from '../certificates/key-store.js';

/** Who a core token speaks for: one provider (its /providers/me routes), one account, or the operator. */
export const TOKEN_ROLES = ['provider', 'account', 'admin'] as const;
export type TokenRole = (typeof TOKEN_ROLES)[number];

/** Fixed issuer and audience: a token of another issuer (or meant for another service) is refused. */
export const TOKEN_ISSUER = 'provcert-serve';
export const TOKEN_AUDIENCE = 'provcert-core';

const DAY_S = 24 * 60 * 60;
/** How long a token is valid: provider and account tokens a year (revocable), admin tokens a day. */
export const TOKEN_TTL_S: Readonly<Record<TokenRole, number>> = {
  provider: 365 * DAY_S,
  account: 365 * DAY_S,
  admin: DAY_S,
};
/** Clock skew tolerated on exp and iat. */
const CLOCK_TOLERANCE_S = 5;

export interface CoreClaims {
  jti: string;
  sub: string;
  role: TokenRole;
  iat: number;
  exp: number;
}

export interface IssuedToken {
  token: string;
  claims: CoreClaims;
  kid: string;
}

/** A new token for `sub` in `role`, signed with the core's current key (EdDSA, its kid in the header). */
export async function issueToken(keys: KeyStore, role: TokenRole, sub: string, now: Date): Promise<IssuedToken> {
  const key = keys.signingKey();
  const iat = Math.floor(now.getTime() / 1000);
  const claims: CoreClaims = { jti: randomUUID(), sub, role, iat, exp: iat + TOKEN_TTL_S[role] };
  const token = await new SignJWT({ role })
    .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setSubject(sub)
    .setJti(claims.jti)
    .setIssuedAt(iat)
    .setExpirationTime(claims.exp)
    .sign(key.privateKey);
  return { token, claims, kid: key.kid };
}

export type TokenCheck = { ok: true; claims: CoreClaims } | { ok: false; reason: string };

/**
 * What of a JWT is secret: its signature (header and claims are readable by design). Masking it in any output makes
 * a leaked copy useless, and keeps the masker's patterns short (whole tokens would make them grow past limits).
 */
export const secretPartOf = (token: string): string => token.split('.')[2] || token;

/** Whether the bearer value looks like a JWT at all (three base64url parts): opaque tokens take another path. */
export const looksLikeJwt = (value: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(value);

/**
 * Verifies a core token with the core's published key set: the key its kid names (current, or retired after it
 * signed the token: a rotation does not sign anyone out), EdDSA only, this issuer and audience, not expired,
 * a role and subject. `revoked` says whether its jti was revoked. The reason of a refusal is one line, no token in it.
 */
export async function verifyToken(
  token: string,
  keys: KeyStore,
  revoked: (jti: string) => boolean,
  now: Date,
): Promise<TokenCheck> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return { ok: false, reason: 'the token is not a JWT' };
  }
  const jwk = keys.jwks().keys.find((k) => k.kid === kid);
  const key = jwk ? keyFromJwk(jwk) : undefined;
  if (!jwk || !key) return { ok: false, reason: 'the token is signed by a key this core does not publish' };
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['EdDSA'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['sub', 'jti', 'iat', 'exp'],
      currentDate: now,
      clockTolerance: CLOCK_TOLERANCE_S,
    });
    const role = TOKEN_ROLES.find((r) => r === payload['role']);
    if (!role) return { ok: false, reason: 'the token names no role this core knows' };
    const claims = {
      jti: String(payload.jti),
      sub: String(payload.sub),
      role,
      iat: Number(payload.iat),
      exp: Number(payload.exp),
    };
    if (jwk.validUntil !== undefined && claims.iat * 1000 > Date.parse(jwk.validUntil) + CLOCK_TOLERANCE_S * 1000)
      return { ok: false, reason: 'the token claims to be signed after its key was retired' };
    if (revoked(claims.jti)) return { ok: false, reason: `the token was revoked (jti ${claims.jti})` };
    return { ok: true, claims };
  } catch (e) {
    return { ok: false, reason: refusal(e) };
  }
}

function refusal(e: unknown): string {
  if (e instanceof errors.JWTExpired) return 'the token has expired';
  if (e instanceof errors.JWSSignatureVerificationFailed)
    return 'the token signature does not verify with the core key';
  if (e instanceof errors.JOSEAlgNotAllowed) return 'the token is not signed with EdDSA';
  if (e instanceof errors.JWTClaimValidationFailed) return `the token's ${e.claim} claim is not this core's`;
  return 'the token is not a valid core token';
}
