import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ALL_CAPABILITIES,
  REFERENCE_SLUG,
  type RunningProvider,
  startReferenceProvider,
} from '../../src/reference-provider/index.js';
import { apiClient } from '../server/support/http-client.js';
import { freePorts } from '../support/ports.js';
import { type ServeProcess, spawnServe } from '../support/serve.js';

const DOC = join(import.meta.dirname, '../../docs/core-server.md');
const ADMIN = 'admin-token-desk-e2e-4be1';
const PROVIDER_KEY = 'provider-key-desk-e2e-90ff';
const REASON = { reasonCode: 'ITEM_UNAVAILABLE', reason: 'The catalog lists items that cannot be ordered.' };
const run = promisify(execFile);
/** Every core route of `provcert serve`: each needs a curl example in docs/core-server.md. */
const CORE_ROUTES = [
  'POST /providers/register',
  'POST /providers/{slug}/certify',
  'GET /providers/{slug}/certifications',
  'GET /providers/{slug}/certifications/{id}',
  'POST /providers/{slug}/submit-review',
  'GET /providers/{slug}/events',
  'GET /providers/find',
  'GET /providers/me/dashboard',
  'GET /providers/me/actions/{actionId}',
  'GET /admin/providers',
  'GET /admin/providers/{slug}',
  'POST /admin/providers/{slug}/review',
  'POST /admin/providers/{slug}/reopen',
  'POST /admin/providers/{slug}/rotate-webhook-secret',
  'POST /providers/me/rotate-webhook-secret',
  'GET /admin/logs/events',
  'GET /admin/logs/export',
];

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A real `provcert serve` process (test/support/serve.ts); resolves once it listens, ends with the test. */
async function startServe(port: number, dataDir: string): Promise<ServeProcess> {
  const serve = await spawnServe(port, dataDir, { env: { PROVCERT_ADMIN_TOKEN: ADMIN, DEMO_KEY: PROVIDER_KEY } });
  cleanup.push(() => serve.stop());
  return serve;
}

const registration = (baseUrl: string, extra: Record<string, unknown> = {}) => ({
  name: 'Demo Kitchen',
  slug: REFERENCE_SLUG,
  type: 'DELIVERY',
  category: 'food_delivery',
  geography: ['DE'],
  baseUrl,
  authMethod: 'API_KEY',
  capabilities: [...ALL_CAPABILITIES],
  credentialEnv: 'DEMO_KEY',
  ...extra,
});

