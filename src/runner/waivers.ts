import { UsageError } from '../model/errors.js';
import type { CheckResult, RunReport, RunStartInfo } from '../model/report.js';
import type { RunEvents } from '../model/run-events.js';
import { countChecks, deriveRunVerdict } from '../model/verdict.js';
import {
  type AppliedWaiver,
  distantWaiverWarning,
  type ExpectedFailure,
  MAX_WAIVER_DAYS,
  WAIVER_WARNING,
  type WaiverOutcome,
  type WaiverState,
  waiverSubject,
} from '../model/waivers.js';

/**
 * Expected failures (`expectedFailures` in a config or fleet file) judged against finished runs.
 *
 * A waiver covers a check result when the result is that check (any check when it names a requirement alone),
 * failed or errored, (with `requirement`) some
 * failing finding cites that requirement, and (with `provider`) the run's provider slug is that provider.
 * The result is waived only when the waivers covering it account for every failing finding: a requirement
 * waiver never hides a new failure of another requirement in the same check.
 * `until` is a UTC calendar date valid through that whole day; `today` is the run's start date (UTC).
 * - expired (today > until): waives nothing, its failures count again, and it fails the gate;
 * - applied: it waived at least one failure (the only state that keeps the gate green);
 * - stale: it waived nothing but its check passed on a provider it covers (the failure is fixed); a requirement
 *   alone: every check citing it that ran passed;
 * - unmatched: anything else (check skipped or not run, requirement not cited, provider absent).
 * A waived result keeps its status and gets `waiver` (reason, until). A run passes when every failed or errored
 * check is waived, at least one check passed, and every waiver that concerns it is applied.
 */

/** One run to judge: its provider slug and its report (absent when it was not certified). */
export interface WaiverRun {
  slug: string;
  report?: RunReport;
}

export interface WaiverOptions {
  /**
   * A shard of a fleet: a waiver naming a provider outside it is left out, and so is a provider-less waiver
   * that waives nothing here (stale, unmatched, or expired without a failure); merge-reports judges those over
   * the whole fleet.
   */
  partial?: boolean;
}

/** YYYY-MM-DD of a moment, in UTC: the day waivers are judged on. */
export const utcDate = (date: Date): string => date.toISOString().slice(0, 10);

const isFailure = (r: CheckResult): boolean => r.status === 'fail' || r.status === 'error';

export { MAX_WAIVER_DAYS };

/** A warning appended to an applied waiver whose `until` lies more than MAX_WAIVER_DAYS after the run's day. */
export function distantNote(waiver: ExpectedFailure, today: string): string {
  const warning = distantWaiverWarning(waiver.until, today);
  return warning === undefined ? '' : `${WAIVER_WARNING}${warning})`;
}

/**
 * Strict mode refuses a waiver dated further out than MAX_WAIVER_DAYS (issue 32): strict promotes warnings to
 * failures, and a distant `until` is the waiver's warning. Refused before the run, in one line naming the entry, the
 * waivers that concern `slug` only (a fleet's entries for other providers are theirs).
 */
export function refuseDistantWaivers(waivers: readonly ExpectedFailure[], today: string, slug?: string): void {
  const distant = waivers.find(
    (w) => (slug === undefined || w.provider === undefined || w.provider === slug) && distantNote(w, today) !== '',
  );
  if (distant)
    throw new UsageError(
      `expectedFailures: the waiver of ${waiverSubject(distant)}${distant.provider ? ` on ${distant.provider}` : ''} runs until ${distant.until}, more than ${MAX_WAIVER_DAYS} days away; strict mode refuses it: set the date the fix is due`,
    );
}

/** Dates compare as text (YYYY-MM-DD); a waiver holds through its whole `until` day. */
export const isExpired = (waiver: ExpectedFailure, today: string): boolean => today > waiver.until;

const citesRequirement = (result: CheckResult, requirement: string): boolean =>
  result.findings.some((f) => f.severity === 'fail' && f.requirement === requirement);

/**
 * The checks other checks were skipped because of (a root cause, e.g. metadata when safeTestEnvironment is not
 * true, or a check its dependants needed): no waiver covers them, since a waiver never turns what a failure
 * stopped into a pass.
 */
