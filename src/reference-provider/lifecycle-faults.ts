import type { Reply } from './http.js';
import { fail, ok } from './http.js';
import type { Action } from './model.js';
import type { ProviderState } from './state.js';

/**
 * The lifecycle faults (src/reference-provider/faults.ts, issue 33 item 3): each breaks an idempotency, expiry or
 * identity rule only off the usual path (after a cancel, after the quote expired), where the checks that walk the
 * usual path never go and only the lifecycle exploration does.
 */

/** Quotes an action was created on, per running provider (lifecycle-used-quote-expiry-unchecked). */
const usedQuotes = new WeakMap<ProviderState, Set<string>>();

export function noteQuoteUsed(state: ProviderState, quoteId: string): void {
  const used = usedQuotes.get(state) ?? new Set<string>();
  used.add(quoteId);
  usedQuotes.set(state, used);
}

/** Whether an expired quote is let through: under the fault, a quote once used is never judged expired again. */
export const expiryUnchecked = (state: ProviderState, quoteId: string): boolean =>
  state.faults.has('lifecycle-used-quote-expiry-unchecked') && usedQuotes.get(state)?.has(quoteId) === true;

/**
 * What a repeated key answers under a lifecycle fault, before the contract's answer: a Reply, 'create' (a new
 * action, as if the key were unknown), or undefined (the conforming answer).
 */
export function repeatedKeyFault(
  state: ProviderState,
  existing: Action,
  samePayload: boolean,
  quoteExpired: boolean,
): Reply | 'create' | undefined {
  const { faults } = state;
  if (samePayload && quoteExpired && faults.has('lifecycle-repeat-after-expiry-refused'))
    return fail(422, 'QUOTE_EXPIRED', `quote "${existing.quoteId}" expired; request a fresh quote`);
  if (existing.status !== 'CANCELLED') return undefined;
  if (samePayload && faults.has('lifecycle-repeat-after-cancel-creates')) return 'create';
  if (!samePayload && faults.has('lifecycle-changed-after-cancel-accepted')) return ok(existing);
  if (samePayload && faults.has('lifecycle-repeat-reopens-cancelled')) {
    // The fault: the replay stores the creation snapshot again, so the order looks open while its events said CANCELLED.
    const reopened: Action = { ...existing, status: 'AWAITING_PAYMENT', updatedAt: new Date().toISOString() };
    state.store.updateAction(reopened);
    return ok(reopened);
  }
  return undefined;
}

/** GET /actions/{id} of a cancelled action under lifecycle-cancelled-total-changed: its total reads 0. */
export const cancelledView = (state: ProviderState, action: Action): Action =>
  state.faults.has('lifecycle-cancelled-total-changed') && action.status === 'CANCELLED'
    ? { ...action, total: 0 }
    : action;

/** Payment options of a cancelled action under lifecycle-payment-options-cancelled-object: wrapped in an object. */
export const cancelledOptionsWrapped = (state: ProviderState, action: Action): boolean =>
  state.faults.has('lifecycle-payment-options-cancelled-object') && action.status === 'CANCELLED';
