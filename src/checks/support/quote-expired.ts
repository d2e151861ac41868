import type { HttpOutcome } from '../../http/types.js';
import { errorCode } from './expect.js';

/**
 * The one reading of a QUOTE_EXPIRED answer, for every check that reads it. The contract names the code
 * ("QUOTE_EXPIRED: quote is past its expiry") but leaves its HTTP status open, so any status outside 2xx carries it
 * alike (docs/decisions.md, QUOTE_EXPIRED status): 400, 409, 410 and 422 are the same answer.
 */
export const QUOTE_EXPIRED_STATUSES: readonly number[] = Array.from({ length: 300 }, (_, i) => 300 + i);

/** A refusal with code QUOTE_EXPIRED, whatever its non-2xx status. */
export const isQuoteExpired = (outcome: HttpOutcome): boolean =>
  outcome.kind === 'response' &&
  (outcome.status < 200 || outcome.status > 299) &&
  errorCode(outcome) === 'QUOTE_EXPIRED';
