import { describe, expect, it } from 'vitest';
import type { CatalogView, OptionGroupView, QuoteItemInput } from '../../../src/checks/framework/views.js';
import { deriveItems, exercisesMath } from '../../../src/checks/support/selection.js';
import { catalogOf, offering } from './catalog.js';

const crust: OptionGroupView = {
  id: 'crust',
  isRequired: true,
  minSelections: 1,
  maxSelections: 1,
  options: [
    { id: 'thin', priceDelta: 0 },
    { id: 'classic', priceDelta: 0, isDefault: true },
    { id: 'gf', priceDelta: 300, isAvailable: false },
  ],
};
const toppings: OptionGroupView = {
  id: 'toppings',
  isRequired: false,
  minSelections: 0,
  maxSelections: 3,
  options: [
    { id: 'gold-leaf', priceDelta: 9900, isAvailable: false },
    { id: 'olives', priceDelta: 150 },
    { id: 'basil', priceDelta: 50 },
  ],
};
const pizza = offering('pizza', {
  variants: [{ id: 'pizza-30', isAvailable: false }, { id: 'pizza-40' }],
  optionGroups: [crust, toppings],
});
const lemonade = offering('lemonade', { variants: [{ id: 'lemonade-05' }] });
const water = offering('water');
const soldOut = offering('sold-out', {
  isAvailable: false,
  optionGroups: [{ id: 'extra', options: [{ id: 'x', priceDelta: 500 }] }],
});

/** Every chosen offering, variant and option exists and is available. */
function allAvailable(items: QuoteItemInput[], catalog: CatalogView): boolean {
  return items.every((item) => {
    const o = catalog.offerings.find((x) => x.id === item.offeringId);
    if (!o || o.isAvailable === false) return false;
    if (item.variantId && o.variants?.find((v) => v.id === item.variantId)?.isAvailable === false) return false;
    return (item.selectedOptions ?? []).every((s) => {
      const opt = o.optionGroups?.find((g) => g.id === s.groupId)?.options?.find((x) => x.id === s.optionId);
      return opt !== undefined && opt.isAvailable !== false;
    });
  });
}

describe('deriveItems', () => {
  it('quotes the priced offering twice with its required choice and a non-zero option, plus a second line', () => {
    const catalog = catalogOf(lemonade, pizza, water);
    const items = deriveItems(catalog);
    expect(items).toEqual([
      {
        offeringId: 'pizza',
        variantId: 'pizza-40',
        quantity: 2,
        selectedOptions: [
          { groupId: 'crust', optionId: 'classic', quantity: 1 },
          { groupId: 'toppings', optionId: 'olives', quantity: 1 },
        ],
      },
      { offeringId: 'lemonade', variantId: 'lemonade-05', quantity: 1 },
    ]);
    expect(exercisesMath(items, catalog)).toBe(true);
  });

  it('swaps the choice of a required single-choice group for its priced option when no other group has one', () => {
    const size: OptionGroupView = {
      id: 'size',
      isRequired: true,
      maxSelections: 1,
      options: [
        { id: 'small', isDefault: true },
        { id: 'large', priceDelta: 200 },
      ],
    };
    const catalog = catalogOf(offering('coffee', { optionGroups: [size] }), water);
    const items = deriveItems(catalog);
    expect(items[0]).toEqual({
      offeringId: 'coffee',
      quantity: 2,
      selectedOptions: [{ groupId: 'size', optionId: 'large', quantity: 1 }],
    });
    expect(exercisesMath(items, catalog)).toBe(true);
  });

  it('swaps one free choice of a full "choose exactly 2" group for its priced option', () => {
    const sides: OptionGroupView = {
      id: 'sides',
      isRequired: true,
      minSelections: 2,
      maxSelections: 2,
      options: [{ id: 'salad' }, { id: 'rice' }, { id: 'prawns', priceDelta: 400 }],
    };
    const catalog = catalogOf(offering('bowl', { optionGroups: [sides] }), water);
    const items = deriveItems(catalog);
    expect(items[0]?.selectedOptions).toEqual([
      { groupId: 'sides', optionId: 'salad', quantity: 1 },
      { groupId: 'sides', optionId: 'prawns', quantity: 1 },
    ]);
    expect(exercisesMath(items, catalog)).toBe(true);
  });

  it('adds the priced option beside the required choice when the group has room', () => {
    const sauces: OptionGroupView = {
      id: 'sauces',
      isRequired: true,
      minSelections: 1,
      maxSelections: 2,
      options: [
        { id: 'ketchup', isDefault: true },
        { id: 'truffle', priceDelta: 120 },
      ],
    };
    const items = deriveItems(catalogOf(offering('fries', { optionGroups: [sauces] })));
    expect(items).toEqual([
      {
        offeringId: 'fries',
        quantity: 2,
        selectedOptions: [
          { groupId: 'sauces', optionId: 'ketchup', quantity: 1 },
          { groupId: 'sauces', optionId: 'truffle', quantity: 1 },
        ],
      },
    ]);
  });

  it('keeps a priced default as is and adds nothing more', () => {
    const size: OptionGroupView = {
      id: 'size',
      isRequired: true,
      maxSelections: 1,
      options: [{ id: 'small' }, { id: 'large', priceDelta: 200, isDefault: true }],
    };
    const items = deriveItems(catalogOf(offering('coffee', { optionGroups: [size, toppings] })));
    expect(items[0]?.selectedOptions).toEqual([{ groupId: 'size', optionId: 'large', quantity: 1 }]);
  });

  it('satisfies minSelections with defaults first, then the first available options', () => {
    const sides: OptionGroupView = {
      id: 'sides',
      minSelections: 2,
      maxSelections: 2,
      options: [{ id: 'gone', isAvailable: false }, { id: 'salad' }, { id: 'rice', isDefault: true }, { id: 'beans' }],
    };
    const items = deriveItems(catalogOf(offering('bowl', { optionGroups: [sides] })));
    expect(items[0]?.selectedOptions).toEqual([
      { groupId: 'sides', optionId: 'rice', quantity: 1 },
      { groupId: 'sides', optionId: 'salad', quantity: 1 },
    ]);
  });

  it('quotes one line of quantity 2 when the catalog has one available offering', () => {
    const catalog = catalogOf(water, soldOut);
    const items = deriveItems(catalog);
    expect(items).toEqual([{ offeringId: 'water', quantity: 2 }]);
    expect(exercisesMath(items, catalog)).toBe(true);
  });

  it('returns nothing when no offering is available', () => {
    expect(deriveItems(catalogOf(soldOut))).toEqual([]);
    expect(deriveItems(catalogOf())).toEqual([]);
  });

  it('ignores priced options that are unavailable, and offerings whose only priced options are', () => {
    const onlyGone = offering('tea', {
      optionGroups: [{ id: 'extra', options: [{ id: 'honey', priceDelta: 80, isAvailable: false }] }],
    });
    const catalog = catalogOf(onlyGone, water);
    const items = deriveItems(catalog);
    expect(items).toEqual([
      { offeringId: 'tea', quantity: 2 },
      { offeringId: 'water', quantity: 1 },
    ]);
    expect(exercisesMath(items, catalog)).toBe(true);
  });

  const catalogs: { name: string; catalog: CatalogView }[] = [
    { name: 'pizza with unavailable variant, option and offering', catalog: catalogOf(soldOut, pizza, lemonade) },
    {
      name: 'only unavailable alternatives besides one',
      catalog: catalogOf(
        soldOut,
        offering('x', { variants: [{ id: 'v1', isAvailable: false }, { id: 'v2' }], optionGroups: [crust] }),
      ),
    },
    { name: 'reference-like catalog', catalog: catalogOf(pizza, lemonade, water, soldOut) },
  ];
  for (const c of catalogs) {
    it(`never chooses an unavailable offering, variant or option (${c.name})`, () => {
      const items = deriveItems(c.catalog);
      expect(items.length).toBeGreaterThan(0);
      expect(allAvailable(items, c.catalog)).toBe(true);
      expect(exercisesMath(items, c.catalog)).toBe(true);
    });
  }
});

