import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveServeSettings } from '../../../src/config/serve.js';
import type { Contract } from '../../../src/contract/contract.js';
import { loadContract } from '../../../src/contract/load.js';
import type { RunReport } from '../../../src/model/report.js';
import type { CertifyInput } from '../../../src/server/core-routes/deps.js';
import { type RunningServe, startServe } from '../../../src/server/serve.js';
import { registration } from '../../support/registration.js';
import { fakeReport } from '../support/fake-report.js';
import { post, sign } from '../support/http-client.js';

const ADMIN = 'admin-token-desk-5f21c9';
const SERVER_SECRET = 'server-webhook-secret-desk-77ab';
const env: NodeJS.ProcessEnv = {
  PROVCERT_ADMIN_TOKEN: ADMIN,
  SERVICE_WEBHOOK_SECRET: SERVER_SECRET,
  KEY_A: 'credential-of-a-9d1e77',
  KEY_B: 'credential-of-b-3c0f55',
};
const NOTE = 'internal-note-canary-0b7e: owner is under investigation';

let contract: Contract;
let dataDir: string;
let serve: RunningServe;
let verdict: 'PASS' | 'FAIL';

/**
 * A hostile-echo certification: the provider's test action carries its credential and webhook secret
 * in every text field it can.
 */
function echoReport(input: CertifyInput): RunReport {
  const report = fakeReport(verdict);
  const slug = input.registration.slug;
  const action = {
    id: `act-${slug}-1`,
    publicId: `PUB-${slug}-1`,
    externalActionId: `ext ${input.credential}`,
    providerSlug: slug,
    status: 'AWAITING_PAYMENT',
    paymentStatus: 'PENDING',
    lines: [
      { offeringId: 'o1', offeringTitle: `Pizza ${input.webhookSecret}`, quantity: 2, unitPrice: 500, lineTotal: 1000 },
    ],
    subtotal: 1000,
    total: 1200,
    currency: 'EUR',
    customer: { name: `Ada ${input.credential}`, phone: '+49 151 2345 6789' },
    createdAt: '2026-01-01T10:00:00Z',
    updatedAt: '2026-01-01T10:00:00Z',
  };
  const exchange = (method: string, path: string, body: unknown) => ({
    request: { method, url: `${input.registration.baseUrl}${path}`, headers: {} },
    response: { status: 200, headers: {}, body: JSON.stringify(body) },
    durationMs: 1,
  });
  report.checks = [
    {
      id: 'action-status',
      title: 'action',
      rule: 'r',
      status: 'pass',
      message: 'ok',
      evidence: [exchange('POST', '/actions', action), exchange('GET', `/actions/${action.id}`, action)],
      requirements: [],
      findings: [],
      durationMs: 1,
    },
  ] as unknown as RunReport['checks'];
  return report;
}

async function start(): Promise<void> {
  const settings = await resolveServeSettings({ port: '0', dataDir, local: true, slug: 'sandbox' }, dataDir);
  serve = await startServe(settings, {
    contract,
    certify: async (input) => echoReport(input),
    env,
    cwd: dataDir,
  });
}

/** Every answer of a test, checked against spec/openapi.yaml after it (the Core* schemas). */
const answers: { key: string; status: number; json: unknown }[] = [];
const TEMPLATES = [
  '/api/v1/providers/register',
  '/api/v1/providers/find',
  '/api/v1/providers/me/dashboard',
  '/api/v1/providers/me/actions/{actionId}',
  '/api/v1/providers/{slug}/certify',
  '/api/v1/providers/{slug}/certifications',
  '/api/v1/providers/{slug}/submit-review',
  '/api/v1/admin/providers',
  '/api/v1/admin/providers/{slug}',
  '/api/v1/admin/providers/{slug}/review',
  '/api/v1/admin/providers/{slug}/reopen',
  '/api/v1/admin/logs/events',
  '/api/v1/admin/logs/export',
];
function templateOf(path: string): string {
  const bare = path.split('?')[0] ?? '';
  const found = TEMPLATES.find((t) => new RegExp(`^${t.replace(/\{[a-zA-Z]+\}/g, '[^/]+')}$`).test(bare));
  if (!found) throw new Error(`no template for ${path}`);
  return found;
}

