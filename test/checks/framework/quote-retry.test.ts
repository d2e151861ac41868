import { describe, expect, it } from 'vitest';
import {
  decideExpiry,
  MAX_REQUOTES,
  sendWithFreshQuote,
  type TimedSend,
} from '../../../src/checks/framework/quote-retry.js';
import { ProvcertTooSlowError } from '../../../src/checks/framework/resources.js';
import type { QuoteView } from '../../../src/checks/framework/views.js';
import type { HttpOutcome } from '../../../src/http/types.js';
import type { Exchange } from '../../../src/model/exchange.js';

const exchange: Exchange = { request: { method: 'POST', url: 'http://p/actions', headers: {} }, durationMs: 1 };
const answer = (status: number, json: unknown): HttpOutcome => ({
  kind: 'response',
  status,
  headers: {},
  contentType: 'application/json',
  text: JSON.stringify(json),
  bodyKind: 'json',
  json,
  durationMs: 1,
  exchange,
});
const expired = answer(422, { code: 'QUOTE_EXPIRED', message: 'quote expired' });
/** The same answer, its request's last byte having left provcert `sentMs` after it started. */
const leftAfter = (outcome: HttpOutcome, sentMs: number): HttpOutcome => ({
  ...outcome,
  exchange: { ...outcome.exchange, sentMs },
});
const created = answer(200, { id: 'a1', publicId: 'A-1' });

const EXPIRES = '2026-11-26T12:00:05.000Z';
const EXPIRES_MS = Date.parse(EXPIRES);
const send = (outcome: HttpOutcome, sentAt: number, answeredAt = sentAt + 20): TimedSend => ({
  outcome,
  sentAt,
  answeredAt,
});

describe('decideExpiry: whether a QUOTE_EXPIRED is provcert’s own delay', () => {
  const cases: { name: string; expiresAt: unknown; send: TimedSend; kind: 'judge' | 'requote' }[] = [
    {
      name: 'sent and answered before expiresAt',
      expiresAt: EXPIRES,
      send: send(expired, EXPIRES_MS - 3000),
      kind: 'judge',
    },
    { name: 'sent exactly at expiresAt', expiresAt: EXPIRES, send: send(expired, EXPIRES_MS), kind: 'requote' },
    { name: 'sent after expiresAt', expiresAt: EXPIRES, send: send(expired, EXPIRES_MS + 400), kind: 'requote' },
    {
      name: 'sent before but answered after expiresAt (held in flight)',
      expiresAt: EXPIRES,
      send: send(expired, EXPIRES_MS - 100, EXPIRES_MS + 900),
      kind: 'requote',
    },
    {
      name: 'answered 1 ms before expiresAt',
      expiresAt: EXPIRES,
      send: send(expired, EXPIRES_MS - 50, EXPIRES_MS - 1),
      kind: 'judge',
    },
    {
      name: 'another code, sent late',
      expiresAt: EXPIRES,
      send: send(answer(422, { code: 'VALIDATION_ERROR', message: 'x' }), EXPIRES_MS + 400),
      kind: 'judge',
    },
    // The contract leaves QUOTE_EXPIRED's status open: every non-2xx status is the same answer (item 5).
    ...[400, 409, 410, 422, 500].map((status) => ({
      name: `QUOTE_EXPIRED with HTTP ${status}, sent late`,
      expiresAt: EXPIRES,
      send: send(answer(status, { code: 'QUOTE_EXPIRED', message: 'x' }), EXPIRES_MS + 400),
      kind: 'requote' as const,
    })),
    {
      name: 'QUOTE_EXPIRED code in a 2xx answer',
      expiresAt: EXPIRES,
      send: send(answer(200, { code: 'QUOTE_EXPIRED', message: 'x' }), EXPIRES_MS + 400),
      kind: 'judge',
    },
    // Item 6: what was measured. The last byte left well before expiresAt, the answer came after: the provider held it.
    {
      name: 'last byte left 3 s before expiresAt, answered after it (held by the provider)',
      expiresAt: EXPIRES,
      send: send(leftAfter(expired, 5), EXPIRES_MS - 3000, EXPIRES_MS + 200),
      kind: 'judge',
    },
    {
      name: 'last byte left 0.5 s before expiresAt, answered after it (transit and clocks may explain it)',
      expiresAt: EXPIRES,
      send: send(leftAfter(expired, 5), EXPIRES_MS - 500, EXPIRES_MS + 200),
      kind: 'requote',
    },
    {
      name: 'sent 3 s before expiresAt, but its last byte left only after it (provcert was slow)',
      expiresAt: EXPIRES,
      send: send(leftAfter(expired, 3100), EXPIRES_MS - 3000, EXPIRES_MS + 200),
      kind: 'requote',
    },
    { name: 'an accepted action, sent late', expiresAt: EXPIRES, send: send(created, EXPIRES_MS + 400), kind: 'judge' },
    {
      name: 'a transport failure',
      expiresAt: EXPIRES,
      send: send(
        { kind: 'failure', failure: 'timeout', message: 'timed out', durationMs: 1, exchange },
        EXPIRES_MS + 400,
      ),
      kind: 'judge',
    },
    { name: 'an unparseable expiresAt', expiresAt: 'soon', send: send(expired, EXPIRES_MS + 400), kind: 'judge' },
    { name: 'a missing expiresAt', expiresAt: undefined, send: send(expired, EXPIRES_MS + 400), kind: 'judge' },
    { name: 'a numeric expiresAt', expiresAt: EXPIRES_MS, send: send(expired, EXPIRES_MS + 400), kind: 'judge' },
  ];
  for (const c of cases)
    it(`${c.name}: ${c.kind}`, () => {
      expect(decideExpiry(c.expiresAt, c.send).kind).toBe(c.kind);
    });

  it('says how the provider held a request it answered QUOTE_EXPIRED after expiresAt', () => {
    expect(decideExpiry(EXPIRES, send(leftAfter(expired, 5), EXPIRES_MS - 3000, EXPIRES_MS + 200))).toEqual({
      kind: 'judge',
      early:
        "left provcert 3.0 s before the quote's expiresAt (its last byte, measured), and the provider held it and answered QUOTE_EXPIRED 0.2 s after it",
    });
  });

  it('says how late the send and the answer were', () => {
    expect(decideExpiry(EXPIRES, send(expired, EXPIRES_MS + 400, EXPIRES_MS + 450))).toEqual({
      kind: 'requote',
      expiresAtMs: EXPIRES_MS,
      sentAfterMs: 400,
      answeredAfterMs: 450,
    });
  });
});

