import { createHash } from 'node:crypto';

/** Failed sign-ins allowed per second from one client address, and for one presented token. */
const FAILED_SIGN_INS_PER_SECOND = 5;
/** Keys remembered at once (bounded memory under a flood of distinct tokens); the oldest is forgotten first. */
const MAX_KEYS = 10_000;

/**
 * Failed sign-ins counted per client address and per presented token, never globally: a flood of wrong
 * sign-ins slows its own address and the tokens it tries, and no one else (the operator signs in from another
 * address with a token that never failed). Guessing a token still costs time: each key allows
 * FAILED_SIGN_INS_PER_SECOND failures a second.
 */
export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The keys an attempt is counted under: its client address and (hashed, never kept as is) its token. */
  static keys(address: string | undefined, token: string): string[] {
    return [`address ${address ?? 'unknown'}`, `token ${createHash('sha256').update(token).digest('base64url')}`];
  }

  throttled(keys: readonly string[]): boolean {
    return keys.some((key) => this.recent(key).length >= FAILED_SIGN_INS_PER_SECOND);
  }

  failed(keys: readonly string[]): void {
    for (const key of keys) {
      const times = this.recent(key);
      times.push(this.now());
      this.failures.delete(key);
      this.failures.set(key, times);
    }
    while (this.failures.size > MAX_KEYS) {
      const oldest = this.failures.keys().next().value;
      if (oldest === undefined) break;
      this.failures.delete(oldest);
    }
  }

  private recent(key: string): number[] {
    const now = this.now();
    const times = (this.failures.get(key) ?? []).filter((t) => now - t < 1_000);
    if (times.length === 0) this.failures.delete(key);
    else this.failures.set(key, times);
    return times;
  }
}
