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
  it('item 6: a quote valid longer than --max-expiry-wait is an error (not run), never a fail', async () => {
    const { report } = await certify({ only: ['quote-expiry'], quoteTtlSeconds: 60, maxExpiryWaitS: 5 });
    const expiry = result(report, 'quote-expiry');
    expect(expiry.status, expiry.message).toBe('error');
    expect(expiry.message).toMatch(/valid for \d+ s, longer than --max-expiry-wait 5; expiry was not tested/);
    expect(expiry.findings.filter((f) => f.severity === 'fail')).toEqual([]);
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
