import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveServeSettings } from '../../src/config/serve.js';
import type { Contract } from '../../src/contract/contract.js';
import { loadContract } from '../../src/contract/load.js';
import { type ReceivedWebhook, timelineEntry } from '../../src/model/webhooks.js';
import { type RunningServe, startServe } from '../../src/server/serve.js';
import { registration } from '../support/registration.js';
import { scratchDir } from '../support/scratch.js';
import { fakeReport } from './support/fake-report.js';
import { event, post, sign } from './support/http-client.js';

const ADMIN = 'admin-token-rotation-5c1e';
const CREDENTIAL = 'provider-credential-rotation-77';
const SLUG = 'demo-kitchen';
const T0 = Date.parse('2026-11-26T12:00:00.000Z');

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract();
});

/** How a test webhook is sent: on the legacy slugless route, and/or with its signature rewritten. */
interface Delivery {
  legacy?: boolean;
  signature?: (hex: string) => string;
}

interface Core {
  serve: RunningServe;
  dataDir: string;
  logLines: string[];
  /** Moves the clock of the overlap window. */
  advance(ms: number): void;
  api(
    method: 'GET' | 'POST',
    path: string,
    token?: string | null,
  ): Promise<{ status: number; json: Record<string, unknown> }>;
  /** POST a webhook signed with `secret`; answers the status. */
  webhook(secret: string, overrides?: Record<string, unknown>, how?: Delivery): Promise<number>;
}

const running: RunningServe[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
});

/**
 * A real serve on loopback with a clock the test moves; `overlap` is --webhook-secret-overlap, a 600 s window unless
 * a test names another (the default is 0: tested under "webhookSecretOverlap setting").
 */
