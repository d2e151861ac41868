import type { CheckId } from './check-ids.js';
import type { RequirementId } from './findings.js';

/**
 * One entry of `expectedFailures` in a config or fleet file: a known failure the gate lives with until a date.
 * `until` is a calendar date (YYYY-MM-DD, UTC); the waiver holds through that whole day.
 */
export interface ExpectedFailure {
  /** The check whose failure is expected; absent: every check whose failure cites `requirement` (then set). */
  check?: CheckId;
  /** Only failures citing this requirement are waived; absent: any failure of the check. */
  requirement?: RequirementId;
  /** Only this provider (fleets); absent: every provider. */
  provider?: string;
  reason: string;
  until: string;
}

/**
 * What became of a waiver in a run. Only `applied` keeps the gate green; the others fail it and say why:
 * - applied: it waived at least one failure;
 * - stale: its check ran and passed (requirement alone: every check citing it that ran passed; remove the waiver);
 * - unmatched: no check that ran failed the way it describes (wrong check, requirement or provider);
 * - expired: its date has passed (its failures count again).
 */
export type WaiverState = 'applied' | 'stale' | 'unmatched' | 'expired';

export interface WaiverOutcome extends ExpectedFailure {
  state: WaiverState;
  /** One line a person can act on, e.g. "quote-math passed on north-kitchen: remove this waiver". */
  message: string;
}

/** Set on a failed or errored check result a waiver covers: it no longer fails the gate. */
export interface AppliedWaiver {
  reason: string;
  until: string;
}

/** How an applied waiver's outcome message starts its warning: ` (warning: 9999-12-31 is more than …)`. */
export const WAIVER_WARNING = ' (warning: ';

/** How far ahead a waiver's `until` may lie before its outcome warns: a waiver is a dated debt, not a silence. */
export const MAX_WAIVER_DAYS = 365;

/**
 * The warning for a waiver whose `until` lies more than MAX_WAIVER_DAYS after `today` (YYYY-MM-DD, UTC), or
 * undefined. One text for every place that shows it: the waiver's outcome, the console, strict mode's refusal.
 */
export function distantWaiverWarning(until: string, today: string): string | undefined {
  const limit = new Date(Date.parse(`${today}T00:00:00Z`) + MAX_WAIVER_DAYS * 86_400_000).toISOString().slice(0, 10);
  return until > limit
    ? `${until} is more than ${MAX_WAIVER_DAYS} days away; set the date the fix is due and review it then`
    : undefined;
}

/** What a waiver names in a message: its check, else its requirement (an entry has at least one). */
export const waiverSubject = (waiver: Pick<ExpectedFailure, 'check' | 'requirement'>): string =>
  waiver.check ?? waiver.requirement ?? 'a check';
