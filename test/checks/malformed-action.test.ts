import { describe, expect, it } from 'vitest';
import { malformedActions } from '../../src/checks/support/probe-tables/malformed-action.js';

describe('malformedActions: the valid CreateActionInput with one part of the wrong JSON shape', () => {
  const pizza = { offeringId: 'pizza', quantity: 2, selectedOptions: [{ groupId: 'crust', optionId: 'thin' }] };
  const water = { offeringId: 'water', quantity: 1 };
  const valid = {
    idempotencyKey: 'key-1',
    providerSlug: 'demo',
    quoteId: 'q-1',
    userConfirmed: true,
    customer: { name: 'Ada', phone: '+15550100000' },
    items: [pizza, water],
  };
  const rows = Object.fromEntries(malformedActions(valid).map((r) => [r.what, 'raw' in r ? { raw: r.raw } : r.body]));

  it('breaks the body, the items array, an item and its selectedOptions, keeping every other field as it was', () => {
    expect(rows).toEqual({
      'a body that is not JSON': { raw: '{"quoteId": [' },
      'an empty body': { raw: '' },
      'a JSON null body': null,
      'items an object': { ...valid, items: pizza },
      'items a string': { ...valid, items: 'none' },
      'items[0] null': { ...valid, items: [null, water] },
      'items[0].selectedOptions a string': { ...valid, items: [{ ...pizza, selectedOptions: 'none' }, water] },
      'items[0].selectedOptions an object': { ...valid, items: [{ ...pizza, selectedOptions: {} }, water] },
      'items[0].selectedOptions [null]': { ...valid, items: [{ ...pizza, selectedOptions: [null] }, water] },
    });
  });

  it('gives each row its own label (the idempotency key label of the row) and builds every row without items', () => {
    const labels = malformedActions({ providerSlug: 'demo' }).map((r) => r.label);
    expect(labels).toHaveLength(9);
    expect(new Set(labels).size).toBe(labels.length);
  });
});
