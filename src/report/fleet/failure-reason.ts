import type { CheckResult } from '../../model/report.js';

/** Longest reason shown beside a failing check in a fleet summary; the provider's own report has the rest. */
const MAX_REASON = 160;

/**
 * Why a check fails, in one line: its first failing finding (an errored check's first finding), whitespace
 * collapsed and cut, or its status when it recorded none.
 */
export function failureReason(check: CheckResult): string {
  const finding = check.findings.find((f) => f.severity === 'fail') ?? check.findings[0];
  const text = (finding?.message ?? `${check.status} without a finding`).replace(/\s+/g, ' ').trim();
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON - 1)}…` : text;
}
