import { describe, expect, it } from 'vitest';
import type { CheckId } from '../../src/model/check-ids.js';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { certify } from '../support/certify.js';

/**
 * Conforming providers the contract allows must not fail (issue 24). Each case runs the reference provider
 * over loopback with the one allowance it shows; the check ends as pass (or error, where it could not run),
 * never as fail.
 */
const result = (report: RunReport, id: CheckId): CheckResult => {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no result for ${id}`);
  return found;
};

describe('allowances the contract gives end as no failure', () => {
  it('item 6: a quote valid longer than maxExpiryWait is untested (the run INCOMPLETE), never a fail', async () => {
    const { report } = await certify({ only: ['quote-expiry'], quoteTtlSeconds: 60, maxExpiryWaitS: 5 });
    const expiry = result(report, 'quote-expiry');
    expect(expiry.status, expiry.message).toBe('untested');
    expect(expiry.message).toMatch(
      /valid for \d+ s, longer than the run waits for a quote to expire \(maxExpiryWait: 5\); to test it: rerun with maxExpiryWait: \d+, or give quotes a shorter validity in the test environment/,
    );
    expect(expiry.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    expect(report.verdict).toBe('INCOMPLETE');
  });

  it('item 17: a REMOTE provider that declares LOCATIONS without an active location is warned, not failed', async () => {
    const { report } = await certify({ only: ['locations'], faults: ['locations-none-active'], fulfillment: 'REMOTE' });
    const locations = result(report, 'locations');
    expect(locations.status, locations.message).toBe('pass');
    expect(locations.warnings).toContainEqual(expect.stringMatching(/fulfillment REMOTE has no automatic location/));
  });

  it('item 17, the other way: DELIVERY without an active location still fails', async () => {
    const { report } = await certify({
      only: ['locations'],
      faults: ['locations-none-active'],
      fulfillment: 'DELIVERY',
    });
    expect(result(report, 'locations').status).toBe('fail');
  });
});

describe('item 4: action-status looks an action up by id (GET /actions/{id}) and at most warns on publicId', () => {
  const ONLY: CheckId[] = ['payment-pending', 'action-status'];
  const lookupNotes = (r: CheckResult) => r.findings.filter((f) => /\(by (id|publicId)\)/.test(f.message));

  it('passes on the reference provider, asking by id first, with nothing to say about either lookup', async () => {
    const { report, provider } = await certify({ only: ONLY });
    const status = result(report, 'action-status');
    expect(status.status, status.message).toBe('pass');
    expect(lookupNotes(status)).toEqual([]);
    const gets = provider.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/actions/act_'));
    expect(gets.length, 'GET /actions/{id} by the action id').toBeGreaterThan(0);
  });

  it('passes a provider that answers by id only, warning on the publicId lookup (citing ROUTE-ACTION-STATUS)', async () => {
    const { report } = await certify({ only: ONLY, variant: 'id-lookup-only' });
    const status = result(report, 'action-status');
    expect(status.status, status.message).toBe('pass');
    expect(lookupNotes(status)).toEqual([
      {
        severity: 'warn',
        requirement: 'ROUTE-ACTION-STATUS',
        message: expect.stringMatching(
          /^GET \/actions\/DK-\d+ \(by publicId\) did not answer 200 with the action; the contract looks actions up by id$/,
        ),
      },
    ]);
  });

  it('fails a provider that answers by publicId only: the lookup by id fails ROUTE-ACTION-STATUS, publicId adds nothing', async () => {
    const { report } = await certify({ only: ONLY, faults: ['action-status-public-id-only'] });
    const status = result(report, 'action-status');
    expect(status.status, status.message).toBe('fail');
    expect(lookupNotes(status)).toEqual([
      {
        severity: 'fail',
        requirement: 'ROUTE-ACTION-STATUS',
        message: expect.stringMatching(/^GET \/actions\/act_\S+ \(by id\) \(action DK-\d+\) answered HTTP 404/),
      },
    ]);
  });
});
