import { rm } from 'node:fs/promises';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveServeSettings } from '../../src/config/serve.js';
import type { Contract } from '../../src/contract/contract.js';
import { loadContract } from '../../src/contract/load.js';
import { type RunningServe, startServe } from '../../src/server/serve.js';
import { registration } from '../support/registration.js';
import { scratchDir } from '../support/scratch.js';
import { fakeReport } from './support/fake-report.js';
import { event, sign } from './support/http-client.js';
import { type Answer, send } from './support/raw-request.js';

const ADMIN = 'admin-token-table-63';
const SERVER_SECRET = 'server-webhook-secret-table-18';
const SLUG = 'demo-kitchen';
const env: NodeJS.ProcessEnv = {
  PROVCERT_ADMIN_TOKEN: ADMIN,
  SERVICE_WEBHOOK_SECRET: SERVER_SECRET,
  DEMO_CREDENTIAL: 'credential-table-40',
};
const BEARER = { authorization: `Bearer ${ADMIN}` };
const JSON_TYPE = { 'content-type': 'application/json' };

let contract: Contract;
let dataDir: string;
let serve: RunningServe;
/** The registered provider's webhook secret and its one (passing) certification. */
let fixture: { secret: string; certificationId: string; providerToken: string };

beforeAll(async () => {
  contract = await loadContract();
});

beforeEach(async () => {
  dataDir = await scratchDir('route-table');
  const settings = await resolveServeSettings({ port: '0', dataDir, local: true, slug: 'sandbox' }, dataDir);
  serve = await startServe(settings, {
    contract,
    certify: () => Promise.resolve(fakeReport('PASS')),
    env,
    cwd: dataDir,
    log: () => undefined,
  });
  const body = JSON.stringify(registration({ slug: SLUG }));
  const registered = await send(serve.core.url, 'POST', '/api/v1/providers/register', {
    headers: { ...BEARER, ...JSON_TYPE },
    body,
  });
  const certified = await send(serve.core.url, 'POST', `/api/v1/providers/${SLUG}/certify`, { headers: BEARER });
  expect([registered.status, certified.status]).toEqual([201, 200]);
  fixture = {
    secret: (registered.json as { webhook: { secret: string } }).webhook.secret,
    certificationId: (certified.json as { id: string }).id,
    providerToken: (registered.json as { providerToken: { token: string } }).providerToken.token,
  };
});

afterEach(async () => {
  await serve.close();
  await rm(dataDir, { recursive: true, force: true });
});

interface RouteCase {
  /** A path the route matches. */
  path: () => string;
  /** The request that reaches its handler, and the status the handler answers. */
  call: () => Promise<Answer>;
  status: number;
  /** The message of the 405 to the other method. */
  wrongMethod: (method: string, path: string) => string;
  operatorOnly: boolean;
  /** Takes only the provider's own token (the operator token is refused too). */
  providerOnly?: boolean;
  /** The path answers GET and POST both (no 405 to test). */
  bothMethods?: boolean;
}

function signedEvent(path: string, slug: string, secret: string): Promise<Answer> {
  const body = JSON.stringify(event({ providerSlug: slug }));
  return send(serve.core.url, 'POST', path, {
    headers: { ...JSON_TYPE, 'x-service-signature': sign(secret, body) },
    body,
  });
}
const webhookWrongMethod = (method: string): string => `${method} is not supported on /api/v1/webhooks; use POST`;
const noRoute = (method: string, path: string): string => `no route ${method} ${path}`;
const operator = (
  method: 'GET' | 'POST',
  path: () => string,
  status = 200,
  body?: string,
): Omit<RouteCase, 'wrongMethod'> => ({
  path,
  call: () =>
    send(serve.core.url, method, path(), {
      headers: { ...BEARER, ...(body ? JSON_TYPE : {}) },
      ...(body ? { body } : {}),
    }),
  status,
  operatorOnly: true,
});

const asProvider = (path: () => string, status: number): Omit<RouteCase, 'wrongMethod'> => ({
  path,
  call: () => send(serve.core.url, 'GET', path(), { headers: { authorization: `Bearer ${fixture.providerToken}` } }),
  status,
  operatorOnly: false,
  providerOnly: true,
});
const submitThen = (then: () => Promise<Answer>) => async (): Promise<Answer> => {
  await send(serve.core.url, 'POST', `/api/v1/providers/${SLUG}/submit-review`, { headers: BEARER });
  return then();
};

