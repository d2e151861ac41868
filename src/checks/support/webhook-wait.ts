import type { ReceivedWebhook } from '../../model/webhooks.js';
import type { CheckContext } from '../framework/types.js';

/** One webhook event a check expects. */
export interface AwaitedEvent {
  matches(w: ReceivedWebhook): boolean;
  /** Why it counts as missing when it did not arrive in time. */
  missing(): string;
}

/**
 * The first event `predicate` accepts, or undefined once `budgetMs` has passed on the run's clock (or the run
 * ends). The inbox's own timer stays as a backstop; the clock decides, so a run on a manual clock waits no real time.
 */
export async function waitForEvent(
  ctx: Pick<CheckContext, 'webhooks' | 'signal' | 'clock'>,
  predicate: (w: ReceivedWebhook) => boolean,
  budgetMs: number,
): Promise<ReceivedWebhook | undefined> {
  const done = new AbortController();
  const signal = AbortSignal.any([ctx.signal, done.signal]);
  const timedOut = ctx.clock.sleep(budgetMs, signal).then(() => undefined);
  try {
    return await Promise.race([ctx.webhooks.waitFor(predicate, budgetMs, signal), timedOut]);
  } finally {
    done.abort();
  }
}

/**
 * Waits, all within one budget, for every awaited event (events already received count at once). Each
 * change is reported as progress ("2 of 4 expected events received", with the time left), so the person
 * watching sees what the run waits for. Returns the reasons of the events that did not arrive.
 */
export async function awaitEvents(
  ctx: Pick<CheckContext, 'webhooks' | 'signal' | 'clock' | 'progress'>,
  awaited: readonly AwaitedEvent[],
  budgetMs: number,
): Promise<string[]> {
  const started = ctx.clock.now();
  const arrived = awaited.map((a) => ctx.webhooks.all().some((w) => a.matches(w)));
  const report = (): void => {
    const count = arrived.filter(Boolean).length;
    if (count === awaited.length) return;
    const remainingMs = Math.max(0, budgetMs - (ctx.clock.now() - started));
    ctx.progress?.({ text: `${count} of ${awaited.length} expected events received`, remainingMs, endsEarly: true });
  };
  report();
  const missing: string[] = [];
  await Promise.all(
    awaited.map(async (a, i) => {
      const w = await waitForEvent(ctx, (x) => a.matches(x), budgetMs);
      if (!w) {
        missing.push(a.missing());
      } else if (!arrived[i]) {
        arrived[i] = true;
        report();
      }
    }),
  );
  return missing;
}
