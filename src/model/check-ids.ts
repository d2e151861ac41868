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

export type CheckStatus = 'pass' | 'fail' | 'skip' | 'error';
