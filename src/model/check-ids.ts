/**
 * Stable check ids in report order (docs/decisions.md, Results): the one list of them. The checks' registry
 * (src/checks/framework/registry.ts) is a map keyed by these ids, so a check added here must be registered there.
 */
export const CHECK_IDS = [
  'base-url',
  'metadata',
  'capabilities',
  'health',
  'locations',
  'catalog',
  'offering',
  'search',
  'wrong-credential',
  'signature',
  'credential-echo',
  'quote-math',
  'quote-validation',
  'quote-explore',
  'quote-expiry',
  'quote-binding',
  'action-validation',
  'payment-pending',
  'checkout-click',
  'action-status',
  'idempotency',
  'lifecycle',
  'webhook',
  'cancel',
  'payment-options',
  'errors',
] as const;

export type CheckId = (typeof CHECK_IDS)[number];

/**
 * `untested`: the check found nothing wrong, but provcert could not test its rule within the run's limits for a reason
 * that is no contract violation (a quote that outlives the expiry wait, a budget spent before its minimum); the
 * result's `untested` says which rule and which setting would test it. Never a pass: the run is INCOMPLETE.
 */
export type CheckStatus = 'pass' | 'fail' | 'skip' | 'error' | 'untested';

/** Every status, in the order summaries list them. */
export const CHECK_STATUSES: readonly CheckStatus[] = ['pass', 'fail', 'skip', 'error', 'untested'];
