import type { IgnoredWebhooks, WebhookTimelineEntry } from '../model/report.js';

/** The signature fact of a timeline entry, on its own: schema validity is a separate fact (schemaText). */
export const signatureText = (ev: WebhookTimelineEntry): string => (ev.verified ? 'verified' : 'NOT verified');

/** The schema fact: "valid", "invalid", or "not checked" (the receiver validates only a verified body). */
export const schemaText = (ev: WebhookTimelineEntry): string =>
  ev.schemaValid === undefined ? 'not checked' : ev.schemaValid ? 'valid' : 'invalid';

/** "12 unverifiable webhook requests ignored (HTTP 401 ×5, 413 ×7)": noise on the route, never the provider's failure. */
export function ignoredText(ignored: IgnoredWebhooks | undefined): string | undefined {
  if (!ignored || ignored.count === 0) return undefined;
  const statuses = Object.entries(ignored.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status} ×${n}`)
    .join(', ');
  const noun = ignored.count === 1 ? 'request' : 'requests';
  return `${ignored.count} unverifiable webhook ${noun} ignored (HTTP ${statuses}): not signed with the provider's secret, so not counted against it`;
}
