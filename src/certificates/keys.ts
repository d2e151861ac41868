import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/** An Ed25519 public key as a JWK (RFC 8037), with its key id and, in a key set, its validity. */
export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
  /** When the key started signing (ISO 8601). */
  validFrom?: string;
  /** When it stopped signing (a retired key): what it signed before stays verifiable. */
  validUntil?: string;
}

export interface Jwks {
  keys: PublicJwk[];
}

const b64url = (bytes: Buffer): string => bytes.toString('base64url');

/** The RFC 7638 thumbprint of an Ed25519 key: its key id, the same wherever the key is read. */
export function thumbprint(x: string): string {
  return b64url(createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest());
}

/** The public JWK of an Ed25519 key (public or private); throws a one-line error on another key type. */
export function publicJwkOf(key: KeyObject): PublicJwk {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  if (pub.asymmetricKeyType !== 'ed25519')
    throw new Error(`the key is ${pub.asymmetricKeyType ?? 'not an asymmetric key'}, not Ed25519`);
  const jwk = pub.export({ format: 'jwk' });
  const x = String(jwk.x);
  return { kty: 'OKP', crv: 'Ed25519', x, kid: thumbprint(x), alg: 'EdDSA', use: 'sig' };
}

/** A public key object from a JWK that claims to be Ed25519; undefined when it is not one. */
export function keyFromJwk(jwk: unknown): KeyObject | undefined {
  if (typeof jwk !== 'object' || jwk === null) return undefined;
  const { kty, crv, x } = jwk as Record<string, unknown>;
  if (kty !== 'OKP' || crv !== 'Ed25519' || typeof x !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(x)) return undefined;
  try {
    return createPublicKey({ key: { kty, crv, x }, format: 'jwk' });
  } catch {
    return undefined;
  }
}

/** A private Ed25519 key from PEM (PKCS #8); throws a one-line error naming what it is instead. */
export function privateKeyFromPem(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new Error('it is not a PEM private key (expected an Ed25519 key in PKCS #8, "BEGIN PRIVATE KEY")');
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`it is a ${key.asymmetricKeyType} key, not Ed25519`);
  return key;
}

/** A public Ed25519 key from PEM (SPKI, or a private key whose public half is taken). */
export function publicKeyFromPem(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new Error('it is not a PEM key (expected an Ed25519 public key, "BEGIN PUBLIC KEY")');
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`it is a ${key.asymmetricKeyType} key, not Ed25519`);
  return key;
}
