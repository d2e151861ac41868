import { describe, expect, it } from 'vitest';
import { checkById } from '../../../../src/checks/framework/registry.js';
import {
  authProbeTable,
  authRoutes,
  type CredentialShape,
  credentialShapes,
  SCHEME_OF,
} from '../../../../src/checks/support/probe-tables/auth.js';
import { precompiledContract } from '../../../../src/contract/precompiled.js';
import type { OperationInfo } from '../../../../src/contract/types.js';
import { AUTH_METHODS, type AuthMethod } from '../../../../src/model/contract-constants.js';

const operations = precompiledContract().operations();
/** The provider routes as the spec tags them (x-capability), the webhook aside: what the table must cover. */
const providerRoutes = operations
  .filter((op) => op.capability !== undefined && !op.key.startsWith('WEBHOOK'))
  .map((op) => op.key)
  .sort();

const operation = (key: string, security: string[], requestBody = false): OperationInfo => {
  const [method = 'GET', path = '/'] = key.split(' ');
  return { key, method, path, requiredIn: [], profiles: [], requestBody, security, pinned: [], query: [] };
};

const ids = (shapes: readonly CredentialShape[]): string[] => shapes.map((s) => s.id);

describe('the authentication probe table', () => {
  it.each(AUTH_METHODS)('has every provider route of the spec with %s, and no core or webhook route', (method) => {
    const routes = authRoutes(operations, method);
    expect(routes.map((r) => r.key).sort()).toEqual(providerRoutes);
    expect(providerRoutes.length).toBeGreaterThanOrEqual(11);
    expect(routes.some((r) => r.key.startsWith('GET /api/') || r.key.startsWith('POST /api/'))).toBe(false);
  });

  it('knows reads and writes, with and without a body, from the spec', () => {
    const routes = authRoutes(operations, 'API_KEY');
    const byKey = new Map(routes.map((r) => [r.key, r]));
    expect(byKey.get('GET /catalog')?.body).toBe(false);
    expect(byKey.get('POST /quote')?.body).toBe(true);
    expect(byKey.get('POST /actions/{id}/cancel')?.body).toBe(true);
    expect(byKey.get('GET /actions/{id}/payment-options')?.capability).toBe('PAYMENT_OPTIONS');
  });

  it('gives a route added to the spec its probes, and a public route none', () => {
    const added = operation('POST /orders/{id}/refund', [SCHEME_OF.BEARER_TOKEN], true);
    const open = operation('GET /status', []);
    const routes = authRoutes([added, open], 'BEARER_TOKEN');
    expect(routes.map((r) => r.key)).toEqual(['POST /orders/{id}/refund']);
    expect(authProbeTable(routes, 'BEARER_TOKEN')).toHaveLength(credentialShapes('BEARER_TOKEN').length);
    // Another method's scheme does not authenticate it.
    expect(authRoutes([added], 'API_KEY')).toEqual([]);
  });

  it.each<AuthMethod>(['API_KEY', 'BEARER_TOKEN'])(
    '%s: missing, wrong, other-direction, other-scheme and near-miss credentials',
    (method) => {
      expect(ids(credentialShapes(method))).toEqual(
        expect.arrayContaining([
          'missing',
          'wrong',
          'other-direction',
          'other-scheme',
          'prefix',
          'suffix',
          'case',
          'whitespace',
        ]),
      );
    },
  );

  it('bearer adds a space after the scheme word (a leading space alone is stripped by HTTP)', () => {
    expect(ids(credentialShapes('BEARER_TOKEN'))).toContain('leading-space');
    expect(ids(credentialShapes('API_KEY'))).not.toContain('leading-space');
  });

  it('HMAC: tampered body, truncated, suffixed and whitespace signatures, the webhook secret; upper-case hex left open', () => {
    const shapes = credentialShapes('HMAC_SIGNATURE');
    expect(ids(shapes)).toEqual(
      expect.arrayContaining([
        'missing',
        'wrong',
        'other-direction',
        'tampered-body',
        'truncated',
        'suffix',
        'whitespace',
      ]),
    );
    expect(shapes.filter((s) => s.expect === 'either').map((s) => s.id)).toEqual(['upper-case']);
  });

  it.each(AUTH_METHODS)('%s: every row cites a requirement its check declares, and ids are unique', (method) => {
    const check = checkById(method === 'HMAC_SIGNATURE' ? 'signature' : 'wrong-credential');
    const shapes = credentialShapes(method);
    for (const shape of shapes) expect(check?.requirements, shape.id).toContain(shape.requirement);
    expect(new Set(ids(shapes)).size).toBe(shapes.length);
  });

  it('is every route × every shape', () => {
    const routes = authRoutes(operations, 'HMAC_SIGNATURE');
    const table = authProbeTable(routes, 'HMAC_SIGNATURE');
    expect(table).toHaveLength(routes.length * credentialShapes('HMAC_SIGNATURE').length);
    expect(new Set(table.map((p) => `${p.route.key} ${p.shape.id}`)).size).toBe(table.length);
  });
});
