import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** Every top-level required plain string of a schema, read from the spec (the same test the build applies). */
function requiredStrings(name: string): string[] {
  const schema = schemas[name] as {
    required?: string[];
    properties?: Record<string, { type?: unknown; $ref?: string }>;
  };
  return (schema.required ?? []).filter((field) => {
    const property = schema.properties?.[field];
    const target = property?.$ref ? (schemas[property.$ref.split('/').at(-1) ?? ''] as typeof property) : property;
    const limited = target !== undefined && ['enum', 'const', 'format'].some((k) => k in target);
    return target?.type === 'string' && !limited;
  });
}

/** A valid payload of the schema from fixtures/payloads (its minimal one, else its example). */
function readFixture(schema: string, file = 'valid-minimal.json'): Record<string, unknown> {
  const path = join(import.meta.dirname, '../../fixtures/payloads', schema, file);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : readFixture(schema, 'valid-example.json');
}

/** Each provider route and the schema it answers with: an empty required string fails on every one of them. */
const ROUTES: [operation: string, schema: string, wrap: (payload: unknown) => unknown, at: string][] = [
  ['GET /provider-info', 'ProviderInfo', (p) => p, ''],
  ['GET /health', 'HealthCheckResult', (p) => p, ''],
  ['GET /locations', 'Location', (p) => [p], '/0'],
  ['GET /offerings/{id}', 'Offering', (p) => p, ''],
  ['GET /search', 'Offering', (p) => [p], '/0'],
  ['POST /quote', 'NormalizedQuote', (p) => p, ''],
  ['POST /actions', 'NormalizedAction', (p) => p, ''],
  ['GET /actions/{id}', 'NormalizedAction', (p) => p, ''],
  ['GET /actions/{id}/payment-options', 'PaymentOption', (p) => [p], '/0'],
  ['POST /actions/{id}/cancel', 'CancelActionResult', (p) => p, ''],
];

describe('on every provider route', async () => {
  const contract = await loadContract();
  const cases = ROUTES.flatMap(([operation, schema, wrap, at]) =>
    requiredStrings(schema).map((field) => [operation, field, schema, wrap, at] as const),
  );

  it('covers the required strings the spec gives each answer', () => {
    expect(requiredStrings('Offering')).toEqual(['id', 'providerId', 'offeringCode', 'title']);
    expect(requiredStrings('Location')).toEqual(['id', 'providerId', 'providerLocationId', 'name', 'address']);
    expect(requiredStrings('ProviderInfo')).toEqual(['id', 'slug', 'name', 'type']);
    expect(cases.length).toBeGreaterThan(25);
  });

  it.each(cases)('%s: %s empty fails (%s)', (operation, field, schema, wrap, at) => {
    const valid = readFixture(schema);
    expect(contract.validateResponse(operation, 200, wrap(valid))?.valid).toBe(true);
    const result = contract.validateResponse(operation, 200, wrap({ ...valid, [field]: '' }));
    expect(result?.problems.map((p) => [p.pointer, p.rule])).toEqual([[`${at}/${field}`, NON_EMPTY_KEYWORD]]);
  });

  it('GET /catalog: an offering, and the catalog itself', () => {
    const catalog = readFixture('Catalog', 'valid-empty.json');
    const offering = readFixture('Offering');
    const withOffering = { ...catalog, offerings: [{ ...offering, title: ' ' }] };
    expect(contract.validateResponse('GET /catalog', 200, withOffering)?.problems.map((p) => p.pointer)).toEqual([
      '/offerings/0/title',
    ]);
    expect(contract.validateResponse('GET /catalog', 200, { ...catalog, providerSlug: '' })?.valid).toBe(false);
  });
});