async function startProvider(port: number, webhook: { url: string; secret: string }): Promise<RunningProvider> {
  const dir = await mkdtemp(join(tmpdir(), 'provcert-desk-e2e-provider-'));
  const provider = await startReferenceProvider({
    port,
    authMethod: 'API_KEY',
    credential: PROVIDER_KEY,
    webhookSecret: webhook.secret,
    webhookUrl: webhook.url,
    dataFile: join(dir, 'data.json'),
  });
  cleanup.push(async () => {
    await provider.close();
    await rm(dir, { recursive: true, force: true });
  });
  return provider;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'provcert-desk-e2e-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('provcert serve: the review desk end to end', () => {
  it('walks one provider through every row of the moderation table and every guard, across a SIGKILL restart', async () => {
    const [corePort = 0, providerPort = 0] = await freePorts(2);
    const dataDir = await tempDir();
    let serve = await startServe(corePort, dataDir);
    const api = apiClient(`http://127.0.0.1:${corePort}/api/v1`, ADMIN);
    const slug = REFERENCE_SLUG;
    const baseUrl = `http://127.0.0.1:${providerPort}`;
    const state = async () =>
      ((await api('GET', `/admin/providers/${slug}`)).json['provider'] as Record<string, unknown>) ?? {};
    const expectState = async (reviewStatus: string, status: string) =>
      expect(await state()).toMatchObject({ reviewStatus, status, metadata: { reviewStatus } });
    const certifyPass = async () => {
      const c = await api('POST', `/providers/${slug}/certify`);
      expect(c.json['verdict'], JSON.stringify(c.json).slice(0, 2000)).toBe('PASS');
    };
    const decide = (body: Record<string, unknown>) => api('POST', `/admin/providers/${slug}/review`, body);

    const registered = await api('POST', '/providers/register', registration(baseUrl));
    expect(registered.status).toBe(201);
    const webhook = registered.json['webhook'] as { url: string; secret: string };
    const token = (registered.json['providerToken'] as { token: string }).token;
    await startProvider(providerPort, webhook);
    await expectState('DRAFT', 'DRAFT');

    // Guard: submit-review needs a passing certification.
    expect((await api('POST', `/providers/${slug}/submit-review`)).status).toBe(409);
    await certifyPass();
    expect((await state())['metadata']).toMatchObject({ isCertified: true });

    // DRAFT → PENDING_APPROVAL → CHANGES_REQUESTED (partner-visible reason) → DRAFT (provider updates integration).
    expect((await api('POST', `/providers/${slug}/submit-review`)).status).toBe(200);
    await expectState('PENDING_APPROVAL', 'SANDBOX');
    expect((await decide({ decision: 'REQUEST_CHANGES' })).status).toBe(400);
    expect((await decide({ decision: 'REQUEST_CHANGES', ...REASON, internalNote: 'note-e2e-31' })).status).toBe(200);
    await expectState('CHANGES_REQUESTED', 'DRAFT');
    const dashboard = await api('GET', '/providers/me/dashboard', undefined, token);
    expect(dashboard.json['provider']).toMatchObject({ metadata: { reviewReason: REASON } });
    expect((dashboard.json['metrics'] as { totalActions: number }).totalActions).toBeGreaterThan(0);
    const updated = await api('POST', '/providers/register', registration(baseUrl, { fulfillment: 'DELIVERY' }));
    expect(updated.json).toMatchObject({ certificationRequired: true, provider: { reviewStatus: 'DRAFT' } });

    // Guard: the scope changed, so the old certification no longer counts.
    expect((await api('POST', `/providers/${slug}/submit-review`)).status).toBe(409);
    await certifyPass();
    expect((await api('POST', `/providers/${slug}/submit-review`)).status).toBe(200);
    const resubmitted = await api('GET', '/providers/me/dashboard', undefined, token);
    expect(
      (resubmitted.json['provider'] as { metadata: Record<string, unknown> }).metadata['reviewReason'],
    ).toBeUndefined();

    // PENDING_APPROVAL → REJECTED; the guard against self-reset; then SIGKILL and a restart.
    expect((await decide({ decision: 'APPROVE', internalNote: 'x' })).status).toBe(200);
    await expectState('APPROVED', 'SANDBOX');
    expect((await decide({ decision: 'REJECT', ...REASON })).status).toBe(409); // APPROVED allows only ACTIVATE
    expect((await decide({ decision: 'ACTIVATE' })).status).toBe(200);
    await expectState('ACTIVE', 'ACTIVE');
    const found = await api('GET', '/providers/find?capability=QUOTE', undefined, null);
    expect((found.json['data'] as { slug: string }[]).map((p) => p.slug)).toEqual([slug]);
    expect(JSON.stringify(found.json)).not.toMatch(/note-e2e-31|history|baseUrl/);
    expect((await decide({ decision: 'SUSPEND', ...REASON })).status).toBe(200);
    await expectState('SUSPENDED', 'SUSPENDED');
    expect((await api('GET', '/providers/find', undefined, null)).json['total']).toBe(0);
    const selfReset = await api('POST', '/providers/register', registration(`${baseUrl}/other`));
    expect(selfReset.status).toBe(409);

    await serve.stop('SIGKILL');
    serve = await startServe(corePort, dataDir);
    await expectState('SUSPENDED', 'SUSPENDED');
    expect((await api('GET', `/admin/providers/${slug}`)).json['provider']).toMatchObject({ baseUrl });

    // SUSPENDED → DRAFT by reopen: earlier certifications invalidated.
    expect((await api('POST', `/admin/providers/${slug}/reopen`, {})).json).toMatchObject({
      from: 'SUSPENDED',
      to: 'DRAFT',
    });
    await expectState('DRAFT', 'DRAFT');
    const certs = (await api('GET', `/providers/${slug}/certifications`)).json['data'] as { valid: boolean }[];
    expect(certs.map((c) => c.valid)).toEqual([false, false]);
    expect((await api('POST', `/providers/${slug}/submit-review`)).status).toBe(409);

    // Then PENDING_APPROVAL → REJECTED and REJECTED → DRAFT, the rows not walked yet.
    await certifyPass();
    expect((await api('POST', `/providers/${slug}/submit-review`)).status).toBe(200);
    expect((await decide({ decision: 'REJECT', ...REASON })).json).toMatchObject({
      to: 'REJECTED',
      status: 'DISABLED',
    });
    expect((await api('POST', '/providers/register', registration(`${baseUrl}/new`))).status).toBe(409);
    expect((await api('POST', `/admin/providers/${slug}/reopen`, {})).json).toMatchObject({ to: 'DRAFT' });

    const history = (await api('GET', `/admin/providers/${slug}`)).json['history'] as {
      trigger: string;
      from: string;
      to: string;
    }[];
    expect(history.map((h) => `${h.from} ${h.trigger} ${h.to}`)).toEqual([
      'DRAFT SUBMIT_REVIEW PENDING_APPROVAL',
      'PENDING_APPROVAL REQUEST_CHANGES CHANGES_REQUESTED',
      'CHANGES_REQUESTED UPDATE_INTEGRATION DRAFT',
      'DRAFT SUBMIT_REVIEW PENDING_APPROVAL',
      'PENDING_APPROVAL APPROVE APPROVED',
      'APPROVED ACTIVATE ACTIVE',
      'ACTIVE SUSPEND SUSPENDED',
      'SUSPENDED REOPEN DRAFT',
      'DRAFT SUBMIT_REVIEW PENDING_APPROVAL',
      'PENDING_APPROVAL REJECT REJECTED',
      'REJECTED REOPEN DRAFT',
    ]);
    const logs = JSON.stringify((await api('GET', '/admin/logs/events?limit=1000')).json);
    for (const secret of [ADMIN, PROVIDER_KEY, webhook.secret, token, 'note-e2e-31']) {
      expect(logs).not.toContain(secret);
      expect(serve.output()).not.toContain(secret);
    }
  }, 120_000);

  it('runs every curl example of docs/core-server.md against a real server', async () => {
    const [corePort = 0, providerPort = 0] = await freePorts(2);
    const dataDir = await tempDir();
    await startServe(corePort, dataDir);
    const doc = await readFile(DOC, 'utf8');
    const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '').filter((b) => b.includes('curl '));
    const routes = new Set<string>();
    const vars: Record<string, string> = {};
    for (const block of blocks) {
      const script = block
        .replaceAll('http://127.0.0.1:4010', `http://127.0.0.1:${providerPort}`)
        .replaceAll('http://127.0.0.1:8787', `http://127.0.0.1:${corePort}`);
      const env = {
        PATH: process.env['PATH'] ?? '',
        PROVCERT_ADMIN_TOKEN: ADMIN,
        CORE: `http://127.0.0.1:${corePort}/api/v1`,
        AUTH: `Authorization: Bearer ${ADMIN}`,
        ...vars,
      };
      const { stdout } = await run('bash', ['-euc', script], { env, cwd: dataDir });
      for (const r of CORE_ROUTES) {
        const [method, pattern] = r.split(' ') as [string, string];
        const path = new RegExp(`\\$CORE${pattern.replace(/\{[a-zA-Z]+\}/g, '[^\\s"?/]+')}(?=[\\s"?]|$)`);
        if (path.test(block) && (method === 'POST') === block.includes('-X POST')) routes.add(r);
      }
      if (block.includes('/logs/export') && block.includes('csv')) {
        expect(stdout.split('\r\n')[0]).toMatch(/^id,at,kind,slug/);
        continue;
      }
      const json = JSON.parse(stdout) as Record<string, unknown>;
      expect(json['code'], `${block}\n→ ${stdout.slice(0, 500)}`).toBeUndefined();
      if (block.includes('/providers/register')) {
        const webhook = json['webhook'] as { url: string; secret: string };
        vars['PROVIDER_TOKEN'] = (json['providerToken'] as { token: string }).token;
        await startProvider(providerPort, webhook);
      }
      if (block.includes('/certify')) vars['CERTIFICATION_ID'] = String(json['id']);
      if (block.includes('/providers/me/dashboard'))
        vars['ACTION_ID'] = String((json['actions'] as { publicId: string }[])[0]?.publicId);
    }
    expect([...routes].sort()).toEqual([...CORE_ROUTES].sort());
  }, 120_000);
});