describe('sendWithFreshQuote', () => {
  /** A clock that the sends move: each send takes `sendMs[attempt]` of it. */
  function run(sendMs: number[], answers: HttpOutcome[]) {
    let now = EXPIRES_MS - 5000;
    const quotes: string[] = [];
    const quote = (n: number): QuoteView => {
      quotes.push(`q${n}`);
      return { id: `q${n}`, expiresAt: new Date(now + 5000).toISOString() } as QuoteView;
    };
    const keys: number[] = [];
    const promise = sendWithFreshQuote({
      clock: { now: () => now },
      first: { quote: quote(0), answeredAt: now },
      requote: async () => ({ quote: quote(quotes.length), answeredAt: now }),
      send: async (_q, attempt) => {
        keys.push(attempt);
        now += sendMs[attempt] ?? 0;
        return answers[attempt] ?? created;
      },
      outcomes: (o) => [o],
    });
    return { promise, quotes, keys };
  }

  it('sends once when the action is created', async () => {
    const { promise, quotes } = run([10], [created]);
    const sent = await promise;
    expect(sent.attempt).toBe(0);
    expect(sent.late).toEqual([]);
    expect(quotes).toEqual(['q0']);
  });

  it('re-quotes once when the first action reached the provider after the quote expired', async () => {
    const { promise, quotes, keys } = run([5400, 10], [expired, created]);
    const sent = await promise;
    expect(sent.attempt).toBe(1);
    expect(sent.quote.id).toBe('q1');
    expect(quotes).toEqual(['q0', 'q1']);
    expect(keys).toEqual([0, 1]);
    expect(sent.late).toHaveLength(1);
    expect(sent.late[0]).toMatch(/the answer to the first action .* came back 0\.4 s after it/);
    expect(sent.expired).toEqual([expired]);
  });

  it('keeps the answer to judge when the provider expired the quote before expiresAt', async () => {
    const { promise, quotes } = run([10], [expired]);
    const sent = await promise;
    expect(sent.attempt).toBe(0);
    expect(sent.result).toBe(expired);
    expect(quotes).toEqual(['q0']);
  });

  it(`gives up after ${MAX_REQUOTES} re-quotes, naming provcert's slowness`, async () => {
    const { promise, quotes } = run([6000, 6000, 6000, 6000], [expired, expired, expired, expired]);
    const error = await promise.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProvcertTooSlowError);
    expect(quotes).toHaveLength(MAX_REQUOTES + 1);
    expect((error as Error).message).toMatch(
      /provcert took longer than the quote's validity \(5\.0 s\) between the quote and POST \/actions on all 3 attempts/,
    );
    expect((error as Error).message).toMatch(/QUOTE-MIN-VALIDITY/);
    expect((error as Error).message).toMatch(/the machine may be overloaded/);
  });
});
