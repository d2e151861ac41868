import type { components } from '../../contract/generated/contract-types.js';
import type { RunReport } from '../../model/report.js';
import { allowedTransitions } from '../review/allowed-transitions.js';
import type { RegistrationFields } from './registration.js';
import { type CertificationRecord, certificationInvalidity, type StoredProvider } from './registry.js';

// What the core routes answer. Each view matches a Core* schema of spec/openapi.yaml (provcert's
// definitions where the contract shows no shape); test/server/core-routes.int.test.ts checks them against it.
type Schemas = components['schemas'];

/**
 * CoreProvider: the registration (its fields as registration.ts stores them) and its state; never the webhook
 * secret or the credential.
 */
export type ProviderView = Omit<Schemas['CoreProvider'], keyof RegistrationFields | 'metadata'> &
  RegistrationFields & { metadata: ProviderMetadata };

/**
 * CoreProviderMetadata: certification and review, beside (never inside) the provider status. The reason's
 * decision is the stored trigger's name (the registry's Trigger, wider than the schema's three decisions).
 */
type ProviderMetadata = Omit<Schemas['CoreProviderMetadata'], 'reviewReason'> & {
  reviewReason?: Omit<Schemas['CoreReviewReason'], 'decision'> & { decision: string };
};

/** CoreCertificationSummary (`valid`: it still counts for submit-review). */
export type CertificationSummaryView = Schemas['CoreCertificationSummary'];

/** CoreCertification, with the stored report as provcert's own type. */
export type CertificationView = CertificationSummaryView & { report: RunReport };

export type EventView = Schemas['CoreEvent'];

/** CoreEventList: one page of a provider's received webhooks. */
export type EventListView = Schemas['CoreEventList'];

/** CoreCertificationList: a provider's certifications, newest first. */
export type CertificationListView = Schemas['CoreCertificationList'];

/** CoreProviderList: the admin listing of providers. */
export type ProviderListView = Schemas['CoreProviderList'];

/** CoreHistoryEntry: one review decision or transition of a provider. */
export type HistoryEntryView = Schemas['CoreHistoryEntry'];

/** CoreTransition: the answer of a review decision. */
export type TransitionView = Schemas['CoreTransition'];

/** CoreAdminProvider: the admin provider detail (the provider, its certifications and its review history). */
export type AdminProviderView = Omit<Schemas['CoreAdminProvider'], 'provider'> & { provider: ProviderView };

export function providerView(p: StoredProvider, webhookUrl: string, isCertified: boolean): ProviderView {
  const { credential, ...registration } = p.registration;
  return {
    ...registration,
    ...('env' in credential ? { credentialEnv: credential.env } : { credentialFile: credential.file }),
    status: p.status,
    reviewStatus: p.reviewStatus,
    metadata: {
      isCertified,
      reviewStatus: p.reviewStatus,
      ...(p.visibleReason ? { reviewReason: p.visibleReason } : {}),
    },
    allowedTransitions: allowedTransitions(p.reviewStatus, isCertified),
    configVersion: p.configVersion,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    ...(p.submittedAt ? { submittedAt: p.submittedAt } : {}),
    webhookUrl,
  };
}

export function certificationSummaryView(r: CertificationRecord, p: StoredProvider): CertificationSummaryView {
  const invalid = certificationInvalidity(p, r);
  return {
    id: r.id,
    slug: r.slug,
    createdAt: r.createdAt,
    verdict: r.verdict,
    configVersion: r.configVersion,
    summary: r.report.summary,
    durationMs: r.report.durationMs,
    valid: invalid === undefined,
    ...(invalid !== undefined ? { invalidReason: invalid } : {}),
  };
}

/** The stored record minus its credential fingerprint. */
export function certificationView(r: CertificationRecord, p: StoredProvider): CertificationView {
  return { ...certificationSummaryView(r, p), report: r.report };
}
