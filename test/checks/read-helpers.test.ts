import { describe, expect, it } from 'vitest';
import { requiredCapabilities, routeProbes } from '../../src/checks/capabilities.js';
import type { CatalogView, OfferingView } from '../../src/checks/framework/views.js';
import { certificationInputProblems } from '../../src/checks/metadata.js';
import { sampleOfferings } from '../../src/checks/offering.js';
import { searchQueryFor } from '../../src/checks/search.js';
import { deepEqual, diffTopLevel } from '../../src/checks/support/compare.js';
import { judgeSameOffering } from '../../src/checks/support/same-offering.js';
import { loadContract } from '../../src/contract/load.js';

const CATALOG: CatalogView = {
  providerSlug: 'demo',
  categories: [],
  offerings: [
    {
      id: 'o1',
      providerId: 'p',
      offeringCode: 'P1',
      title: 'Margherita Pizza',
      basePrice: 900,
      variants: [{ id: 'v1' }],
      optionGroups: [{ id: 'g1', options: [{ id: 'a' }] }],
    },
    { id: 'o2', providerId: 'p', offeringCode: 'D1', title: 'Lemonade', basePrice: 200 },
  ],
};

describe('deepEqual and diffTopLevel', () => {
  it('ignores key order, not values', () => {
    expect(deepEqual({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toBe(true);
    expect(deepEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(deepEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });

  it('separates changed fields from one-sided ones', () => {
    const diff = diffTopLevel(
      { id: 'o1', basePrice: 900, tags: ['x'] },
      { basePrice: 1000, id: 'o1', description: 'd' },
      { reference: 'catalog', actual: 'GET /offerings/o1' },
    );
    expect(diff.changed).toEqual(['basePrice 1000 (catalog 900)']);
    expect(diff.oneSided).toEqual(['description only in GET /offerings/o1', 'tags only in catalog']);
  });
});

describe('certificationInputProblems', () => {
  it.each<[string, NonNullable<Parameters<typeof certificationInputProblems>[0]['items']>, string[]]>([
    [
      'valid references',
      [{ offeringId: 'o1', variantId: 'v1', quantity: 2, selectedOptions: [{ groupId: 'g1', optionId: 'a' }] }],
      [],
    ],
    [
      'an unknown offering',
      [{ offeringId: 'nope', quantity: 1 }],
      ['manifest.certificationInput.items[0].offeringId "nope" is not an offering id of GET /catalog'],
    ],
    [
      'an unknown variant',
      [{ offeringId: 'o1', variantId: 'v9', quantity: 1 }],
      ['manifest.certificationInput.items[0].variantId "v9" is not a variant of offering o1'],
    ],
    [
      'an unknown group',
      [{ offeringId: 'o1', quantity: 1, selectedOptions: [{ groupId: 'g9', optionId: 'a' }] }],
      ['manifest.certificationInput.items[0].selectedOptions[0].groupId "g9" is not an option group of offering o1'],
    ],
    [
      'an unknown option',
      [{ offeringId: 'o1', quantity: 1, selectedOptions: [{ groupId: 'g1', optionId: 'z' }] }],
      ['manifest.certificationInput.items[0].selectedOptions[0].optionId "z" is not an option of group g1'],
    ],
  ])('%s', (_name, items, problems) => {
    expect(certificationInputProblems({ items }, CATALOG)).toEqual(problems);
  });
});

describe('searchQueryFor', () => {
  it('prefers certificationInput.searchQuery, else the longest word of the first title', () => {
    expect(searchQueryFor(CATALOG, ' pizza ')).toBe('pizza');
    expect(searchQueryFor(CATALOG, undefined)).toBe('Margherita');
    expect(searchQueryFor({ ...CATALOG, offerings: [] }, '')).toBeUndefined();
  });
});

describe('sampleOfferings', () => {
  it('takes all of a small catalog, else first, middle and last', () => {
    expect(sampleOfferings([1, 2])).toEqual([1, 2]);
    expect(sampleOfferings([1, 2, 3, 4, 5, 6, 7])).toEqual([1, 4, 7]);
  });
});

describe('capabilities from the spec', () => {
  it('derives the required capabilities of each profile and fulfillment', async () => {
    const contract = await loadContract();
    expect(requiredCapabilities(contract, 'DISCOVERY_READONLY', 'REMOTE').sort()).toEqual([
      'CATALOG',
      'HEALTH',
      'METADATA',
    ]);
    expect(requiredCapabilities(contract, 'TRANSACTIONAL', 'REMOTE').sort()).toEqual([
      'ACTION_CREATE',
      'ACTION_STATUS',
      'CATALOG',
      'HEALTH',
      'METADATA',
      'QUOTE',
      'WEBHOOK',
    ]);
    expect(requiredCapabilities(contract, 'DISCOVERY_READONLY', 'PICKUP')).toContain('LOCATIONS');
  });

  it('probes only GET routes without path parameters of declared capabilities', async () => {
    const contract = await loadContract();
    const probes = routeProbes(contract, [
      'METADATA',
      'HEALTH',
      'CATALOG',
      'SEARCH',
      'ACTION_STATUS',
      'PAYMENT_OPTIONS',
    ]);
    expect(probes).toEqual([
      { capability: 'METADATA', path: '/provider-info' },
      { capability: 'HEALTH', path: '/health' },
      { capability: 'CATALOG', path: '/catalog' },
      { capability: 'SEARCH', path: '/search', query: { q: 'test' } },
    ]);
  });
});

describe('judgeSameOffering: ids fail, other values warn (issue 24 item 13)', () => {
  const catalogOffering = {
    id: 'o1',
    providerId: 'p1',
    offeringCode: 'C1',
    title: 'Margherita',
    basePrice: 900,
    tags: ['veg', 'classic'],
  } as unknown as OfferingView;
  it.each<[string, Record<string, unknown>, RegExp[], RegExp[]]>([
    ['the same offering', {}, [], []],
    ['tags in another order', { tags: ['classic', 'veg'] }, [], [/other values .*tags/]],
    ['a longer description', { description: 'Tomato, mozzarella' }, [], [/description only in/]],
    ['metadata only here', { metadata: { pos: 1 } }, [], [/metadata only in/]],
    ['another price', { basePrice: 950 }, [], [/other values .*basePrice 950 \(catalog 900\)/]],
    ['another id', { id: 'o2' }, [/differs .*: id "o2" \(catalog "o1"\).*same provider and product ids/], []],
    ['another providerId', { providerId: 'p9' }, [/providerId "p9"/], []],
  ])('%s', (_name, change, problems, warnings) => {
    const judged = judgeSameOffering(catalogOffering, { ...catalogOffering, ...change }, 'GET /offerings/o1');
    expect(judged.problems).toHaveLength(problems.length);
    problems.forEach((p, i) => expect(judged.problems[i]).toMatch(p));
    expect(judged.warnings).toHaveLength(warnings.length);
    warnings.forEach((w, i) => expect(judged.warnings[i]).toMatch(w));
  });
});
