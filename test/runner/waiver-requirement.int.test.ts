import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import type { ExpectedFailure } from '../../src/model/waivers.js';
import { evaluateWaivers, utcDate } from '../../src/runner/waivers.js';
import { certify } from '../support/certify.js';

/**
 * Issue 34: one bug seen by two checks takes one waiver. The reference provider with quote-total-wrong fails
 * quote-math and quote-explore, both on QUOTE-TOTAL-FORMULA; one entry naming that requirement alone waives both.
 */
describe('a waiver naming a requirement alone, on the real reference provider', () => {
  let report: RunReport;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const run = await certify({ faults: ['quote-total-wrong'] });
    report = run.report;
    close = () => run.provider.close();
  });
  afterAll(() => close());

  const failedOn = (r: RunReport, requirement: string): string[] =>
    r.checks
      .filter(
        (c) => (c.status === 'fail' || c.status === 'error') && c.findings.some((f) => f.requirement === requirement),
      )
      .map((c) => c.id);

  it('the fault fails two checks citing one requirement (the premise)', () => {
    expect(report.verdict).toBe('FAIL');
    expect(failedOn(report, 'QUOTE-TOTAL-FORMULA').sort()).toEqual(['quote-explore', 'quote-math']);
  });

  const today = (): string => utcDate(new Date(report.startedAt));
  const entry = (fields: Partial<ExpectedFailure> = {}): ExpectedFailure => ({
    requirement: 'QUOTE-TOTAL-FORMULA',
    reason: 'total rounding fix ships in 2.4 (JIRA-77)',
    until: '9999-12-31',
    ...fields,
  });

  it.each<[string, ExpectedFailure, RunReport['verdict'], string[], RegExp]>([
    [
      'the requirement alone waives both checks and the gate passes',
      entry(),
      'PASS',
      ['quote-explore', 'quote-math'],
      /^waived 2 failures of quote-math, quote-explore on QUOTE-TOTAL-FORMULA/,
    ],
    [
      'a requirement alone no failure cites waives nothing and fails the gate',
      entry({ requirement: 'QUOTE-FEES-SUM' }),
      'FAIL',
      [],
      /^matches no failure: no check failed on QUOTE-FEES-SUM$/,
    ],
    [
      'with a check too, only that check is waived and the other still fails the gate',
      entry({ check: 'quote-math' }),
      'FAIL',
      ['quote-math'],
      /^waived 1 failure of quote-math/,
    ],
  ])('%s', (_name, waiver, verdict, waived, message) => {
    // A far date would warn; the run's own day plus a week keeps the message plain.
    const until = new Date(Date.parse(report.startedAt) + 7 * 86_400_000).toISOString().slice(0, 10);
    const { reports, outcomes } = evaluateWaivers(
      [{ ...waiver, until }],
      [{ slug: report.provider.slug ?? '', report }],
      today(),
    );
    expect(reports[0]?.verdict).toBe(verdict);
    expect(
      reports[0]?.checks
        .filter((c) => c.waiver !== undefined)
        .map((c) => c.id)
        .sort(),
    ).toEqual(waived);
    expect(outcomes[0]?.message).toMatch(message);
  });
});
