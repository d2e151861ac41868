import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/manual-clock.js';
import { providerForSuite, withProvider } from './fixture.js';
import { arr, at, certificationQuoteBody, num, str } from './helpers.js';

const { call } = providerForSuite();

interface Item {
  offeringId: string;
  variantId?: string;
  quantity: number;
  selectedOptions?: { groupId: string; optionId: string; quantity?: number }[];
}

/** The expected line totals, computed from the published catalog with DECISIONS.md's formulas. */
function expectedLine(catalog: unknown, item: Item): { unitPrice: number; optionsTotal: number; lineTotal: number } {
  const offering = arr(at(catalog, 'offerings')).find((o) => at(o, 'id') === item.offeringId);
  const variant =
    item.variantId === undefined
      ? undefined
      : arr(at(offering, 'variants')).find((v) => at(v, 'id') === item.variantId);
  const unitPrice = num(variant ?? offering, 'basePrice');
  let optionsTotal = 0;
  for (const selected of item.selectedOptions ?? []) {
    const group = arr(at(offering, 'optionGroups')).find((g) => at(g, 'id') === selected.groupId);
    const option = arr(at(group, 'options')).find((o) => at(o, 'id') === selected.optionId);
    optionsTotal += num(option, 'priceDelta') * (selected.quantity ?? 1) * item.quantity;
  }
  return { unitPrice, optionsTotal, lineTotal: unitPrice * item.quantity + optionsTotal };
}

describe('POST /quote math', () => {
  it('prices the certification selection line by line and in total', async () => {
    const body = await certificationQuoteBody(call);
    const catalog = (await call('GET', '/catalog')).json;
    const answeredAt = Date.now();
    const quote = (await call('POST', '/quote', { body })).json;
    const items = body.items as Item[];

    const lines = arr(at(quote, 'lines'));
    expect(lines).toHaveLength(items.length);
    items.forEach((item, i) => {
      expect(lines[i]).toMatchObject({
        offeringId: item.offeringId,
        variantId: item.variantId,
        quantity: item.quantity,
        ...expectedLine(catalog, item),
      });
    });
    // The option price must be multiplied by the item quantity: the first line exercises it.
    expect(lines[0]).toMatchObject({ unitPrice: 1650, quantity: 2, optionsTotal: 240, lineTotal: 3540 });
    expect(arr(at(lines[0], 'selectedOptions'))[1]).toEqual({
      groupId: 'grp-margherita-toppings',
      optionId: 'opt-margherita-top-olives',
      name: 'Olives',
      priceDelta: 120,
      quantity: 1,
    });

    const subtotal = lines.reduce((sum: number, l) => sum + num(l, 'lineTotal'), 0);
    const fees = arr(at(quote, 'fees')).reduce((sum: number, f) => sum + num(f, 'amount'), 0);
    expect(num(quote, 'subtotal')).toBe(subtotal);
    expect(num(quote, 'totalFees')).toBe(fees);
    expect(num(quote, 'totalDiscount')).toBe(0);
    expect(num(quote, 'total')).toBe(subtotal + fees - 0);
    expect(num(quote, 'total')).toBe(4636);
    expect(Date.parse(str(quote, 'expiresAt')) - answeredAt).toBeGreaterThanOrEqual(5_000);
  });

  it('defaults an option quantity to 1 and multiplies explicit option quantities', async () => {
    const quote = (
      await call('POST', '/quote', {
        body: {
          items: [
            {
              offeringId: 'off-caesar',
              quantity: 3,
              selectedOptions: [
                { groupId: 'grp-caesar-extras', optionId: 'opt-caesar-chicken', quantity: 2 },
                { groupId: 'grp-caesar-extras', optionId: 'opt-caesar-egg' },
              ],
            },
          ],
        },
      })
    ).json;
    expect(at(quote, 'lines.0.optionsTotal')).toBe(250 * 2 * 3 + 80 * 1 * 3);
    expect(at(quote, 'lines.0.lineTotal')).toBe(990 * 3 + 250 * 2 * 3 + 80 * 3);
    expect(at(quote, 'locationId')).toBe('loc-downtown');
  });
});

const crust = { groupId: 'grp-margherita-crust', optionId: 'opt-margherita-crust-classic' };
const topping = (name: string) => ({ groupId: 'grp-margherita-toppings', optionId: `opt-margherita-top-${name}` });
const margherita = (extra: Record<string, unknown>) => ({
  offeringId: 'off-margherita',
  quantity: 1,
  selectedOptions: [crust],
  ...extra,
});

