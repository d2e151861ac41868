/**
 * Time as a certification and the reference provider read it: epoch milliseconds (comparable with a quote's
 * expiresAt) and cancellable sleeps. One clock can be shared by both, so a test or the bench can run a whole
 * certification in virtual time (util/manual-clock.ts) instead of waiting out quote validities and webhook timeouts.
 */
export interface Clock {
  now(): number;
  /** Resolves after `ms` on this clock, or at once when `signal` aborts (never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * A server sharing this clock says when it is working (answering, sending), until the returned function is
   * called. Only a clock that moves on by itself when nothing is going on (a test's manual clock) needs to know;
   * the system clock does not implement it.
   */
  workingWhile?(busy: () => boolean): () => void;
}