interface Answer {
  status: number;
  json: Record<string, unknown>;
  text: string;
}

async function api(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  token: string | null = ADMIN,
): Promise<Answer> {
  const res = await fetch(`${serve.core.url}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
    answers.push({ key: `${method} ${templateOf(`/api/v1${path}`)}`, status: res.status, json });
  } catch {
    // CSV
  }
  return { status: res.status, json, text };
}

/** Two kitchens at the desk, each with its own credential variable. */
const registrationOf = (slug: string, overrides: Record<string, unknown> = {}) =>
  registration({
    name: `Kitchen ${slug}`,
    slug,
    credentialEnv: slug === 'kitchen-b' ? 'KEY_B' : 'KEY_A',
    ...overrides,
  });

interface Registered {
  token: string;
  secret: string;
}
async function register(slug: string, overrides: Record<string, unknown> = {}): Promise<Registered> {
  const r = await api('POST', '/providers/register', registrationOf(slug, overrides));
  expect(r.status, r.text).toBe(201);
  const json = r.json as { providerToken: { token: string }; webhook: { secret: string } };
  return { token: json.providerToken.token, secret: json.webhook.secret };
}
const certify = (slug: string) => api('POST', `/providers/${slug}/certify`);
const submit = (slug: string) => api('POST', `/providers/${slug}/submit-review`);
const decide = (slug: string, body: Record<string, unknown>) => api('POST', `/admin/providers/${slug}/review`, body);
const REASON = { reasonCode: 'ITEM_UNAVAILABLE', reason: 'The catalog lists items that cannot be ordered.' };
const reviewStatusOf = async (slug: string) =>
  (await api('GET', `/admin/providers/${slug}`)).json['provider'] as { reviewStatus: string; status: string };

beforeAll(async () => {
  contract = await loadContract();
});
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'provcert-desk-'));
  verdict = 'PASS';
  await start();
});
afterEach(async () => {
  const checked = answers.splice(0);
  await serve.close();
  for (const a of checked) {
    const result = contract.validateResponse(a.key, a.status, a.json);
    expect(result, `${a.key} ${a.status} is documented`).toBeDefined();
    expect(
      result?.problems.map((p) => p.text),
      `${a.key} ${a.status}: ${JSON.stringify(a.json)}`,
    ).toEqual([]);
  }
  await rm(dataDir, { recursive: true, force: true });
});

describe('review decisions', () => {
  it.each([
    [{}, /decision must be one of APPROVE, ACTIVATE, REQUEST_CHANGES, REJECT, SUSPEND \(found nothing\)/],
    [{ decision: 'APPROVED' }, /decision must be one of .* \(found "APPROVED"\)/],
    [
      { decision: 'REJECT' },
      /reasonCode is required for REJECT.*; reason must be a partner-visible text of at least 12/,
    ],
    [
      { decision: 'REJECT', reasonCode: 'X', reason: 'too short' },
      /reason must be .* at least 12 characters \(found 9\)/,
    ],
    [
      { decision: 'SUSPEND', reasonCode: 'has space', reason: 'long enough reason' },
      /reasonCode is required for SUSPEND/,
    ],
    [{ decision: 'REQUEST_CHANGES', ...REASON, requiredChanges: ['ok', ''] }, /requiredChanges must be a list/],
    [{ decision: 'REQUEST_CHANGES', ...REASON, internalNote: 7 }, /internalNote must be a text/],
    ['not an object', /the body must be a JSON object/],
  ])('%j is refused with a clear 400', async (body, message) => {
    await register('kitchen-a');
    const r = await decide('kitchen-a', body as Record<string, unknown>);
    expect(r.status).toBe(400);
    expect(r.json['code']).toBe('INVALID_ARGUMENT');
    expect(String(r.json['message'])).toMatch(message);
    expect((await reviewStatusOf('kitchen-a')).reviewStatus).toBe('DRAFT');
  });

  it('an illegal transition is 409 naming the current state and the allowed triggers', async () => {
    await register('kitchen-a');
    const r = await decide('kitchen-a', { decision: 'APPROVE' });
    expect(r.status).toBe(409);
    expect(r.json).toEqual({
      code: 'CONFLICT',
      message:
        'cannot APPROVE kitchen-a: its review status is DRAFT; allowed from DRAFT: SUBMIT_REVIEW, UPDATE_INTEGRATION',
    });
    expect((await api('POST', '/admin/providers/nobody/review', { decision: 'APPROVE' })).status).toBe(404);
  });

  it('the partner-visible reason is in the provider metadata until resubmission; the internal note only for the admin', async () => {
    const a = await register('kitchen-a');
    await certify('kitchen-a');
    expect((await submit('kitchen-a')).status).toBe(200);
    const decided = await decide('kitchen-a', {
      decision: 'REQUEST_CHANGES',
      ...REASON,
      requiredChanges: ['mark sold-out items unavailable'],
      internalNote: NOTE,
    });
    expect(decided.status).toBe(200);
    expect(decided.json).toMatchObject({ from: 'PENDING_APPROVAL', to: 'CHANGES_REQUESTED', status: 'DRAFT' });

    const dashboard = await api('GET', '/providers/me/dashboard', undefined, a.token);
    expect(dashboard.status).toBe(200);
    expect((dashboard.json['provider'] as { metadata: unknown }).metadata).toMatchObject({
      reviewStatus: 'CHANGES_REQUESTED',
      isCertified: true,
      reviewReason: { decision: 'REQUEST_CHANGES', ...REASON, requiredChanges: ['mark sold-out items unavailable'] },
    });
    const admin = await api('GET', '/admin/providers/kitchen-a');
    expect(admin.text).toContain(NOTE);
    for (const answer of [
      dashboard,
      await api('GET', '/admin/logs/events'),
      await api('GET', '/admin/logs/export?format=csv'),
      await api('GET', '/admin/logs/export'),
      await api('GET', '/admin/providers'),
      await api('GET', '/providers/find', undefined, null),
    ])
      expect(answer.text).not.toContain('internal-note-canary');

    // The provider updates its integration (CHANGES_REQUESTED → DRAFT), recertifies and resubmits: the reason is cleared.
    const updated = await api(
      'POST',
      '/providers/register',
      registrationOf('kitchen-a', { baseUrl: 'http://127.0.0.1:9/v2' }),
    );
    expect(updated.json).toMatchObject({ provider: { reviewStatus: 'DRAFT' }, certificationRequired: true });
    expect((await submit('kitchen-a')).status).toBe(409);
    await certify('kitchen-a');
    expect((await submit('kitchen-a')).status).toBe(200);
    const after = await api('GET', '/providers/me/dashboard', undefined, a.token);
    expect((after.json['provider'] as { metadata: Record<string, unknown> }).metadata['reviewReason']).toBeUndefined();
  });

  it('of parallel decisions on one provider exactly one wins; the rest are 409', async () => {
    await register('kitchen-a');
    await certify('kitchen-a');
    await submit('kitchen-a');
    const bodies = [
      { decision: 'APPROVE' },
      { decision: 'REJECT', ...REASON },
      { decision: 'REQUEST_CHANGES', ...REASON },
    ];
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => decide('kitchen-a', bodies[i % 3] ?? {})));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(11);
    const history = (await api('GET', '/admin/providers/kitchen-a')).json['history'] as unknown[];
    expect(history).toHaveLength(2); // SUBMIT_REVIEW and the one winner
  });
});

describe('guards', () => {
  it('a REJECTED provider cannot reset itself by re-registering; reopen moves it to DRAFT and invalidates its certifications', async () => {
    await register('kitchen-a');
    await certify('kitchen-a');
    await submit('kitchen-a');
    expect((await decide('kitchen-a', { decision: 'REJECT', ...REASON })).json).toMatchObject({
      to: 'REJECTED',
      status: 'DISABLED',
    });
    const again = await api(
      'POST',
      '/providers/register',
      registrationOf('kitchen-a', { baseUrl: 'http://127.0.0.1:9/new' }),
    );
    expect(again.status).toBe(409);
    expect(String(again.json['message'])).toMatch(/its review status is REJECTED; allowed from REJECTED: REOPEN/);
    expect(await reviewStatusOf('kitchen-a')).toMatchObject({ reviewStatus: 'REJECTED', status: 'DISABLED' });
    expect((await api('GET', '/admin/providers/kitchen-a')).json['provider']).toMatchObject({
      baseUrl: 'http://127.0.0.1:9/api',
    });

    const reopened = await api('POST', '/admin/providers/kitchen-a/reopen', {});
    expect(reopened.json).toMatchObject({ from: 'REJECTED', to: 'DRAFT', status: 'DRAFT' });
    const list = (await api('GET', '/providers/kitchen-a/certifications')).json['data'] as Record<string, unknown>[];
    expect(list.map((c) => [c['valid'], c['invalidReason']])).toEqual([[false, 'invalidated by reopen']]);
    const refused = await submit('kitchen-a');
    expect(refused.status).toBe(409);
    expect(String(refused.json['message'])).toMatch(/invalidated by reopen; certify again/);
    await certify('kitchen-a');
    expect((await submit('kitchen-a')).status).toBe(200);
  });

  it('a scope change (capabilities or fulfillment) forces recertification before submit-review', async () => {
    await register('kitchen-a');
    await certify('kitchen-a');
    const wider = ['METADATA', 'HEALTH', 'CATALOG', 'QUOTE', 'ACTION_CREATE', 'ACTION_STATUS', 'WEBHOOK'];
    for (const change of [{ capabilities: wider }, { capabilities: wider, fulfillment: 'DELIVERY' }]) {
      const r = await api('POST', '/providers/register', registrationOf('kitchen-a', change));
      expect(r.json).toMatchObject({ certificationRequired: true });
      const refused = await submit('kitchen-a');
      expect(refused.status).toBe(409);
      expect(String(refused.json['message'])).toMatch(
        /capabilities or fulfillment\) changed after the latest certification/,
      );
      await certify('kitchen-a');
    }
    // Reordering the same capabilities is no change.
    const same = await api(
      'POST',
      '/providers/register',
      registrationOf('kitchen-a', {
        capabilities: ['WEBHOOK', 'ACTION_STATUS', 'ACTION_CREATE', 'QUOTE', 'CATALOG', 'HEALTH', 'METADATA'],
        fulfillment: 'DELIVERY',
      }),
    );
    expect(same.json).toMatchObject({ certificationRequired: false });
    expect((await submit('kitchen-a')).status).toBe(200);
  });

  it('submit-review needs a passing certification', async () => {
    await register('kitchen-a');
    verdict = 'FAIL';
    await certify('kitchen-a');
    const r = await submit('kitchen-a');
    expect(r.status).toBe(409);
    expect(String(r.json['message'])).toMatch(/did not pass/);
  });
});

describe('tokens, discovery, dashboard and the operations log', () => {
  it('a provider token sees only its own provider; the admin token cannot use /me and a provider token cannot use admin routes', async () => {
    const a = await register('kitchen-a');
    const b = await register('kitchen-b');
    await certify('kitchen-a');
    await certify('kitchen-b');
    expect((await api('GET', '/providers/me/actions/act-kitchen-a-1', undefined, a.token)).status).toBe(200);
    const foreign = await api('GET', '/providers/me/actions/act-kitchen-b-1', undefined, a.token);
    expect(foreign.status).toBe(404);
    expect(foreign.json['code']).toBe('NOT_FOUND');
    expect((await api('GET', '/providers/me/actions/PUB-kitchen-b-1', undefined, b.token)).status).toBe(200);
    expect((await api('GET', '/providers/me/dashboard?providerSlug=kitchen-b', undefined, a.token)).json).toMatchObject(
      {
        provider: { slug: 'kitchen-a' },
      },
    );
    expect((await api('GET', '/providers/me/dashboard', undefined, ADMIN)).status).toBe(401);
    expect((await api('GET', '/admin/providers', undefined, a.token)).status).toBe(401);
    expect((await api('POST', '/admin/providers/kitchen-a/review', { decision: 'APPROVE' }, a.token)).status).toBe(401);
  });

  it('the dashboard shows the test actions with lines, PROVIDER_REPORTED payment status and a webhook timeline, all masked', async () => {
    const a = await register('kitchen-a');
    await certify('kitchen-a');
    const body = JSON.stringify({
      eventId: 'evt-1',
      eventType: 'action.status_updated',
      providerSlug: 'kitchen-a',
      timestamp: '2026-01-01T10:05:00Z',
      actionId: 'PUB-kitchen-a-1',
      newStatus: 'CANCELLED',
      reasonCode: 'CUSTOMER_CANCELLED',
      reason: `customer cancelled, key ${env['KEY_A']}`,
    });
    const hook = await post(`${serve.core.url}/api/v1/webhooks/kitchen-a`, body, {
      'content-type': 'application/json',
      'x-service-signature': sign(a.secret, body),
    });
    expect(hook.status).toBe(200);
    const dashboard = await api('GET', '/providers/me/dashboard?limit=500', undefined, a.token);
    expect(dashboard.json['metrics']).toEqual({
      totalActions: 1,
      pendingActions: 0,
      paidActions: 0,
      completedActions: 0,
      failedActions: 0,
    });
    expect(dashboard.json['pagination']).toEqual({ total: 1, limit: 100, offset: 0, hasMore: false });
    expect((dashboard.json['actions'] as unknown[])[0]).toMatchObject({
      publicId: 'PUB-kitchen-a-1',
      status: 'CANCELLED',
      paymentStatus: 'PENDING',
      paymentStatusSource: 'PROVIDER_REPORTED',
      total: 1200,
      currency: 'EUR',
      customerPhoneMasked: '+49 1•• •••• ••89',
    });
    const detail = await api('GET', '/providers/me/actions/act-kitchen-a-1', undefined, a.token);
    expect(detail.json).toMatchObject({
      lines: [{ offeringId: 'o1', quantity: 2, lineTotal: 1000 }],
      explanation: { reasonCode: 'CUSTOMER_CANCELLED' },
      timeline: [
        { source: 'PROVIDER_API', status: 'AWAITING_PAYMENT' },
        { source: 'WEBHOOK', status: 'CANCELLED', eventId: 'evt-1' },
      ],
    });
    expect((await api('GET', '/providers/me/dashboard?status=COMPLETED', undefined, a.token)).json['actions']).toEqual(
      [],
    );
    expect((await api('GET', '/providers/me/dashboard?sort=sideways', undefined, a.token)).status).toBe(400);

    const answers = [
      dashboard,
      detail,
      await api('GET', '/admin/logs/events'),
      await api('GET', '/admin/logs/export?format=csv'),
      await api('GET', '/admin/providers/kitchen-a'),
    ];
    for (const secret of [env['KEY_A'], a.secret, a.token, ADMIN, SERVER_SECRET] as string[])
      for (const answer of answers) expect(answer.text).not.toContain(secret);
  });

  it('discovery lists ACTIVE providers only, with public fields only', async () => {
    for (const slug of ['kitchen-a', 'kitchen-b']) {
      await register(slug);
      await certify(slug);
      await submit(slug);
    }
    await decide('kitchen-a', { decision: 'APPROVE' });
    expect((await api('GET', '/providers/find', undefined, null)).json['data']).toEqual([]);
    await decide('kitchen-a', { decision: 'ACTIVATE' });
    const found = await api('GET', '/providers/find?capability=CATALOG&geography=de', undefined, null);
    expect(found.json).toEqual({
      data: [
        {
          name: 'Kitchen kitchen-a',
          slug: 'kitchen-a',
          type: 'DELIVERY',
          category: 'food_delivery',
          geography: ['DE'],
          capabilities: ['METADATA', 'HEALTH', 'CATALOG'],
        },
      ],
      total: 1,
      pagination: { total: 1, limit: 20, offset: 0, hasMore: false },
    });
    expect((await api('GET', '/providers/find?category=logistics', undefined, null)).json['total']).toBe(0);
    expect((await api('GET', '/providers/find?limit=0', undefined, null)).status).toBe(400);
    const admin = await api('GET', '/admin/providers?status=SANDBOX&certified=true');
    expect((admin.json['data'] as { slug: string }[]).map((p) => p.slug)).toEqual(['kitchen-b']);
    expect((await api('GET', '/admin/providers?reviewStatus=ACTIVE')).json['total']).toBe(1);
    expect((await api('GET', '/admin/providers?reviewStatus=CERTIFIED')).status).toBe(400);
    expect((await api('GET', '/admin/providers?geography=de&category=food_delivery&type=delivery')).json['total']).toBe(
      2,
    );
    expect((await api('GET', '/admin/providers?category=logistics')).json['total']).toBe(0);
    expect((await api('GET', '/admin/providers?registeredTo=2000-01-01')).json['total']).toBe(0);
    expect((await api('GET', '/admin/providers?registeredFrom=2000-01-01&query=kitchen-b')).json['total']).toBe(1);
    expect((await api('GET', '/admin/providers?registeredFrom=yesterday')).status).toBe(400);
  });

  it('the operations log lists registrations, certifications, decisions and webhook verdicts, filtered and exported as CSV', async () => {
    await register('kitchen-a');
    await certify('kitchen-a');
    await submit('kitchen-a');
    await post(`${serve.core.url}/api/v1/webhooks/kitchen-a`, '{"eventId":"x"}', {
      'content-type': 'application/json',
      'x-service-signature': 'f'.repeat(64),
    });
    const all = await api('GET', '/admin/logs/events');
    expect((all.json['data'] as { kind: string }[]).map((e) => e.kind).sort()).toEqual([
      'certification',
      'decision',
      'registration',
      'webhook',
    ]);
    const decisions = await api('GET', '/admin/logs/events?kind=decision&slug=kitchen-a');
    expect(decisions.json['data']).toMatchObject([{ trigger: 'SUBMIT_REVIEW', from: 'DRAFT', to: 'PENDING_APPROVAL' }]);
    expect((await api('GET', '/admin/logs/events?since=2999-01-01')).json['total']).toBe(0);
    expect((await api('GET', '/admin/logs/events?kind=secrets')).status).toBe(400);
    const csv = await api('GET', '/admin/logs/export?format=csv&kind=decision');
    expect(csv.text.split('\r\n')[0]).toMatch(/^id,at,kind,slug,actor,summary,trigger,from,to/);
    expect(csv.text).toContain('SUBMIT_REVIEW');
    expect((await api('GET', '/admin/logs/export?format=xml')).status).toBe(400);
  });

  it('state and history survive a restart', async () => {
    await register('kitchen-a');
    await certify('kitchen-a');
    await submit('kitchen-a');
    await decide('kitchen-a', { decision: 'REJECT', ...REASON, internalNote: NOTE });
    await serve.close();
    await start();
    const detail = await api('GET', '/admin/providers/kitchen-a');
    expect(detail.json['provider']).toMatchObject({ reviewStatus: 'REJECTED', status: 'DISABLED' });
    expect((detail.json['history'] as { trigger: string }[]).map((h) => h.trigger)).toEqual([
      'SUBMIT_REVIEW',
      'REJECT',
    ]);
    expect((await decide('kitchen-a', { decision: 'APPROVE' })).status).toBe(409);
  });
});
