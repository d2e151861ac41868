import { describe, expect, it } from 'vitest';
import { AUTH_METHODS } from '../../src/model/contract-constants.js';
import { providerForSuite, withProvider } from './fixture.js';
import {
  arr,
  at,
  authHeaders,
  CREDENTIAL,
  certificationQuoteBody,
  createAction,
  hmac,
  num,
  obj,
  str,
} from './helpers.js';

describe.each(AUTH_METHODS)('reference provider with %s', (authMethod) => {
  const reference = providerForSuite({ authMethod });
  const { call } = reference;

  it('GET /provider-info describes a sandbox DELIVERY provider with all capabilities and a safe manifest', async () => {
    const answer = await call('GET', '/provider-info');
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('application/json');
    expect(answer.json).toMatchObject({
      slug: 'demo-kitchen',
      status: 'SANDBOX',
      type: 'DELIVERY',
      authMethod,
      environment: 'sandbox',
    });
    expect(arr(at(answer.json, 'capabilities'))).toHaveLength(11);
    expect(at(answer.json, 'manifest.certification.safeTestEnvironment')).toBe(true);
    expect(at(answer.json, 'manifest.inputMode')).toBe('OFFERING');
    const items = arr(at(answer.json, 'manifest.certificationInput.items'));
    expect(items.length).toBeGreaterThanOrEqual(2);
    expect(num(items[0], 'quantity')).toBe(2);
  });

  it('GET /health is HEALTHY with a measured latency and an ISO timestamp', async () => {
    const answer = await call('GET', '/health');
    expect(answer.status).toBe(200);
    expect(at(answer.json, 'status')).toBe('HEALTHY');
    expect(typeof at(answer.json, 'latencyMs')).toBe('number');
    const timestamp = str(answer.json, 'timestamp');
    expect(new Date(timestamp).toISOString()).toBe(timestamp);
    expect(typeof at(answer.json, 'details.uptimeSeconds')).toBe('number');
  });

  it('GET /locations returns only active locations unless activeOnly=false', async () => {
    const active = arr((await call('GET', '/locations')).json);
    expect(active.map((l) => at(l, 'id'))).toEqual(['loc-downtown']);
    const all = arr((await call('GET', '/locations?activeOnly=false')).json);
    expect(all.map((l) => at(l, 'isActive'))).toEqual([true, false]);
    expect((await call('GET', '/locations?activeOnly=maybe')).status).toBe(400);
  });

  it('GET /catalog lists categories with consistent counts and integer prices', async () => {
    const answer = await call('GET', '/catalog');
    expect(answer.status).toBe(200);
    const offerings = arr(at(answer.json, 'offerings'));
    const categories = arr(at(answer.json, 'categories'));
    expect(offerings.length).toBeGreaterThanOrEqual(5);
    for (const category of categories) {
      expect(num(category, 'offeringsCount')).toBe(
        offerings.filter((o) => at(o, 'categorySlug') === at(category, 'slug')).length,
      );
    }
    for (const offering of offerings) expect(Number.isInteger(at(offering, 'basePrice'))).toBe(true);
    expect(offerings.some((o) => at(o, 'isAvailable') === false)).toBe(true);

    const drinks = (await call('GET', '/catalog?category=drinks&locationId=loc-downtown&context=%7B%7D')).json;
    expect(arr(at(drinks, 'offerings')).every((o) => at(o, 'categorySlug') === 'drinks')).toBe(true);
    expect(arr(at(drinks, 'categories')).map((c) => at(c, 'slug'))).toEqual(['drinks']);
  });

  it('GET /offerings/{id} finds an offering by id and by (URL-encoded) offeringCode, 404 otherwise', async () => {
    const catalog = (await call('GET', '/catalog')).json;
    const first = arr(at(catalog, 'offerings'))[0];
    expect((await call('GET', `/offerings/${str(first, 'id')}`)).json).toEqual(first);
    expect(
      (await call('GET', `/offerings/${encodeURIComponent(str(first, 'offeringCode')).replace('-', '%2D')}`)).json,
    ).toEqual(first);
    const missing = await call('GET', '/offerings/no-such-offering');
    expect(missing.status).toBe(404);
    expect(at(missing.json, 'code')).toBe('NOT_FOUND');
  });

  it('GET /search requires q, matches offerings and honours limit (default 20)', async () => {
    expect(at((await call('GET', '/search')).json, 'code')).toBe('INVALID_ARGUMENT');
    const pizzas = arr((await call('GET', '/search?q=pizza')).json);
    expect(pizzas.map((o) => at(o, 'id'))).toEqual(['off-margherita', 'off-pepperoni', 'off-truffle']);
    expect(arr((await call('GET', '/search?q=pizza&limit=1')).json)).toHaveLength(1);
    expect(arr((await call('GET', '/search?q=vegan')).json).length).toBe(2);
  });

  it('POST /quote, POST /actions, GET /actions/{id}, payment options and cancel form one order flow', async () => {
    const { quote, action } = await createAction(call);
    expect(action.status).toBe(200);
    expect(action.json).toMatchObject({
      providerSlug: 'demo-kitchen',
      status: 'AWAITING_PAYMENT',
      paymentStatus: 'PENDING',
      quoteId: str(quote, 'id'),
      total: num(quote, 'total'),
      subtotal: num(quote, 'subtotal'),
      fees: num(quote, 'totalFees'),
      fulfillmentType: 'STANDARD',
      nextAction: { type: 'OPEN_URL' },
    });
    // The checkout page is the provider's own, on the host it was called on, and opens without a credential.
    const checkout = str(action.json, 'nextAction.url');
    expect(checkout).toBe(`${reference.provider.url}/checkout/${str(action.json, 'id')}`);
    const page = await fetch(checkout);
    expect([page.status, page.headers.get('content-type'), await page.text()]).toEqual([
      200,
      'text/html; charset=utf-8',
      expect.stringContaining('no payment is taken'),
    ]);
    expect(str(action.json, 'externalActionId')).not.toBe(str(action.json, 'publicId'));

    const id = str(action.json, 'id');
    const publicId = str(action.json, 'publicId');
    // Opening the page took no payment.
    expect((await call('GET', `/actions/${id}`)).json).toEqual(action.json);
    expect((await call('GET', `/actions/${publicId}`)).json).toEqual(action.json);
    expect((await call('GET', '/actions/act_unknown')).status).toBe(404);

    const options = arr((await call('GET', `/actions/${id}/payment-options`)).json);
    expect(options.map((o) => at(o, 'type'))).toEqual(['CARD', 'CASH']);

    const cancel = await call('POST', `/actions/${id}/cancel`, {
      body: { reason: 'CUSTOMER_CANCELLED: changed mind' },
    });
    expect(cancel.json).toEqual({
      success: true,
      actionId: publicId,
      externalActionId: str(action.json, 'externalActionId'),
      previousStatus: 'AWAITING_PAYMENT',
      newStatus: 'CANCELLED',
      message: `Order ${publicId} cancelled`,
      refundInitiated: false,
    });
    const after = (await call('GET', `/actions/${publicId}`)).json;
    expect(at(after, 'status')).toBe('CANCELLED');
    expect(at(after, 'nextAction')).toBeUndefined();
    const again = await call('POST', `/actions/${id}/cancel`, { body: {} });
    expect(again.status).toBe(422);
    expect(at(again.json, 'code')).toBe('INVALID_ARGUMENT');
  });

  it('rejects a wrong and a missing credential with 401 UNAUTHORIZED on reads and on POST /quote', async () => {
    const body = await certificationQuoteBody(call);
    for (const credential of [null, `${CREDENTIAL}x`, CREDENTIAL.toUpperCase()]) {
      for (const [method, path] of [
        ['GET', '/catalog'],
        ['GET', '/provider-info'],
        ['POST', '/quote'],
      ] as const) {
        const answer = await call(method, path, { credential, ...(method === 'POST' ? { body } : {}) });
        expect(answer.status, `${method} ${path} with ${credential === null ? 'no' : 'a wrong'} credential`).toBe(401);
        expect(obj(answer.json)).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String) });
        expect(answer.text).not.toContain(CREDENTIAL);
      }
    }
  });

  it('answers unknown routes and malformed bodies with JSON ErrorResponses', async () => {
    const unknown = await call('GET', '/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.contentType).toBe('application/json');
    expect(at(unknown.json, 'code')).toBe('NOT_FOUND');
    expect((await call('POST', '/catalog')).status).toBe(404);

    const raw = '{"items": [';
    const response = await fetch(`${reference.provider.url}/quote`, {
      method: 'POST',
      body: raw,
      headers: { 'content-type': 'application/json', ...authHeaders(authMethod, CREDENTIAL, raw) },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('records every request in order', async () => {
    const before = reference.provider.requests.length;
    await call('GET', '/health');
    await call('GET', '/catalog?category=pizza');
    expect(reference.provider.requests.slice(before)).toEqual([
      { method: 'GET', path: '/health' },
      { method: 'GET', path: '/catalog' },
    ]);
  });
});

describe('HMAC_SIGNATURE verification', () => {
  it('covers the exact raw bytes: a signature over other bytes is rejected, GET signs the empty string', async () => {
    await withProvider({ authMethod: 'HMAC_SIGNATURE' }, async ({ provider, call }) => {
      const body = JSON.stringify(await certificationQuoteBody(call));
      const post = (signature: string, sent: string) =>
        fetch(`${provider.url}/quote`, {
          method: 'POST',
          body: sent,
          headers: { 'content-type': 'application/json', 'x-service-signature': signature },
        });
      expect((await post(hmac(CREDENTIAL, body), body)).status).toBe(200);
      expect((await post(hmac(CREDENTIAL, body).toUpperCase(), body)).status).toBe(200);
      expect((await post(hmac(CREDENTIAL, body), body.replace('"quantity":2', '"quantity":3'))).status).toBe(401);
      const pretty = JSON.stringify(JSON.parse(body), null, 2);
      expect((await post(hmac(CREDENTIAL, body), pretty)).status).toBe(401);
      expect((await post(`sha256=${hmac(CREDENTIAL, body)}`, body)).status).toBe(401);
      const get = await fetch(`${provider.url}/health`, { headers: { 'x-service-signature': hmac(CREDENTIAL, '') } });
      expect(get.status).toBe(200);
    });
  });
});
