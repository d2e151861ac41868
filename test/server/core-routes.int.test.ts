import { rm } from 'node:fs/promises';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveServeSettings } from '../../src/config/serve.js';
import type { Contract } from '../../src/contract/contract.js';
import { loadContract } from '../../src/contract/load.js';
import type { CertifyInput } from '../../src/server/core-routes/deps.js';
import { type RunningServe, startServe } from '../../src/server/serve.js';
import { registration } from '../support/registration.js';
import { scratchDir } from '../support/scratch.js';
import { fakeReport } from './support/fake-report.js';
import { apiClient, event, post, sign } from './support/http-client.js';

const ADMIN = 'admin-token-canary-77';
const CREDENTIAL = 'provider-credential-canary-42';

let contract: Contract;
let dataDir: string;
let serve: RunningServe;
let verdict: 'PASS' | 'FAIL';
let certifyCalls: CertifyInput[];
/** While set, certifications wait for it (to observe one that is running). */
let hold: Promise<void> | undefined;
const logLines: string[] = [];
const env: NodeJS.ProcessEnv = { PROVCERT_ADMIN_TOKEN: ADMIN, DEMO_CREDENTIAL: CREDENTIAL };

const api = apiClient(() => serve.core.url, ADMIN);

beforeAll(async () => {
  contract = await loadContract();
});

beforeEach(async () => {
  dataDir = await scratchDir('serve');
  verdict = 'PASS';
  certifyCalls = [];
  hold = undefined;
  logLines.length = 0;
  const settings = await resolveServeSettings({ port: '0', dataDir, local: true, slug: 'sandbox' }, dataDir);
  serve = await startServe(settings, {
    contract,
    certify: async (input) => {
      certifyCalls.push(input);
      await hold;
      return fakeReport(verdict);
    },
    env,
    cwd: dataDir,
    log: (l) => logLines.push(l),
  });
});

