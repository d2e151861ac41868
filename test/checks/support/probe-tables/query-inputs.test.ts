import { describe, expect, it } from 'vitest';
import { queryInputs } from '../../../../src/checks/support/probe-tables/query-inputs.js';
import { loadContract } from '../../../../src/contract/load.js';
import type { OperationInfo } from '../../../../src/contract/types.js';

const contract = await loadContract();
const READ_CAPABILITIES = ['METADATA', 'HEALTH', 'LOCATIONS', 'CATALOG', 'SEARCH', 'ACTION_STATUS', 'PAYMENT_OPTIONS'];
const rows = (declared: string[]) => queryInputs(contract.operations(), declared, 's1', () => 'provcert');

describe('queryInputs: each query parameter and path id of a read route, with a value it cannot take', () => {
  it("covers every query parameter the spec declares on the provider's read routes", () => {
    const declaredParameters = contract
      .operations()
      .filter((op) => op.method === 'GET' && op.capability !== undefined && !op.key.startsWith('WEBHOOK '))
      .flatMap((op) => op.query.filter((q) => q.name !== 'q').map((q) => `${op.path}?${q.name}`));
    const probed = rows(READ_CAPABILITIES).map((r) => r.what.split(' ')[1]?.split('=')[0]);
    expect(declaredParameters.length).toBeGreaterThan(5);
    expect(probed).toEqual(expect.arrayContaining(declaredParameters));
  });

  it('sends a wrong value by type and name, keeps the required search text, and breaks each path id', () => {
    const paths = rows(READ_CAPABILITIES).map((r) => r.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/locations?activeOnly=maybe',
        '/catalog?locationId=provcert-unknown-s1',
        '/search?q=provcert&limit=many',
        '/catalog?context=%7Bnot+json',
        '/offerings/provcert-%E0%A4%A',
        '/actions/provcert-%E0%A4%A/payment-options',
      ]),
    );
  });

  it('probes only the routes of the capabilities the provider declares, and never a POST route or the core', () => {
    expect(rows(['CATALOG']).every((r) => r.path.startsWith('/catalog') || r.path.startsWith('/offerings/'))).toBe(
      true,
    );
    expect(rows([]).length).toBe(0);
    expect(rows([...READ_CAPABILITIES, 'QUOTE', 'ACTION_CREATE']).some((r) => /\/quote|\/api\/v1/.test(r.path))).toBe(
      false,
    );
  });

  it('gives a parameter added to the route table its probe', () => {
    const added: OperationInfo = {
      ...(contract.operation('GET /locations') as OperationInfo),
      query: [{ name: 'openNow', required: false, type: 'boolean' }],
    };
    expect(queryInputs([added], ['LOCATIONS'], 's', () => '').map((r) => r.path)).toEqual(['/locations?openNow=maybe']);
  });
});