export const rootCauses = (checks: readonly CheckResult[]): ReadonlySet<string> =>
  new Set(checks.flatMap((c) => (c.skippedBecauseOf ? [c.skippedBecauseOf] : [])));

/** Whether the waiver describes this result's failure (expiry aside); never a root cause's. */
export function waiverCovers(
  waiver: ExpectedFailure,
  result: CheckResult,
  slug: string | undefined,
  causes: ReadonlySet<string> = new Set(),
): boolean {
  if (waiver.check !== undefined && result.id !== waiver.check) return false;
  if (!isFailure(result) || causes.has(result.id)) return false;
  if (waiver.provider !== undefined && waiver.provider !== slug) return false;
  return waiver.requirement === undefined || citesRequirement(result, waiver.requirement);
}

/** The first waiver in force that covers the result, as the result carries it. */
export function waiverFor(
  waivers: readonly ExpectedFailure[],
  result: CheckResult,
  slug: string | undefined,
  today: string,
  causes: ReadonlySet<string> = new Set(),
): AppliedWaiver | undefined {
  const covering = waivers.filter((w) => !isExpired(w, today) && waiverCovers(w, result, slug, causes));
  return waiverOfAll(covering, result);
}

/**
 * The waiver a result carries when `covering` (the waivers in force that cover it, in file order) account for all
 * of its failing findings; undefined when one failure is left that none of them describes.
 */
function waiverOfAll(covering: readonly ExpectedFailure[], result: CheckResult): AppliedWaiver | undefined {
  const [first] = covering;
  if (!first) return undefined;
  const whole = covering.some((w) => w.requirement === undefined);
  const waived = new Set(covering.map((w) => w.requirement));
  const failing = result.findings.filter((f) => f.severity === 'fail');
  if (!whole && !failing.every((f) => waived.has(f.requirement))) return undefined;
  return { reason: first.reason, until: first.until };
}

type PreviewedHooks = Pick<RunEvents, 'onRunStart' | 'onCheckEnd'>;

/**
 * Live hooks that show a check's waiver as it ends (the console prints WAIVED at once); the final judgement is
 * evaluateWaivers' on the report. The slug comes from onRunStart (GET /provider-info).
 */
export function previewWaivers<H extends PreviewedHooks>(
  hooks: H,
  waivers: readonly ExpectedFailure[],
  today: string,
): H & Required<PreviewedHooks> {
  let slug: string | undefined;
  const ended: CheckResult[] = [];
  return {
    ...hooks,
    onRunStart(info: RunStartInfo) {
      slug = info.slug;
      hooks.onRunStart?.(info);
    },
    onCheckEnd(result: CheckResult) {
      // Decided skips end first, so a root cause they name is known before it ends.
      ended.push(result);
      const waiver = waiverFor(waivers, result, slug, today, rootCauses(ended));
      hooks.onCheckEnd?.(waiver ? { ...result, waiver } : result);
    },
  };
}

/** A report without an earlier judgement (merge-reports judges shard reports again). */
function unjudged(report: RunReport): RunReport {
  const { waivers: _earlier, ...rest } = report;
  return {
    ...rest,
    checks: report.checks.map((c) => {
      const { waiver: _waiver, ...check } = c;
      return check;
    }),
  };
}

const listOf = (names: readonly string[]): string =>
  names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What one waiver found in the runs it covers. */
interface Sighting {
  /** Run index and check index of each failure the waiver describes. */
  failures: { run: number; check: number }[];
  /** Runs where its check passed (a requirement alone: a check citing it passed). */
  passed: number[];
  /** Runs where a check citing its requirement alone ran and neither passed nor was waived by it: never stale. */
  unresolved: number[];
  /** Runs it covers (by provider). */
  covered: number[];
}

/** The result is the waiver's check, or (a requirement alone) a check that cites or verifies its requirement. */
function concernsCheck(waiver: ExpectedFailure, result: CheckResult): boolean {
  if (waiver.check !== undefined) return result.id === waiver.check;
  const requirement = waiver.requirement;
  return (
    requirement !== undefined &&
    (result.requirements.includes(requirement) || result.findings.some((f) => f.requirement === requirement))
  );
}

