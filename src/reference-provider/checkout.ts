import { fail, type Reply } from './http.js';
import type { ProviderState } from './state.js';

/** The provider-owned checkout page, outside the API and its credential (a customer's browser opens it). */
export const CHECKOUT_PREFIX = '/checkout/';

/** A Host header worth repeating in a link: a name or address and an optional port, nothing else. */
const PLAIN_HOST = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

/**
 * The checkout link of an action: on the host the request came to, so the page is the provider's own; without
 * a usable Host header, a payment domain of the provider's.
 */
export function checkoutUrl(host: string | undefined, slug: string, id: string, query = ''): string {
  const origin = host !== undefined && PLAIN_HOST.test(host) ? `http://${host}` : `https://pay.${slug}.example`;
  return `${origin}${CHECKOUT_PREFIX}${encodeURIComponent(id)}${query}`;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * GET /checkout/{id}: the page a customer lands on. Opening it takes no payment; the payment-paid-on-click
 * fault marks the action paid (and says so in a status event) as soon as the page is opened.
 */
export function getCheckoutPage(state: ProviderState, id: string): Reply {
  const action = state.store.findAction(id);
  if (!action) return fail(404, 'NOT_FOUND', `no checkout for "${id}"`);
  if (state.faults.has('payment-paid-on-click') && action.status === 'AWAITING_PAYMENT') {
    state.store.updateAction({
      ...action,
      status: 'CONFIRMED',
      paymentStatus: 'PAID',
      updatedAt: new Date(state.clock.now()).toISOString(),
    });
    return {
      ...page(action.publicId, action.total, action.currency),
      after: (answered) => state.webhooks.enqueue({ actionId: action.id, newStatus: 'CONFIRMED' }, answered),
    };
  }
  return page(action.publicId, action.total, action.currency);
}

function page(publicId: string, total: number, currency: string): Reply {
  const title = escapeHtml(`Pay order ${publicId}`);
  return {
    status: 200,
    html: `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>Total: ${total} ${escapeHtml(currency)} (minor units)</p><p>Demo checkout: no payment is taken here.</p></body></html>`,
  };
}
