import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/framework/registry.js';
import type { CheckId } from '../../src/model/check-ids.js';
import { SettingError } from '../../src/model/errors.js';
import { dependantsOf, neededBy, pulledInLines, selectChecks } from '../../src/runner/selection.js';

const ids = (only: CheckId[], skip?: CheckId[]): CheckId[] =>
  selectChecks({ only, ...(skip ? { skip } : {}) }).selected.map((d) => d.id);

describe('--only pulls in what its checks need, and says so', () => {
  it.each([
    [['quote-math'], ['catalog', 'quote-math']],
    [['quote-expiry'], ['catalog', 'quote-math', 'quote-expiry']],
    [['action-status'], ['catalog', 'quote-math', 'payment-pending', 'action-status']],
    [
      ['metadata', 'health'],
      ['metadata', 'health'],
    ],
  ] as [CheckId[], CheckId[]][])('--only %j runs %j', (only, expected) => {
    expect(ids(only)).toEqual(expected);
  });

  it('names each check it pulled in and the named checks that need it', () => {
    const { pulledIn } = selectChecks({ only: ['quote-expiry', 'quote-binding'] });
    expect(pulledIn).toEqual([
      { id: 'catalog', neededBy: ['quote-expiry', 'quote-binding'] },
      { id: 'quote-math', neededBy: ['quote-expiry', 'quote-binding'] },
    ]);
    expect(pulledInLines(pulledIn, '--only')).toEqual([
      '--only also runs catalog: quote-expiry, quote-binding need catalog for their test data',
      '--only also runs quote-math: quote-expiry, quote-binding need quote-math for their test data',
    ]);
  });

  it('refuses a needed check the skip list leaves out, with the --only that works', () => {
    const refusal = (): unknown => selectChecks({ only: ['quote-math'], skip: ['catalog'] });
    expect(refusal).toThrow(SettingError);
    try {
      refusal();
    } catch (error) {
      expect((error as SettingError).namedAs('--only')).toBe(
        'quote-math needs catalog for its test data, which the skip list leaves out: use --only catalog,quote-math and do not skip catalog',
      );
    }
  });

  it('without --only, the skip list alone decides and nothing is pulled in', () => {
    const { selected, pulledIn } = selectChecks({ skip: ['catalog', 'webhook'] });
    expect(selected.map((d) => d.id)).not.toContain('catalog');
    expect(selected).toHaveLength(CHECKS.length - 2);
    expect(pulledIn).toEqual([]);
  });
});

describe('the needs graph', () => {
  it('names known checks only, never the check itself, and has no cycle', () => {
    for (const def of CHECKS) {
      for (const id of def.needs ?? []) {
        expect(CHECKS.map((d) => d.id)).toContain(id);
        expect(id).not.toBe(def.id);
      }
      expect(neededBy([def.id]).has(def.id)).toBe(false);
    }
  });

  it('the dependants of a broken catalog are every check that builds an order from it', () => {
    expect(dependantsOf(['catalog'])).toEqual([
      'offering',
      'search',
      'quote-math',
      'quote-validation',
      'quote-explore',
      'quote-expiry',
      'quote-binding',
      'action-validation',
      'payment-pending',
      'checkout-click',
      'action-status',
      'idempotency',
      'lifecycle',
      'webhook',
      'cancel',
      'payment-options',
    ]);
    expect(dependantsOf(['health'])).toEqual([]);
  });
});
