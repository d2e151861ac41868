import type { CheckResult } from '../model/report.js';

/**
 * --strict: a zero-warning gate. Every warning becomes a failure of its check, standing on the same
 * requirement; without --strict, warnings (ambiguities the contract leaves open) never fail a run.
 */
export function applyStrict(result: CheckResult): CheckResult {
  const warnings = result.findings.filter((f) => f.severity === 'warn');
  if (warnings.length === 0 || (result.status !== 'pass' && result.status !== 'fail')) return result;
  const findings = result.findings.map((f) =>
    f.severity === 'warn' ? { ...f, severity: 'fail' as const, message: `(strict) ${f.message}` } : f,
  );
  const promoted = warnings.map((w) => `(strict) ${w.message}`);
  const [first = '', ...rest] =
    result.status === 'fail' ? [result.message, ...(result.details ?? []), ...promoted] : promoted;
  const { warnings: _dropped, ...kept } = result;
  return { ...kept, status: 'fail', message: first, ...(rest.length > 0 ? { details: rest } : {}), findings };
}