afterEach(async () => {
  await serve.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('core routes', () => {
  it('refuse requests without the operator token', async () => {
    for (const token of ['', 'wrong']) {
      const r = await api('POST', '/api/v1/providers/register', registration(), token);
      expect(r.status).toBe(401);
      expect(r.json['code']).toBe('UNAUTHORIZED');
    }
  });

  it('register answers the webhook address and the secret once; the secret then verifies webhooks', async () => {
    const created = await api('POST', '/api/v1/providers/register', registration());
    expect(created.status).toBe(201);
    const webhook = created.json['webhook'] as { url: string; secret: string };
    expect(webhook.url).toBe(`${serve.core.url}/api/v1/webhooks/demo-kitchen`);
    expect(webhook.secret).toMatch(/^[0-9a-f]{64}$/);

    const again = await api('POST', '/api/v1/providers/register', registration({ name: 'Demo Kitchen 2' }));
    expect(again.status).toBe(200);
    expect(JSON.stringify(again.json)).not.toContain(webhook.secret);

    const body = JSON.stringify(event({ providerSlug: 'demo-kitchen' }));
    const answer = await post(webhook.url, body, {
      'content-type': 'application/json',
      'x-service-signature': sign(webhook.secret, body),
    });
    expect(answer.status).toBe(200);
    const events = await api('GET', '/api/v1/providers/demo-kitchen/events');
    expect(events.json['total']).toBe(1);
    expect((events.json['data'] as Record<string, unknown>[])[0]).toMatchObject({
      verified: true,
      eventType: 'action.status_updated',
      answeredStatus: 200,
    });
    expect(JSON.stringify({ events: events.json, logLines })).not.toContain(webhook.secret);
  });

  it('rejects invalid registrations with every problem named', async () => {
    const r = await api(
      'POST',
      '/api/v1/providers/register',
      registration({
        slug: 'Bad Slug',
        authMethod: 'PASSWORD',
        capabilities: ['TELEPORT'],
        baseUrl: 'https://x.example/health',
        credentialEnv: undefined,
        credential: 'plain',
        name: ' ',
        geography: undefined,
      }),
    );
    expect(r.status).toBe(400);
    const message = String(r.json['message']);
    const named = [
      /slug "Bad Slug" must be lowercase/,
      /\/authMethod must be one of API_KEY, BEARER_TOKEN, HMAC_SIGNATURE/,
      /\/capabilities\/0 must be one of .*TELEPORT/,
      /the base URL ends with \/health/,
      /never the credential itself/,
      /exactly one credential reference/,
      /name must not be blank/,
      /required field "geography"/,
    ];
    for (const part of named) expect(message).toMatch(part);
    expect(message).not.toContain('plain');
  });

  it.each([
    ['both credential references', { credentialFile: 'key.txt' }, /exactly one credential reference/],
    [
      'an environment variable name that is not one',
      { credentialEnv: 'MY-KEY' },
      /credentialEnv "MY-KEY" must be an environment variable name/,
    ],
    ['no capability', { capabilities: [] }, /\/capabilities must NOT have fewer than 1 items/],
    ['an unknown fulfillment mode', { fulfillment: 'TELEPORT' }, /\/fulfillment must be one of DELIVERY/],
    ['a body that is not an object', null, /the body must be a JSON object/],
  ])('rejects a registration with %s', async (_name, overrides, message) => {
    const r = await api(
      'POST',
      '/api/v1/providers/register',
      overrides === null ? [registration()] : registration(overrides),
    );
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(message) as unknown });
  });

  it('stores a valid registration as sent, the credential reference echoed, type upper-cased', async () => {
    const r = await api(
      'POST',
      '/api/v1/providers/register',
      registration({
        type: 'delivery',
        fulfillment: 'PICKUP',
        credentialEnv: undefined,
        credentialFile: 'secrets/demo.key',
      }),
    );
    expect(r.status).toBe(201);
    expect(r.json['provider']).toMatchObject({
      type: 'DELIVERY',
      fulfillment: 'PICKUP',
      credentialFile: 'secrets/demo.key',
      status: 'DRAFT',
      reviewStatus: 'DRAFT',
      configVersion: 1,
    });
    expect(r.json['provider']).not.toHaveProperty('credentialEnv');
  });

  it('applies the base-address rules without --local', async () => {
    await serve.close();
    const settings = await resolveServeSettings({ port: '0', dataDir }, dataDir);
    serve = await startServe(settings, {
      contract,
      certify: () => Promise.resolve(fakeReport('PASS')),
      env,
      cwd: dataDir,
      log: () => undefined,
    });
    for (const baseUrl of [
      'http://provider.example.com',
      'https://127.0.0.1/api',
      'https://10.1.2.3',
      'https://localhost:8443',
    ]) {
      const r = await api('POST', '/api/v1/providers/register', registration({ baseUrl }));
      expect(r.status, baseUrl).toBe(400);
    }
    expect(
      (await api('POST', '/api/v1/providers/register', registration({ baseUrl: 'https://provider.example.com/api' })))
        .status,
    ).toBe(201);
  });

  it('certify runs the engine with the credential and secret, stores the report, lists newest first', async () => {
    const created = await api('POST', '/api/v1/providers/register', registration());
    const first = await api('POST', '/api/v1/providers/demo-kitchen/certify');
    verdict = 'FAIL';
    const second = await api('POST', '/api/v1/providers/demo-kitchen/certify');
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(certifyCalls[0]).toMatchObject({
      credential: CREDENTIAL,
      webhookSecret: (created.json['webhook'] as { secret: string }).secret,
    });
    expect(certifyCalls[0]?.inbox.urlFor('demo-kitchen')).toBe(`${serve.core.url}/api/v1/webhooks/demo-kitchen`);

    const list = await api('GET', '/api/v1/providers/demo-kitchen/certifications');
    expect((list.json['data'] as { id: string; verdict: string }[]).map((c) => c.verdict)).toEqual(['FAIL', 'PASS']);
    const one = await api('GET', `/api/v1/providers/demo-kitchen/certifications/${String(first.json['id'])}`);
    expect(one.json).toMatchObject({ verdict: 'PASS', report: { verdict: 'PASS' } });
    expect((await api('GET', '/api/v1/providers/demo-kitchen/certifications/nope')).status).toBe(404);
    expect(JSON.stringify(list.json) + JSON.stringify(one.json)).not.toContain(CREDENTIAL);
  });

  it('certify answers 400 when the credential variable is missing and 404 for an unknown provider', async () => {
    await api('POST', '/api/v1/providers/register', registration({ credentialEnv: 'NOT_SET_ANYWHERE' }));
    const r = await api('POST', '/api/v1/providers/demo-kitchen/certify');
    expect(r.status).toBe(400);
    expect(r.json['message']).toMatch(/NOT_SET_ANYWHERE is not set/);
    expect((await api('POST', '/api/v1/providers/nobody/certify')).status).toBe(404);
  });

  it('submit-review needs a passing, current certification', async () => {
    await api('POST', '/api/v1/providers/register', registration());
    const early = await api('POST', '/api/v1/providers/demo-kitchen/submit-review');
    expect(early.status).toBe(409);
    expect(early.json['message']).toMatch(/not been certified/);

    verdict = 'FAIL';
    await api('POST', '/api/v1/providers/demo-kitchen/certify');
    expect((await api('POST', '/api/v1/providers/demo-kitchen/submit-review')).json['message']).toMatch(/did not pass/);

    verdict = 'PASS';
    await api('POST', '/api/v1/providers/demo-kitchen/certify');
    await api('POST', '/api/v1/providers/register', registration({ baseUrl: 'http://127.0.0.1:10/api' }));
    expect((await api('POST', '/api/v1/providers/demo-kitchen/submit-review')).json['message']).toMatch(
      /changed after the latest certification/,
    );

    await api('POST', '/api/v1/providers/demo-kitchen/certify');
    env['DEMO_CREDENTIAL'] = 'rotated-credential';
    try {
      expect((await api('POST', '/api/v1/providers/demo-kitchen/submit-review')).json['message']).toMatch(
        /credential changed/,
      );
    } finally {
      env['DEMO_CREDENTIAL'] = CREDENTIAL;
    }
    const ok = await api('POST', '/api/v1/providers/demo-kitchen/submit-review');
    expect(ok.status).toBe(200);
    expect(ok.json['reviewStatus']).toBe('PENDING_APPROVAL');
  });

  it('registrations and certifications survive a restart', async () => {
    await api('POST', '/api/v1/providers/register', registration());
    await api('POST', '/api/v1/providers/demo-kitchen/certify');
    await serve.close();
    const settings = await resolveServeSettings({ port: '0', dataDir, local: true }, dataDir);
    serve = await startServe(settings, {
      contract,
      certify: () => Promise.resolve(fakeReport('PASS')),
      env,
      cwd: dataDir,
      log: () => undefined,
    });
    expect((await api('GET', '/api/v1/providers/demo-kitchen/certifications')).json['total']).toBe(1);
    expect((await api('POST', '/api/v1/providers/demo-kitchen/submit-review')).status).toBe(200);
  });

  it('every answer of the core routes matches its response schema in spec/openapi.yaml', async () => {
    const answers: { key: string; status: number; json: unknown }[] = [];
    /** Call a route and keep the answer under its operation key ("GET /api/v1/providers/{slug}/events"). */
    const call = async (
      method: 'GET' | 'POST',
      path: string,
      body?: unknown,
      token = ADMIN,
    ): Promise<Record<string, unknown>> => {
      const r = await api(method, path, body, token);
      const template = path
        .replace(/\/providers\/(?!register$)[^/]+/, '/providers/{slug}')
        .replace(/\/certifications\/[^/]+$/, '/certifications/{id}');
      answers.push({ key: `${method} ${template}`, status: r.status, json: r.json });
      return r.json;
    };
    const serverSecret =
      /([0-9a-f]{64})/.exec(serve.banner.find((l) => l.includes('webhook secret:')) ?? '')?.[1] ?? '';

    await call('POST', '/api/v1/providers/register', registration(), 'wrong'); // 401
    await call('POST', '/api/v1/providers/register', registration({ slug: 'Bad Slug' })); // 400
    await call('POST', '/api/v1/providers/register', registration({ padding: 'x'.repeat(70 * 1024) })); // 413
    const created = await call('POST', '/api/v1/providers/register', registration()); // 201
    await call('POST', '/api/v1/providers/register', registration({ name: 'Renamed' })); // 200
    await call('POST', '/api/v1/providers/demo-kitchen/submit-review'); // 409: not certified
    await call('POST', '/api/v1/providers/nobody/certify'); // 404
    await call('POST', '/api/v1/providers/nobody/submit-review'); // 404

    let release = (): void => undefined;
    hold = new Promise((resolve) => (release = resolve));
    const running = call('POST', '/api/v1/providers/demo-kitchen/certify');
    await expect.poll(() => certifyCalls.length).toBe(1);
    await call('POST', '/api/v1/providers/demo-kitchen/certify'); // 409: already running
    release();
    const record = await running; // 200
    await call('GET', '/api/v1/providers/demo-kitchen/certifications'); // 200
    await call('GET', `/api/v1/providers/demo-kitchen/certifications/${String(record['id'])}`); // 200
    await call('GET', '/api/v1/providers/demo-kitchen/certifications/nope'); // 404
    await call('GET', '/api/v1/providers/nobody/certifications'); // 404
    await call('POST', '/api/v1/providers/demo-kitchen/submit-review'); // 200

    const secret = (created['webhook'] as { secret: string }).secret;
    const signed = JSON.stringify(event({ providerSlug: 'demo-kitchen' }));
    await post(serve.core.urlFor('demo-kitchen'), signed, {
      'content-type': 'application/json',
      'x-service-signature': sign(secret, signed),
    });
    await post(serve.core.urlFor('demo-kitchen'), signed, {
      'content-type': 'application/json',
      'x-service-signature': 'ab'.repeat(32),
    });
    const legacy = JSON.stringify(event({ providerSlug: 'sandbox' }));
    await post(`${serve.core.url}/api/v1/webhooks`, legacy, {
      'content-type': 'application/json',
      'x-service-signature': sign(serverSecret, legacy),
    });
    const events = await call('GET', '/api/v1/providers/demo-kitchen/events'); // 200: verified and rejected
    const legacyEvents = await call('GET', '/api/v1/providers/sandbox/events'); // 200: from the legacy route
    await call('GET', '/api/v1/providers/nobody/events'); // 404
    expect(events['total']).toBe(2);
    expect(legacyEvents['data']).toEqual([
      expect.objectContaining({ slug: 'sandbox', legacyRoute: true, verified: true }),
    ]);

    expect(answers.map((a) => `${a.key} ${a.status}`)).toEqual(
      expect.arrayContaining([
        'POST /api/v1/providers/register 201',
        'POST /api/v1/providers/register 200',
        'POST /api/v1/providers/register 400',
        'POST /api/v1/providers/register 401',
        'POST /api/v1/providers/register 413',
        'POST /api/v1/providers/{slug}/certify 200',
        'POST /api/v1/providers/{slug}/certify 404',
        'POST /api/v1/providers/{slug}/certify 409',
        'POST /api/v1/providers/{slug}/submit-review 200',
        'POST /api/v1/providers/{slug}/submit-review 404',
        'POST /api/v1/providers/{slug}/submit-review 409',
        'GET /api/v1/providers/{slug}/certifications 200',
        'GET /api/v1/providers/{slug}/certifications 404',
        'GET /api/v1/providers/{slug}/certifications/{id} 200',
        'GET /api/v1/providers/{slug}/certifications/{id} 404',
        'GET /api/v1/providers/{slug}/events 200',
        'GET /api/v1/providers/{slug}/events 404',
      ]),
    );
    for (const a of answers) {
      const result = contract.validateResponse(a.key, a.status, a.json);
      expect(result, `${a.key} ${a.status} is documented`).toBeDefined();
      expect(
        result?.problems.map((p) => p.text),
        `${a.key} ${a.status}: ${JSON.stringify(a.json)}`,
      ).toEqual([]);
    }
  });

  it('the registration bodies of these tests match CoreRegistrationInput', () => {
    expect(contract.validateRequest('POST /api/v1/providers/register', registration())?.valid).toBe(true);
    expect(
      contract.validateRequest(
        'POST /api/v1/providers/register',
        registration({ credentialEnv: undefined, credentialFile: 'k' }),
      )?.valid,
    ).toBe(true);
  });

  it('configured slugs use the server secret, generated once and not shown again after a restart', async () => {
    const secretLine = serve.banner.find((l) => l.includes('webhook secret:')) ?? '';
    const secret = /([0-9a-f]{64})/.exec(secretLine)?.[1] ?? '';
    expect(secret).not.toBe('');
    const body = JSON.stringify(event({ providerSlug: 'sandbox' }));
    expect(
      (
        await post(serve.core.urlFor('sandbox'), body, {
          'content-type': 'application/json',
          'x-service-signature': sign(secret, body),
        })
      ).status,
    ).toBe(200);
    await serve.close();
    const settings = await resolveServeSettings({ port: '0', dataDir, slug: 'sandbox' }, dataDir);
    serve = await startServe(settings, {
      contract,
      certify: () => Promise.resolve(fakeReport('PASS')),
      env,
      cwd: dataDir,
      log: () => undefined,
    });
    expect(serve.banner.join('\n')).not.toContain(secret);
    const body2 = JSON.stringify(event({ providerSlug: 'sandbox' }));
    expect(
      (
        await post(serve.core.urlFor('sandbox'), body2, {
          'content-type': 'application/json',
          'x-service-signature': sign(secret, body2),
        })
      ).status,
    ).toBe(200);
  });
});
