import { describe, expect, it } from 'vitest';
import type { CheckId } from '../../src/model/check-ids.js';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { certify, certifyThroughProxy } from '../support/certify.js';
import type { AnswerDelay, ProxyRule } from '../support/rewriting-proxy.js';

/**
 * Conforming providers the contract leaves room for (issue 33): QUOTE_EXPIRED with HTTP 400, quotes valid for 15
 * minutes, POST /quote answered slowly. None is failed; what cannot be tested within the run's limits is untested and
 * the run INCOMPLETE, naming the setting or change that would test it. Never PASS, never FAIL.
 */

const result = (report: RunReport, id: CheckId): CheckResult => {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no ${id} result`);
  return found;
};
const explain = (r: CheckResult): string => `${r.id} ${r.status}: ${r.message}\n${(r.details ?? []).join('\n')}`;
const problems = (report: RunReport): string[] =>
  report.checks.filter((c) => c.status === 'fail' || c.status === 'error').map(explain);

describe.concurrent('not tested is never a pass, and never a failure of a conforming provider', () => {
  it('long-quotes (valid 15 minutes): everything else passes, quote-expiry is untested naming maxExpiryWait', async () => {
    const { report } = await certify({ variant: 'long-quotes' });
    expect(problems(report)).toEqual([]);
    const expiry = result(report, 'quote-expiry');
    expect(expiry.status, explain(expiry)).toBe('untested');
    expect(expiry.message).toMatch(
      /^ACTION-EXPIRED-QUOTE-NO-ACTION not tested: quote \S+ is valid for 9\d\d s, longer than the run waits for a quote to expire \(maxExpiryWait: 30\); to test it: rerun with maxExpiryWait: 9\d\d, or give quotes a shorter validity/,
    );
    expect(expiry.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    // Each check that needs an expired quote says so: quote-expiry, idempotency's and lifecycle's quote-expired states.
    expect(report.checks.filter((c) => c.status === 'untested').map((c) => c.id)).toEqual([
      'quote-expiry',
      'idempotency',
      'lifecycle',
    ]);
    expect(report.summary.untested).toBe(3);
    expect(report.verdict).toBe('INCOMPLETE');
  });

  it('quote-expired-400: quote-expiry passes on a QUOTE_EXPIRED answered with 400', async () => {
    const { report } = await certify({ variant: 'quote-expired-400', only: ['quote-expiry'], quoteTtlSeconds: 1 });
    const expiry = result(report, 'quote-expiry');
    expect(expiry.status, explain(expiry)).toBe('pass');
    expect(expiry.message).toMatch(/was rejected with QUOTE_EXPIRED \(HTTP 400 QUOTE_EXPIRED\)/);
  });

  it('quote-expired-400: a 400 QUOTE_EXPIRED after provcert’s own delay is re-quoted, not judged as the provider’s', async () => {
    let seen = false;
    const rule: ProxyRule = ({ method, path }) => {
      if (method === 'POST' && path === '/actions') seen = true;
      return undefined;
    };
    // Quote answers held past their 2 s validity until the first POST /actions: provcert's delay, measured.
    const hold: AnswerDelay = ({ method, path }) => (method === 'POST' && path === '/quote' && !seen ? 2_600 : 0);
    const { report } = await certifyThroughProxy(
      { variant: 'quote-expired-400', only: ['quote-binding'], quoteTtlSeconds: 2 },
      { rule, answerDelay: hold },
    );
    const binding = result(report, 'quote-binding');
    expect(binding.status, explain(binding)).toBe('pass');
    expect(binding.message).toMatch(/re-quoted once because the quote expired before provcert's action reached/);
    expect(binding.evidence.some((e) => e.response?.status === 400)).toBe(true);
  });

  it('slow-quotes (3.2 s per POST /quote): exploration below its minimum is untested, not a pass', async () => {
    // The provider holds each quote 3.2 s on the run's (manual) clock: the budget runs out in virtual time, as it would
    // on the wall clock, without the test waiting it out.
    const { report } = await certify({ variant: 'slow-quotes', only: ['quote-explore'] });
    const explore = result(report, 'quote-explore');
    expect(explore.status, explain(explore)).toBe('untested');
    expect(explore.message).toMatch(
      /^QUOTE-TOTAL-FORMULA not tested: exploration reached \d+ of 100 generated orders in [\d.]+ s, fewer than its minimum of 20/,
    );
    expect(explore.untested?.[0]?.remedy).toMatch(
      /^rerun with exploreTimeCap: \d+, or answer POST \/quote faster in the test environment/,
    );
    // The limit cases no longer use up the whole cap: generated orders get their share.
    expect(explore.message).not.toMatch(/reached 0 of 100/);
    expect(report.verdict).toBe('INCOMPLETE');
  });

  it('slow-quotes with the exploreTimeCap its INCOMPLETE named: the exploration reaches its minimum and passes', async () => {
    const first = await certify({ variant: 'slow-quotes', only: ['quote-explore'] });
    const remedy = result(first.report, 'quote-explore').untested?.[0]?.remedy ?? '';
    const cap = Number(/exploreTimeCap: (\d+)/.exec(remedy)?.[1]);
    expect(cap, remedy).toBeGreaterThan(20);
    const { report } = await certify({
      variant: 'slow-quotes',
      only: ['quote-explore'],
      budgets: { exploreTimeCap: cap },
    });
    const explore = result(report, 'quote-explore');
    expect(explore.status, explain(explore)).toBe('pass');
    expect(explore.message).toMatch(/^explored (\d+) generated order/);
    expect(Number(/^explored (\d+)/.exec(explore.message)?.[1])).toBeGreaterThanOrEqual(20);
  });

  it('slow-quotes with a pricing fault only exploration finds: never PASS', async () => {
    const { report } = await certify({
      variant: 'slow-quotes',
      only: ['quote-explore'],
      faults: ['explore-large-order-fee-unsummed'],
    });
    expect(['untested', 'fail']).toContain(result(report, 'quote-explore').status);
    expect(report.verdict).not.toBe('PASS');
  });
});
