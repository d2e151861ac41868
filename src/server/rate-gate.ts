/** At most `perSecond` passes in any one-second window; the rest are counted (so a flood costs little). */
export class RateGate {
  private windowStart = 0;
  private passed = 0;
  private refused = 0;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when this one may pass. `refusedBefore` says how many were refused in the window that just ended. */
  pass(): { ok: boolean; refusedBefore: number } {
    const t = this.now();
    let refusedBefore = 0;
    if (t - this.windowStart >= 1_000) {
      refusedBefore = this.refused;
      this.windowStart = t;
      this.passed = 0;
      this.refused = 0;
    }
    if (this.passed < this.perSecond) {
      this.passed++;
      return { ok: true, refusedBefore };
    }
    this.refused++;
    return { ok: false, refusedBefore };
  }
}
