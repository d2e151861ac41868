import { type Certificate, signStatement } from '../../certificates/certificate.js';
import { shippedDigests } from '../../certificates/shipped.js';
import { buildStatement, configurationDigest, type ProviderConfiguration } from '../../certificates/statement.js';
import type { RunReport } from '../../model/report.js';
import type { StoredProvider } from '../core-routes/registry.js';
import type { KeyStore } from './key-store.js';

/** The registered configuration a certificate of `serve` is valid for (its digest is the subject's). */
export function registeredConfiguration(p: StoredProvider, credentialFingerprint: string): ProviderConfiguration {
  const r = p.registration;
  return {
    slug: r.slug,
    baseUrl: r.baseUrl,
    authMethod: r.authMethod,
    credentialFingerprint,
    capabilities: r.capabilities,
    ...(r.fulfillment ? { fulfillment: r.fulfillment } : {}),
    configVersion: p.configVersion,
  };
}

/** The digest of a provider's current registered configuration (what `provcert verify --config-digest` compares). */
export const registeredDigest = (p: StoredProvider, credentialFingerprint: string): string =>
  configurationDigest(registeredConfiguration(p, credentialFingerprint));

export interface IssueInput {
  keys: KeyStore;
  provider: StoredProvider;
  credentialFingerprint: string;
  report: RunReport;
  certificationId: string;
  issuedAt: Date;
  /** The core's address, naming the issuer. */
  issuer: string;
  /** serve's webhook secret overlap window: it changes what the webhook checks accepted. */
  webhookSecretOverlapSeconds: number;
}

/** The signed certificate of one certification `serve` ran (whatever its verdict: the result says it). */
export function issueCertificate(input: IssueInput): Certificate {
  const { report } = input;
  const statement = buildStatement({
    report,
    provider: registeredConfiguration(input.provider, input.credentialFingerprint),
    ...(report.provider.profile ? { profile: report.provider.profile } : {}),
    ...shippedDigests(),
    extraSettings: { webhookSecretOverlapSeconds: input.webhookSecretOverlapSeconds },
    issuedAt: input.issuedAt.toISOString(),
    issuer: input.issuer,
    certificationId: input.certificationId,
  });
  const key = input.keys.signingKey();
  return signStatement(statement, key.privateKey, key.kid);
}
