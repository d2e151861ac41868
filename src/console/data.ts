import type { RotationView } from '../server/core-routes/rotation-handlers.js';
import type {
  AdminProviderView,
  CertificationListView,
  CertificationSummaryView,
  EventView,
  HistoryEntryView,
  ProviderView,
} from '../server/core-routes/views.js';
import { isRecord, records, str } from '../util/json.js';

// What the console reads from the API's JSON answers. Each reader takes only the fields it shows, so a
// field the API adds later (or a secret by mistake) never reaches a page unnoticed. It names them through the
// server's views of the generated contract types, so a renamed schema field breaks typecheck, not a cell.

/**
 * An answer read as the view it should be: only the view's field names, each value still unchecked JSON (a
 * field may be missing or of another type; the readers below tolerate both).
 */
export type Answer<View> = { readonly [Field in keyof View]?: unknown };

/** A JSON value read as `View`'s fields; anything but an object has none. */
export const answerAs = <View>(value: unknown): Answer<View> => (isRecord(value) ? value : {}) as Answer<View>;

export interface ProviderRow {
  name: string;
  slug: string;
  status: string;
  reviewStatus: string;
  certified: boolean | undefined;
  lastVerdict: string | undefined;
  /** When the newest certification that passed ran (a later FAIL does not move it). */
  lastPassedAt: string | undefined;
  capabilities: string[];
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v) => typeof v === 'string') : []);
const bool = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);

/** The provider object of an answer: `provider` when wrapped (CoreAdminProvider, CoreRegistration), else the answer. */
export function providerOf(body: Record<string, unknown>): Record<string, unknown> {
  const { provider } = answerAs<AdminProviderView>(body);
  return isRecord(provider) ? provider : body;
}

/** A listed provider (CoreProvider); its last certification comes from another route (`lastVerdict` stays unset). */
export function providerRow(provider: Record<string, unknown>): ProviderRow {
  const p = answerAs<ProviderView>(provider);
  const metadata = answerAs<ProviderView['metadata']>(p.metadata);
  return {
    name: str(p.name) ?? '',
    slug: str(p.slug) ?? '',
    status: str(p.status) ?? '',
    reviewStatus: str(metadata.reviewStatus) ?? str(p.reviewStatus) ?? '',
    certified: bool(metadata.isCertified),
    lastVerdict: undefined,
    lastPassedAt: undefined,
    capabilities: strings(p.capabilities),
  };
}

/** A move the lifecycle allows now (CoreAllowedTransition), as the decision panel offers it. */
export interface AllowedMove {
  trigger: string;
  to: string;
  needsReason: boolean;
  /** Why the core would refuse it now, when a condition is unmet. */
  blockedBy: string | undefined;
}

/** The provider's `allowedTransitions`: the console offers these and nothing else. */
export function allowedMoves(provider: Record<string, unknown>): AllowedMove[] {
  return records(answerAs<ProviderView>(provider).allowedTransitions).flatMap((entry) => {
    const m = answerAs<ProviderView['allowedTransitions'][number]>(entry);
    const trigger = str(m.trigger);
    if (!trigger) return [];
    return [{ trigger, to: str(m.to) ?? '', needsReason: m.needsReason === true, blockedBy: str(m.blockedBy) }];
  });
}

/** The registration as shown: named fields only (never the webhook secret, never a token). */
export function registrationFields(provider: Record<string, unknown>): [string, string][] {
  const p = answerAs<ProviderView>(provider);
  const fields: [string, string][] = [];
  const add = (label: string, value: unknown): void => {
    if (typeof value === 'string' || typeof value === 'number') fields.push([label, String(value)]);
    else if (Array.isArray(value)) fields.push([label, strings(value).join(', ')]);
  };
  add('Name', p.name);
  add('Slug', p.slug);
  add('Type', p.type);
  add('Category', p.category);
  add('Geography', p.geography);
  add('Base URL', p.baseUrl);
  add('Auth method', p.authMethod);
  add('Capabilities', p.capabilities);
  add('Fulfillment', p.fulfillment);
  add('Credential variable', p.credentialEnv);
  add('Credential file', p.credentialFile);
  add('Webhook URL', p.webhookUrl);
  add('Configuration version', p.configVersion);
  add('Registered', p.createdAt);
  add('Updated', p.updatedAt);
  add('Submitted for review', p.submittedAt);
  return fields;
}

/** The partner-visible reason of the last non-approval decision, when the provider carries one. */
export interface VisibleReason {
  reasonCode: string;
  reason: string;
  requiredChanges: string[];
}

/** CoreProviderMetadata's reviewReason. */
export function visibleReason(provider: Record<string, unknown>): VisibleReason | undefined {
  const { reviewReason } = answerAs<ProviderView['metadata']>(answerAs<ProviderView>(provider).metadata);
  if (!isRecord(reviewReason)) return undefined;
  const found = answerAs<NonNullable<ProviderView['metadata']['reviewReason']>>(reviewReason);
  return {
    reasonCode: str(found.reasonCode) ?? '',
    reason: str(found.reason) ?? '',
    requiredChanges: strings(found.requiredChanges),
  };
}

