import { describe, expect, it } from 'vitest';
import type { QuoteAttempt } from '../../../src/checks/framework/resources.js';
import type { OfferingView } from '../../../src/checks/framework/views.js';
import { buildModel } from '../../../src/checks/support/explore/catalog-model.js';
import {
  fitOrder,
  MAX_CART_ITEMS,
  numericSeed,
  type Order,
  sampleOrders,
  shrinkOrder,
  smallerOrder,
} from '../../../src/checks/support/explore/orders.js';
import { describeReach, reachOf } from '../../../src/checks/support/explore/reach.js';
import { boundaryCases, refusalCases } from '../../../src/checks/support/explore/refusals.js';
import { quoteValidOrder } from '../../../src/checks/support/valid-order.js';
import type { HttpOutcome } from '../../../src/http/types.js';
import type { Exchange } from '../../../src/model/exchange.js';
import { offering as offeringOf } from './catalog.js';

/** The pure parts of quote-explore (issue 19): catalog model, generated orders, refusals, reach, the 5xx/4xx rule. */

/** Offerings at 500 unless given. */
const offering = (id: string, extra: Partial<OfferingView> = {}): OfferingView =>
  offeringOf(id, { basePrice: 500, ...extra });

const CATALOG: OfferingView[] = [
  offering('pizza', {
    variants: [
      { id: 'pizza-30', basePrice: 1000 },
      { id: 'pizza-40', basePrice: 1400 },
      { id: 'pizza-50', basePrice: 1800, isAvailable: false },
    ],
    optionGroups: [
      {
        id: 'crust',
        isRequired: true,
        minSelections: 1,
        maxSelections: 1,
        options: [
          { id: 'thin', priceDelta: 0 },
          { id: 'thick', priceDelta: 100 },
        ],
      },
      {
        id: 'top',
        isRequired: false,
        minSelections: 0,
        maxSelections: 2,
        options: [
          { id: 'olives', priceDelta: 120 },
          { id: 'basil', priceDelta: 50 },
          { id: 'ham', priceDelta: 200 },
          { id: 'chili', priceDelta: 90, isAvailable: false },
        ],
      },
    ],
  }),
  offering('water'),
  offering('truffle', { isAvailable: false }),
  offering('broken', {
    optionGroups: [{ id: 'odd', minSelections: 3, maxSelections: 1, options: [{ id: 'x' }] }],
  }),
];

const model = buildModel(CATALOG, ['loc-a', 'loc-b']);

describe('the catalog model', () => {
  it('reads every limit: required groups need one, maxSelections is capped by the available options', () => {
    expect(model.offerings.map((o) => o.id)).toEqual(['pizza', 'water']);
    const [crust, top] = model.offerings[0]?.groups ?? [];
    expect(crust).toMatchObject({ min: 1, max: 1, options: ['thin', 'thick'] });
    expect(top).toMatchObject({ min: 0, max: 2, options: ['olives', 'basil', 'ham'], declaredMax: 2 });
    expect(model.offerings[0]?.variants).toEqual(['pizza-30', 'pizza-40']);
  });

  it('lists what is unavailable and leaves out what no valid order can hold', () => {
    expect(model.unavailableOfferings.map((o) => o.id)).toEqual(['truffle']);
    expect(model.unavailableVariants).toEqual([{ offeringId: 'pizza', variantId: 'pizza-50' }]);
    expect(model.unavailableOptions).toEqual([{ offeringId: 'pizza', groupId: 'top', optionId: 'chili' }]);
    expect(model.unorderable).toEqual(['broken']);
  });
});

/** Whether an order is valid for the model (what the generator promises). */
function validFor(order: Order): boolean {
  return order.items.every((item) => {
    const o = model.offerings.find((m) => m.id === item.offeringId);
    if (!o || item.quantity < 1) return false;
    if (o.variants.length > 0 && !o.variants.includes(item.variantId ?? '')) return false;
    return o.groups.every((g) => {
      const chosen = (item.selectedOptions ?? []).filter((s) => s.groupId === g.id);
      return chosen.length >= g.min && chosen.length <= g.max && chosen.every((s) => g.options.includes(s.optionId));
    });
  });
}

