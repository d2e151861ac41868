import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tryLoadContract } from '../../src/contract/load.js';

const mini = join(import.meta.dirname, 'fixtures/mini.yaml');

async function miniContract() {
  const r = await tryLoadContract(mini);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('compiled contract', () => {
  it('explains problems with pointer, rule and the value found', async () => {
    const c = await miniContract();
    const r = c.validate('Catalog', {
      offerings: [
        { id: 'a', title: 't', basePrice: 1 },
        { id: 'b', basePrice: '12.50', description: null },
      ],
    });
    expect(r.valid).toBe(false);
    expect(r.problems.map((p) => p.text)).toEqual([
      '/offerings/1 is missing required field "title"',
      '/offerings/1/basePrice must be integer (found string "12.50")',
      '/offerings/1/description must be string (found null)',
    ]);
    expect(r.problems.map((p) => [p.pointer, p.rule])).toContainEqual(['/offerings/1/basePrice', 'type']);
  });

  it('checks formats and enums', async () => {
    const c = await miniContract();
    const r = c.validate('Catalog', {
      offerings: [{ id: 'a', title: 't', basePrice: 1, status: 'C' }],
      updatedAt: 'yesterday',
    });
    expect(r.problems.map((p) => p.text)).toEqual([
      '/offerings/0/status must be one of A, B (found string "C")',
      '/updatedAt must be a valid date-time (found string "yesterday")',
    ]);
  });

  it('caps the number of problems per payload', async () => {
    const c = await miniContract();
    const offerings = Array.from({ length: 30 }, (_, i) => ({ id: i, title: 't', basePrice: 1 }));
    const texts = c.validate('Catalog', { offerings }).problems.map((p) => p.text);
    expect(texts).toHaveLength(13);
    expect(texts.at(-1)).toBe('… and 18 more problems');
  });

  it('looks validators up by operation and status, following response refs and external files', async () => {
    const c = await miniContract();
    expect(c.validateResponse('GET /catalog', 200, { offerings: [] })?.valid).toBe(true);
    expect(c.validateResponse('GET /catalog', 404, { code: 'NOT_FOUND' })?.problems[0]?.text).toBe(
      '(root) is missing required field "message"',
    );
    expect(c.validateResponse('GET /catalog', 500, {})).toBeUndefined();
    expect(c.validateResponse('GET /nothing', 200, {})).toBeUndefined();
    expect(c.operation('GET /catalog')).toMatchObject({
      capability: 'CATALOG',
      requiredIn: ['TRANSACTIONAL'],
      operationId: 'getCatalog',
    });
    expect(c.enumValues('Status')).toEqual(['A', 'B']);
    expect(c.version).toBe('9.9.9');
  });

  it('rejects unknown schema names', async () => {
    const c = await miniContract();
    expect(() => c.validate('Nope', {})).toThrow(/unknown schema "Nope"/);
  });

  it.each([
    ['missing.yaml', 'not-found', /spec file not found/],
    ['mini-error.yaml', 'not-openapi', /not an OpenAPI 3.1 document/],
  ])('reports an unusable spec %s as %s', async (file, kind, message) => {
    const r = await tryLoadContract(join(import.meta.dirname, 'fixtures', file));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe(kind);
      expect(r.error.message).toMatch(message);
    }
  });
});
