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
  verified: boolean;
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
    ...(w.signatureHeader ? { header: w.signatureHeader } : {}),
    ...(w.problem ? { diagnosis: w.problem } : {}),
    ...(w.duplicate ? { duplicate: true } : {}),
  };
}

/**
 * Whether a received webhook is this provider's: posted to its slug's route, or naming it on the legacy route.
 * The one slug filter of a run's (and a fleet member's) events.
 */
export function belongsTo(w: ReceivedWebhook, slug: string): boolean {
  if (w.slug !== null) return w.slug === slug;
  return w.event?.['providerSlug'] === slug;
}
