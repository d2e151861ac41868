/**
 * Time as a certification and the reference provider read it: epoch milliseconds (comparable with a quote's
 * expiresAt) and cancellable sleeps. One clock can be shared by both, so a test or the bench can run a whole
 * certification in virtual time (util/manual-clock.ts) instead of waiting out quote validities and webhook timeouts.
 */
export interface Clock {
  now(): number;
  /** Resolves after `ms` on this clock, or at once when `signal` aborts (never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