describe('POST /quote validation', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['quantity 0', { items: [margherita({ quantity: 0 })] }, /quantity must be an integer >= 1 \(found 0\)/],
    ['fractional quantity', { items: [margherita({ quantity: 1.5 })] }, /quantity/],
    ['quantity as a string', { items: [margherita({ quantity: '2' })] }, /quantity/],
    ['no items', { items: [] }, /items must be a non-empty array/],
    ['unknown offering', { items: [{ offeringId: 'off-nothing', quantity: 1 }] }, /unknown offering "off-nothing"/],
    [
      'unavailable offering',
      {
        items: [
          {
            offeringId: 'off-truffle',
            quantity: 1,
            selectedOptions: [{ groupId: 'grp-truffle-crust', optionId: 'opt-truffle-crust-classic' }],
          },
        ],
      },
      /"off-truffle".*not available/,
    ],
    ['unknown variant', { items: [margherita({ variantId: 'var-nothing' })] }, /unknown variant/],
    [
      'unavailable variant',
      { items: [margherita({ variantId: 'var-margherita-50' })] },
      /variant "var-margherita-50".*not available/,
    ],
    ['unknown option', { items: [margherita({ selectedOptions: [crust, topping('pineapple')] })] }, /unknown option/],
    ['unavailable option', { items: [margherita({ selectedOptions: [crust, topping('jalapeno')] })] }, /not available/],
    [
      'option selected twice',
      { items: [margherita({ selectedOptions: [crust, topping('basil'), topping('basil')] })] },
      /selected twice/,
    ],
    [
      'option quantity 0',
      { items: [margherita({ selectedOptions: [{ ...crust, quantity: 0 }] })] },
      /selectedOptions\[0\]\.quantity/,
    ],
    [
      'required group missing',
      { items: [margherita({ selectedOptions: [] })] },
      /required option group "grp-margherita-crust".*missing/,
    ],
    [
      'more than maxSelections',
      { items: [margherita({ selectedOptions: [crust, topping('basil'), topping('olives'), topping('mozzarella')] })] },
      /at most 2 selections \(found 3\)/,
    ],
    ['unknown location', { locationId: 'loc-moon', items: [margherita({})] }, /unknown locationId "loc-moon"/],
    ['inactive location', { locationId: 'loc-harbour', items: [margherita({})] }, /not active/],
    ['another provider', { providerSlug: 'other-kitchen', items: [margherita({})] }, /providerSlug/],
  ];

  it.each(cases)('rejects %s with 400 INVALID_ARGUMENT naming the problem', async (_name, body, message) => {
    const answer = await call('POST', '/quote', { body });
    expect(answer.status).toBe(400);
    expect(at(answer.json, 'code')).toBe('INVALID_ARGUMENT');
    expect(str(answer.json, 'message')).toMatch(message);
  });

  it('accepts the same item with valid selections', async () => {
    const answer = await call('POST', '/quote', {
      body: { items: [margherita({ selectedOptions: [crust, topping('basil'), topping('olives')] })] },
    });
    expect(answer.status).toBe(200);
  });
});

describe('quote expiry', () => {
  it('an expired quote answers 422 QUOTE_EXPIRED and creates nothing', async () => {
    // The provider's clock is moved past the expiry instead of waited on: the wait is not what is tested.
    const clock = new ManualClock();
    await withProvider({ quoteTtlSeconds: 5, clock }, async ({ provider: shortLived, call: shortCall }) => {
      const quote = (await shortCall('POST', '/quote', { body: await certificationQuoteBody(shortCall) })).json;
      expect(Date.parse(str(quote, 'expiresAt')) - clock.now()).toBe(5000);
      await clock.advance(5000);
      const answer = await shortCall('POST', '/actions', {
        body: {
          providerSlug: 'demo-kitchen',
          quoteId: str(quote, 'id'),
          userConfirmed: true,
          idempotencyKey: 'expired-1',
        },
      });
      expect(answer.status).toBe(422);
      expect(at(answer.json, 'code')).toBe('QUOTE_EXPIRED');
      expect(shortLived.webhookDeliveries).toHaveLength(0);

      // Nothing was created: the next action gets the first public number, and the key is still free.
      const fresh = (await shortCall('POST', '/quote', { body: await certificationQuoteBody(shortCall) })).json;
      const created = await shortCall('POST', '/actions', {
        body: {
          providerSlug: 'demo-kitchen',
          quoteId: str(fresh, 'id'),
          userConfirmed: true,
          idempotencyKey: 'expired-1',
        },
      });
      expect(created.status).toBe(200);
      expect(at(created.json, 'publicId')).toBe('DK-1001');
    });
  });
});
