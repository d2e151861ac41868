import { describe, expect, it } from 'vitest';
import { otherMethods, postingCapabilities } from '../../../../src/checks/support/probe-tables/other-methods.js';
import { loadContract } from '../../../../src/contract/load.js';
import type { OperationInfo } from '../../../../src/contract/types.js';

const op = (method: string, path: string, capability: string | null = 'CATALOG'): OperationInfo =>
  ({
    key: `${method} ${path}`,
    method,
    path,
    ...(capability ? { capability } : {}),
    requiredIn: [],
    profiles: [],
    requestBody: method === 'POST',
    security: [],
  }) as unknown as OperationInfo;

const operations = [
  op('GET', '/catalog'),
  op('POST', '/quote'),
  op('GET', '/actions/{id}'),
  op('POST', '/actions'),
  op('POST', '/actions/{id}/cancel'),
  { ...op('POST', 'action.status_updated', 'WEBHOOK'), key: 'WEBHOOK statusEvent' },
  // A core route (no capability): the service's, not the provider's.
  op('GET', '/api/v1/providers/{slug}/events', null),
];

describe('otherMethods: each listed path with the method the route table does not list for it', () => {
  it("sends POST to GET paths and GET to POST paths, a path id nothing has, never to a webhook or the core's routes", () => {
    expect(otherMethods(operations, 's1', true).map((r) => [r.method, r.path, r.listed])).toEqual([
      ['POST', '/catalog', ['GET /catalog']],
      ['GET', '/quote', ['POST /quote']],
      ['POST', '/actions/provcert-unknown-s1', ['GET /actions/{id}']],
      ['GET', '/actions', ['POST /actions']],
      ['GET', '/actions/provcert-unknown-s1/cancel', ['POST /actions/{id}/cancel']],
    ]);
  });

  it('names the listed endpoint in its message', () => {
    expect(otherMethods([op('GET', '/catalog')], 's', true)[0]?.what).toBe(
      'POST /catalog (the route table lists GET /catalog)',
    );
  });

  it('sends no POST where POST requests may not be sent, and nothing for a path listed with both methods', () => {
    expect(otherMethods(operations, 's', false).map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
    expect(otherMethods([op('GET', '/x'), op('POST', '/x')], 's', true)).toEqual([]);
  });
});

describe('postingCapabilities', () => {
  it('reads the capabilities with a POST route from the route table, webhooks and core routes aside', async () => {
    const contract = await loadContract();
    expect([...postingCapabilities(contract.operations())].sort()).toEqual(['ACTION_CANCEL', 'ACTION_CREATE', 'QUOTE']);
  });
});
