import { beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '../../src/contract/contract.js';
import { loadContract } from '../../src/contract/load.js';
import { VARIANTS } from '../../src/reference-provider/index.js';
import { providerForSuite } from './fixture.js';
import { arr, at, certificationQuoteBody, createAction, str } from './helpers.js';

describe.each(VARIANTS)('the %s reference provider conforms to spec/openapi.yaml', (variant) => {
  let contract: Contract;
  const reference = providerForSuite({ receiver: true, variant });
  const { call } = reference;

  beforeAll(async () => {
    contract = await loadContract();
  });

  /** Sends the request and validates the answer against the operation's response schema in spec/openapi.yaml. */
  async function conforms(operation: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const answer = await call(method, path, body === undefined ? {} : { body });
    const result = contract.validateResponse(operation, answer.status, answer.json);
    expect(result, `${operation} ${answer.status}: the spec defines this response`).toBeDefined();
    expect(result?.problems.map((p) => p.text) ?? [], `${method} ${path} → ${answer.status}`).toEqual([]);
    return answer.json;
  }

  it('every route answers 200 with a body valid against its schema', async () => {
    await conforms('GET /provider-info', 'GET', '/provider-info');
    await conforms('GET /health', 'GET', '/health');
    await conforms('GET /locations', 'GET', '/locations?activeOnly=false');
    const catalog = await conforms('GET /catalog', 'GET', '/catalog');
    for (const offering of arr(at(catalog, 'offerings')))
      await conforms('GET /offerings/{id}', 'GET', `/offerings/${str(offering, 'id')}`);
    await conforms('GET /search', 'GET', '/search?q=pizza&limit=2');
    await conforms('POST /quote', 'POST', '/quote', await certificationQuoteBody(call));

    const { action } = await createAction(call, { idempotencyKey: 'spec-1' });
    expect(contract.validateResponse('POST /actions', action.status, action.json)?.problems ?? []).toEqual([]);
    const id = str(action.json, 'id');
    await conforms('GET /actions/{id}', 'GET', `/actions/${id}`);
    await conforms('GET /actions/{id}/payment-options', 'GET', `/actions/${id}/payment-options`);
    await conforms('POST /actions/{id}/cancel', 'POST', `/actions/${id}/cancel`, {
      reason: 'CUSTOMER_CANCELLED: test',
    });
    await conforms('GET /actions/{id}', 'GET', `/actions/${id}`);

    const events = (await reference.events()).filter((e) => e.raw.includes(id));
    // Two status changes (created, cancelled); the noisy variant delivers each event twice.
    expect(events).toHaveLength(variant === 'noisy' ? 4 : 2);
    for (const event of events)
      expect(contract.validate('NormalizedWebhookEvent', JSON.parse(event.raw)).problems).toEqual([]);
  });

  it('error answers are ErrorResponses with documented codes', async () => {
    const codes = contract.enumValues('ErrorCode');
    const errors: [string, 'GET' | 'POST', string, unknown][] = [
      ['GET /offerings/{id}', 'GET', '/offerings/nothing', undefined],
      ['GET /search', 'GET', '/search', undefined],
      ['POST /quote', 'POST', '/quote', { items: [] }],
      ['POST /actions', 'POST', '/actions', { quoteId: 'q' }],
      [
        'POST /actions',
        'POST',
        '/actions',
        { providerSlug: 'demo-kitchen', quoteId: 'q_nothing', userConfirmed: false },
      ],
      [
        'POST /actions',
        'POST',
        '/actions',
        { providerSlug: 'demo-kitchen', quoteId: 'q_nothing', userConfirmed: true },
      ],
      ['GET /actions/{id}', 'GET', '/actions/nothing', undefined],
    ];
    for (const [operation, method, path, body] of errors) {
      const json = await conforms(operation, method, path, body);
      expect(codes).toContain(at(json, 'code'));
    }
    const unauthorized = await call('GET', '/catalog', { credential: null });
    expect(contract.validateResponse('GET /catalog', 401, unauthorized.json)?.problems ?? ['no 401 in spec']).toEqual(
      [],
    );
  });
});
