import { beforeAll, describe, expect, it } from 'vitest';
import type { Variant } from '../../src/reference-provider/index.js';
import { withProvider } from './fixture.js';
import { arr, at, certificationQuoteBody, createAction, num, startProvider, str } from './helpers.js';

/** Every answer of one certification-like pass over the provider, by name, and the events it caused. */
interface Pass {
  answers: Record<string, unknown>;
  events: { raw: string; json: unknown }[];
  quoteAskedAtMs: number;
}

async function runPass(variant: Variant): Promise<Pass> {
  return withProvider({ receiver: true, variant }, async ({ call, events }) => {
    const get = async (path: string) => (await call('GET', path)).json;
    const answers: Record<string, unknown> = {
      providerInfo: await get('/provider-info'),
      health: await get('/health'),
      locations: await get('/locations?activeOnly=false'),
      catalog: await get('/catalog'),
      offering: await get('/offerings/off-margherita'),
      search: await get('/search?q=pizza'),
      error: await get('/offerings/no-such-offering'),
    };
    const quoteAskedAtMs = Date.now();
    answers.quote = (await call('POST', '/quote', { body: await certificationQuoteBody(call) })).json;
    const { action } = await createAction(call);
    answers.action = action.json;
    const id = str(action.json, 'id');
    answers.paymentOptions = await get(`/actions/${id}/payment-options`);
    answers.cancel = (
      await call('POST', `/actions/${id}/cancel`, { body: { reason: 'CUSTOMER_CANCELLED: test' } })
    ).json;
    return {
      answers,
      events: (await events()).map((e) => ({ raw: e.raw, json: JSON.parse(e.raw) as unknown })),
      quoteAskedAtMs,
    };
  });
}

const cancellation = (pass: Pass): unknown => pass.events.find((e) => at(e.json, 'newStatus') === 'CANCELLED')?.json;

