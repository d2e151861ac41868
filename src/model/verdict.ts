import type { CheckId, CheckStatus } from './check-ids.js';
import type { WaiverOutcome } from './waivers.js';

/**
 * What a run really reached (docs/decisions.md, Verdicts). Written once here; every reporter, `report`,
 * `replay`, `merge-reports`, the fleet, the library and `serve` read it and never derive their own.
 * - PASS: every check of the provider's full profile ran, none failed unwaived, every waiver applied;
 * - FAIL: a check failed or errored without a waiver, a waiver did not apply, or nothing passed;
 * - INTERRUPTED: the run was stopped before it ended (no verdict on what did not run);
 * - INCOMPLETE: nothing failed, but a check could not test its rule within the run's limits (status `untested`:
 *   a quote outlives the expiry wait, exploration reached fewer than its minimum of orders, provcert's own delay
 *   expired every quote); no finding against the provider, and never a pass (exit 1);
 * - PARTIAL: every check that ran passed, but `--only`/`--skip` left checks of the profile out.
 */
export type RunVerdict = 'PASS' | 'FAIL' | 'INTERRUPTED' | 'INCOMPLETE' | 'PARTIAL';

/** Every run verdict, for schemas and tables that list them. */
export const RUN_VERDICTS: readonly RunVerdict[] = ['PASS', 'FAIL', 'INTERRUPTED', 'INCOMPLETE', 'PARTIAL'];

/** A check of the provider's profile that the run's own selection (`--only`/`--skip`) left out. */
export interface LeftOutCheck {
  id: CheckId;
  /** e.g. "left out by the skip list", "not in the only list". */
  reason: string;
}

/** What the verdict is derived from; a stored report carries each of these, so a reader derives it again. */
export interface VerdictInputs {
  checks: readonly { status: CheckStatus; waiver?: unknown }[];
  /** Set when a signal stopped the run ("SIGINT", "SIGTERM", "aborted"). */
  interruptedBy?: string | undefined;
  /** Checks of the profile the selection left out; empty or absent for a full run. */
  leftOut?: readonly LeftOutCheck[] | undefined;
  /** What became of each expectedFailures entry; absent when none was given. */
  waivers?: readonly Pick<WaiverOutcome, 'state'>[] | undefined;
}

const isFailure = (status: CheckStatus): boolean => status === 'fail' || status === 'error';

export function deriveRunVerdict(inputs: VerdictInputs): RunVerdict {
  if (inputs.interruptedBy !== undefined) return 'INTERRUPTED';
  const unwaived = inputs.checks.some((c) => isFailure(c.status) && c.waiver === undefined);
  const passed = inputs.checks.some((c) => c.status === 'pass');
  const waiversHeld = (inputs.waivers ?? []).every((w) => w.state === 'applied');
  if (unwaived || !waiversHeld) return 'FAIL';
  // Not tested is never a pass, and no failure either: checked before "nothing passed", which it would read as FAIL.
  if (inputs.checks.some((c) => c.status === 'untested')) return 'INCOMPLETE';
  if (!passed) return 'FAIL';
  return (inputs.leftOut?.length ?? 0) > 0 ? 'PARTIAL' : 'PASS';
}

/** A verdict a gate may let through: PASS, or PARTIAL (every check that ran passed). Never INCOMPLETE. */
export const gatePasses = (verdict: RunVerdict): boolean => verdict === 'PASS' || verdict === 'PARTIAL';

/** Summary counts: a waived failure counts as waived, never as failed. */
export interface CheckCounts extends Record<CheckStatus, number> {
  waived: number;
}

export function countChecks(checks: readonly { status: CheckStatus; waiver?: unknown }[]): CheckCounts {
  const counts: CheckCounts = { pass: 0, fail: 0, skip: 0, error: 0, untested: 0, waived: 0 };
  for (const c of checks) {
    if (isFailure(c.status) && c.waiver !== undefined) counts.waived++;
    else counts[c.status]++;
  }
  return counts;
}

/** A fleet provider's verdict: its run's, or NOT_RUN when the batch stopped first or its shard was not merged. */
export type FleetProviderVerdict = RunVerdict | 'NOT_RUN';

/**
 * The fleet's verdict from its providers' (batch and merge-reports alike): INTERRUPTED when a signal stopped it;
 * FAIL when a provider failed, was not run or was stopped, a waiver did not apply, or there is no provider; INCOMPLETE
 * when none failed but one is INCOMPLETE (a rule not tested); PARTIAL when every provider passed but one ran a
 * narrowed selection; else PASS.
 */
export function deriveFleetVerdict(inputs: {
  providers: readonly FleetProviderVerdict[];
  waivers: readonly Pick<WaiverOutcome, 'state'>[];
  interruptedBy?: string | undefined;
}): RunVerdict {
  if (inputs.interruptedBy !== undefined) return 'INTERRUPTED';
  const held = inputs.waivers.every((w) => w.state === 'applied');
  const judged = inputs.providers.filter((v) => v !== 'INCOMPLETE');
  if (!held || inputs.providers.length === 0 || !judged.every((v) => gatePasses(v as RunVerdict))) return 'FAIL';
  if (judged.length < inputs.providers.length) return 'INCOMPLETE';
  return inputs.providers.includes('PARTIAL') ? 'PARTIAL' : 'PASS';
}
