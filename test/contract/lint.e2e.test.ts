import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadContract } from '../../src/contract/load.js';
import { packageRoot } from '../../src/util/package-root.js';

const run = promisify(execFile);
const SPEC = join(packageRoot, 'spec', 'openapi.yaml');
const REDOCLY = join(packageRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

const T = 'TRANSACTIONAL';
const D = 'DISCOVERY_READONLY';

/** The contract's capability table (§7) and provider route table, as the spec must encode them. */
const CAPABILITY_TABLE: {
  key: string;
  capability: string;
  requiredIn: string[];
  profiles: string[];
  requiredWhen?: string;
}[] = [
  { key: 'GET /provider-info', capability: 'METADATA', requiredIn: [T, D], profiles: [T, D] },
  { key: 'GET /health', capability: 'HEALTH', requiredIn: [T, D], profiles: [T, D] },
  { key: 'GET /catalog', capability: 'CATALOG', requiredIn: [T, D], profiles: [T, D] },
  { key: 'GET /offerings/{id}', capability: 'CATALOG', requiredIn: [T, D], profiles: [T, D] },
  {
    key: 'GET /locations',
    capability: 'LOCATIONS',
    requiredIn: [],
    profiles: [T, D],
    requiredWhen: 'fulfillment DELIVERY|PICKUP|ONSITE|HYBRID',
  },
  { key: 'GET /search', capability: 'SEARCH', requiredIn: [], profiles: [T, D], requiredWhen: 'declared' },
  { key: 'POST /quote', capability: 'QUOTE', requiredIn: [T], profiles: [T] },
  { key: 'POST /actions', capability: 'ACTION_CREATE', requiredIn: [T], profiles: [T] },
  { key: 'GET /actions/{id}', capability: 'ACTION_STATUS', requiredIn: [T], profiles: [T] },
  {
    key: 'GET /actions/{id}/payment-options',
    capability: 'PAYMENT_OPTIONS',
    requiredIn: [],
    profiles: [T],
    requiredWhen: 'declared',
  },
  {
    key: 'POST /actions/{id}/cancel',
    capability: 'ACTION_CANCEL',
    requiredIn: [],
    profiles: [T],
    requiredWhen: 'declared',
  },
  { key: 'WEBHOOK action.status_updated', capability: 'WEBHOOK', requiredIn: [T], profiles: [T] },
];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const doc = parse(readFileSync(SPEC, 'utf8')) as Obj;

/** The raw operation object for a key like "GET /catalog" or "WEBHOOK action.status_updated". */
function rawOperation(key: string): Obj {
  const [method = '', name = ''] = key.split(' ');
  const section = method === 'WEBHOOK' ? doc['webhooks'] : doc['paths'];
  const item = isObj(section) ? section[name] : undefined;
  const op = isObj(item) ? item[method === 'WEBHOOK' ? 'post' : method.toLowerCase()] : undefined;
  if (!isObj(op)) throw new Error(`no operation ${key} in the spec`);
  return op;
}

const providerRoutes = CAPABILITY_TABLE.filter((row) => !row.key.startsWith('WEBHOOK'));

describe('spec lint', () => {
  it('lints clean with redocly (recommended rules, no warnings)', async () => {
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const { stdout, stderr } = await run(
      process.execPath,
      [REDOCLY, 'lint', SPEC, '--config', join(packageRoot, 'redocly.yaml')],
      {
        cwd: packageRoot,
        env,
        timeout: 60_000,
      },
    );
    const output = stdout + stderr;
    expect(output).toContain('Your API description is valid');
    expect(output).not.toMatch(/You have \d+ warnings?/);
  });
});

describe('capability extensions', () => {
  it('is OpenAPI 3.1.0 with contract version 1.0.0', async () => {
    const contract = await loadContract();
    expect(doc['openapi']).toBe('3.1.0');
    expect(contract.version).toBe('1.0.0');
  });

  it.each(CAPABILITY_TABLE)('$key carries x-capability $capability and its profiles', async (row) => {
    const info = (await loadContract()).operation(row.key);
    expect(info?.capability).toBe(row.capability);
    expect([...(info?.requiredIn ?? [])].sort()).toEqual([...row.requiredIn].sort());
    expect([...(info?.profiles ?? [])].sort()).toEqual([...row.profiles].sort());
    expect(rawOperation(row.key)['x-required-when']).toBe(row.requiredWhen);
  });

  it('no other operation carries a capability, and every capability has an operation', async () => {
    const contract = await loadContract();
    const withCapability = contract
      .operations()
      .filter((o) => o.capability !== undefined)
      .map((o) => o.key);
    expect(withCapability.sort()).toEqual(CAPABILITY_TABLE.map((row) => row.key).sort());
    expect(new Set(CAPABILITY_TABLE.map((row) => row.capability))).toEqual(new Set(contract.enumValues('Capability')));
  });
});

describe('provider routes', () => {
  const securityOf = (op: Obj): unknown => op['security'] ?? doc['security'];

  it.each(providerRoutes.map((row) => row.key))(
    '%s documents 200 and the contract error responses, with the three auth alternatives',
    (key) => {
      const op = rawOperation(key);
      const responses = isObj(op['responses']) ? Object.keys(op['responses']) : [];
      const expected = ['200', '400', '401', '404', '422', '500', ...(key === 'POST /actions' ? ['409'] : [])];
      expect(responses.sort()).toEqual(expected.sort());
      expect(op['tags']).toEqual(['provider']);
      expect(typeof op['operationId']).toBe('string');
      expect(securityOf(op)).toEqual([
        { ProviderApiKey: [] },
        { ProviderBearerToken: [] },
        { ProviderHmacSignature: [] },
      ]);
    },
  );

  it('declares the three security schemes with the contract headers', () => {
    const components = doc['components'] as Obj;
    expect(components['securitySchemes']).toMatchObject({
      ProviderApiKey: { type: 'apiKey', in: 'header', name: 'x-provider-api-key' },
      ProviderBearerToken: { type: 'http', scheme: 'bearer' },
      ProviderHmacSignature: { type: 'apiKey', in: 'header', name: 'x-service-signature' },
    });
  });

  it('keeps the contract parameter defaults', () => {
    const params = (key: string) => (rawOperation(key)['parameters'] as Obj[]).filter((p) => 'name' in p);
    expect(params('GET /locations')).toContainEqual(
      expect.objectContaining({
        name: 'activeOnly',
        in: 'query',
        required: false,
        schema: { type: 'boolean', default: true },
      }),
    );
    expect(params('GET /search')).toContainEqual(expect.objectContaining({ name: 'q', in: 'query', required: true }));
    expect(params('GET /search')).toContainEqual(
      expect.objectContaining({ name: 'limit', schema: { type: 'integer', default: 20 } }),
    );
  });

  it('validates the 409 of POST /actions and the array responses through the compiled contract', async () => {
    const contract = await loadContract();
    const conflict = { code: 'IDEMPOTENCY_KEY_REUSED_WITH_DIFFERENT_PAYLOAD', message: 'key reused' };
    expect(contract.validateResponse('POST /actions', 409, conflict)?.valid).toBe(true);
    const location = contract.validateResponse('GET /locations', 200, [{ id: 'loc_1' }]);
    expect(location?.problems.map((p) => [p.pointer, p.rule])).toEqual(Array(4).fill(['/0', 'required']));
    expect(contract.validateResponse('GET /actions/{id}/payment-options', 200, { id: 'pm' })?.valid).toBe(false);
    expect(contract.validateRequest('POST /quote', { items: [{ offeringId: 'off_1', quantity: 1 }] })?.valid).toBe(
      true,
    );
  });
});

describe('core routes', () => {
  /** The contract's core route table (plus the legacy slugless webhook), all under /api/v1. */
  const CORE_ROUTES = [
    'GET /providers/find',
    'POST /providers/register',
    'POST /providers/{slug}/certify',
    'POST /providers/{slug}/submit-review',
    'GET /providers/me/dashboard',
    'GET /providers/me/actions/{actionId}',
    'GET /admin/providers',
    'POST /admin/providers/{slug}/review',
    'POST /admin/providers/{slug}/reopen',
    'GET /admin/logs/events',
    'GET /admin/logs/export',
    'POST /quotes',
    'POST /actions',
    'GET /actions/{id}',
    'POST /actions/{id}/cancel',
    'POST /webhooks/{providerSlug}',
    'POST /webhooks',
  ].map((route) => route.replace(' /', ' /api/v1/'));

  it.each(CORE_ROUTES)('%s is documented on the core server, tagged core', (key) => {
    const op = rawOperation(key);
    expect(op['tags']).toContain('core');
    expect(op['x-capability']).toBeUndefined();
    const path = key.split(' ')[1] ?? '';
    const item = (doc['paths'] as Obj)[path] as Obj;
    expect(item['servers']).toEqual([expect.objectContaining({ url: '{core_base_url}' })]);
  });

  /** Routes of provcert's own core server that the contract does not list; each is marked x-provcert-route. */
  const PROVCERT_ROUTES = [
    'GET /providers/{slug}/certifications',
    'GET /providers/{slug}/certifications/{id}',
    'GET /providers/{slug}/events',
    'GET /providers/{slug}/events/{eventId}',
    'GET /admin/providers/{slug}',
    'POST /providers/me/rotate-webhook-secret',
    'POST /admin/providers/{slug}/rotate-webhook-secret',
    'GET /.well-known/jwks.json',
    'GET /providers/{slug}/certificate',
    'GET /providers/{slug}/badge.svg',
    'POST /admin/signing-key/rotate',
    'POST /admin/accounts',
    'GET /admin/accounts',
    'POST /admin/accounts/{id}/tokens',
    'POST /admin/tokens',
    'POST /admin/tokens/{jti}/revoke',
    'GET /account/providers',
  ].map((route) => route.replace(' /', ' /api/v1/'));

  it.each(PROVCERT_ROUTES)('%s is marked as a provcert route, tagged core', (key) => {
    const op = rawOperation(key);
    expect(op['x-provcert-route']).toBe(true);
    expect(op['tags']).toContain('core');
  });

  it("documents no other /api/v1 path, and marks no contract route as provcert's", () => {
    const corePaths = Object.keys(doc['paths'] as Obj).filter((p) => p.startsWith('/api/v1/') || p === '/api/v1');
    expect(corePaths.sort()).toEqual(
      [...new Set([...CORE_ROUTES, ...PROVCERT_ROUTES].map((k) => k.split(' ')[1]))].sort(),
    );
    for (const key of CORE_ROUTES) expect(rawOperation(key)['x-provcert-route']).toBeUndefined();
  });
});