async function startCore(overlap = '600', dataDir?: string): Promise<Core> {
  const dir = dataDir ?? (await scratchDir('rotation'));
  let now = T0;
  const logLines: string[] = [];
  const settings = await resolveServeSettings(
    { port: '0', dataDir: dir, local: true, webhookSecretOverlap: overlap },
    dir,
  );
  const serve = await startServe(settings, {
    contract,
    certify: async () => fakeReport('PASS'),
    env: { PROVCERT_ADMIN_TOKEN: ADMIN, DEMO_CREDENTIAL: CREDENTIAL },
    cwd: dir,
    log: (l) => logLines.push(l),
    now: () => new Date(now),
  });
  running.push(serve);
  const api: Core['api'] = async (method, path, token = ADMIN) => {
    const res = await fetch(`${serve.core.url}${path}`, {
      method,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const text = await res.text();
    return {
      status: res.status,
      json: (text.startsWith('{') ? JSON.parse(text) : { text }) as Record<string, unknown>,
    };
  };
  return {
    serve,
    dataDir: dir,
    logLines,
    advance: (ms) => {
      now += ms;
    },
    api,
    webhook: async (secret, overrides = {}, how = {}) => {
      const body = JSON.stringify(event({ providerSlug: SLUG, ...overrides }));
      const url = how.legacy ? `${serve.core.url}/api/v1/webhooks` : serve.core.urlFor(SLUG);
      const hex = sign(secret, body);
      const answer = await post(url, body, {
        'content-type': 'application/json',
        'x-service-signature': how.signature ? how.signature(hex) : hex,
      });
      return answer.status;
    },
  };
}

/** Registers demo-kitchen; answers its first webhook secret and provider token. */
async function register(core: Core): Promise<{ secret: string; token: string }> {
  const res = await fetch(`${core.serve.core.url}/api/v1/providers/register`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify(registration({ slug: SLUG })),
  });
  expect(res.status).toBe(201);
  const json = (await res.json()) as { webhook: { secret: string }; providerToken: { token: string } };
  return { secret: json.webhook.secret, token: json.providerToken.token };
}

const ADMIN_ROUTE = `/api/v1/admin/providers/${SLUG}/rotate-webhook-secret`;
const OWN_ROUTE = '/api/v1/providers/me/rotate-webhook-secret';
const ADMIN_TEMPLATE = '/api/v1/admin/providers/{slug}/rotate-webhook-secret';

/** The problems of an answer against its documented response in spec/openapi.yaml (undefined: not documented). */
function documented(template: string, r: { status: number; json: unknown }): string[] | undefined {
  return contract.validateResponse(`POST ${template}`, r.status, r.json)?.problems.map((p) => p.text);
}

async function rotate(core: Core, by: 'operator' | 'provider', token?: string): Promise<Record<string, unknown>> {
  const r = by === 'operator' ? await core.api('POST', ADMIN_ROUTE) : await core.api('POST', OWN_ROUTE, token);
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  expect(documented(by === 'operator' ? ADMIN_TEMPLATE : OWN_ROUTE, r)).toEqual([]);
  return r.json;
}

async function listed(core: Core): Promise<Record<string, unknown>[]> {
  return (await core.api('GET', `/api/v1/providers/${SLUG}/events`)).json['data'] as Record<string, unknown>[];
}

describe('webhook secret rotation (WEBHOOK-SECRET-ROTATION)', () => {
  it.each([
    { by: 'operator' as const, overlap: '600', windowS: 600 },
    { by: 'provider' as const, overlap: '30', windowS: 30 },
  ])(
    'rotated by the $by: the new secret verifies, the old one verifies inside the $windowS s window marked previous, and is refused with 401 after it',
    async ({ by, overlap, windowS }) => {
      const core = await startCore(overlap);
      const { secret: old, token } = await register(core);
      expect(await core.webhook(old)).toBe(200);

      const rotation = await rotate(core, by, token);
      const fresh = (rotation['webhook'] as { secret: string }).secret;
      expect(fresh).toMatch(/^[0-9a-f]{64}$/);
      expect(fresh).not.toBe(old);
      expect(rotation['overlapSeconds']).toBe(windowS);
      expect(rotation['previousSecretValidUntil']).toBe(new Date(T0 + windowS * 1000).toISOString());

      expect(await core.webhook(fresh, { eventId: 'by-new' })).toBe(200);
      core.advance(windowS * 1000 - 1);
      expect(await core.webhook(old, { eventId: 'by-old-inside' })).toBe(200);
      core.advance(1);
      expect(await core.webhook(old, { eventId: 'by-old-after' })).toBe(401);
      expect(await core.webhook(fresh, { eventId: 'by-new-after' })).toBe(200);

      const byId = new Map((await listed(core)).map((e) => [e['eventId'], e]));
      expect(byId.get('by-new')).not.toHaveProperty('verifiedWith');
      expect(byId.get('by-old-inside')).toMatchObject({
        verified: true,
        verifiedWith: 'previous',
        answeredStatus: 200,
      });
      expect(byId.get('by-old-after')).toMatchObject({ verified: false, answeredStatus: 401 });
      expect(String(byId.get('by-old-after')?.['problem'])).toContain('signed with the webhook secret rotated out at');
      expect(core.logLines.join('\n')).toContain('verified with the previous (rotated) secret');

      const log = (await core.api('GET', '/api/v1/admin/logs/events?kind=secret-rotation,webhook&limit=100')).json;
      const entries = log['data'] as Record<string, unknown>[];
      expect(entries.find((e) => e['kind'] === 'secret-rotation')).toMatchObject({
        slug: SLUG,
        actor: by === 'operator' ? 'admin' : 'provider',
        previousSecretValidUntil: rotation['previousSecretValidUntil'],
      });
      expect(entries.find((e) => e['eventId'] === 'by-old-inside')).toMatchObject({ verifiedWith: 'previous' });
    },
  );

  it.each([
    {
      name: 'the previous secret on the legacy slugless route',
      signer: 'old',
      how: { legacy: true },
      status: 200,
      previous: true,
    },
    {
      name: 'the previous secret in uppercase hex',
      signer: 'old',
      how: { signature: (h: string) => h.toUpperCase() },
      status: 200,
      previous: true,
    },
    { name: 'a signature made with neither secret', signer: 'neither', how: {}, status: 401, previous: false },
    {
      name: 'a previous-secret signature cut short',
      signer: 'old',
      how: { signature: (h: string) => h.slice(0, 63) },
      status: 401,
      previous: false,
    },
    { name: 'an unsigned event', signer: 'old', how: { signature: () => '' }, status: 401, previous: false },
  ])('inside the window: $name → $status', async ({ signer, how, status, previous }) => {
    const core = await startCore();
    const { secret: old } = await register(core);
    await rotate(core, 'operator');
    const secret = signer === 'old' ? old : 'a-secret-of-nobody';
    expect(await core.webhook(secret, { eventId: 'edge' }, how)).toBe(status);
    const entry = (await listed(core)).find((e) => e['eventId'] === 'edge');
    expect(entry).toMatchObject({ answeredStatus: status, verified: status === 200 });
    if (previous) expect(entry).toMatchObject({ verifiedWith: 'previous' });
    else expect(entry).not.toHaveProperty('verifiedWith');
  });

  it('concurrent rotations are serialized: one new secret is current, the one before it overlaps, the others are refused', async () => {
    const core = await startCore();
    const { secret: first } = await register(core);
    const answers = await Promise.all(Array.from({ length: 5 }, () => core.api('POST', ADMIN_ROUTE)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const secrets = answers.map((a) => (a.json['webhook'] as { secret: string }).secret);
    expect(new Set(secrets).size).toBe(5);
    const outcomes: string[] = [];
    for (const [i, secret] of [first, ...secrets].entries()) {
      const status = await core.webhook(secret, { eventId: `concurrent-${i}` });
      const entry = (await listed(core)).find((e) => e['eventId'] === `concurrent-${i}`);
      outcomes.push(status === 200 ? String(entry?.['verifiedWith'] ?? 'current') : String(status));
    }
    expect(outcomes.sort()).toEqual(['401', '401', '401', '401', 'current', 'previous']);
    const log = (await core.api('GET', '/api/v1/admin/logs/events?kind=secret-rotation')).json;
    expect(log['total']).toBe(5);
  });

  it('with a window of 0 the previous secret is refused at once (the contract: rotating invalidates it)', async () => {
    const core = await startCore('0');
    const { secret: old } = await register(core);
    expect(await core.webhook(old)).toBe(200);
    const rotation = await rotate(core, 'operator');
    expect(rotation['overlapSeconds']).toBe(0);
    expect(rotation['previousSecretValidUntil']).toBe(rotation['rotatedAt']);
    expect(await core.webhook(old)).toBe(401);
    expect(await core.webhook((rotation['webhook'] as { secret: string }).secret)).toBe(200);
  });

  it('a second rotation drops the first secret at once; only the one it replaced overlaps', async () => {
    const core = await startCore();
    const { secret: first } = await register(core);
    const second = ((await rotate(core, 'operator'))['webhook'] as { secret: string }).secret;
    const third = ((await rotate(core, 'operator'))['webhook'] as { secret: string }).secret;
    expect(await core.webhook(first)).toBe(401);
    expect(await core.webhook(second)).toBe(200);
    expect(await core.webhook(third)).toBe(200);
  });

  it('a rotation survives a restart: the new secret verifies and the old one still overlaps until its window ends', async () => {
    const core = await startCore('60');
    const { secret: old } = await register(core);
    const fresh = ((await rotate(core, 'operator'))['webhook'] as { secret: string }).secret;
    await core.serve.close();
    running.splice(running.indexOf(core.serve), 1);

    const again = await startCore('60', core.dataDir);
    expect(await again.webhook(fresh)).toBe(200);
    expect(await again.webhook(old, { eventId: 'after-restart' })).toBe(200);
    expect((await listed(again)).find((e) => e['eventId'] === 'after-restart')).toMatchObject({
      verifiedWith: 'previous',
    });
    again.advance(60_000);
    expect(await again.webhook(old)).toBe(401);
  });

  it('a rotation does not count as a changed credential: the passing certification still allows submit-review', async () => {
    const core = await startCore();
    await register(core);
    expect((await core.api('POST', `/api/v1/providers/${SLUG}/certify`)).status).toBe(200);
    await rotate(core, 'operator');
    const submitted = await core.api('POST', `/api/v1/providers/${SLUG}/submit-review`);
    expect(submitted.status, JSON.stringify(submitted.json)).toBe(200);
  });

  it('the new secret is shown once: never in logs, the operations log, exports, listings or other answers', async () => {
    const core = await startCore();
    const { secret: old, token } = await register(core);
    const fresh = ((await rotate(core, 'provider', token))['webhook'] as { secret: string }).secret;
    // Only the provider's own record holds it (as serve stores secrets today).
    const holders: string[] = [];
    for (const file of await readdir(core.dataDir, { recursive: true })) {
      const text = await readFile(join(core.dataDir, file), 'utf8').catch(() => '');
      if (text.includes(fresh)) holders.push(file);
    }
    expect(holders).toEqual([join('providers', `${SLUG}.json`)]);
    // An echoing provider: the secrets in the event body itself.
    expect(await core.webhook(old, { eventId: 'echo-1', note: `${fresh} ${old}` })).toBe(200);
    expect(await core.webhook(fresh, { eventId: 'echo-2', note: fresh })).toBe(200);
    expect(await core.webhook('wrong-secret', { eventId: 'echo-3', note: fresh })).toBe(401);
    const answers = await Promise.all(
      [
        '/api/v1/admin/logs/events?limit=100',
        '/api/v1/admin/logs/export?format=json',
        '/api/v1/admin/logs/export?format=csv',
        `/api/v1/admin/providers/${SLUG}`,
        '/api/v1/admin/providers',
        `/api/v1/providers/${SLUG}/events`,
      ].map((path) => core.api('GET', path)),
    );
    answers.push(await core.api('GET', '/api/v1/providers/me/dashboard', token));
    const ops = await readFile(join(core.dataDir, 'review', 'operations.jsonl'), 'utf8');
    const shown = JSON.stringify({ answers, ops, log: core.logLines });
    for (const secret of [fresh, old]) {
      for (const encoding of [secret, Buffer.from(secret).toString('base64'), secret.toUpperCase()])
        expect(shown).not.toContain(encoding);
    }
    expect(answers.every((a) => a.status === 200)).toBe(true);
  });

  it.each([
    { name: 'no token', path: ADMIN_ROUTE, token: null, status: 401 },
    { name: 'a wrong operator token', path: ADMIN_ROUTE, token: 'not-the-admin-token', status: 401 },
    { name: "the provider's token on the operator route", path: ADMIN_ROUTE, token: 'PROVIDER', status: 401 },
    { name: 'the operator token on the provider route', path: OWN_ROUTE, token: ADMIN, status: 401 },
    { name: 'no token on the provider route', path: OWN_ROUTE, token: null, status: 401 },
    {
      name: 'a made-up provider token',
      path: OWN_ROUTE,
      token: 'pvt_madeupmadeupmadeupmadeupmadeupmadeupmadeup',
      status: 401,
    },
    {
      name: 'an unknown slug',
      path: '/api/v1/admin/providers/no-such-kitchen/rotate-webhook-secret',
      token: ADMIN,
      status: 404,
    },
    { name: 'GET instead of POST', path: ADMIN_ROUTE, token: ADMIN, status: 405, method: 'GET' as const },
  ])('refuses a rotation with $name ($status) and keeps the secret', async ({ path, token, status, method }) => {
    const core = await startCore();
    const { secret, token: providerToken } = await register(core);
    const r = await core.api(method ?? 'POST', path, token === 'PROVIDER' ? providerToken : token);
    expect(r.status).toBe(status);
    if (status !== 405) expect(documented(path === OWN_ROUTE ? OWN_ROUTE : ADMIN_TEMPLATE, r)).toEqual([]);
    expect(JSON.stringify(r.json)).not.toMatch(/[0-9a-f]{64}/);
    expect(await core.webhook(secret, { eventId: 'still-current' })).toBe(200);
    expect((await listed(core)).find((e) => e['eventId'] === 'still-current')).not.toHaveProperty('verifiedWith');
    const log = (await core.api('GET', '/api/v1/admin/logs/events?kind=secret-rotation')).json;
    expect(log['total']).toBe(0);
  });
});

describe('run reports', () => {
  it("a webhook verified with the previous secret keeps verifiedWith in the report's timeline", () => {
    const received: ReceivedWebhook = {
      seq: 1,
      receivedAt: new Date(T0).toISOString(),
      slug: SLUG,
      headers: {},
      rawBody: '{}',
      verified: true,
      verifiedWith: 'previous',
      answeredStatus: 200,
      duplicate: false,
    };
    expect(timelineEntry(received)).toMatchObject({ verified: true, verifiedWith: 'previous' });
    expect(timelineEntry({ ...received, verifiedWith: undefined } as ReceivedWebhook)).not.toHaveProperty(
      'verifiedWith',
    );
  });
});

describe('webhookSecretOverlap setting', () => {
  it.each([
    { given: {}, file: undefined, expected: 0 },
    { given: { webhookSecretOverlap: '0' }, file: undefined, expected: 0 },
    { given: {}, file: 'webhookSecretOverlap: 45\n', expected: 45 },
    { given: { webhookSecretOverlap: '5' }, file: 'webhookSecretOverlap: 45\n', expected: 5 },
  ])('flag $given, config $file → $expected s', async ({ given, file, expected }) => {
    const dir = await scratchDir('rotation-config');
    const config = join(dir, 'serve.yaml');
    if (file !== undefined) await writeFile(config, file);
    const settings = await resolveServeSettings({ ...given, ...(file ? { config } : {}) }, dir);
    expect(settings.webhookSecretOverlapS).toBe(expected);
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    { given: { webhookSecretOverlap: '-1' }, file: undefined, says: '--webhook-secret-overlap must be a whole number' },
    {
      given: { webhookSecretOverlap: '1.5' },
      file: undefined,
      says: '--webhook-secret-overlap must be a whole number',
    },
    {
      given: { webhookSecretOverlap: 'ten' },
      file: undefined,
      says: '--webhook-secret-overlap must be a whole number',
    },
    { given: {}, file: 'webhookSecretOverlap: -5\n', says: 'webhookSecretOverlap must be a whole number of seconds' },
    {
      given: {},
      file: 'webhookSecretOverlap: 999999999\n',
      says: 'webhookSecretOverlap must be a whole number of seconds',
    },
  ])('refuses $given / $file with a clear message', async ({ given, file, says }) => {
    const dir = await scratchDir('rotation-config');
    const config = join(dir, 'serve.yaml');
    if (file !== undefined) await writeFile(config, file);
    const error = await resolveServeSettings({ ...given, ...(file ? { config } : {}) }, dir).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain(says);
    await rm(dir, { recursive: true, force: true });
  });
});
