import { publicKeyFromPem } from '../certificates/keys.js';
import { shippedDigests } from '../certificates/shipped.js';
import { trustedKey, trustedKeysFromJwks } from '../certificates/trusted-keys.js';
import { type TrustedKey, type Verification, verifyCertificateWith } from '../certificates/verify.js';
import { requiredChecksFor } from '../checks/framework/registry.js';
import { loadContract } from '../contract/load.js';
import { UsageError } from '../model/errors.js';

export type { ValidCertificate, Verification } from '../certificates/verify.js';

export interface VerifyCertificateOptions {
  /** The issuer's key set (serve's /api/v1/.well-known/jwks.json, parsed). */
  jwks?: unknown;
  /** Or one Ed25519 public key in PEM (a `run --attest-key` signer's). */
  publicKey?: string;
  /** Refuse a certificate issued longer ago (milliseconds). */
  maxAgeMs?: number;
  /** Refuse a certificate for another configuration than this sha256 (the provider's current one). */
  configDigest?: string;
  /** Checks whose waiver the policy accepts (default none). */
  allowWaivers?: readonly string[];
  /** The verifier's now (default the system clock). */
  now?: Date;
}

/** The keys to trust; a UsageError when none is given or they are unusable. */
function trusted(options: VerifyCertificateOptions): TrustedKey[] {
  try {
    if (options.jwks !== undefined) return trustedKeysFromJwks(options.jwks);
    if (options.publicKey !== undefined) return [trustedKey(publicKeyFromPem(options.publicKey))];
  } catch (e) {
    throw new UsageError(
      `the trusted key${options.jwks !== undefined ? ' set' : ''} is unusable: ${(e as Error).message}`,
    );
  }
  throw new UsageError('name the keys to trust: jwks or publicKey');
}

/**
 * Verifies a provcert certificate (a DSSE envelope with an in-toto test-result statement): the signature against
 * the trusted keys, then what the shipped contract and catalog require of it. `{ valid: false, reason }` names the
 * first reason it is refused; unusable keys throw a UsageError.
 */
export async function verifyCertificate(
  certificate: unknown,
  options: VerifyCertificateOptions,
): Promise<Verification> {
  const keys = trusted(options);
  const contract = await loadContract();
  return verifyCertificateWith(certificate, {
    keys,
    shipped: shippedDigests(),
    requiredChecks: (config) => requiredChecksFor(contract, config),
    now: options.now ?? new Date(),
    ...(options.maxAgeMs !== undefined ? { maxAgeMs: options.maxAgeMs } : {}),
    ...(options.configDigest !== undefined ? { configDigest: options.configDigest } : {}),
    ...(options.allowWaivers !== undefined ? { allowWaivers: options.allowWaivers } : {}),
  });
}
