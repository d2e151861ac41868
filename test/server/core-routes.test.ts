import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/checks/types.js';
import type { CertifyInput } from '../../src/server/admin/routes.js';
import { startServe, type RunningServe } from '../../src/server/serve.js';
import { resolveServeSettings } from '../../src/server/serve-config.js';
import { webhookOnlyContract } from './support/fake-contract.js';
import { event, post, sign } from './support/http-client.js';

const ADMIN = 'admin-token-canary-77';
const CREDENTIAL = 'provider-credential-canary-42';

function fakeReport(verdict: 'PASS' | 'FAIL'): RunReport {
  const now = new Date().toISOString();
  return {
    reportVersion: 1, tool: { name: 'provcert', version: '0.0.0' }, contract: { version: '1.0.0', spec: 'test' },
    provider: { baseUrl: 'http://127.0.0.1:9', authMethod: 'API_KEY', profile: 'TRANSACTIONAL', capabilities: [], fulfillment: 'REMOTE' },
    verdict, startedAt: now, finishedAt: now, durationMs: 1, summary: { pass: verdict === 'PASS' ? 1 : 0, fail: verdict === 'FAIL' ? 1 : 0, skip: 0, error: 0 },
    checks: [], webhooks: { url: '', events: [] }, inputs: {},
  };
}

let dataDir: string;
let serve: RunningServe;
let verdict: 'PASS' | 'FAIL';
let certifyCalls: CertifyInput[];
const logLines: string[] = [];
const env: NodeJS.ProcessEnv = { PROVCERT_ADMIN_TOKEN: ADMIN, DEMO_CREDENTIAL: CREDENTIAL };

async function api(method: 'GET' | 'POST', path: string, body?: unknown, token = ADMIN): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${serve.core.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const registration = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'Demo Kitchen', slug: 'demo-kitchen', type: 'DELIVERY', category: 'food_delivery', geography: ['DE'],
  baseUrl: 'http://127.0.0.1:9/api', authMethod: 'API_KEY', capabilities: ['METADATA', 'HEALTH', 'CATALOG'], credentialEnv: 'DEMO_CREDENTIAL',
  ...overrides,
});

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'provcert-serve-'));
  verdict = 'PASS';
  certifyCalls = [];
  logLines.length = 0;
  const settings = await resolveServeSettings({ port: '0', dataDir, local: true, slug: 'sandbox' }, dataDir);
  serve = await startServe(settings, {
    contract: webhookOnlyContract(),
    certify: (input) => {
      certifyCalls.push(input);
      return Promise.resolve(fakeReport(verdict));
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
    const answer = await post(webhook.url, body, { 'content-type': 'application/json', 'x-service-signature': sign(webhook.secret, body) });
    expect(answer.status).toBe(200);
    const events = await api('GET', '/api/v1/providers/demo-kitchen/events');
    expect(events.json['total']).toBe(1);
    expect((events.json['data'] as Record<string, unknown>[])[0]).toMatchObject({ verified: true, eventType: 'action.status_updated', answeredStatus: 200 });
    expect(JSON.stringify({ events: events.json, logLines })).not.toContain(webhook.secret);
  });

  it('rejects invalid registrations with every problem named', async () => {
    const r = await api('POST', '/api/v1/providers/register', registration({ slug: 'Bad Slug', authMethod: 'PASSWORD', capabilities: ['TELEPORT'], baseUrl: 'https://x.example/health', credentialEnv: undefined, credential: 'plain' }));
    expect(r.status).toBe(400);
    const message = String(r.json['message']);
    for (const part of [/slug "Bad Slug"/, /authMethod must be one of/, /unknown capabilities TELEPORT/, /must not end with \/health/, /never the credential itself/]) expect(message).toMatch(part);
  });

  it('applies the base-address rules without --local', async () => {
    await serve.close();
    const settings = await resolveServeSettings({ port: '0', dataDir }, dataDir);
    serve = await startServe(settings, { contract: webhookOnlyContract(), certify: () => Promise.resolve(fakeReport('PASS')), env, cwd: dataDir, log: () => undefined });
    for (const baseUrl of ['http://provider.example.com', 'https://127.0.0.1/api', 'https://10.1.2.3', 'https://localhost:8443']) {
      const r = await api('POST', '/api/v1/providers/register', registration({ baseUrl }));
      expect(r.status, baseUrl).toBe(400);
    }
    expect((await api('POST', '/api/v1/providers/register', registration({ baseUrl: 'https://provider.example.com/api' }))).status).toBe(201);
  });

  it('certify runs the engine with the credential and secret, stores the report, lists newest first', async () => {
    const created = await api('POST', '/api/v1/providers/register', registration());
    const first = await api('POST', '/api/v1/providers/demo-kitchen/certify');
    verdict = 'FAIL';
    const second = await api('POST', '/api/v1/providers/demo-kitchen/certify');
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(certifyCalls[0]).toMatchObject({ credential: CREDENTIAL, webhookSecret: (created.json['webhook'] as { secret: string }).secret });
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
    expect((await api('POST', '/api/v1/providers/demo-kitchen/submit-review')).json['message']).toMatch(/changed after the latest certification/);

    await api('POST', '/api/v1/providers/demo-kitchen/certify');
    env['DEMO_CREDENTIAL'] = 'rotated-credential';
    try {
      expect((await api('POST', '/api/v1/providers/demo-kitchen/submit-review')).json['message']).toMatch(/credential changed/);
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
    serve = await startServe(settings, { contract: webhookOnlyContract(), certify: () => Promise.resolve(fakeReport('PASS')), env, cwd: dataDir, log: () => undefined });
    expect((await api('GET', '/api/v1/providers/demo-kitchen/certifications')).json['total']).toBe(1);
    expect((await api('POST', '/api/v1/providers/demo-kitchen/submit-review')).status).toBe(200);
  });

  it('configured slugs use the server secret, generated once and not shown again after a restart', async () => {
    const secretLine = serve.banner.find((l) => l.includes('webhook secret:')) ?? '';
    const secret = /([0-9a-f]{64})/.exec(secretLine)?.[1] ?? '';
    expect(secret).not.toBe('');
    const body = JSON.stringify(event({ providerSlug: 'sandbox' }));
    expect((await post(serve.core.urlFor('sandbox'), body, { 'content-type': 'application/json', 'x-service-signature': sign(secret, body) })).status).toBe(200);
    await serve.close();
    const settings = await resolveServeSettings({ port: '0', dataDir, slug: 'sandbox' }, dataDir);
    serve = await startServe(settings, { contract: webhookOnlyContract(), certify: () => Promise.resolve(fakeReport('PASS')), env, cwd: dataDir, log: () => undefined });
    expect(serve.banner.join('\n')).not.toContain(secret);
    const body2 = JSON.stringify(event({ providerSlug: 'sandbox' }));
    expect((await post(serve.core.urlFor('sandbox'), body2, { 'content-type': 'application/json', 'x-service-signature': sign(secret, body2) })).status).toBe(200);
  });
});