export interface HistoryEntry {
  at: string;
  actor: string;
  what: string;
  from: string;
  to: string;
  reasonCode: string;
  reason: string;
  requiredChanges: string[];
  internalNote: string | undefined;
}

/** The review history of CoreAdminProvider, oldest first; `withNotes` false drops every internal note. */
export function history(body: Record<string, unknown>, withNotes: boolean): HistoryEntry[] {
  return records(answerAs<AdminProviderView>(body).history).map((entry) => {
    const h = answerAs<HistoryEntryView>(entry);
    return {
      at: str(h.at) ?? '',
      actor: str(h.actor) ?? '',
      what: str(h.trigger) ?? str(h.kind) ?? '',
      from: str(h.from) ?? '',
      to: str(h.to) ?? '',
      reasonCode: str(h.reasonCode) ?? '',
      reason: str(h.reason) ?? '',
      requiredChanges: strings(h.requiredChanges),
      internalNote: withNotes ? str(h.internalNote) : undefined,
    };
  });
}

export interface CertificationRow {
  id: string;
  createdAt: string;
  verdict: string;
  configVersion: number | undefined;
  summary: { pass: number; fail: number; skip: number; error: number; untested: number };
  durationMs: number | undefined;
  /** Why it no longer counts for submit-review (configuration changed, reopened), when it does not. */
  invalidReason: string | undefined;
}

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The certifications of a listing (`data`) or of the admin provider detail (`certifications`), newest first. */
export function certificationRows(body: Record<string, unknown>): CertificationRow[] {
  const listed = answerAs<AdminProviderView>(body).certifications ?? answerAs<CertificationListView>(body).data;
  return records(listed).map((certification) => {
    const c = answerAs<CertificationSummaryView>(certification);
    const s = answerAs<CertificationSummaryView['summary']>(c.summary);
    return {
      id: str(c.id) ?? '',
      createdAt: str(c.createdAt) ?? '',
      verdict: str(c.verdict) ?? '',
      configVersion: num(c.configVersion),
      summary: {
        pass: num(s.pass) ?? 0,
        fail: num(s.fail) ?? 0,
        skip: num(s.skip) ?? 0,
        error: num(s.error) ?? 0,
        untested: num(s.untested) ?? 0,
      },
      durationMs: num(c.durationMs),
      invalidReason: c.valid === false ? (str(c.invalidReason) ?? 'no longer valid') : undefined,
    };
  });
}

export interface EventRow {
  seq: number;
  receivedAt: string;
  eventType: string;
  actionId: string;
  newStatus: string;
  verified: boolean;
  duplicate: boolean;
  verdictText: string;
  problem: string;
}

/** One CoreEvent of a listing or of the live stream. */
export function eventRow(event: Record<string, unknown>): EventRow {
  const e = answerAs<EventView>(event);
  const verified = e.verified === true;
  const duplicate = e.duplicate === true;
  return {
    seq: num(e.seq) ?? 0,
    receivedAt: str(e.receivedAt) ?? '',
    eventType: str(e.eventType) ?? '',
    actionId: str(e.actionId) ?? '',
    newStatus: str(e.newStatus) ?? '',
    verified,
    duplicate,
    // verifiedWith "previous": the provider still signs with the secret a rotation replaced (docs/decisions.md).
    verdictText: `${verified ? 'verified' : 'rejected'}${e.verifiedWith === 'previous' ? ' with the previous secret' : ''}${duplicate ? ' (duplicate)' : ''}`,
    problem: str(e.problem) ?? '',
  };
}

/** A rotation's answer as shown once: the new secret, where to send, and until when the previous one verifies. */
export interface RotationShown {
  slug: string;
  url: string;
  secret: string;
  note: string;
  rotatedAt: string;
  overlapSeconds: number;
  previousSecretValidUntil: string;
}

/** The answer of `POST …/rotate-webhook-secret` (CoreWebhookSecretRotation); undefined without a secret in it. */
export function rotationShown(body: Record<string, unknown>): RotationShown | undefined {
  const rotation = answerAs<RotationView>(body);
  const webhook = answerAs<RotationView['webhook']>(rotation.webhook);
  const secret = str(webhook.secret);
  if (!secret) return undefined;
  return {
    slug: str(rotation.slug) ?? '',
    url: str(webhook.url) ?? '',
    secret,
    note: str(webhook.note) ?? '',
    rotatedAt: str(rotation.rotatedAt) ?? '',
    overlapSeconds: num(rotation.overlapSeconds) ?? 0,
    previousSecretValidUntil: str(rotation.previousSecretValidUntil) ?? '',
  };
}