describe('the minimal variant', () => {
  let pass: Pass;
  beforeAll(async () => {
    pass = await runPass('minimal');
  });

  /** [answer.path, optional fields the contract lets a provider omit] */
  const omitted: [string, string[]][] = [
    ['providerInfo', ['environment', 'category', 'geography', 'authMethod', 'supportContact', 'metadata']],
    ['providerInfo.manifest', ['customerRequirements', 'inputMode']],
    ['health', ['details']],
    ['locations.0', ['latitude', 'longitude', 'serviceRadiusKm', 'isActive', 'metadata']],
    ['catalog', ['version']],
    ['catalog.categories.0', ['description', 'displayOrder', 'offeringsCount']],
    [
      'catalog.offerings.0',
      ['description', 'categorySlug', 'categoryTitle', 'currency', 'isAvailable', 'tags', 'metadata'],
    ],
    ['catalog.offerings.0.variants.0', ['metadata']],
    ['offering', ['description', 'categorySlug', 'currency', 'tags']],
    ['search.0', ['description', 'categorySlug', 'currency', 'tags']],
    ['quote', ['locationId', 'currency', 'totalDiscount', 'fees', 'discounts', 'metadata']],
    [
      'action',
      [
        'externalActionId',
        'quoteId',
        'paymentStatus',
        'fees',
        'discount',
        'currency',
        'customer',
        'fulfillmentType',
        'metadata',
      ],
    ],
    ['paymentOptions.0', ['checkoutUrl', 'isAvailable']],
    ['cancel', ['refundInitiated', 'externalActionId']],
  ];
  it.each(omitted)('%s omits %j', (path, fields) => {
    const value = at(pass.answers, path);
    expect(value, path).toBeTypeOf('object');
    for (const field of fields) expect(at(value, field), `${path}.${field}`).toBeUndefined();
  });

  it('keeps what certification needs: the manifest, nextAction, totalFees and what cannot be ordered', () => {
    expect(at(pass.answers, 'providerInfo.manifest.certification.safeTestEnvironment')).toBe(true);
    expect(at(pass.answers, 'providerInfo.manifest.certificationInput.items')).toBeInstanceOf(Array);
    expect(at(pass.answers, 'action.nextAction.type')).toBe('OPEN_URL');
    const truffle = arr(at(pass.answers, 'catalog.offerings')).find((o) => at(o, 'id') === 'off-truffle');
    expect(at(truffle, 'isAvailable')).toBe(false);
    const quote = pass.answers.quote;
    expect(num(quote, 'total')).toBe(num(quote, 'subtotal') + num(quote, 'totalFees'));
  });

  const timestamps = [
    'health.timestamp',
    'catalog.updatedAt',
    'quote.expiresAt',
    'action.createdAt',
    'action.updatedAt',
  ];
  it.each(timestamps)('%s is written without an offset', (path) => {
    expect(str(pass.answers, path)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });

  it('event timestamps have no offset, and the written expiry (read as UTC) keeps the full validity', () => {
    expect(pass.events.length).toBeGreaterThan(0);
    for (const event of pass.events) expect(str(event.json, 'timestamp')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(Date.parse(`${str(pass.answers, 'quote.expiresAt')}Z`) - pass.quoteAskedAtMs).toBeGreaterThanOrEqual(5_000);
    expect(at(cancellation(pass), 'reasonCode')).toBe('CUSTOMER_CANCELLED');
  });
});

describe('the noisy variant', () => {
  let pass: Pass;
  beforeAll(async () => {
    pass = await runPass('noisy');
  });

  const noisy = [
    'providerInfo',
    'providerInfo.manifest',
    'health',
    'locations.0',
    'catalog',
    'catalog.categories.0',
    'catalog.offerings.0',
    'catalog.offerings.0.optionGroups.0.options.0',
    'offering.variants.0',
    'search.0',
    'error',
    'quote',
    'quote.lines.0',
    'quote.lines.0.selectedOptions.0',
    'quote.fees.0',
    'action',
    'action.nextAction',
    'paymentOptions.0',
    'cancel',
  ];
  it.each(noisy)('%s carries unknown vendor fields', (path) => {
    expect(at(pass.answers, `${path}.x_vendor`), path).toBeTypeOf('object');
    expect(at(pass.answers, `${path}.internalNote`), path).toBeTypeOf('string');
  });

  it('leaves caller-supplied test data and free-form metadata alone', () => {
    expect(at(pass.answers, 'providerInfo.manifest.certificationInput.x_vendor')).toBeUndefined();
    expect(at(pass.answers, 'action.metadata.x_vendor')).toBeUndefined();
  });

  it('delivers every event twice with the same eventId and bytes, with vendor fields and its own reason code', () => {
    const byId = new Map<string, Pass['events']>();
    for (const event of pass.events)
      byId.set(str(event.json, 'eventId'), [...(byId.get(str(event.json, 'eventId')) ?? []), event]);
    expect(byId.size).toBe(2);
    for (const copies of byId.values()) {
      expect(copies).toHaveLength(2);
      expect(copies[1]?.raw).toBe(copies[0]?.raw);
      expect(at(copies[0]?.json, 'x_vendor')).toBeTypeOf('object');
    }
    expect(at(cancellation(pass), 'reasonCode')).toBe('CUSTOMER_CHANGED_MIND');
    expect(str(cancellation(pass), 'reason').length).toBeGreaterThan(12);
  });
});

describe('the standard variant', () => {
  it('is the default and adds nothing', async () => {
    await withProvider({}, async ({ call }) => {
      const catalog = (await call('GET', '/catalog')).json;
      expect(at(catalog, 'x_vendor')).toBeUndefined();
      expect(str(catalog, 'updatedAt')).toMatch(/Z$/);
    });
  });

  it('an unknown variant is refused at start', async () => {
    await expect(startProvider({ variant: 'chatty' as Variant })).rejects.toThrow(/unknown variant "chatty"/);
  });
});
