import { createProviderClient } from '../../src/http/client.js';
import type { ProviderClient } from '../../src/http/types.js';
import type { RunningProvider } from '../../src/reference-provider/index.js';
import { guardPosts } from '../../src/runner/guarded-client.js';
import { Redactor } from '../../src/util/redact.js';
import { test as base, describe, expect } from '../support/fixtures.js';

/**
 * One client for the file, of the integration tier's reference provider (`reference`, reset before each test that
 * names it: it has received nothing).
 */
const it = base.extend('client', { scope: 'file' }, async ({ referenceWorker: reference }, { onCleanup }) => {
  const client = createProviderClient(
    {
      baseUrl: reference.provider.url,
      authMethod: 'API_KEY',
      credential: reference.credential,
      timeoutMs: 5000,
      maxBodyBytes: 1024 * 1024,
    },
    { redactor: new Redactor([reference.credential]) },
  );
  onCleanup(() => client.close());
  return client as ProviderClient;
});

const postsReceived = (provider: RunningProvider): number =>
  provider.requests.filter((r) => r.method === 'POST').length;

describe('guardPosts', () => {
  it('sends no POST at all while the environment is not declared safe, and says why', async ({
    reference: { provider },
    client,
  }) => {
    const guarded = guardPosts(client, () => false);
    const outcome = await guarded.send({ method: 'POST', path: '/quote', json: { providerSlug: 'x', items: [] } });
    expect(outcome).toMatchObject({ kind: 'failure', failure: 'blocked' });
    expect(outcome.kind === 'failure' ? outcome.message : '').toBe(
      'not sent: POST /quote would create test orders, and manifest.certification.safeTestEnvironment is not true',
    );
    expect(outcome.exchange.request).toEqual({ method: 'POST', url: `${provider.url}/quote`, headers: {} });
    expect(outcome.exchange.failure).toMatch(/^not sent: /);
    expect(guarded.postsSent).toBe(0);
    expect(postsReceived(provider)).toBe(0);
  });

  it('lets GET requests through while unsafe', async ({ reference: { provider }, client }) => {
    const guarded = guardPosts(client, () => false);
    const outcome = await guarded.send({ method: 'GET', path: '/health' });
    expect(outcome).toMatchObject({ kind: 'response', status: 200 });
    expect(provider.requests.at(-1)).toEqual({ method: 'GET', path: '/health' });
  });

  it('sends POSTs when safe and counts them', async ({ reference: { provider }, client }) => {
    const guarded = guardPosts(client, () => true);
    const outcome = await guarded.send({ method: 'POST', path: '/quote', json: {} });
    expect(outcome.kind).toBe('response');
    await guarded.send({ method: 'GET', path: '/health' });
    expect(guarded.postsSent).toBe(1);
    expect(postsReceived(provider)).toBe(1);
  });

  it('asks whether it is safe at every request, so a late verdict applies at once', async ({
    reference: { provider },
    client,
  }) => {
    let safe = false;
    const guarded = guardPosts(client, () => safe);
    const blocked = await guarded.send({ method: 'POST', path: '/actions', json: {} });
    safe = true;
    const sent = await guarded.send({ method: 'POST', path: '/actions', json: {} });
    safe = false;
    const blockedAgain = await guarded.send({ method: 'POST', path: '/actions/a1/cancel', json: {} });
    expect([blocked.kind, sent.kind, blockedAgain.kind]).toEqual(['failure', 'response', 'failure']);
    expect(guarded.postsSent).toBe(1);
    expect(postsReceived(provider)).toBe(1);
  });

  it('exposes the wrapped client options', ({ client }) => {
    expect(guardPosts(client, () => false).options).toBe(client.options);
  });
});
