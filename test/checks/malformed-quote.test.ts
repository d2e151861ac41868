import { describe, expect, it } from 'vitest';
import { malformedQuotes } from '../../src/checks/support/probe-tables/malformed-quote.js';

describe('malformedQuotes: the valid body with one part of the wrong JSON shape', () => {
  const valid = {
    providerSlug: 'demo',
    locationId: 'loc-1',
    items: [
      { offeringId: 'pizza', quantity: 2, selectedOptions: [{ groupId: 'crust', optionId: 'thin', quantity: 1 }] },
      { offeringId: 'water', quantity: 1 },
    ],
  };
  const rows = Object.fromEntries(malformedQuotes(valid).map((r) => [r.what, 'raw' in r ? { raw: r.raw } : r.body]));

  it('breaks the body, the items array, an item and its selectedOptions, keeping the rest as it was', () => {
    expect(rows).toEqual({
      'a body that is not JSON': { raw: '{"items": [' },
      'an empty body': { raw: '' },
      'a JSON null body': null,
      'no items': { providerSlug: 'demo', locationId: 'loc-1' },
      'items[0] null': { ...valid, items: [null, valid.items[1]] },
      'items[0].selectedOptions a string': {
        ...valid,
        items: [{ offeringId: 'pizza', quantity: 2, selectedOptions: 'none' }, valid.items[1]],
      },
      'items[0].selectedOptions [null]': {
        ...valid,
        items: [{ offeringId: 'pizza', quantity: 2, selectedOptions: [null] }, valid.items[1]],
      },
    });
  });

  it('still builds every row from a body without items', () => {
    expect(malformedQuotes({ providerSlug: 'demo', items: [] }).map((r) => r.what)).toHaveLength(7);
  });
});
