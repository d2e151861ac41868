import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { SLOW_QUOTE_MS } from '../../src/reference-provider/variants.js';
import { ManualClock } from '../../src/util/manual-clock.js';
import { withProvider } from './fixture.js';
import { certificationQuoteBody, createAction, str } from './helpers.js';

/**
 * The reference provider's holds (slow-quotes, actions-held-past-expiry) are sleeps on its injected clock: a manual
 * clock moves past them when told, and busy() does not count a held request, so advanceWhenIdle moves past it too.
 */

/** Turns of the event loop until `done()` or a bound (a held request never answers by itself). */
async function turnsUntil(done: () => boolean, max = 2_000): Promise<void> {
  for (let i = 0; i < max && !done(); i++) await nextTurn();
}

describe('holds on the injected clock', () => {
  it('slow-quotes holds POST /quote until the clock has moved SLOW_QUOTE_MS, and is not busy meanwhile', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00.000Z'));
    await withProvider({ variant: 'slow-quotes', clock }, async ({ provider, call }) => {
      const body = await certificationQuoteBody(call);
      let answered = false;
      const quote = call('POST', '/quote', { body }).then((a) => {
        answered = true;
        return a;
      });
      await turnsUntil(() => clock.sleeping > 0);
      expect(clock.sleeping).toBe(1);
      expect(provider.busy()).toBe(false);
      await clock.advance(SLOW_QUOTE_MS - 1);
      await turnsUntil(() => answered, 50);
      expect(answered).toBe(false);
      await clock.advance(1);
      expect((await quote).status).toBe(200);
    });
  });

  it('advanceWhenIdle(busy) moves past a held request: a hold is a wait, not work', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00.000Z'));
    await withProvider({ variant: 'slow-quotes', clock }, async ({ provider, call }) => {
      // Were the hold counted as busy, the clock would never move and the quote would never be answered.
      const stop = clock.advanceWhenIdle(() => provider.busy());
      try {
        const started = clock.now();
        const answer = await call('POST', '/quote', { body: await certificationQuoteBody(call) });
        expect(answer.status).toBe(200);
        expect(clock.now() - started).toBeGreaterThanOrEqual(SLOW_QUOTE_MS);
      } finally {
        stop();
      }
    });
  });

  it('actions-held-past-expiry answers QUOTE_EXPIRED only once the clock is past the quote expiry', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00.000Z'));
    await withProvider(
      { faults: ['actions-held-past-expiry'], quoteTtlSeconds: 5, clock },
      async ({ provider, call }) => {
        const stop = clock.advanceWhenIdle(() => provider.busy());
        try {
          const sentAt = clock.now();
          const { quote, action } = await createAction(call);
          const expiresAt = Date.parse(str(quote, 'expiresAt'));
          expect(sentAt).toBeLessThan(expiresAt);
          expect(clock.now()).toBeGreaterThanOrEqual(expiresAt);
          expect(str(action.json, 'code')).toBe('QUOTE_EXPIRED');
        } finally {
          stop();
        }
      },
    );
  });
});
