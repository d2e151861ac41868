import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { type Harness, startHarness } from '../console/harness.js';
import { passingReport } from '../report/sample-reports.js';

/**
 * "Not tested" is never a pass in `serve` either (issue 33): an INCOMPLETE certification does not open review, and
 * its certificate says FAILED for the rule not tested. The certifier stands in for a run (test/console/harness.ts).
 */

const SLUG = 'incomplete-kitchen';

function incompleteReport(): RunReport {
  const r = passingReport();
  const check = r.checks.find((c) => c.id === 'quote-math') as CheckResult;
  const untested = {
    requirement: 'ACTION-EXPIRED-QUOTE-NO-ACTION',
    reason: 'quote q-1 is valid for 900 s, longer than the run waits for a quote to expire (--max-expiry-wait 120)',
    remedy: 'rerun with --max-expiry-wait 910, or give quotes a shorter validity in the test environment',
  };
  Object.assign(check, {
    status: 'untested',
    message: `${untested.requirement} not tested: ${untested.reason}; to test it: ${untested.remedy}`,
    untested: [untested],
    quoteMath: [],
  });
  r.summary = { pass: r.summary.pass - 1, fail: 0, skip: r.summary.skip, error: 0, untested: 1, waived: 0 };
  r.verdict = 'INCOMPLETE';
  return r;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness(passingReport);
  h.reports.set(SLUG, incompleteReport);
  await h.register({ slug: SLUG, name: 'Incomplete Kitchen' });
});
afterAll(async () => {
  await h?.close();
});

describe('an INCOMPLETE certification in serve', () => {
  it('is recorded as INCOMPLETE, and submit-review is refused saying to certify again', async () => {
    const certified = await h.api('POST', `/api/v1/providers/${SLUG}/certify`);
    expect(certified.status).toBe(200);
    expect(JSON.stringify(certified.json)).toContain('"verdict":"INCOMPLETE"');
    const submit = await h.api('POST', `/api/v1/providers/${SLUG}/submit-review`);
    expect(submit.status).toBe(409);
    expect(String(submit.json['message'])).toMatch(
      /the latest certification \(\S+\) is INCOMPLETE \(a rule was not tested; its report names the setting that tests it\): certify again/,
    );
  });

  it('its certificate says FAILED, the check and the rule not tested among the failed tests', async () => {
    const answer = await h.api('GET', `/api/v1/providers/${SLUG}/certificate`);
    expect(answer.status).toBe(200);
    const statement = JSON.parse(Buffer.from(String(answer.json['payload']), 'base64').toString('utf8')) as {
      predicate: { result: string; failedTests?: string[]; passedTests?: string[] };
    };
    expect(statement.predicate.result).toBe('FAILED');
    expect(statement.predicate.failedTests).toEqual(
      expect.arrayContaining(['check:quote-math', 'requirement:ACTION-EXPIRED-QUOTE-NO-ACTION']),
    );
    expect(statement.predicate.passedTests ?? []).not.toContain('check:quote-math');
  });
});