describe('generated orders', () => {
  it('are valid, reproducible from the seed, and different for another seed', async () => {
    const orders = await sampleOrders(model, 7, 200);
    expect(orders).toHaveLength(200);
    expect(orders.filter((o) => !validFor(o))).toEqual([]);
    expect(orders.every((o) => o.items.length >= 1 && o.items.length <= MAX_CART_ITEMS)).toBe(true);
    expect(await sampleOrders(model, 7, 200)).toEqual(orders);
    expect(await sampleOrders(model, 8, 200)).not.toEqual(orders);
  });

  it('reach every dimension of the model over a default budget', async () => {
    const reach = reachOf(model, await sampleOrders(model, 1, 100));
    expect(reach).toMatchObject({
      offerings: [2, 2],
      variants: [2, 2],
      options: [5, 5],
      boundaries: [4, 4],
      locations: [2, 2],
      sameOfferingTwice: true,
    });
    expect(reach.largestQuantity).toBeGreaterThanOrEqual(10);
    expect(reach.largestOptionQuantity).toBeGreaterThan(1);
    expect(describeReach(reach)).toMatch(/^reached 2\/2 offerings, 2\/2 variants, 5\/5 options, 4\/4 group boundaries/);
  });

  it('take a seed from any run seed: an integer as is, any other text hashed the same way each time', () => {
    expect(numericSeed('42')).toBe(42);
    expect(numericSeed('a1b2c3d4')).toBe(numericSeed('a1b2c3d4'));
    expect(numericSeed('a1b2c3d4')).not.toBe(numericSeed('a1b2c3d5'));
  });

  it('shrink a failing order, with fast-check, to the fewest items and smallest quantity that still fail', async () => {
    const orders = await sampleOrders(model, 3, 100);
    const index = orders.findIndex((o) => o.items.length > 2 && o.items.some((i) => i.quantity >= 10));
    expect(index).toBeGreaterThanOrEqual(0);
    const shrunk = await shrinkOrder({
      model,
      seed: 3,
      index,
      stillFails: async (order) => (order.items.some((i) => i.quantity >= 10) ? true : undefined),
    });
    expect(shrunk?.order.items).toHaveLength(1);
    expect(shrunk?.order.items[0]?.quantity).toBe(10);
  });

  it('stay within bounds learnt from refusals', () => {
    const order: Order = {
      items: [
        { offeringId: 'water', quantity: 30 },
        { offeringId: 'water', quantity: 2 },
        { offeringId: 'water', quantity: 1 },
      ],
    };
    expect(fitOrder(order, { items: 2, quantity: 10 }).items.map((i) => i.quantity)).toEqual([10, 2]);
    expect(smallerOrder(order)).toMatchObject({ caps: { items: 2, quantity: 15 } });
    expect(smallerOrder({ items: [{ offeringId: 'water', quantity: 1 }] })).toBeUndefined();
  });
});

describe('limit cases', () => {
  const at = { locationId: 'loc-a' };

  it('quote both ends of every group range', () => {
    expect(boundaryCases(model, at).map((c) => c.boundary)).toEqual(['crust@min/max', 'top@min', 'top@max']);
  });

  it('refuse every broken limit, each in exactly one way', () => {
    const cases = refusalCases(model, at);
    const named = cases.map((c) => `${c.requirement} ${c.describe}`);
    expect(named).toEqual([
      'QUOTE-SELECTION-LIMITS 2 options in group crust of offering pizza (maxSelections 1)',
      'QUOTE-SELECTION-LIMITS no choice in group crust of offering pizza (required)',
      'QUOTE-SELECTION-LIMITS 3 options in group top of offering pizza (maxSelections 2)',
      'QUOTE-UNAVAILABLE unavailable offering truffle',
      'QUOTE-UNAVAILABLE unavailable variant pizza-50 of offering pizza',
      'QUOTE-UNAVAILABLE unavailable option chili in group top of offering pizza',
      "QUOTE-SELECTION-LIMITS option thin of offering pizza's group crust on offering water",
      'QUOTE-SELECTION-LIMITS quantity 0 of offering pizza',
      'QUOTE-SELECTION-LIMITS quantity -1 of offering pizza',
      'ERROR-NOT-FOUND unknown offering id provcert-unknown-offering',
      'ERROR-NOT-FOUND unknown variant id provcert-unknown-variant of offering pizza',
      'ERROR-NOT-FOUND unknown option id provcert-unknown-option in group top of offering pizza',
    ]);
    expect(cases.every((c) => c.order.items.length === 1 && c.order.locationId === 'loc-a')).toBe(true);
  });
});

describe('a valid order answered 4xx or 5xx (DECISIONS.md, Exploration)', () => {
  const exchange = {} as Exchange;
  const response = (status: number, json: unknown, bodyKind: 'json' | 'html' = 'json'): QuoteAttempt => ({
    outcome: {
      kind: 'response',
      status,
      headers: {},
      contentType: 'application/json',
      text: JSON.stringify(json),
      bodyKind,
      json,
      durationMs: 1,
      exchange,
    } satisfies HttpOutcome,
    answeredAt: 0,
  });
  const answers = (...list: QuoteAttempt[]) => {
    let i = 0;
    return async () => list[Math.min(i++, list.length - 1)] as QuoteAttempt;
  };
  const error = (status: number) =>
    response(status, { code: status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_ARGUMENT', message: 'too many' });

  it('retries a 5xx once and judges the second answer', async () => {
    const once = await quoteValidOrder(answers(error(503), response(200, {})));
    expect(once).toMatchObject({ retriedAfter: 'HTTP 503 INTERNAL_ERROR' });
    expect(once.attempt.outcome.kind === 'response' && once.attempt.outcome.status).toBe(200);
    const twice = await quoteValidOrder(answers(error(500), error(500)));
    expect(twice.attempt.outcome.kind === 'response' && twice.attempt.outcome.status).toBe(500);
    expect(twice.refusal).toBeUndefined();
  });

  it('reads a clear 4xx ErrorResponse as the provider refusing (a bound), and nothing else', async () => {
    expect((await quoteValidOrder(answers(error(400)))).refusal).toBe('HTTP 400 INVALID_ARGUMENT: too many');
    expect((await quoteValidOrder(answers(response(400, { oops: true })))).refusal).toBeUndefined();
    expect((await quoteValidOrder(answers(response(400, 'x', 'html')))).refusal).toBeUndefined();
  });
});
