import type { RunReport } from '../../model/report.js';
import { eventIdentity, type ReceivedWebhook } from '../../model/webhooks.js';
import type { RegistrationFields } from './registration.js';
import {
  type CertificationRecord,
  certificationInvalidity,
  type ReviewStatus,
  type StoredProvider,
  type VisibleReason,
} from './registry.js';

// What the core routes answer. Each view matches a Core* schema of spec/openapi.yaml (provcert's
// definitions where the contract shows no shape); test/server/core-routes.test.ts checks them against it.

/** CoreProvider: the registration and its state; never the webhook secret or the credential. */
export interface ProviderView extends RegistrationFields {
  credentialEnv?: string;
  credentialFile?: string;
  status: StoredProvider['status'];
  /** The same value as metadata.reviewStatus (kept at the top level for earlier clients). */
  reviewStatus: ReviewStatus;
  metadata: ProviderMetadata;
  configVersion: number;
  createdAt: string;
  updatedAt: string;
  submittedAt?: string;
  webhookUrl: string;
}

/** CoreProviderMetadata: certification and review, beside (never inside) the provider status. */
export interface ProviderMetadata {
  isCertified: boolean;
  reviewStatus: ReviewStatus;
  /** The partner-visible reason of the last REQUEST_CHANGES, REJECT or SUSPEND, until resubmission. */
  reviewReason?: Omit<VisibleReason, 'decision'> & { decision: string };
}

/** CoreCertificationSummary */
export interface CertificationSummaryView {
  id: string;
  slug: string;
  createdAt: string;
  verdict: RunReport['verdict'];
  configVersion: number;
  summary: RunReport['summary'];
  durationMs: number;
  /** Whether it still counts for submit-review (false once the configuration changed or reopen invalidated it). */
  valid: boolean;
  invalidReason?: string;
}

/** CoreCertification */
export interface CertificationView extends CertificationSummaryView {
  report: RunReport;
}

/** CoreEvent */
export interface EventView {
  seq: number;
  receivedAt: string;
  slug: string;
  legacyRoute?: true;
  eventId?: string;
  eventType?: string;
  actionId?: string;
  newStatus?: string;
  verified: boolean;
  verifiedWith?: 'previous';
  duplicate: boolean;
  answeredStatus: number;
  signatureHeader?: string;
  problem?: string;
  restored?: true;
}

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

/**
 * One received webhook as listed under a provider. `listedSlug` names the provider the list is for: an
 * event from the legacy slugless route is listed under the providerSlug of its body.
 */
export function eventView(w: ReceivedWebhook, listedSlug: string): EventView {
  return {
    seq: w.seq,
    receivedAt: w.receivedAt,
    slug: w.slug ?? listedSlug,
    ...(w.slug === null ? { legacyRoute: true as const } : {}),
    ...eventIdentity(w),
    verified: w.verified,
    ...(w.verifiedWith ? { verifiedWith: w.verifiedWith } : {}),
    duplicate: w.duplicate,
    answeredStatus: w.answeredStatus,
    ...(w.signatureHeader ? { signatureHeader: w.signatureHeader } : {}),
    ...(w.problem ? { problem: w.problem } : {}),
    ...(w.restored ? { restored: true as const } : {}),
  };
}