describe('exercisesMath', () => {
  const twoOfferingsPriced = catalogOf(pizza, lemonade);
  const pricedLine: QuoteItemInput = {
    offeringId: 'pizza',
    quantity: 2,
    selectedOptions: [{ groupId: 'toppings', optionId: 'olives' }],
  };
  const zeroLine: QuoteItemInput = {
    offeringId: 'pizza',
    quantity: 2,
    selectedOptions: [{ groupId: 'crust', optionId: 'thin' }],
  };
  const singlePriced: QuoteItemInput = { ...pricedLine, quantity: 1 };
  const second: QuoteItemInput = { offeringId: 'lemonade', quantity: 1 };

  const cases: { name: string; items: QuoteItemInput[]; catalog: CatalogView; want: boolean }[] = [
    { name: 'priced line ×2 and a second line', items: [pricedLine, second], catalog: twoOfferingsPriced, want: true },
    {
      name: 'priced line ×2 alone while two offerings exist',
      items: [pricedLine],
      catalog: twoOfferingsPriced,
      want: false,
    },
    { name: 'two lines but the option is free', items: [zeroLine, second], catalog: twoOfferingsPriced, want: false },
    {
      name: 'two lines but the priced line has quantity 1',
      items: [singlePriced, second],
      catalog: twoOfferingsPriced,
      want: false,
    },
    {
      name: 'two lines, no options, catalog has priced options',
      items: [{ offeringId: 'pizza', quantity: 2 }, second],
      catalog: twoOfferingsPriced,
      want: false,
    },
    {
      name: 'priced line refers to an offering the catalog lacks',
      items: [{ ...pricedLine, offeringId: 'ghost' }, second],
      catalog: twoOfferingsPriced,
      want: false,
    },
    {
      name: 'catalog has no priced option, two lines',
      items: [
        { offeringId: 'lemonade', quantity: 1 },
        { offeringId: 'water', quantity: 1 },
      ],
      catalog: catalogOf(lemonade, water),
      want: true,
    },
    {
      name: 'catalog has no priced option, one line of two',
      items: [{ offeringId: 'lemonade', quantity: 2 }],
      catalog: catalogOf(lemonade, water),
      want: false,
    },
    {
      name: 'catalog has one available offering, one line',
      items: [{ offeringId: 'water', quantity: 1 }],
      catalog: catalogOf(water, soldOut),
      want: true,
    },
    {
      name: 'priced options only on an unavailable offering do not count',
      items: [{ offeringId: 'water', quantity: 1 }],
      catalog: catalogOf(water, soldOut),
      want: true,
    },
    {
      name: 'unavailable priced options do not count',
      items: [zeroLine, second],
      catalog: catalogOf(offering('pizza', { optionGroups: [crust] }), lemonade),
      want: true,
    },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.want}`, () => {
      expect(exercisesMath(c.items, c.catalog)).toBe(c.want);
    });
  }
});
