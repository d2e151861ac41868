import type { OperationInfo } from '../../../contract/types.js';

/**
 * The provider's own routes, the ones the probe tables send to: those the route table gives a capability. The core's
 * `/api/v1/…` routes have none, and webhooks are the provider's requests to the core, not its routes. Pure.
 */
export const isProviderRoute = (op: OperationInfo): boolean =>
  op.capability !== undefined && !op.key.startsWith('WEBHOOK ');
