/** Failed sign-ins allowed per second: guessing a token costs time. */
const FAILED_SIGN_INS_PER_SECOND = 5;

/** Times of recent failed sign-ins: at FAILED_SIGN_INS_PER_SECOND within a second, the next attempt waits. */
export class SignInThrottle {
  private readonly failures: number[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  throttled(): boolean {
    const now = this.now();
    while (this.failures.length > 0 && now - (this.failures[0] ?? 0) >= 1_000) this.failures.shift();
    return this.failures.length >= FAILED_SIGN_INS_PER_SECOND;
  }

  failed(): void {
    this.failures.push(this.now());
  }
}
