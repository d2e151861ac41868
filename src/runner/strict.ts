import type { Finding } from '../model/findings.js';
import type { CheckResult, StrictExemption } from '../model/report.js';
import type { RunConfig } from '../model/run-config.js';

/** Why a warning the run's own local setting causes stays a warning in strict mode. */
const LOCAL_REASON =
  'caused by the local run setting (plain http or a host on this machine or network is allowed there)';

/**
 * A warning the run itself caused: with `local`, base-url's warnings that the address is http:// or not public
 * (BASE-URL-PUBLIC-HTTPS; without `local` those are failures, never warnings).
 */
const causedByRun = (result: Pick<CheckResult, 'id'>, finding: Finding, config: Pick<RunConfig, 'local'>): boolean =>
  config.local && result.id === 'base-url' && finding.requirement === 'BASE-URL-PUBLIC-HTTPS';

/**
 * Strict mode: a zero-warning gate. Every warning becomes a failure of its check, standing on the same
 * requirement, except those the run's own settings cause (see strictExemptions); without strict mode,
 * warnings (ambiguities the contract leaves open) never fail a run.
 */
export function applyStrict(result: CheckResult, config: Pick<RunConfig, 'local'> = { local: false }): CheckResult {
  const promote = (f: Finding): boolean => f.severity === 'warn' && !causedByRun(result, f, config);
  const warnings = result.findings.filter(promote);
  // An untested check's warnings are findings too: strict fails it on them, keeping the rule it did not test.
  const judged = result.status === 'pass' || result.status === 'fail' || result.status === 'untested';
  if (warnings.length === 0 || !judged) return result;
  const findings = result.findings.map((f) =>
    promote(f) ? { ...f, severity: 'fail' as const, message: `(strict) ${f.message}` } : f,
  );
  const promoted = warnings.map((w) => `(strict) ${w.message}`);
  const [first = '', ...rest] =
    result.status === 'fail'
      ? [result.message, ...(result.details ?? []), ...promoted]
      : result.status === 'untested'
        ? [...promoted, result.message, ...(result.details ?? [])]
        : promoted;
  const kept = findings.filter((f) => f.severity === 'warn').map((f) => f.message);
  const { warnings: _dropped, ...others } = result;
  return {
    ...others,
    status: 'fail',
    message: first,
    ...(rest.length > 0 ? { details: rest } : {}),
    ...(kept.length > 0 ? { warnings: kept } : {}),
    findings,
  };
}

/** The warnings strict mode left warnings, for the report to say so. */
export function strictExemptions(results: readonly CheckResult[], config: Pick<RunConfig, 'local'>): StrictExemption[] {
  return results.flatMap((r) =>
    r.findings
      .filter((f) => f.severity === 'warn' && causedByRun(r, f, config))
      .map((f) => ({ check: r.id, requirement: f.requirement, message: f.message, reason: LOCAL_REASON })),
  );
}