/** One case per line of the core's route table, keyed `METHOD pattern`; a route without a case fails the first test. */
const cases: Record<string, RouteCase> = {
  'POST /api/v1/webhooks/:providerSlug': {
    path: () => `/api/v1/webhooks/${SLUG}`,
    call: () => signedEvent(`/api/v1/webhooks/${SLUG}`, SLUG, fixture.secret),
    status: 200,
    wrongMethod: webhookWrongMethod,
    operatorOnly: false,
  },
  'POST /api/v1/webhooks': {
    path: () => '/api/v1/webhooks',
    call: () => signedEvent('/api/v1/webhooks', 'sandbox', SERVER_SECRET),
    status: 200,
    wrongMethod: webhookWrongMethod,
    operatorOnly: false,
  },
  'POST /api/v1/providers/register': {
    ...operator('POST', () => '/api/v1/providers/register', 200, JSON.stringify(registration({ slug: SLUG }))),
    wrongMethod: (_method, path) => `use POST on ${path}`,
  },
  'POST /api/v1/providers/:slug/certify': {
    ...operator('POST', () => `/api/v1/providers/${SLUG}/certify`),
    wrongMethod: noRoute,
  },
  'GET /api/v1/providers/:slug/certifications': {
    ...operator('GET', () => `/api/v1/providers/${SLUG}/certifications`),
    wrongMethod: noRoute,
  },
  'GET /api/v1/providers/:slug/certifications/:id': {
    ...operator('GET', () => `/api/v1/providers/${SLUG}/certifications/${fixture.certificationId}`),
    wrongMethod: noRoute,
  },
  'POST /api/v1/providers/:slug/submit-review': {
    ...operator('POST', () => `/api/v1/providers/${SLUG}/submit-review`),
    wrongMethod: noRoute,
  },
  'GET /api/v1/providers/:slug/events': {
    ...operator('GET', () => `/api/v1/providers/${SLUG}/events?limit=5`),
    wrongMethod: noRoute,
  },
  'GET /api/v1/providers/:slug/events/:eventId': {
    // No event was received yet: the handler's own 404.
    ...operator('GET', () => `/api/v1/providers/${SLUG}/events/evt-none`, 404),
    wrongMethod: noRoute,
  },
  'GET /api/v1/providers/find': {
    path: () => '/api/v1/providers/find?limit=5',
    call: () => send(serve.core.url, 'GET', '/api/v1/providers/find?limit=5'),
    status: 200,
    wrongMethod: noRoute,
    operatorOnly: false,
  },
  'GET /api/v1/providers/me/dashboard': {
    ...asProvider(() => '/api/v1/providers/me/dashboard?limit=5', 200),
    wrongMethod: noRoute,
  },
  'GET /api/v1/providers/me/actions/:actionId': {
    // The fake certification created no test action: the handler's own 404.
    ...asProvider(() => '/api/v1/providers/me/actions/act-1', 404),
    wrongMethod: noRoute,
  },
  'POST /api/v1/providers/me/rotate-webhook-secret': {
    ...asProvider(() => '/api/v1/providers/me/rotate-webhook-secret', 200),
    call: () =>
      send(serve.core.url, 'POST', '/api/v1/providers/me/rotate-webhook-secret', {
        headers: { authorization: `Bearer ${fixture.providerToken}` },
      }),
    wrongMethod: noRoute,
  },
  'GET /api/v1/admin/providers': {
    ...operator('GET', () => '/api/v1/admin/providers?reviewStatus=DRAFT'),
    wrongMethod: noRoute,
  },
  'GET /api/v1/admin/providers/:slug': {
    ...operator('GET', () => `/api/v1/admin/providers/${SLUG}`),
    wrongMethod: noRoute,
  },
  'POST /api/v1/admin/providers/:slug/review': {
    ...operator('POST', () => `/api/v1/admin/providers/${SLUG}/review`),
    call: submitThen(() =>
      send(serve.core.url, 'POST', `/api/v1/admin/providers/${SLUG}/review`, {
        headers: { ...BEARER, ...JSON_TYPE },
        body: JSON.stringify({ decision: 'APPROVE' }),
      }),
    ),
    wrongMethod: noRoute,
  },
  'POST /api/v1/admin/providers/:slug/reopen': {
    // A DRAFT provider cannot be reopened: the handler's own 409.
    ...operator('POST', () => `/api/v1/admin/providers/${SLUG}/reopen`, 409),
    wrongMethod: noRoute,
  },
  'POST /api/v1/admin/providers/:slug/rotate-webhook-secret': {
    ...operator('POST', () => `/api/v1/admin/providers/${SLUG}/rotate-webhook-secret`),
    wrongMethod: noRoute,
  },
  'GET /api/v1/.well-known/jwks.json': {
    path: () => '/api/v1/.well-known/jwks.json',
    call: () => send(serve.core.url, 'GET', '/api/v1/.well-known/jwks.json'),
    status: 200,
    wrongMethod: noRoute,
    operatorOnly: false,
  },
  'GET /api/v1/providers/:slug/certificate': {
    // Not listed in discovery: the operator's token shows it (to anyone else the slug is unknown, 404).
    ...operator('GET', () => `/api/v1/providers/${SLUG}/certificate`),
    operatorOnly: false,
    wrongMethod: noRoute,
  },
  'GET /api/v1/providers/:slug/badge.svg': {
    ...operator('GET', () => `/api/v1/providers/${SLUG}/badge.svg`),
    operatorOnly: false,
    wrongMethod: noRoute,
  },
  'POST /api/v1/admin/signing-key/rotate': {
    ...operator('POST', () => '/api/v1/admin/signing-key/rotate'),
    wrongMethod: noRoute,
  },
  'POST /api/v1/admin/accounts': {
    ...operator('POST', () => '/api/v1/admin/accounts', 201, JSON.stringify({ name: 'Table Account' })),
    wrongMethod: noRoute,
    bothMethods: true,
  },
  'GET /api/v1/admin/accounts': {
    ...operator('GET', () => '/api/v1/admin/accounts'),
    wrongMethod: noRoute,
    bothMethods: true,
  },
  'POST /api/v1/admin/accounts/:id/tokens': {
    // No such account: the handler's own 404.
    ...operator('POST', () => '/api/v1/admin/accounts/acct-none/tokens', 404),
    wrongMethod: noRoute,
  },
  'GET /api/v1/account/providers': {
    // The operator or an account: the operator's answer lists every provider.
    ...operator('GET', () => '/api/v1/account/providers'),
    wrongMethod: noRoute,
  },
  'POST /api/v1/admin/tokens': {
    ...operator('POST', () => '/api/v1/admin/tokens', 201),
    wrongMethod: noRoute,
  },
  'POST /api/v1/admin/tokens/:jti/revoke': {
    // No token with this jti was issued: the handler's own 404.
    ...operator('POST', () => '/api/v1/admin/tokens/jti-none/revoke', 404),
    wrongMethod: noRoute,
  },
  'GET /api/v1/admin/logs/events': {
    ...operator('GET', () => '/api/v1/admin/logs/events?kind=decision,registration'),
    wrongMethod: noRoute,
  },
  'GET /api/v1/admin/logs/export': {
    ...operator('GET', () => '/api/v1/admin/logs/export?format=csv'),
    wrongMethod: noRoute,
  },
};

