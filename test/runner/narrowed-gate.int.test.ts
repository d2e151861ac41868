import { describe, expect, it } from 'vitest';
import type { CheckId } from '../../src/model/check-ids.js';
import type { RunReport } from '../../src/model/report.js';
import { certify } from '../support/certify.js';

/** The quote checks a broken catalog keeps from running (they build their orders from it). */
const QUOTE_CHECKS: CheckId[] = [
  'offering',
  'search',
  'quote-math',
  'quote-validation',
  'quote-explore',
  'quote-binding',
];

const result = (report: RunReport, id: CheckId) => report.checks.find((c) => c.id === id);

/**
 * A gate cannot be narrowed into green (issue 34): a defect seen while running the checks that were asked for fails
 * the run on that observation, whatever the selection left out, and names what it kept from running.
 */
describe('a root cause fails the run whatever the selection left out', () => {
  it('--skip catalog,webhook on a broken catalog: FAIL on what the quote checks saw, citing its rule', async () => {
    const { report } = await certify({ faults: ['catalog-wrong-type'], skip: ['catalog', 'webhook'] });
    expect(report.verdict).toBe('FAIL');
    const catalog = result(report, 'catalog');
    expect(catalog?.status).toBe('fail');
    expect(catalog?.message).toMatch(/GET \/catalog does not match the schema .*basePrice must be integer/);
    expect(catalog?.findings).toEqual([expect.objectContaining({ severity: 'fail', requirement: 'MONEY-INTEGERS' })]);
    expect(catalog?.observedWhile).toEqual(expect.arrayContaining(['quote-math']));
    expect(catalog?.evidence[0]?.request.url).toMatch(/\/catalog$/);
    for (const id of QUOTE_CHECKS)
      expect(result(report, id)).toMatchObject({ status: 'skip', skippedBecauseOf: 'catalog' });
    expect(catalog?.details?.[1]).toBe(`not run because of it: ${QUOTE_CHECKS.join(', ')}, idempotency`);
    // What the selection left out and nothing observed stays left out.
    expect(report.leftOut?.map((l) => l.id)).toEqual(['webhook']);
  });

  it('--skip catalog,webhook on the conforming provider stays PARTIAL: nothing was observed', async () => {
    const { report } = await certify({ skip: ['catalog', 'webhook'] });
    expect(report.verdict).toBe('PARTIAL');
    expect(result(report, 'catalog')).toBeUndefined();
    expect(report.leftOut?.map((l) => l.id)).toEqual(['catalog', 'webhook']);
  });
});
