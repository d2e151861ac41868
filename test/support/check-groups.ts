import type { CheckId } from '../../src/model/check-ids.js';

/** Read-only checks, proven both ways by test/checks/read.e2e.test.ts. */
export const READ_CHECKS: CheckId[] = [
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
  'errors',
];

/** Transactional checks, proven both ways by test/checks/tx.e2e.test.ts. */
export const TX_CHECKS: CheckId[] = [
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
  'webhook',
  'cancel',
  'payment-options',
];
