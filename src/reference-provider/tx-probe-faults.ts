import { isRecord } from '../util/json.js';
import type { ActiveFaults } from './faults.js';
import { canonicalJson } from './http.js';
import type { Action, Quote } from './model.js';
import { itemsMatchQuote } from './quote-binding.js';

/**
 * Faults for the transactional probe tables (issue 33 item 2): each breaks one row class of idempotency, order
 * identity or quote binding, and nothing else. Kept apart from the routes so the conforming path stays readable.
 */

type ResolveId = (id: string) => string;

const withoutVariants = (items: unknown): unknown =>
  Array.isArray(items) ? items.map((i) => (isRecord(i) ? { ...i, variantId: undefined } : i)) : items;

const withoutOptionQuantities = (items: unknown): unknown =>
  Array.isArray(items)
    ? items.map((i) =>
        isRecord(i) && Array.isArray(i.selectedOptions)
          ? { ...i, selectedOptions: i.selectedOptions.map((o) => (isRecord(o) ? { ...o, quantity: undefined } : o)) }
          : i,
      )
    : items;

/**
 * The payload an idempotency key is bound to; idempotency-variant-ignored leaves the items' variants out, and
 * idempotency-key-order-sensitive keeps the keys in the order they were sent.
 */
export function idempotencyPayload(body: unknown, faults: ActiveFaults): string {
  // idempotency-key-order-sensitive: the payload as sent, so the same payload with its keys reordered differs.
  if (faults.has('idempotency-key-order-sensitive')) return JSON.stringify(body) ?? 'null';
  if (!faults.has('idempotency-variant-ignored') || !isRecord(body)) return canonicalJson(body);
  return canonicalJson({ ...body, items: withoutVariants(body.items) });
}

/**
 * idempotency-ignored-after-cancel: a key whose action was cancelled is forgotten, so a retry creates a new order
 * (and a changed payload is accepted as a new one).
 */
export const keyForgotten = (existing: Action, faults: ActiveFaults): boolean =>
  existing.status === 'CANCELLED' && faults.has('idempotency-ignored-after-cancel');

/**
 * idempotency-ignored-after-expiry: the quote is judged before the key, so a retry after the quote expired is
 * answered QUOTE_EXPIRED instead of the existing action.
 */
export const quoteBeforeKey = (faults: ActiveFaults): boolean => faults.has('idempotency-ignored-after-expiry');

/** Whether the items differ from the quote only along the dimension a binding fault ignores. */
export function bindingChangeIgnored(
  items: unknown,
  quote: Quote,
  resolveId: ResolveId,
  faults: ActiveFaults,
): boolean {
  if (!Array.isArray(items)) return false;
  if (faults.has('quote-binding-variant-ignored') && itemsMatchQuote(withoutVariants(items), quote, resolveId))
    return true;
  if (faults.has('quote-binding-option-quantity-ignored')) {
    const lines = quote.lines.map((l) => ({
      ...l,
      selectedOptions: l.selectedOptions.map((o) => ({ ...o, quantity: 1 })),
    }));
    if (itemsMatchQuote(withoutOptionQuantities(items), { ...quote, lines }, resolveId)) return true;
  }
  if (faults.has('quote-binding-added-item-ignored') && items.length === quote.lines.length + 1)
    if (items.some((_, i) => itemsMatchQuote(items.toSpliced(i, 1), quote, resolveId))) return true;
  const dropsIgnored =
    faults.has('quote-binding-dropped-item-ignored') || faults.has('quote-binding-dropped-item-accepted');
  if (dropsIgnored && items.length === quote.lines.length - 1)
    return quote.lines.some((_, j) =>
      itemsMatchQuote(items, { ...quote, lines: quote.lines.toSpliced(j, 1) }, resolveId),
    );
  return false;
}

/** GET /actions/{id} under the identity faults: another externalActionId, or a first line of another quantity. */
export function identityAsRead(action: Action, faults: ActiveFaults): Action {
  if (faults.has('action-status-external-id-differs'))
    return { ...action, externalActionId: `${action.externalActionId}-other` };
  const [first, ...rest] = action.lines;
  if (faults.has('action-status-lines-differ') && first)
    return { ...action, lines: [{ ...first, quantity: first.quantity + 1 }, ...rest] };
  return action;
}

/** The cancel result's externalActionId: the action's own, or another order's under cancel-external-id-differs. */
export const cancelExternalId = (action: Action, faults: ActiveFaults): string =>
  faults.has('cancel-external-id-differs') ? `${action.externalActionId}-other` : action.externalActionId;

/** Identity fields an event carries besides actionId: none, or another order's publicId under the fault. */
export const eventIdentityExtras = (publicId: string | undefined, faults: ActiveFaults): Record<string, string> =>
  faults.has('webhook-public-id-differs') && publicId !== undefined ? { publicId: `${publicId}-OTHER` } : {};

/** An event's actionId: the action's id, or its externalActionId under webhook-names-external-id. */
export const eventActionId = (change: { actionId: string; externalActionId?: string }, faults: ActiveFaults): string =>
  faults.has('webhook-names-external-id') && change.externalActionId !== undefined
    ? change.externalActionId
    : change.actionId;
