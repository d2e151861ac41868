import { describe, expect, it } from 'vitest';
import { readBundledSpec } from '../../src/contract/bundle.js';
import { BUNDLED_SPEC_PATH } from '../../src/contract/bundled-path.js';
import { compileSpecAtRunTime, loadContract } from '../../src/contract/load.js';
import { NON_EMPTY_KEYWORD, providerAnswerSchemas, withNonEmptyRequiredStrings } from '../../src/contract/non-empty.js';

const bundled = await readBundledSpec(BUNDLED_SPEC_PATH);
if (!bundled.ok) throw new Error(bundled.error.message);
const doc = bundled.value;
const schemas = (doc['components'] as { schemas: Record<string, unknown> }).schemas;

describe('which schemas are a provider success answer', () => {
  const answers = providerAnswerSchemas(doc, schemas);
  it.each([
    'ProviderInfo',
    'HealthCheckResult',
    'Location',
    'Catalog',
    'Offering',
    'NormalizedQuote',
    'NormalizedAction',
    'PaymentOption',
    'CancelActionResult',
    'CertificationInput',
    'QuoteItem',
  ])('%s is one (named by a provider route 2XX, or by one that is)', (name) => {
    expect(answers.has(name)).toBe(true);
  });
  it.each(['ErrorResponse', 'NormalizedWebhookEvent', 'CreateActionInput', 'CancelActionInput', 'CoreProvider'])(
    '%s is not (an error body, a webhook event, a request, the core)',
    (name) => {
      expect(answers.has(name)).toBe(false);
    },
  );
});

describe('withNonEmptyRequiredStrings', () => {
  const mini = {
    paths: {
      '/thing': {
        get: {
          tags: ['provider'],
          responses: {
            '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
            '404': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Oops' } } } },
          },
        },
      },
    },
  };
  const miniSchemas = {
    Code: { type: 'string' },
    Status: { type: 'string', enum: ['A', 'B'] },
    Thing: {
      type: 'object',
      required: ['id', 'code', 'status', 'at', 'inner'],
      properties: {
        id: { type: 'string' },
        code: { $ref: '#/components/schemas/Code' },
        status: { $ref: '#/components/schemas/Status' },
        at: { type: 'string', format: 'date-time' },
        note: { type: 'string' },
        inner: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      },
    },
    Oops: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
  };
  const marked = withNonEmptyRequiredStrings(mini, miniSchemas) as Record<
    string,
    { properties: Record<string, { properties?: Record<string, unknown> }> }
  >;
  const thing = marked['Thing']?.properties ?? {};

  it('marks required strings, their own or a string component they name, at any depth', () => {
    expect(thing['id']).toEqual({ type: 'string', [NON_EMPTY_KEYWORD]: true });
    expect(thing['code']).toEqual({ $ref: '#/components/schemas/Code', [NON_EMPTY_KEYWORD]: true });
    expect(thing['inner']?.properties?.['name']).toEqual({ type: 'string', [NON_EMPTY_KEYWORD]: true });
  });
  it('leaves optional strings, enums, formats and error bodies as they are', () => {
    expect(thing['note']).toEqual({ type: 'string' });
    expect(thing['status']).toEqual({ $ref: '#/components/schemas/Status' });
    expect(thing['at']).toEqual({ type: 'string', format: 'date-time' });
    expect(marked['Oops']).toBe(miniSchemas.Oops);
  });
});

describe.each([
  ['precompiled', () => loadContract()],
  [
    'compiled at run time',
    async () => {
      const c = await compileSpecAtRunTime(BUNDLED_SPEC_PATH);
      if (!c.ok) throw new Error(c.error.message);
      return c.value;
    },
  ],
])('the %s contract', (_label, load) => {
  const location = { id: 'loc-1', providerId: 'prov-1', providerLocationId: 'L1', name: 'Downtown', address: '1 St' };

  it.each(['', ' ', '\t\n', '\u00a0'])('fails a required string of an answer that is %j', async (value) => {
    const contract = await load();
    const result = contract.validateResponse('GET /locations', 200, [{ ...location, name: value }]);
    expect(result?.valid).toBe(false);
    expect(result?.problems).toEqual([
      {
        pointer: '/0/name',
        rule: NON_EMPTY_KEYWORD,
        text: `/0/name is empty (found string ${JSON.stringify(value)}): the required field "name" must carry a value, not an empty or blank string`,
      },
    ]);
    // provcert validate and the library validate by schema name: the same rule.
    expect(contract.validate('Location', { ...location, name: value }).valid).toBe(false);
  });

  it('passes a required string with a value, and an empty optional one', async () => {
    const contract = await load();
    expect(contract.validate('Location', { ...location, name: 'x' }).valid).toBe(true);
    expect(
      contract.validate('Offering', {
        id: 'o',
        providerId: 'p',
        offeringCode: 'C',
        title: 'T',
        basePrice: 1,
        description: '',
      }).valid,
    ).toBe(true);
  });

  it('leaves error bodies and webhook events as the schema has them', async () => {
    const contract = await load();
    expect(contract.validateResponse('GET /catalog', 404, { code: 'NOT_FOUND', message: '' })?.valid).toBe(true);
    const event = { eventId: 'e1', eventType: '', providerSlug: 'p', timestamp: '2026-01-01T00:00:00Z' };
    expect(contract.validate('NormalizedWebhookEvent', event).valid).toBe(true);
  });
});
