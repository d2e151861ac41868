import { describe, expect, it } from 'vitest';
import { judgeCatalogConsistency } from '../../../src/checks/support/catalog-consistency.js';

type Catalog = { providerSlug: string; categories: Record<string, unknown>[]; offerings: Record<string, unknown>[] };

function catalog(): Catalog {
  return {
    providerSlug: 'demo',
    categories: [
      { id: 'c1', slug: 'pizza', title: 'Pizza', offeringsCount: 2 },
      { id: 'c2', slug: 'drinks', title: 'Drinks', offeringsCount: 1 },
    ],
    offerings: [
      {
        id: 'o1',
        offeringCode: 'P1',
        basePrice: 900,
        categorySlug: 'pizza',
        optionGroups: [
          { id: 'g1', isRequired: true, minSelections: 1, maxSelections: 1, options: [{ id: 'a' }, { id: 'b' }] },
        ],
      },
      { id: 'o2', offeringCode: 'P2', basePrice: 950, categorySlug: 'pizza', categoryTitle: 'Pizza' },
      {
        id: 'o3',
        offeringCode: 'D1',
        basePrice: 200,
        categorySlug: 'drinks',
        variants: [
          { id: 'v1', basePrice: 200 },
          { id: 'v2', basePrice: 300 },
        ],
      },
    ],
  };
}

const at = <T>(list: T[], i: number): T => {
  const item = list[i];
  if (item === undefined) throw new Error(`no item ${i}`);
  return item;
};

describe('judgeCatalogConsistency', () => {
  it('finds nothing in a consistent catalog', () => {
    expect(judgeCatalogConsistency(catalog(), 'demo')).toEqual({ problems: [], warnings: [], notes: [] });
  });

  it.each<[string, (c: Catalog) => void, RegExp]>([
    [
      'a foreign providerSlug',
      (c) => {
        c.providerSlug = 'other';
      },
      /providerSlug "other" differs from the slug of GET \/provider-info \("demo"\)/,
    ],
    [
      'duplicate offering ids',
      (c) => {
        at(c.offerings, 1)['id'] = 'o1';
      },
      /offering id\(s\) o1 occur more than once/,
    ],
    [
      'duplicate category ids',
      (c) => {
        at(c.categories, 1)['id'] = 'c1';
      },
      /category id\(s\) c1 occur more than once/,
    ],
    [
      'min > max',
      (c) => {
        Object.assign(at(at(c.offerings, 0)['optionGroups'] as Record<string, unknown>[], 0), {
          minSelections: 2,
          maxSelections: 1,
        });
      },
      /option group g1: minSelections 2 > maxSelections 1/,
    ],
    [
      'negative min',
      (c) => {
        Object.assign(at(at(c.offerings, 0)['optionGroups'] as Record<string, unknown>[], 0), { minSelections: -1 });
      },
      /minSelections -1 is negative/,
    ],
    [
      'duplicate option ids',
      (c) => {
        Object.assign(at(at(c.offerings, 0)['optionGroups'] as Record<string, unknown>[], 0), {
          options: [{ id: 'a' }, { id: 'a' }],
        });
      },
      /option id\(s\) a more than once/,
    ],
    [
      'duplicate variant ids',
      (c) => {
        at(c.offerings, 2)['variants'] = [{ id: 'v1' }, { id: 'v1' }];
      },
      /variant id\(s\) v1 more than once/,
    ],
  ])('reports %s', (_name, breakIt, problem) => {
    const c = catalog();
    breakIt(c);
    const { problems } = judgeCatalogConsistency(c, 'demo');
    expect(
      problems.some((p) => problem.test(p.text)),
      problems.map((p) => p.text).join('\n'),
    ).toBe(true);
  });

  it.each<[string, (c: Catalog) => void, RegExp]>([
    [
      'duplicate offering codes',
      (c) => {
        at(c.offerings, 1)['offeringCode'] = 'P1';
      },
      /offeringCode\(s\) P1 occur more than once/,
    ],
    [
      'a mismatching categoryTitle',
      (c) => {
        at(c.offerings, 1)['categoryTitle'] = 'Pizzas';
      },
      /categoryTitle "Pizzas" but category pizza is titled "Pizza"/,
    ],
    [
      'a required group with minSelections 0',
      (c) => {
        Object.assign(at(at(c.offerings, 0)['optionGroups'] as Record<string, unknown>[], 0), { minSelections: 0 });
      },
      /is required but minSelections is 0/,
    ],
    [
      'an empty catalog',
      (c) => {
        c.offerings = [];
        c.categories = [];
      },
      /no offerings/,
    ],
    // Issue 24 items 14 and 15: the contract states none of these, so they warn.
    [
      'an unknown categorySlug',
      (c) => {
        at(c.offerings, 2)['categorySlug'] = 'desserts';
      },
      /offering o3 has categorySlug "desserts", which is not a category slug/,
    ],
    [
      'a wrong offeringsCount',
      (c) => {
        at(c.categories, 0)['offeringsCount'] = 5;
      },
      /category pizza states offeringsCount 5, but the catalog lists 2/,
    ],
    [
      'max > options',
      (c) => {
        Object.assign(at(at(c.offerings, 0)['optionGroups'] as Record<string, unknown>[], 0), { maxSelections: 3 });
      },
      /maxSelections 3 > its 2 option\(s\)/,
    ],
  ])('warns about %s without failing', (_name, change, warning) => {
    const c = catalog();
    change(c);
    const { problems, warnings } = judgeCatalogConsistency(c, 'demo');
    expect(problems).toEqual([]);
    expect(
      warnings.some((w) => warning.test(w)),
      warnings.join('\n'),
    ).toBe(true);
  });

  it('reads what it can of a catalog that fails the schema', () => {
    const c = {
      providerSlug: 'demo',
      categories: 'nope',
      offerings: [null, { id: 'x', categorySlug: 'pizza' }, { id: 'x' }],
    };
    const { problems } = judgeCatalogConsistency(c, 'demo');
    expect(problems).toEqual([
      {
        text: 'offering id(s) x occur more than once; ids must identify one offering',
        requirement: 'ORDER-FLOW-BY-IDS',
      },
    ]);
    expect(judgeCatalogConsistency('not a catalog')).toEqual({ problems: [], warnings: [], notes: [] });
  });

  it('does not count offeringsCount when offerings omit the optional categorySlug: a note, not a failure', () => {
    const c = catalog();
    for (const o of c.offerings as Record<string, unknown>[]) delete o['categorySlug'];
    const judged = judgeCatalogConsistency(c, 'demo');
    expect(judged.problems).toEqual([]);
    expect(judged.warnings).toEqual([]);
    expect(judged.notes).toEqual(['offeringsCount not compared: 3 offering(s) omit the optional categorySlug']);
  });
});
