import type { HttpOutcome } from '../http/types.js';
import type { Exchange } from '../model/exchange.js';
import type { FindingExcerpt, RecordedFinding, RequirementId } from '../model/findings.js';
import type { CheckOutcome, QuoteMathRow, UntestedRule, WebhookTimelineEntry } from '../model/report.js';

/** "QUOTE-MIN-VALIDITY not tested: <reason>; to test it: <remedy>" (the message of an untested check). */
export const untestedText = (u: UntestedRule): string =>
  `${u.requirement} not tested: ${u.reason}; to test it: ${u.remedy}`;

/**
 * Collects what a check finds. The first problem becomes the message; the rest become details,
 * so a person sees every problem of one payload at once rather than one per run.
 */
export class Findings {
  private readonly recorded: RecordedFinding[] = [];
  private readonly exchanges: Exchange[] = [];
  /** What happened on the way that is no finding (provcert re-quoted after its own delay); shown with the result. */
  private readonly notes: string[] = [];
  /** Rules provcert could not test within the run's limits: no finding, but never a pass. */
  private readonly notTested: UntestedRule[] = [];
  expected?: unknown;
  actual?: unknown;
  reproduce?: string;
  quoteMath?: QuoteMathRow[];
  webhookTimeline?: WebhookTimelineEntry[];

  /**
   * Record a problem; returns false so `return f.problem(...)`-style guards read naturally. Without a
   * requirement, the problem stands on the check's primary requirement.
   */
  problem(text: string, requirement?: RequirementId, excerpt?: FindingExcerpt): false {
    this.recorded.push({
      severity: 'fail',
      message: text,
      ...(requirement ? { requirement } : {}),
      ...(excerpt ? { excerpt } : {}),
    });
    return false;
  }

  warn(text: string, requirement?: RequirementId): void {
    this.recorded.push({ severity: 'warn', message: text, ...(requirement ? { requirement } : {}) });
  }

  /**
   * Record a rule that could not be tested within the run's limits for a reason that is no contract violation (a
   * wait or budget the run allows, provcert's own delay): the check ends `untested` unless a problem fails it.
   */
  untested(rule: UntestedRule): void {
    this.notTested.push(rule);
  }

  /** Record what an operator should see happened, without it counting as a problem or a warning. */
  note(text: string): void {
    this.notes.push(text);
  }

  private texts(severity: RecordedFinding['severity']): string[] {
    return this.recorded.filter((r) => r.severity === severity).map((r) => r.message);
  }

  /** Keep the exchange as evidence (already redacted by the client). */
  evidence(outcome: HttpOutcome | Exchange): void {
    this.exchanges.push('exchange' in outcome ? outcome.exchange : outcome);
  }

  get failed(): boolean {
    return this.recorded.some((r) => r.severity === 'fail');
  }

  /** pass with `passMessage` when nothing was found, else fail with the problems. */
  outcome(passMessage: string): CheckOutcome {
    const [first, ...rest] = this.texts('fail');
    const warnings = this.texts('warn');
    const notes = this.notes.join('; ');
    const tested = notes && passMessage ? `${passMessage} (${notes})` : passMessage || notes;
    const [untested, ...moreUntested] = this.notTested.map(untestedText);
    const base: CheckOutcome = {
      status: first !== undefined ? 'fail' : untested !== undefined ? 'untested' : 'pass',
      message: first ?? untested ?? tested,
      evidence: this.exchanges,
      findings: this.recorded,
    };
    // What was tested stays beside what was not; a failure keeps the untested rules in its details.
    const details =
      first !== undefined
        ? [...rest, ...(notes ? [notes] : []), ...this.notTested.map(untestedText)]
        : untested !== undefined
          ? [...moreUntested, ...(tested ? [`tested: ${tested}`] : [])]
          : rest;
    if (this.notTested.length > 0) base.untested = [...this.notTested];
    if (details.length > 0) base.details = details;
    if (warnings.length > 0) base.warnings = warnings;
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
