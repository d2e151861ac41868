import type { HttpOutcome } from '../../http/types.js';
import { leftWellBefore } from '../support/expiry-margin.js';
import { isQuoteExpired } from '../support/quote-expired.js';
import { ProvcertTooSlowError } from './resources.js';
import type { Clock } from './types.js';
import type { QuoteView } from './views.js';

/**
 * provcert's own slowness must not be blamed on a provider. A quote may last as little as 5 s (QUOTE-MIN-VALIDITY);
 * on a loaded machine more than that can pass between the quote and POST /actions, and the provider then rightly
 * answers QUOTE_EXPIRED. Every place that sends an action it expects to be accepted goes through here.
 */

/** Re-quotes after the first attempt, at most: three quotes in all, so the run's wait stays bounded. */
export const MAX_REQUOTES = 2;

/** One POST /actions as provcert's clock saw it (epoch ms). */
export interface TimedSend {
  outcome: HttpOutcome;
  /** When provcert handed the request to its client. */
  sentAt: number;
  /** When the answer arrived. */
  answeredAt: number;
}

export type ExpiryDecision =
  /**
   * Judge the answer as it is (accepted, another refusal, or a quote expired while it was still valid); `early` says
   * how a QUOTE_EXPIRED came while the quote was valid, for the provider's QUOTE-MIN-VALIDITY finding.
   */
  | { kind: 'judge'; early?: string }
  /** The quote expired by provcert's clock before the answer came back: provcert's delay, not the provider's rule. */
  | { kind: 'requote'; expiresAtMs: number; sentAfterMs: number; answeredAfterMs: number };

/**
 * Whether a QUOTE_EXPIRED answer may be provcert's own doing. The provider may only be blamed when its answer
 * arrived before `expiresAt`: it then judged a valid quote expired. Once provcert's clock reached `expiresAt`
 * before the answer came back, the request may have reached the provider after the expiry (sent late, or held
 * in a loaded machine's queues while in flight), so the quote is taken again. An expiresAt provcert cannot read
 * gives no ground for a retry.
 */
export function decideExpiry(expiresAt: unknown, send: TimedSend): ExpiryDecision {
  const { outcome } = send;
  if (!isQuoteExpired(outcome)) return { kind: 'judge' };
  const expiresAtMs = typeof expiresAt === 'string' ? Date.parse(expiresAt) : Number.NaN;
  if (!Number.isFinite(expiresAtMs)) return { kind: 'judge' };
  if (send.answeredAt < expiresAtMs)
    return {
      kind: 'judge',
      early: `was answered QUOTE_EXPIRED ${seconds(expiresAtMs - send.answeredAt)} before the quote's expiresAt`,
    };
  // Measured, not assumed: when the last byte left well before the expiry, the provider held the request past it.
  const sentMs = outcome.exchange.sentMs;
  const leftAt = sentMs === undefined ? undefined : send.sentAt + sentMs;
  if (leftAt !== undefined && leftWellBefore(leftAt, expiresAtMs))
    return {
      kind: 'judge',
      early: `left provcert ${seconds(expiresAtMs - leftAt)} before the quote's expiresAt (its last byte, measured), and the provider held it and answered QUOTE_EXPIRED ${seconds(send.answeredAt - expiresAtMs)} after it`,
    };
  return {
    kind: 'requote',
    expiresAtMs,
    sentAfterMs: send.sentAt - expiresAtMs,
    answeredAfterMs: send.answeredAt - expiresAtMs,
  };
}

const seconds = (ms: number): string => `${(Math.abs(ms) / 1000).toFixed(1)} s`;
const ORDINALS = ['first', 'second', 'third'];
const TIMES = ['once', 'twice'];

/** "provcert sent the first action 0.4 s after the quote expired", or the in-flight case. */
export function describeLateSend(attempt: number, d: Extract<ExpiryDecision, { kind: 'requote' }>): string {
  const which = `the ${ORDINALS[attempt] ?? `${attempt + 1}th`} action`;
  return d.sentAfterMs >= 0
    ? `provcert sent ${which} ${seconds(d.sentAfterMs)} after the quote expired`
    : `the answer to ${which} (sent ${seconds(d.sentAfterMs)} before the quote expired) came back ${seconds(d.answeredAfterMs)} after it, so the request may have reached the provider late`;
}