const caseOf = (key: string): RouteCase => {
  const c = cases[key];
  if (!c) throw new Error(`no test case for the route ${key}: add one to core-route-table.int.test.ts`);
  return c;
};
const otherMethod = (key: string): 'GET' | 'POST' => (key.startsWith('GET ') ? 'POST' : 'GET');

describe('the core route table', () => {
  it('has a case here for every route it answers, and no case for a route it lacks', () => {
    expect(serve.core.routes.map((r) => `${r.method} ${r.pattern}`).sort()).toEqual(Object.keys(cases).sort());
  });

  it.each(Object.keys(cases))('%s reaches its handler', async (key) => {
    const answer = await caseOf(key).call();
    expect(answer.status, JSON.stringify(answer.json)).toBe(caseOf(key).status);
    expect(answer.headers['connection']).not.toBe('close');
  });

  it.each(Object.keys(cases).filter((key) => !caseOf(key).bothMethods))(
    "another method on %s: 405 with the route's message, the connection closed",
    async (key) => {
      const c = caseOf(key);
      const method = otherMethod(key);
      const path = c.path().split('?')[0] ?? '';
      const headers = c.providerOnly ? { authorization: `Bearer ${fixture.providerToken}` } : BEARER;
      const answer = await send(serve.core.url, method, path, { headers });
      expect({ status: answer.status, json: answer.json }).toEqual({
        status: 405,
        json: { code: 'NOT_FOUND', message: c.wrongMethod(method, path) },
      });
      expect(answer.headers['connection']).toBe('close');
    },
  );

  it.each(Object.keys(cases).filter((key) => caseOf(key).operatorOnly))(
    '%s without the operator token: 401 whatever the method',
    async (key) => {
      for (const method of ['GET', 'POST']) {
        const answer = await send(serve.core.url, method, caseOf(key).path());
        expect({ status: answer.status, code: (answer.json as { code: string }).code }).toEqual({
          status: 401,
          code: 'UNAUTHORIZED',
        });
      }
    },
  );

  it.each(Object.keys(cases).filter((key) => caseOf(key).providerOnly))(
    '%s with the operator token or none: 401',
    async (key) => {
      for (const headers of [BEARER, {}]) {
        const answer = await send(serve.core.url, 'GET', caseOf(key).path(), { headers });
        expect({ status: answer.status, code: (answer.json as { code: string }).code }).toEqual({
          status: 401,
          code: 'UNAUTHORIZED',
        });
      }
    },
  );

  it.each([
    ['GET', '/api/v1/providers'],
    ['GET', `/api/v1/providers/${SLUG}`],
    ['GET', `/api/v1/providers/${SLUG}/events/extra/more`],
    ['POST', '/api/v1/webhooks//'],
    ['GET', '/api/v1/health'],
    ['DELETE', `/api/v1/providers/${SLUG}/certify/now`],
  ])('%s %s is no route: 404, the connection closed', async (method, path) => {
    const answer = await send(serve.core.url, method, path, { headers: BEARER });
    expect({ status: answer.status, json: answer.json }).toEqual({
      status: 404,
      json: { code: 'NOT_FOUND', message: `no route ${method} ${path}` },
    });
    expect(answer.headers['connection']).toBe('close');
  });
});