function sight(waiver: ExpectedFailure, runs: readonly WaiverRun[]): Sighting {
  const sighting: Sighting = { failures: [], passed: [], unresolved: [], covered: [] };
  runs.forEach((run, i) => {
    if (waiver.provider !== undefined && waiver.provider !== run.slug) return;
    sighting.covered.push(i);
    const causes = rootCauses(run.report?.checks ?? []);
    run.report?.checks.forEach((result, j) => {
      if (waiverCovers(waiver, result, run.slug, causes)) sighting.failures.push({ run: i, check: j });
      else if (!concernsCheck(waiver, result)) return;
      else if (result.status === 'pass') sighting.passed.push(i);
      else if (waiver.check === undefined && result.status !== 'skip') sighting.unresolved.push(i);
    });
  });
  return sighting;
}

/** Why a waiver matched nothing, run by run (at most three reasons). */
function unmatchedReason(waiver: ExpectedFailure, runs: readonly WaiverRun[], covered: readonly number[]): string {
  if (covered.length === 0) {
    const only = runs.length === 1 ? runs[0] : undefined;
    return only
      ? `provider ${waiver.provider} is not the one certified (${only.slug || 'its slug is unknown'})`
      : `provider ${waiver.provider} is not in this ${runs.length === 0 ? 'run' : 'fleet'}`;
  }
  const reasons = covered.map((i) => {
    const run = runs[i] as WaiverRun;
    const where = runs.length === 1 ? '' : ` on ${run.slug}`;
    if (!run.report) return `${run.slug} was not certified`;
    if (waiver.check === undefined) return requirementOnlyReason(waiver, run.report, where);
    const result = run.report.checks.find((c) => c.id === waiver.check);
    if (!result) return `${waiver.check} did not run${where}`;
    if (result.status === 'skip') return `${waiver.check} was skipped${where} (${result.message})`;
    const stopped = run.report.checks.filter((c) => c.skippedBecauseOf === result.id).length;
    if (stopped > 0)
      return `${waiver.check} is a root cause${where}: ${plural(stopped, 'other check')} ${stopped === 1 ? 'was' : 'were'} skipped because of it, and a waiver never covers a root cause (fix it)`;
    const cited = [...new Set(result.findings.filter((f) => f.severity === 'fail').map((f) => f.requirement))];
    const what = cited.length > 0 ? `it cited ${cited.join(', ')}` : 'no finding cites a requirement';
    return `${waiver.check} ${result.status === 'error' ? 'errored' : 'failed'}${where}, but not on ${waiver.requirement} (${what})`;
  });
  const unique = [...new Set(reasons)];
  return `matches no failure: ${unique.slice(0, 3).join('; ')}${unique.length > 3 ? `; and ${unique.length - 3} more` : ''}`;
}

/** Why a waiver naming a requirement alone matched nothing in one run. */
function requirementOnlyReason(waiver: ExpectedFailure, report: RunReport, where: string): string {
  const requirement = waiver.requirement ?? '';
  const citing = report.checks.filter((c) => concernsCheck(waiver, c));
  if (citing.length === 0) return `no check citing ${requirement} ran${where}`;
  const causes = rootCauses(report.checks);
  const cause = citing.find((c) => causes.has(c.id) && isFailure(c));
  if (cause)
    return `${cause.id} failed on ${requirement}${where} but is a root cause (other checks were skipped because of it), and a waiver never covers a root cause (fix it)`;
  if (citing.every((c) => c.status === 'skip'))
    return `every check citing ${requirement} was skipped${where} (${listOf(citing.map((c) => c.id))})`;
  return `no check failed on ${requirement}${where}`;
}

/** The checks a waiver's failures are in, for a message: its check, else those it waived (a requirement alone). */
function failedWhat(waiver: ExpectedFailure, runs: readonly WaiverRun[], seen: Sighting): string {
  if (waiver.check !== undefined) return waiver.check;
  const ids = [...new Set(seen.failures.map((f) => runs[f.run]?.report?.checks[f.check]?.id ?? ''))].filter(Boolean);
  return `${listOf(ids)} on ${waiverSubject(waiver)}`;
}

