import type { CheckResult, RunReport } from '../model/report.js';
import type { ExpectedFailure, WaiverOutcome } from '../model/waivers.js';

/** What the reporters share about expected failures (the waivers a run judged: RunReport.waivers). */

/** "quote-math", "quote-math [QUOTE-TOTAL-FORMULA]", "quote-math on north-kitchen": what an entry names. */
export function waiverLabel(waiver: ExpectedFailure): string {
  // A requirement alone (any check citing it) reads as "[WEBHOOK-SIGNATURE]".
  const requirement = waiver.requirement ? `${waiver.check ? ' ' : ''}[${waiver.requirement}]` : '';
  return `${waiver.check ?? ''}${requirement}${waiver.provider ? ` on ${waiver.provider}` : ''}`;
}

const isProblem = (check: CheckResult): boolean => check.status === 'fail' || check.status === 'error';

/** Whether an outcome names this check: its check, or (a requirement alone) a failure of the check citing it. */
export const outcomeNamesCheck = (outcome: ExpectedFailure, check: CheckResult): boolean =>
  outcome.check !== undefined
    ? outcome.check === check.id
    : check.findings.some((f) => f.severity === 'fail' && f.requirement === outcome.requirement);

/** A failed or errored check a waiver covers: shown as waived, it does not fail the run. */
export const isWaived = (check: CheckResult): boolean => isProblem(check) && check.waiver !== undefined;

/** A failed or errored check no waiver covers: the ones that fail the run. */
export const isUnwaivedProblem = (check: CheckResult): boolean => isProblem(check) && check.waiver === undefined;

/** Failed or errored checks a waiver covers. */
export const waivedChecks = (report: Pick<RunReport, 'checks'>): CheckResult[] => report.checks.filter(isWaived);

/** The waivers that fail the gate: stale, unmatched and expired ones. */
export const failingWaivers = (report: Pick<RunReport, 'waivers'>): WaiverOutcome[] =>
  (report.waivers ?? []).filter((w) => w.state !== 'applied');

/** "waived until 2026-06-30: fee rounding fix ships in 2.4" */
export const waivedText = (waiver: { reason: string; until: string }): string =>
  `waived until ${waiver.until}: ${waiver.reason}`;

/** "stale: quote-math passed on demo-pizza: remove this waiver" */
export const outcomeText = (outcome: WaiverOutcome): string => `${outcome.state}: ${outcome.message}`;
