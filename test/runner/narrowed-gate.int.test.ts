import { describe, expect, it } from 'vitest';
import type { CheckId } from '../../src/model/check-ids.js';
import type { RunReport } from '../../src/model/report.js';
import type { FaultName } from '../../src/reference-provider/index.js';
import { dependantsOf } from '../../src/runner/selection.js';
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

describe('a planned skip names a check that ran', () => {
  it('--only quote-math where POSTs are not declared safe runs metadata, which fails saying why', async () => {
    const { report } = await certify({ faults: ['unsafe-test-environment'], only: ['quote-math'] });
    expect(report.verdict).toBe('FAIL');
    expect(result(report, 'metadata')?.status).toBe('fail');
    expect(result(report, 'quote-math')).toMatchObject({ status: 'skip', skippedBecauseOf: 'metadata' });
  });
});

describe('--only runs what its checks need', () => {
  it('--only quote-math on a broken catalog runs catalog too, and fails on it (nothing unmarked)', async () => {
    const { report } = await certify({ faults: ['catalog-wrong-type'], only: ['quote-math'] });
    expect(report.verdict).toBe('FAIL');
    expect(report.pulledIn).toEqual([{ id: 'catalog', neededBy: ['quote-math'] }]);
    // The catalog check itself ran (not an observation): it judged the whole catalog.
    expect(result(report, 'catalog')).toMatchObject({ status: 'fail' });
    expect(result(report, 'catalog')?.observedWhile).toBeUndefined();
    expect(result(report, 'quote-math')).toMatchObject({ status: 'skip', skippedBecauseOf: 'catalog' });
    expect(report.leftOut?.map((l) => l.id)).not.toContain('catalog');
  });

  it('--only quote-math on the conforming provider passes what it ran and stays PARTIAL', async () => {
    const { report } = await certify({ only: ['quote-math'] });
    expect(report.verdict).toBe('PARTIAL');
    expect(report.checks.filter((c) => c.status === 'pass').map((c) => c.id)).toEqual(['catalog', 'quote-math']);
  });
});

/**
 * `needs` is declared by hand: a full run on a provider broken for a check's subject shows which checks could not
 * get their data from it, and each of them must be a declared dependant (so --only and replay find them).
 */
describe('the declared needs cover what a broken subject blocks', () => {
  it.each([
    ['catalog-wrong-type', 'catalog'],
    ['quote-route-missing', 'quote-math'],
    ['actions-route-missing', 'payment-pending'],
  ] as [FaultName, CheckId][])('%s: every check skipped because of %s is its dependant', async (fault, owner) => {
    const { report } = await certify({ faults: [fault] });
    const blocked = report.checks.filter((c) => c.skippedBecauseOf === owner).map((c) => c.id);
    expect(blocked.length).toBeGreaterThan(0);
    expect(dependantsOf([owner])).toEqual(expect.arrayContaining(blocked));
  });
});
