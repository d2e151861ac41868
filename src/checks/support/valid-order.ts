import type { HttpOutcome } from '../../http/types.js';
import { isRecord } from '../../util/json.js';
import type { QuoteAttempt } from '../framework/resources.js';
import { describeAnswer, errorResponseProblem } from './expect.js';

/**
 * How a valid order's POST /quote answer is judged before its math (DECISIONS.md, Exploration): the contract shows
 * no quantity or cart-size bounds, so a clear 4xx ErrorResponse is the provider's own bound (a warning), and a 5xx
 * fails only when it happens again on one retry. Shared by quote-math and quote-explore.
 */
export interface ValidOrderAnswer {
  /** The answer to judge: the retry's when the first answer was a 5xx. */
  attempt: QuoteAttempt;
  /** Set when the first answer was retried: what it was ("HTTP 503 INTERNAL_ERROR"). */
  retriedAfter?: string;
  /** Set when the answer is a clear 4xx ErrorResponse: "HTTP 400 INVALID_ARGUMENT: quantity above 20". */
  refusal?: string;
}

const isServerSide = (outcome: HttpOutcome): boolean => outcome.kind === 'response' && outcome.status >= 500;

/** "HTTP 400 INVALID_ARGUMENT: too many items", or undefined when the answer is not a clear 4xx ErrorResponse. */
export function clearRefusal(outcome: HttpOutcome): string | undefined {
  if (outcome.kind !== 'response' || outcome.status < 400 || outcome.status >= 500) return undefined;
  if (outcome.bodyKind !== 'json' || errorResponseProblem(outcome.json) !== undefined) return undefined;
  const message = isRecord(outcome.json) ? String(outcome.json['message']) : '';
  return `${describeAnswer(outcome)}: ${message.slice(0, 200)}`;
}

/** Send a valid order; after a 5xx it is sent once more and the second answer judged. */
export async function quoteValidOrder(send: () => Promise<QuoteAttempt>): Promise<ValidOrderAnswer> {
  const first = await send();
  if (!isServerSide(first.outcome)) return judged(first);
  const retriedAfter = describeAnswer(first.outcome);
  return { ...judged(await send()), retriedAfter };
}

function judged(attempt: QuoteAttempt): ValidOrderAnswer {
  const refusal = attempt.quote ? undefined : clearRefusal(attempt.outcome);
  return refusal === undefined ? { attempt } : { attempt, refusal };
}