function judge(
  waiver: ExpectedFailure,
  runs: readonly WaiverRun[],
  today: string,
  seen: Sighting,
): { state: WaiverState; message: string } {
  const slugsOf = (indexes: readonly number[]): string[] => [...new Set(indexes.map((i) => runs[i]?.slug ?? ''))];
  const on = (indexes: readonly number[]): string => {
    const slugs = slugsOf(indexes).filter(Boolean);
    return slugs.length === 0 ? '' : ` on ${listOf(slugs)}`;
  };
  const failed = seen.failures.map((f) => f.run);
  if (isExpired(waiver, today)) {
    const counts =
      seen.failures.length > 0
        ? `${failedWhat(waiver, runs, seen)} failed${on(failed)} and counts again: fix it, or renew the waiver with a new date and reason`
        : `it matches no failure now: remove it`;
    return { state: 'expired', message: `expired on ${waiver.until} (today is ${today}): ${counts}` };
  }
  if (seen.failures.length > 0) {
    return {
      state: 'applied',
      message: `waived ${plural(seen.failures.length, 'failure')} of ${failedWhat(waiver, runs, seen)}${on(failed)} until ${waiver.until}${distantNote(waiver, today)}`,
    };
  }
  if (seen.passed.length > 0 && seen.unresolved.length === 0) {
    const what = waiver.check ?? `every check citing ${waiverSubject(waiver)}`;
    return { state: 'stale', message: `${what} passed${on(seen.passed)}: remove this waiver` };
  }
  return { state: 'unmatched', message: unmatchedReason(waiver, runs, seen.covered) };
}

/** The runs an outcome is about: those it touched, else every run it covers. */
function concerned(waiver: ExpectedFailure, state: WaiverState, seen: Sighting): number[] {
  if (waiver.provider !== undefined) return seen.covered;
  const touched = state === 'stale' ? seen.passed : seen.failures.map((f) => f.run);
  if (touched.length > 0) return [...new Set(touched)];
  // One that waives nothing anywhere concerns every provider: each provider's report says so (and fails).
  return seen.covered;
}

/**
 * Judges the waivers against the runs: marks each waived result, sets each report's `waivers` (the outcomes
 * that concern its provider) and its verdict, and says what became of every waiver. Pure: the reports given are
 * not changed, and earlier judgements on them are replaced.
 */
export function evaluateWaivers(
  waivers: readonly ExpectedFailure[],
  runs: readonly WaiverRun[],
  today: string,
  options: WaiverOptions = {},
): { reports: (RunReport | undefined)[]; outcomes: WaiverOutcome[] } {
  const fresh = runs.map((run) => (run.report ? { ...run, report: unjudged(run.report) } : run));
  const covering = new Map<string, ExpectedFailure[]>();
  const concerns = fresh.map((): WaiverOutcome[] => []);
  const outcomes: WaiverOutcome[] = [];
  for (const waiver of waivers) {
    const seen = sight(waiver, fresh);
    const { state, message } = judge(waiver, fresh, today, seen);
    if (options.partial && waiver.provider !== undefined && seen.covered.length === 0) continue;
    if (options.partial && waiver.provider === undefined && state !== 'applied' && seen.failures.length === 0) continue;
    const outcome: WaiverOutcome = { ...waiver, state, message };
    outcomes.push(outcome);
    for (const i of concerned(waiver, state, seen)) concerns[i]?.push(outcome);
    if (state !== 'applied') continue;
    for (const { run, check } of seen.failures) {
      const key = `${run}/${check}`;
      covering.set(key, [...(covering.get(key) ?? []), waiver]);
    }
  }
  const reports = fresh.map((run, i) => {
    if (!run.report) return undefined;
    const checks = run.report.checks.map((c, j) => {
      // The first waiver in the file that covers a failure is the one it shows.
      const waiver = waiverOfAll(covering.get(`${i}/${j}`) ?? [], c);
      return waiver ? { ...c, waiver } : c;
    });
    const mine = concerns[i] ?? [];
    const judged: RunReport = { ...run.report, checks, ...(mine.length > 0 ? { waivers: mine } : {}) };
    return { ...judged, summary: countChecks(checks), verdict: deriveRunVerdict(judged) };
  });
  return { reports, outcomes };
}
