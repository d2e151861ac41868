import type { CheckContext } from '../framework/types.js';
import type { Findings } from '../outcome.js';
import { cancelCreated } from './cancel-created.js';
import { describeAnswer, errorCode, expectError } from './expect.js';
import { isQuoteExpired } from './quote-expired.js';
import { actionIdentity, markReproduce, problemAt, success } from './tx.js';

const WITHOUT_KEY_CANCEL_REASON = 'CUSTOMER_CANCELLED: provcert test order created without an idempotencyKey';

/**
 * POST /actions without idempotencyKey. CreateActionInput types the key ("| idempotencyKey | string |") without
 * "(required)", so a provider may accept the order (it is then cancelled where the provider can) or require the key:
 * then its absence is a missing field, "missing fields give HTTP 400 or 422 with code VALIDATION_ERROR (never
 * QUOTE_EXPIRED)" (another 4xx ErrorResponse is a warning). A 5xx, or QUOTE_EXPIRED, answers neither reading.
 * Returns what happened, for the check's summary.
 */
export async function tryWithoutKey(
  ctx: CheckContext,
  f: Findings,
  valid: Record<string, unknown>,
): Promise<'accepted' | 'refused'> {
  const { idempotencyKey: _key, ...body } = valid;
  const what = 'POST /actions without idempotencyKey (the contract does not mark it required)';
  const outcome = await ctx.client.send({ method: 'POST', path: '/actions', json: body });
  const accepted = success(outcome);
  if (accepted) {
    const created = actionIdentity(accepted.json);
    if (created.id !== undefined) {
      ctx.resources.noteCreatedAction(
        { id: created.id, ...(created.publicId !== undefined ? { publicId: created.publicId } : {}) },
        accepted.json,
      );
      await cancelCreated(ctx, created.id, WITHOUT_KEY_CANCEL_REASON);
    }
    return 'accepted';
  }
  const requirement = 'ACTION-MISSING-FIELD-VALIDATION-ERROR';
  if (isQuoteExpired(outcome)) {
    problemAt(
      f,
      ctx,
      outcome,
      `${what} was answered ${describeAnswer(outcome)}; a provider that requires the key answers its absence HTTP 400 or 422 VALIDATION_ERROR, never QUOTE_EXPIRED`,
      requirement,
    );
    return 'refused';
  }
  const status = outcome.kind === 'response' ? outcome.status : undefined;
  const clientError = status !== undefined && status >= 400 && status < 500;
  const validationError = errorCode(outcome) === 'VALIDATION_ERROR' && (status === 400 || status === 422);
  if (clientError && !validationError && errorCode(outcome) !== undefined) {
    f.warn(
      `${what} was answered ${describeAnswer(outcome)}; a provider that requires the key answers its absence as a missing field: HTTP 400 or 422 VALIDATION_ERROR`,
      requirement,
    );
    return 'refused';
  }
  const statuses = [400, 422];
  if (!expectError(f, outcome, { what, statuses, codes: ['VALIDATION_ERROR'], requirement }))
    markReproduce(f, ctx, outcome);
  return 'refused';
}