/** What the re-quotes were, for a check's message; undefined when none happened. */
export function requoteNote(late: readonly string[]): string | undefined {
  if (late.length === 0) return undefined;
  return `re-quoted ${TIMES[late.length - 1] ?? `${late.length} times`} because the quote expired before provcert's action reached the provider: ${late.join('; ')}`;
}

/** The re-quotes of an attempt, as a check keeps them (note and evidence); undefined when none happened. */
export function requoteEvidence(
  sent: Pick<QuotedAttempt<unknown>, 'late' | 'expired'>,
): { note: string; evidence: readonly HttpOutcome[] } | undefined {
  const note = requoteNote(sent.late);
  return note ? { note, evidence: sent.expired } : undefined;
}

export interface QuotedAttempt<T> {
  result: T;
  /**
   * Set when the (last) attempt was answered QUOTE_EXPIRED while its quote was valid as provcert measured it: how
   * ("was answered QUOTE_EXPIRED 1.2 s before …", "left provcert 3.0 s before …, held …"). The provider's finding
   * (QUOTE-MIN-VALIDITY), never a re-quote.
   */
  early?: string;
  quote: QuoteView;
  /** 0 for the first quote, 1 and 2 for the re-quotes. */
  attempt: number;
  /** One line per re-quote (empty when none happened). */
  late: string[];
  /** The QUOTE_EXPIRED answers that caused the re-quotes, for evidence. */
  expired: HttpOutcome[];
}

export interface QuotedSend<T> {
  clock: Pick<Clock, 'now'>;
  /** The first quote, with the time its answer arrived. */
  first: { quote: QuoteView; answeredAt: number };
  /** A fresh quote (throws as the caller's quote source does when none can be had). */
  requote: () => Promise<{ quote: QuoteView; answeredAt: number }>;
  /** Send with this quote; `attempt` makes the idempotency key fresh on each re-quote. */
  send: (quote: QuoteView, attempt: number) => Promise<T>;
  /** The POST /actions answers in a result; a re-quote happens only when every one of them expired late. */
  outcomes: (result: T) => readonly HttpOutcome[];
}

/**
 * Sends with the quote and, while every answer is a QUOTE_EXPIRED that provcert's own delay explains, takes a
 * fresh quote and sends again (at most MAX_REQUOTES times). When even the last attempt expired that way, throws
 * ProvcertTooSlowError: provcert could not judge the provider on this machine.
 */
export async function sendWithFreshQuote<T>(options: QuotedSend<T>): Promise<QuotedAttempt<T>> {
  const late: string[] = [];
  const expired: HttpOutcome[] = [];
  let { quote, answeredAt } = options.first;
  for (let attempt = 0; ; attempt++) {
    const sentAt = options.clock.now();
    const result = await options.send(quote, attempt);
    const sends = options.outcomes(result).map((outcome) => ({ outcome, sentAt, answeredAt: options.clock.now() }));
    const decisions = sends.map((s) => decideExpiry(quote.expiresAt, s));
    const lateOne = decisions.every((d) => d.kind === 'requote') ? decisions[0] : undefined;
    if (lateOne?.kind !== 'requote') {
      const early = decisions.find((d) => d.kind === 'judge' && d.early !== undefined);
      return {
        result,
        quote,
        attempt,
        late,
        expired,
        ...(early?.kind === 'judge' && early.early ? { early: early.early } : {}),
      };
    }
    late.push(describeLateSend(attempt, lateOne));
    // One expired answer per attempt is evidence enough (a race's duplicates all say the same).
    if (sends[0]) expired.push(sends[0].outcome);
    if (attempt >= MAX_REQUOTES) {
      const leftMs = lateOne.expiresAtMs - answeredAt;
      // A quote answer that reached provcert after its own expiresAt had no validity left to use.
      const validity = leftMs > 0 ? `${(leftMs / 1000).toFixed(1)} s` : 'already over when the quote reached provcert';
      throw new ProvcertTooSlowError(
        `provcert took longer than the quote's validity (${validity}) between the quote and POST /actions on all ${attempt + 1} attempts (${late.join('; ')}); the provider rightly answered QUOTE_EXPIRED (QUOTE-MIN-VALIDITY: a quote may last as little as 5 s), so nothing is judged (the machine may be overloaded)`,
        expired,
      );
    }
    ({ quote, answeredAt } = await options.requote());
  }
}
