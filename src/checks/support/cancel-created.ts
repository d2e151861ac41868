import type { CheckContext } from '../framework/types.js';
import { actionPath, success } from './tx.js';

const PROBE_CANCEL_REASON = 'CUSTOMER_CANCELLED: provcert probe created this order by mistake';

/**
 * Cancel an action a probe created although it should not have, with the run's credential, where the provider
 * declares cancelling (a test order is not left open); marks it cancelled when the provider says so.
 */
export async function cancelCreated(ctx: CheckContext, id: string, reason = PROBE_CANCEL_REASON): Promise<void> {
  const declared = await ctx.resources.providerInfo().then(
    (info) => info.capabilities.includes('ACTION_CANCEL'),
    () => false,
  );
  if (!declared) return;
  const outcome = await ctx.client.send({
    method: 'POST',
    path: actionPath(id, '/cancel'),
    json: { reason },
  });
  if (success(outcome)) ctx.resources.markCancelled(id);
}
