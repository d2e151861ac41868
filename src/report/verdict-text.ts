import type { CheckResult, RunReport } from '../model/report.js';
import type { RunVerdict } from '../model/verdict.js';
import { notRunChecks } from './not-run.js';

/** What every format says for a verdict; read from `report.verdict`, never derived here. */
export interface VerdictWords {
  verdict: RunVerdict;
  /** "PASSED", "FAILED", "INTERRUPTED", "INCOMPLETE", "PARTIAL". */
  word: string;
  /** e.g. "certification PASSED", "certification INTERRUPTED: no verdict". */
  headline: string;
  /** One sentence a person can act on; only PASS says the provider meets the contract. */
  meaning: string;
  /** For colour and class names: a closed set, never report text. */
  tone: 'pass' | 'fail' | 'warn';
}

type Judged = Pick<RunReport, 'verdict' | 'checks' | 'inputs'> &
  Partial<Pick<RunReport, 'interruptedBy' | 'leftOut' | 'notRun'>>;

const MAX_NAMED = 8;

/** One rule a check could not test, with the check it belongs to. */
export interface UntestedEntry {
  check: CheckResult['id'];
  requirement: string;
  reason: string;
  remedy: string;
}

/** Every rule the run's checks could not test within its limits, in the report's order. */
export function untestedRules(report: { checks: readonly Pick<CheckResult, 'id' | 'untested'>[] }): UntestedEntry[] {
  return report.checks.flatMap((c) => (c.untested ?? []).map((u) => ({ check: c.id, ...u })));
}

/** "QUOTE-MIN-VALIDITY (quote-expiry): rerun with --max-expiry-wait 910" for each rule not tested. */
export const untestedRemedies = (entries: readonly UntestedEntry[]): string =>
  entries.map((u) => `${u.requirement} (${u.check}): ${u.remedy}`).join('; ');
const named = (ids: readonly string[]): string =>
  ids.length <= MAX_NAMED ? ids.join(', ') : `${ids.slice(0, MAX_NAMED).join(', ')} and ${ids.length - MAX_NAMED} more`;
const checksWord = (n: number): string => `${n} ${n === 1 ? 'check' : 'checks'}`;

/** "2 checks did not run: quote-expiry, webhook" (at most eight named). */
export const didNotRunText = (ids: readonly string[]): string => `${checksWord(ids.length)} did not run: ${named(ids)}`;

export function verdictWords(report: Judged): VerdictWords {
  switch (report.verdict) {
    case 'PASS':
      return {
        verdict: 'PASS',
        word: 'PASSED',
        headline: 'certification PASSED',
        meaning: 'the provider meets the Provider Integration Contract for this profile',
        tone: 'pass',
      };
    case 'FAIL':
      return {
        verdict: 'FAIL',
        word: 'FAILED',
        headline: 'certification FAILED',
        meaning: 'the provider does not meet the contract: fix the failed checks and run again',
        tone: 'fail',
      };
    case 'INTERRUPTED': {
      const notRun = notRunChecks(report);
      const by = report.interruptedBy ? ` (${report.interruptedBy})` : '';
      const what = notRun.length > 0 ? `; ${didNotRunText(notRun)}` : '';
      return {
        verdict: 'INTERRUPTED',
        word: 'INTERRUPTED',
        headline: 'certification INTERRUPTED: no verdict',
        meaning: `the run was stopped${by}${what}. This is no verdict: run again to certify`,
        tone: 'warn',
      };
    }
    case 'INCOMPLETE': {
      const untested = untestedRules(report);
      const rules = untested.length === 1 ? 'rule was' : 'rules were';
      return {
        verdict: 'INCOMPLETE',
        word: 'INCOMPLETE',
        headline: `certification INCOMPLETE: ${untested.length} ${untested.length === 1 ? 'rule' : 'rules'} not tested`,
        meaning:
          `nothing failed, but ${untested.length} ${rules} not tested within the run's limits (no finding against the provider): ${untestedRemedies(untested)}. ` +
          'This is not a pass: test them and run again',
        tone: 'warn',
      };
    }
    case 'PARTIAL': {
      const left = report.leftOut ?? [];
      const reasons = [...new Set(left.map((l) => l.reason))].join('; ');
      return {
        verdict: 'PARTIAL',
        word: 'PARTIAL',
        headline: `certification PARTIAL: ${checksWord(left.length)} left out`,
        meaning:
          `every check that ran passed, but ${checksWord(left.length)} of the profile ${left.length === 1 ? 'was' : 'were'} left out` +
          `${reasons ? ` (${reasons})` : ''}: ${named(left.map((l) => l.id))}. This is not a certification of the whole contract`,
        tone: 'warn',
      };
    }
  }
}
