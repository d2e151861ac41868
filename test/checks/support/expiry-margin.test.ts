import { describe, expect, it } from 'vitest';
import {
  EXPIRY_MARGIN_MS,
  expiredFrom,
  expiryMarginMs,
  HELD_MARGIN_MS,
  LOOPBACK_EXPIRY_MARGIN_MS,
  leftWellBefore,
  tooLongRemedy,
  waitPastExpiry,
} from '../../../src/checks/support/expiry-margin.js';
import { ManualClock } from '../../../src/util/manual-clock.js';

/** The one expiry-margin rule, without a server: the run's clock is a ManualClock moved by hand. */

const START = Date.parse('2026-01-01T00:00:00.000Z');
const REMOTE = 'https://provider.example';
const LOOPBACK = 'http://127.0.0.1:8080';
const spell = (key: string, value: unknown): string => `--${key} ${String(value)}`;

describe('the expiry margin', () => {
  it.each([
    [REMOTE, EXPIRY_MARGIN_MS],
    ['https://10.0.0.7', EXPIRY_MARGIN_MS],
    [LOOPBACK, LOOPBACK_EXPIRY_MARGIN_MS],
    ['http://localhost:3000', LOOPBACK_EXPIRY_MARGIN_MS],
    ['http://[::1]:3000', LOOPBACK_EXPIRY_MARGIN_MS],
  ])('for %s is %i ms past expiresAt', (baseUrl, margin) => {
    expect(expiryMarginMs(baseUrl)).toBe(margin);
    expect(expiredFrom(START, baseUrl)).toBe(START + margin);
  });

  it('keeps the remote margin above the loopback one (clock differences only exist between machines)', () => {
    expect(EXPIRY_MARGIN_MS).toBeGreaterThan(LOOPBACK_EXPIRY_MARGIN_MS);
  });

  it.each([
    [HELD_MARGIN_MS + 1, true],
    [HELD_MARGIN_MS, true],
    [HELD_MARGIN_MS - 1, false],
    [0, false],
    [-500, false],
  ])('a request that left %i ms before expiresAt left well before it: %s', (before, well) => {
    expect(leftWellBefore(START - before, START)).toBe(well);
  });
});

describe('waitPastExpiry', () => {
  const context = (
    clock: ManualClock,
    over: { baseUrl?: string; maxExpiryWait?: number; signal?: AbortSignal } = {},
  ) => ({
    clock,
    signal: over.signal ?? new AbortController().signal,
    config: { baseUrl: over.baseUrl ?? REMOTE, maxExpiryWait: over.maxExpiryWait ?? 120 },
  });

  it('returns only once the clock passed expiresAt by the margin', async () => {
    const clock = new ManualClock(START);
    const expiresAt = new Date(START + 5_000).toISOString();
    let done = false;
    const waiting = waitPastExpiry(context(clock), expiresAt, 'waiting').then((w) => {
      done = true;
      return w;
    });
    await clock.advance(5_000 + EXPIRY_MARGIN_MS - 1);
    expect(done).toBe(false);
    await clock.advance(1);
    expect(await waiting).toEqual({ kind: 'expired', expiresAtMs: START + 5_000 });
    expect(clock.now()).toBe(START + 5_000 + EXPIRY_MARGIN_MS);
  });

  it('waits only the loopback margin for a provider on this machine', async () => {
    const clock = new ManualClock(START);
    const waiting = waitPastExpiry(context(clock, { baseUrl: LOOPBACK }), new Date(START + 1_000).toISOString(), 'w');
    await clock.advance(1_000 + LOOPBACK_EXPIRY_MARGIN_MS);
    expect((await waiting).kind).toBe('expired');
  });

  it('does not sleep for a quote already past its expiry and margin', async () => {
    const clock = new ManualClock(START);
    const wait = await waitPastExpiry(context(clock), new Date(START - 1_000).toISOString(), 'w');
    expect(wait).toEqual({ kind: 'expired', expiresAtMs: START - 1_000 });
    expect(clock.sleeping).toBe(0);
  });

  it('refuses to wait past the run maxExpiryWait, saying how long the quote lives', async () => {
    const clock = new ManualClock(START);
    const wait = await waitPastExpiry(
      context(clock, { maxExpiryWait: 60 }),
      new Date(START + 900_000).toISOString(),
      'w',
    );
    expect(wait).toEqual({ kind: 'too-long', waitS: 900 });
    expect(clock.sleeping).toBe(0);
    expect(tooLongRemedy(spell, 900)).toMatch(/^rerun with --maxExpiryWait 910, or give quotes a shorter validity/);
  });

  it('reports an unreadable expiresAt without waiting', async () => {
    const clock = new ManualClock(START);
    expect(await waitPastExpiry(context(clock), 'tomorrow', 'w')).toEqual({ kind: 'unreadable' });
  });

  it('ends when the run is stopped', async () => {
    const clock = new ManualClock(START);
    const stop = new AbortController();
    const waiting = waitPastExpiry(context(clock, { signal: stop.signal }), new Date(START + 5_000).toISOString(), 'w');
    stop.abort();
    expect(await waiting).toEqual({ kind: 'stopped' });
  });
});
