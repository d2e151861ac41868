import { isOwnEvent } from '../checks/webhook.js';
import type { IgnoredWebhooks, RunReport, WebhookTimelineEntry } from '../model/report.js';
import { belongsTo, type ReceivedWebhook, timelineEntry, type WebhookInbox } from '../model/webhooks.js';

type TestAction = { id: string; publicId: string; cancelled: boolean };

/**
 * The report's webhook section for provider `slug`: its own requests as the timeline (docs/decisions.md, "Whose
 * webhook is it"), and the unverifiable requests on its route counted apart as noise. Another provider's events
 * appear in neither.
 */
export function webhookSection(
  inbox: WebhookInbox,
  slug: string,
  actions: readonly TestAction[],
  entryOf: (w: ReceivedWebhook) => WebhookTimelineEntry = timelineEntry,
): RunReport['webhooks'] {
  const own: RunReport['webhooks']['events'] = [];
  const ignored: IgnoredWebhooks = { count: 0, byStatus: {} };
  for (const w of inbox.all()) {
    if (isOwnEvent(w, slug, actions)) own.push(entryOf(w));
    else if (!w.restored && w.attributedTo === undefined && belongsTo(w, slug)) {
      ignored.count++;
      const status = String(w.answeredStatus);
      ignored.byStatus[status] = (ignored.byStatus[status] ?? 0) + 1;
    }
  }
  return { url: inbox.urlFor(slug), events: own, ...(ignored.count > 0 ? { ignored } : {}) };
}
