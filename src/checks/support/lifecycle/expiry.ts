import { expiredFrom } from '../expiry-margin.js';
import { sleepUntil } from '../tx.js';
import type { CreateCommand, RepeatCommand } from './actions.js';
import { type Cmd, Discarded, type LifecycleEnv, type LifecycleReal } from './env.js';
import { canWaitForExpiry, expiredAll, type LifecycleModel } from './model.js';

/** Waiting for expiry, then repeating or creating: once per sequence, on the run's clock. */

/** Waits, by the run's clock, until every quote of the sequence has expired (once per sequence). */
export async function waitForExpiry(env: LifecycleEnv, m: LifecycleModel, r: LifecycleReal): Promise<void> {
  const pending = r.quotes.filter((_, i) => m.quotes[i]?.expired === false);
  const until = expiredFrom(Math.max(...pending.map((q) => Date.parse(q.expiresAt))), env.ctx.config.baseUrl);
  if (!Number.isFinite(until)) throw new Discarded('a quote expiry is not readable');
  env.waits.done++;
  if (!m.quotes.every((q) => q.expired || q.aged)) env.waits.fresh++;
  r.onWait?.();
  env.ctx.progress?.({
    text: `lifecycle: waiting for ${pending.length} quote(s) to expire`,
    remainingMs: Math.max(0, until - env.ctx.clock.now()),
  });
  // The run's clock: other checks go on meanwhile, and a test clock advances it at once.
  await sleepUntil(env.ctx, until);
  r.steps.push({ label: 'wait until every quote has expired', answer: `until ${new Date(until).toISOString()}` });
  expiredAll(m);
}

/** "Wait for expiry, then repeat or create": the wait happens once per sequence; later ones find it done. */
export class AfterExpiryCommand implements Cmd {
  constructor(
    private readonly env: LifecycleEnv,
    private readonly then: RepeatCommand | CreateCommand,
  ) {}
  check = (m: Readonly<LifecycleModel>): boolean =>
    (m.waited || canWaitForExpiry(m, this.env.allow)) && this.then.check(expiredCopy(m));
  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    if (!m.waited) await waitForExpiry(this.env, m, r);
    await this.then.run(m, r);
  }
  toString = (): string => `after-expiry(${this.then.toString()})`;
}

/** Whether a command of a sequence waits for an expiry (such a sequence takes aged quotes). */
export const waitsForExpiry = (cmd: Cmd): boolean => cmd instanceof AfterExpiryCommand;

/** The model as it is once the wait is done, for the following step's precondition. */
export const expiredCopy = (m: Readonly<LifecycleModel>): LifecycleModel => ({
  quotes: m.quotes.map((q) => ({ ...q, expired: true })),
  actions: m.actions.map((a) => ({ ...a })),
  waited: true,
});
