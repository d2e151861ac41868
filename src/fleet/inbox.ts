import { belongsTo, type WebhookInbox } from '../model/webhooks.js';

/**
 * One provider's view of the fleet's shared receiver: all(), waitFor() and subscribe() see only its events, so
 * its webhook checks cannot pick up another provider's deliveries. Addresses are the receiver's own.
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
