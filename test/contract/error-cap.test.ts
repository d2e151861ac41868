import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { capCollectedErrors } from '../../src/contract/error-cap.js';
import { validate } from '../../src/lib/validate.js';

describe('validation with many errors', () => {
  it('keeps a dozen problems and counts the rest, in the words validate prints', () => {
    const offerings = Array.from({ length: 20_000 }, () => ({}));
    const catalog = { providerSlug: 'p', locationId: 'l', currency: 'EUR', categories: [], offerings };
    const result = validate('Catalog', catalog);
    expect(result.valid).toBe(false);
    expect(result.errors).toHaveLength(13);
    expect(result.errors[0]?.text).toBe('/offerings/0 is missing required field "id"');
    // Every empty offering misses each required field of Offering once: the count is exact.
    const total = 20_000 * validate('Offering', {}).errors.length;
    expect(result.errors.at(-1)?.text).toBe(`… and ${(total - 12).toLocaleString('en-US')} more problems`);
  });
});

/** The same schema compiled by plain ajv and by ajv with the cap (tiny limits), so the cap's effect shows. */
function validators(schema: object, limits: { kept: number; counted: number }) {
  const plain = new Ajv2020({ allErrors: true }).compile(schema);
  const capped = new Ajv2020({
    allErrors: true,
    code: { process: (code: string) => capCollectedErrors(code, limits) },
  }).compile(schema) as typeof plain & { errorCount?: number };
  return { plain, capped };
}

const numbers = { type: 'array', items: { type: 'number' } };
const strings = { type: 'array', items: { type: 'string' } };
const item = { $id: 'item', type: 'object', required: ['a', 'b'], properties: { a: { type: 'string' } } };

describe('capCollectedErrors', () => {
  const cases: { name: string; schema: object; data: unknown }[] = [
    {
      name: 'a failed anyOf branch does not cut the next one short',
      schema: { anyOf: [numbers, strings] },
      data: ['a', 'b', 'c', 'd', 'e', 'f', 7],
    },
    {
      name: 'the second anyOf branch passes after the first failed in full',
      schema: { anyOf: [numbers, strings] },
      data: ['a', 'b', 'c', 'd', 'e', 'f'],
    },
    { name: 'oneOf with both branches failing', schema: { oneOf: [numbers, strings] }, data: [{}, {}, {}, {}, {}, {}] },
    { name: 'not around a long failing array', schema: { not: numbers }, data: ['a', 'b', 'c', 'd', 'e', 'f'] },
    {
      name: 'items through a $ref (a called validator)',
      schema: { type: 'array', items: { $ref: 'item' }, $defs: { item } },
      data: [{}, {}, {}, { a: 1, b: 2 }, {}],
    },
    {
      name: 'a valid array',
      schema: { type: 'array', items: { $ref: 'item' }, $defs: { item } },
      data: [{ a: 'x', b: 1 }],
    },
  ];
  for (const { name, schema, data } of cases) {
    it(`judges validity as ajv does: ${name}`, () => {
      const { plain, capped } = validators(schema, { kept: 2, counted: 3 });
      expect(capped(data)).toBe(plain(data));
      expect((capped.errors ?? []).length).toBeLessThanOrEqual(2);
    });
  }

  it('keeps the first errors in ajv order and counts all of them below the counting limit', () => {
    const schema = { type: 'array', items: { $ref: 'item' }, $defs: { item } };
    const data = Array.from({ length: 50 }, () => ({}));
    const { plain, capped } = validators(schema, { kept: 5, counted: 1000 });
    plain(data);
    capped(data);
    expect(capped.errorCount).toBe(plain.errors?.length);
    expect(capped.errors).toEqual(plain.errors?.slice(0, 5));
  });

  it('stops a loop once it has added the counting limit, still invalid', () => {
    const { capped } = validators(numbers, { kept: 2, counted: 10 });
    expect(capped(Array.from({ length: 1000 }, () => 'x'))).toBe(false);
    expect(capped.errorCount).toBe(10);
  });
});
