import type { CheckContext } from '../framework/types.js';
import { actionPath, success } from './tx.js';

/** A safe human reason with a stable code, as the contract advises for cancellations. */
const STRAY_REASON = 'CUSTOMER_CANCELLED: provcert probe order, created where the contract expects none';

/**
 * Cancels an order a probe made (a changed order the provider should have refused, a retry that created a second
 * order), where the provider declares ACTION_CANCEL, so probing leaves no open test orders behind. Best effort: the
 * cancel's answer is cancel's check to judge, not the probe's; a cancelled action is marked so the webhook check
 * expects its CANCELLED event.
 */
export async function cancelStray(ctx: Pick<CheckContext, 'client' | 'resources'>, actionId: string): Promise<void> {
  const info = await ctx.resources.providerInfo();
  if (!info.capabilities.includes('ACTION_CANCEL')) return;
  const outcome = await ctx.client.send({
    method: 'POST',
    path: actionPath(actionId, '/cancel'),
    json: { reason: STRAY_REASON },
  });
  const json = success(outcome)?.json as { success?: unknown } | undefined;
  if (json?.success === true) ctx.resources.markCancelled(actionId);
}
