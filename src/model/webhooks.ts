import type { WebhookTimelineEntry } from './report.js';

/** One webhook request as the embedded core received it. The raw bytes are kept: signatures cover them. */
export interface ReceivedWebhook {
  seq: number;
  receivedAt: string;
  slug: string | null; // null on the legacy slugless route
  headers: Record<string, string>; // signature header values masked
  rawBody: string;
  /** Parsed event when the body is JSON. */
  event?: Record<string, unknown>;
  /** The signature verified over the raw bytes (whatever became of the event after: see schemaValid). */
  verified: boolean;
  /**
   * The provider the receiver attributes the request to: the one whose webhook secret verified its signature
   * (the path slug, or on the legacy route the slug its body names), or whose secret it was provably made with
   * (the diagnosis found the digest right but for a fixable mistake, e.g. a re-serialized body). Absent: an
   * unverifiable request (unsigned, badly signed, oversized, unknown slug), nobody's: noise.
   */
  attributedTo?: string;
  /**
   * 'previous': the signature verified with the secret a rotation replaced, inside its overlap window (the
   * provider's backend has not switched to the new secret yet). Absent: the current secret.
   */
  verifiedWith?: 'previous';
  /** Whether the body is a NormalizedWebhookEvent; absent when it was not checked (the signature did not verify). */
  schemaValid?: boolean;
  /** Which header carried the signature that verified (or was tried). */
  signatureHeader?: string;
  /** Why verification or validation failed, in words (signature diagnosis, schema errors…). */
  problem?: string;
  /** HTTP status answered to the sender. */
  answeredStatus: number;
  duplicate: boolean;
  /** Reloaded from the data dir at start (received by an earlier server process). */
  restored?: boolean;
}

/** The run's view of the embedded receiver: events in arrival order, and a way to wait for one. */
export interface WebhookInbox {
  /** The address providers post events to, e.g. http://127.0.0.1:8787/api/v1/webhooks/demo-kitchen */
  urlFor(slug: string): string;
  all(): readonly ReceivedWebhook[];
  /** Resolves with the first received webhook (past or future) matching, or undefined after timeoutMs. */
  waitFor(
    predicate: (w: ReceivedWebhook) => boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<ReceivedWebhook | undefined>;
  /**
   * Calls `listener` with each webhook request answered from now on (accepted or not, every slug: filter on
   * `w.slug`), as it is recorded. Returns the unsubscribe. Listeners must be quick; one that throws is ignored.
   */
  subscribe(listener: (w: ReceivedWebhook) => void): () => void;
}

/** Whether the receiver accepted the event: signature verified, schema valid, answered 200. */
export const isAccepted = (w: ReceivedWebhook): boolean => w.verified && w.answeredStatus === 200;

/**
 * The one slug filter of a run's (and a fleet member's) webhooks: attributed to provider `slug`, or unattributed
 * noise that arrived on its route (its slug's path, or the legacy route naming it). Another provider's verified
 * events never belong to it.
 */
export function belongsTo(w: ReceivedWebhook, slug: string): boolean {
  if (w.attributedTo !== undefined) return w.attributedTo === slug;
  return w.slug === null ? w.event?.['providerSlug'] === slug : w.slug === slug;
}

/**
 * One provider's view of a shared receiver: all(), waitFor() and subscribe() see only what belongsTo gives it,
 * so a certification counts only events that arrived on its own route, verified with its own secret, never
 * another provider's deliveries (a fleet member, a provider `serve` certifies). Addresses are the receiver's own.
 */
export function inboxFor(shared: WebhookInbox, slug: string): WebhookInbox {
  return {
    urlFor: (s) => shared.urlFor(s),
    all: () => shared.all().filter((w) => belongsTo(w, slug)),
    waitFor: (predicate, timeoutMs, signal) =>
      shared.waitFor((w) => belongsTo(w, slug) && predicate(w), timeoutMs, signal),
    subscribe: (listener) =>
      shared.subscribe((w) => {
        if (belongsTo(w, slug)) listener(w);
      }),
  };
}

/** The string fields that identify an event (each absent when the body does not carry it as a string). */
export function eventIdentity(
  w: ReceivedWebhook,
): Pick<WebhookTimelineEntry, 'eventId' | 'eventType' | 'actionId' | 'newStatus'> {
  const identity: Pick<WebhookTimelineEntry, 'eventId' | 'eventType' | 'actionId' | 'newStatus'> = {};
  for (const key of ['eventId', 'eventType', 'actionId', 'newStatus'] as const) {
    const value = w.event?.[key];
    if (typeof value === 'string') identity[key] = value;
  }
  return identity;
}

/** A received webhook as the run report's timeline shows it (the report is masked as a whole). */
export function timelineEntry(w: ReceivedWebhook): WebhookTimelineEntry {
  return {
    receivedAt: w.receivedAt,
    ...eventIdentity(w),
    verified: w.verified,
    ...(w.schemaValid === undefined ? {} : { schemaValid: w.schemaValid }),
    ...(w.signatureHeader ? { header: w.signatureHeader } : {}),
    ...(w.problem ? { diagnosis: w.problem } : {}),
    ...(w.duplicate ? { duplicate: true } : {}),
    ...(w.verifiedWith ? { verifiedWith: w.verifiedWith } : {}),
  };
}
