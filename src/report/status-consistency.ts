import type { CheckResult, RunReport } from '../model/report.js';

/**
 * A check's status follows from its findings (issue 32, item 8): a check fails exactly when it recorded a failing
 * finding (checks/outcome.ts, runner/strict.ts, runner/root-cause.ts), so `pass` with a failing finding is a failure
 * relabelled, and `fail` without one was never judged so. `skip` with a failing finding happens only to a check an
 * interruption cut off (runner/schedule.ts keeps what it had found), and such a check is listed in `notRun`.
 * `error` says nothing about findings: it already fails the gate. Reports without `findings` are not judged here.
 */
export function statusContradiction(report: RunReport): string | undefined {
  const notRun = new Set(report.notRun ?? []);
  for (const check of report.checks) {
    const findings: CheckResult['findings'] | undefined = check.findings;
    if (!Array.isArray(findings)) continue;
    const failing = findings.find((f) => f.severity === 'fail');
    const which = `check ${check.id} says "${check.status}"`;
    if (check.status === 'pass' && failing)
      return `${which}, but it records a failing finding (${failing.requirement})`;
    if (check.status === 'fail' && !failing) return `${which}, but it records no failing finding`;
    if (check.status === 'skip' && failing && !notRun.has(check.id))
      return `${which}, but it records a failing finding (${failing.requirement}) and the run did not list it as not run`;
  }
  return undefined;
}
