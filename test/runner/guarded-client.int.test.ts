import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderClient } from '../../src/http/client.js';
import type { ProviderClient } from '../../src/http/types.js';
import { type RunningProvider, startReferenceProvider } from '../../src/reference-provider/index.js';
import { guardPosts } from '../../src/runner/guarded-client.js';
import { Redactor } from '../../src/util/redact.js';

const CREDENTIAL = 'guarded-client-credential-4d21';

let provider: RunningProvider;
let client: ProviderClient & { close(): Promise<void> };

beforeAll(async () => {
  provider = await startReferenceProvider({
    authMethod: 'API_KEY',
    credential: CREDENTIAL,
    webhookSecret: 'guarded-client-webhook-secret',
  });
  client = createProviderClient(
    {
      baseUrl: provider.url,
      authMethod: 'API_KEY',
      credential: CREDENTIAL,
      timeoutMs: 5000,
      maxBodyBytes: 1024 * 1024,
    },
    { redactor: new Redactor([CREDENTIAL]) },
  );
});
afterAll(async () => {
  await client.close();
  await provider.close();
});

const postsReceived = (): number => provider.requests.filter((r) => r.method === 'POST').length;

describe('guardPosts', () => {
  it('sends no POST at all while the environment is not declared safe, and says why', async () => {
    const before = postsReceived();
    const guarded = guardPosts(client, () => false);
    const outcome = await guarded.send({ method: 'POST', path: '/quote', json: { providerSlug: 'x', items: [] } });
    expect(outcome).toMatchObject({ kind: 'failure', failure: 'blocked' });
    expect(outcome.kind === 'failure' ? outcome.message : '').toBe(
      'not sent: POST /quote would create test orders, and manifest.certification.safeTestEnvironment is not true',
    );
    expect(outcome.exchange.request).toEqual({ method: 'POST', url: `${provider.url}/quote`, headers: {} });
    expect(outcome.exchange.failure).toMatch(/^not sent: /);
    expect(guarded.postsSent).toBe(0);
    expect(postsReceived()).toBe(before);
  });

  it('lets GET requests through while unsafe', async () => {
    const guarded = guardPosts(client, () => false);
    const outcome = await guarded.send({ method: 'GET', path: '/health' });
    expect(outcome).toMatchObject({ kind: 'response', status: 200 });
    expect(provider.requests.at(-1)).toEqual({ method: 'GET', path: '/health' });
  });

  it('sends POSTs when safe and counts them', async () => {
    const before = postsReceived();
    const guarded = guardPosts(client, () => true);
    const outcome = await guarded.send({ method: 'POST', path: '/quote', json: {} });
    expect(outcome.kind).toBe('response');
    await guarded.send({ method: 'GET', path: '/health' });
    expect(guarded.postsSent).toBe(1);
    expect(postsReceived()).toBe(before + 1);
  });

  it('asks whether it is safe at every request, so a late verdict applies at once', async () => {
    let safe = false;
    const before = postsReceived();
    const guarded = guardPosts(client, () => safe);
    const blocked = await guarded.send({ method: 'POST', path: '/actions', json: {} });
    safe = true;
    const sent = await guarded.send({ method: 'POST', path: '/actions', json: {} });
    safe = false;
    const blockedAgain = await guarded.send({ method: 'POST', path: '/actions/a1/cancel', json: {} });
    expect([blocked.kind, sent.kind, blockedAgain.kind]).toEqual(['failure', 'response', 'failure']);
    expect(guarded.postsSent).toBe(1);
    expect(postsReceived()).toBe(before + 1);
  });

  it('exposes the wrapped client options', () => {
    expect(guardPosts(client, () => false).options).toBe(client.options);
  });
});
