import { parseIsoTimestamp } from '../../contract/timestamp.js';
import { isLoopbackHost } from '../../http/host.js';
import type { RunConfig } from '../../model/run-config.js';
import type { SpellSetting } from '../../model/setting-speller.js';
import type { CheckContext } from '../framework/types.js';

/**
 * The one rule for when provcert treats a quote as expired (quote-expiry, idempotency's quote-expired state, the
 * lifecycle's waits): it waits past `expiresAt` by a margin that absorbs clock differences with the provider; and
 * the one rule for when a QUOTE_EXPIRED answer is the provider's (its request left well before `expiresAt`).
 */

/** Waited past expiresAt before using the quote: absorbs small clock differences with a remote provider. */
export const EXPIRY_MARGIN_MS = 400;
/** A provider on this machine reads the same clock: the margin only covers timer resolution. */
export const LOOPBACK_EXPIRY_MARGIN_MS = 50;

/**
 * How long before expiresAt a request's last byte must have left provcert for a QUOTE_EXPIRED answered after it to
 * be the provider's: it then had the request while the quote was valid (a network's transit and a clock difference
 * stay well under this) and held it past the expiry (framework/quote-retry.ts judges with it).
 */
export const HELD_MARGIN_MS = 1_000;

/** Whether a request whose last byte left at `leftAt` left well before the quote's expiry (both epoch ms). */
export const leftWellBefore = (leftAt: number, expiresAtMs: number): boolean => leftAt <= expiresAtMs - HELD_MARGIN_MS;

/** The margin for a provider at `baseUrl`. */
export const expiryMarginMs = (baseUrl: string): number =>
  isLoopbackHost(new URL(baseUrl).hostname) ? LOOPBACK_EXPIRY_MARGIN_MS : EXPIRY_MARGIN_MS;

/** The moment (epoch ms) from which a quote expiring at `expiresAtMs` is expired for the provider at `baseUrl` too. */
export const expiredFrom = (expiresAtMs: number, baseUrl: string): number => expiresAtMs + expiryMarginMs(baseUrl);

/** How a wait for a quote's expiry ended. */
export type ExpiryWait =
  /** Waited past the expiry (and the margin): the quote is expired for the provider too. */
  | { kind: 'expired'; expiresAtMs: number }
  /** expiresAt is not an ISO 8601 timestamp: when it expires is not known. */
  | { kind: 'unreadable' }
  /** The quote outlives the run's maxExpiryWait (`waitS` seconds from now): not waited, the rule untested. */
  | { kind: 'too-long'; waitS: number }
  /** The run was stopped during the wait. */
  | { kind: 'stopped' };

/**
 * Waits on the run's clock until the quote expiring at `expiresAt` is expired by the one margin rule, when that is
 * within the run's maxExpiryWait. "The provider controls expiresAt": a long validity breaks no rule, it leaves the
 * rule untested (tooLongRemedy names the setting that tests it).
 */
export async function waitPastExpiry(
  ctx: Pick<CheckContext, 'clock' | 'signal' | 'progress'> & { config: Pick<RunConfig, 'baseUrl' | 'maxExpiryWait'> },
  expiresAt: string,
  waitingFor: string,
): Promise<ExpiryWait> {
  const expiresAtMs = parseIsoTimestamp(expiresAt)?.epochMs;
  if (expiresAtMs === undefined) return { kind: 'unreadable' };
  const waitS = Math.ceil((expiresAtMs - ctx.clock.now()) / 1000);
  if (waitS > ctx.config.maxExpiryWait) return { kind: 'too-long', waitS };
  const until = expiredFrom(expiresAtMs, ctx.config.baseUrl);
  const ms = until - ctx.clock.now();
  ctx.progress?.({ text: waitingFor, remainingMs: Math.max(0, ms) });
  if (ms > 0) await ctx.clock.sleep(ms, ctx.signal);
  return ctx.signal.aborted ? { kind: 'stopped' } : { kind: 'expired', expiresAtMs };
}

/** The advice when a quote outlives the run's expiry wait: a longer wait, or a shorter validity where it is tested. */
export const tooLongRemedy = (spell: SpellSetting, waitS: number): string =>
  `rerun with ${spell('maxExpiryWait', waitS + 10)}, or give quotes a shorter validity in the test environment (at least 5 s, QUOTE-MIN-VALIDITY)`;
