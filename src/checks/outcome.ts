import type { Exchange, HttpOutcome } from '../http/types.js';
import type { CheckOutcome, QuoteMathRow, WebhookTimelineEntry } from './types.js';

/**
 * Collects what a check finds. The first problem becomes the message; the rest become details,
 * so a person sees every problem of one payload at once rather than one per run.
 */
export class Findings {
  private readonly problems: string[] = [];
  private readonly warningList: string[] = [];
  private readonly exchanges: Exchange[] = [];
  expected?: unknown;
  actual?: unknown;
  reproduce?: string;
  quoteMath?: QuoteMathRow[];
  webhookTimeline?: WebhookTimelineEntry[];

  /** Record a problem; returns false so `return f.problem(...)`-style guards read naturally. */
  problem(text: string): false {
    this.problems.push(text);
    return false;
  }

  warn(text: string): void {
    this.warningList.push(text);
  }

  /** Keep the exchange as evidence (already redacted by the client). */
  evidence(outcome: HttpOutcome | Exchange): void {
    this.exchanges.push('exchange' in outcome ? outcome.exchange : outcome);
  }

  get failed(): boolean {
    return this.problems.length > 0;
  }

  /** pass with `passMessage` when nothing was found, else fail with the problems. */
  outcome(passMessage: string): CheckOutcome {
    const [first, ...rest] = this.problems;
    const base: CheckOutcome = {
      status: first === undefined ? 'pass' : 'fail',
      message: first ?? passMessage,
      evidence: this.exchanges,
    };
    if (rest.length > 0) base.details = rest;
    if (this.warningList.length > 0) base.warnings = this.warningList;
    if (first !== undefined) {
      if (this.expected !== undefined) base.expected = this.expected;
      if (this.actual !== undefined) base.actual = this.actual;
      if (this.reproduce !== undefined) base.reproduce = this.reproduce;
    }
    if (this.quoteMath) base.quoteMath = this.quoteMath;
    if (this.webhookTimeline) base.webhookTimeline = this.webhookTimeline;
    return base;
  }
}

export const skip = (message: string): CheckOutcome => ({ status: 'skip', message, evidence: [] });
