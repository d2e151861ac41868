import { describe, expect, it } from 'vitest';
import type { CatalogView, OfferingView } from '../../src/checks/framework/views.js';
import { quoteReferenceRows } from '../../src/checks/support/probe-tables/quote-references.js';

const offering = (id: string, extra: Partial<OfferingView> = {}): OfferingView => ({
  id,
  providerId: 'p',
  offeringCode: id.toUpperCase(),
  title: id,
  basePrice: 100,
  ...extra,
});

const pizza = offering('pizza', {
  variants: [{ id: 'pizza-30', name: '30 cm', basePrice: 100, isAvailable: true, metadata: {} }],
  optionGroups: [
    {
      id: 'crust',
      name: 'Crust',
      isRequired: true,
      minSelections: 1,
      maxSelections: 1,
      options: [{ id: 'thin', name: 'Thin', priceDelta: 0, isDefault: true, isAvailable: true, metadata: {} }],
    },
  ],
});
const water = offering('water');
const catalog = (offerings: OfferingView[]): CatalogView => ({ providerSlug: 'demo', categories: [], offerings });
const items = [{ offeringId: 'pizza', variantId: 'pizza-30', quantity: 1 }];

describe('quoteReferenceRows: a valid order naming a location, option or variant the provider does not have there', () => {
  it('quotes the run selection at an unknown and at an inactive location, and names another offering’s option and variant on an offering without them', () => {
    const { rows, absent } = quoteReferenceRows({
      catalog: catalog([pizza, water]),
      items,
      locations: true,
      inactiveLocationId: 'loc-closed',
      seed: 's1',
    });
    expect(absent).toEqual([]);
    expect(rows.map((r) => [r.name, r.requirement, r.locationId, r.items])).toEqual([
      ['unknown-location', 'ERROR-NOT-FOUND', 'provcert-unknown-location-s1', items],
      ['inactive-location', 'QUOTE-SELECTION-LIMITS', 'loc-closed', items],
      [
        'option-without-groups',
        'QUOTE-SELECTION-LIMITS',
        undefined,
        [{ offeringId: 'water', quantity: 1, selectedOptions: [{ groupId: 'crust', optionId: 'thin', quantity: 1 }] }],
      ],
      [
        'variant-without-variants',
        'QUOTE-SELECTION-LIMITS',
        undefined,
        [{ offeringId: 'water', variantId: 'pizza-30', quantity: 1 }],
      ],
    ]);
  });

  it('says which rows have nothing to probe: no LOCATIONS, no inactive location, every offering with options and variants', () => {
    const noLocations = quoteReferenceRows({ catalog: catalog([pizza]), items, locations: false, seed: 's' });
    expect(noLocations.rows).toEqual([]);
    expect(noLocations.absent.map((a) => a.name)).toEqual([
      'unknown-location',
      'option-without-groups',
      'variant-without-variants',
    ]);
    const noInactive = quoteReferenceRows({ catalog: catalog([pizza, water]), items, locations: true, seed: 's' });
    expect(noInactive.absent).toEqual([
      { name: 'inactive-location', reason: 'GET /locations lists no inactive location' },
    ]);
  });

  it('uses ids no offering has when the catalog has no option or variant to lend', () => {
    const { rows } = quoteReferenceRows({ catalog: catalog([water]), items: [], locations: true, seed: 's' });
    expect(rows.map((r) => r.items[0])).toEqual([
      {
        offeringId: 'water',
        quantity: 1,
        selectedOptions: [{ groupId: 'provcert-unknown-group', optionId: 'provcert-unknown-option', quantity: 1 }],
      },
      { offeringId: 'water', variantId: 'provcert-unknown-variant', quantity: 1 },
    ]);
  });

  it('never offers an unavailable offering or one whose required group the row would leave empty', () => {
    const closed = offering('closed', { isAvailable: false });
    const { absent } = quoteReferenceRows({ catalog: catalog([pizza, closed]), items, locations: false, seed: 's' });
    expect(absent.map((a) => a.name)).toContain('variant-without-variants');
    expect(absent.map((a) => a.name)).toContain('option-without-groups');
  });
});
