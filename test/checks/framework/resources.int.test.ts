import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrerequisiteError, type Resources } from '../../../src/checks/framework/resources.js';
import { createResources, whyNotJson200 } from '../../../src/checks/framework/resources-impl.js';
import { exercisesMath } from '../../../src/checks/support/selection.js';
import type { Contract } from '../../../src/contract/contract.js';
import { loadContract } from '../../../src/contract/load.js';
import { createProviderClient } from '../../../src/http/client.js';
import type { HttpOutcome, ProviderClient } from '../../../src/http/types.js';
import type { Exchange } from '../../../src/model/exchange.js';
import {
  CERTIFICATION_INPUT,
  type FaultName,
  type RunningProvider,
  startReferenceProvider,
} from '../../../src/reference-provider/index.js';
import { guardPosts } from '../../../src/runner/guarded-client.js';
import { systemClock } from '../../../src/util/clock.js';
import { Redactor } from '../../../src/util/redact.js';
import { testConfig } from '../../support/certify.js';

const CREDENTIAL = 'resources-credential-9b17';
const WEBHOOK_SECRET = 'resources-webhook-secret-0c55';

describe('whyNotJson200', () => {
  const exchange: Exchange = { request: { method: 'GET', url: 'http://p/x', headers: {} }, durationMs: 1 };
  const response = (
    status: number,
    bodyKind: 'json' | 'html' | 'empty' | 'not-json',
    json: unknown,
    contentType: string,
  ): HttpOutcome => ({
    kind: 'response',
    status,
    headers: {},
    contentType,
    text: '',
    bodyKind,
    json,
    durationMs: 1,
    exchange,
  });
  const cases: { name: string; outcome: HttpOutcome; want: string | undefined }[] = [
    { name: '200 JSON', outcome: response(200, 'json', { ok: true }, 'application/json'), want: undefined },
    {
      name: 'transport failure',
      outcome: {
        kind: 'failure',
        failure: 'refused',
        message: 'connection to p refused: nothing listens there',
        durationMs: 1,
        exchange,
      },
      want: 'GET /catalog: connection to p refused: nothing listens there',
    },
    {
      name: 'error JSON with code and message',
      outcome: response(401, 'json', { code: 'UNAUTHORIZED', message: 'bad key' }, 'application/json'),
      want: 'GET /catalog answered HTTP 401 UNAUTHORIZED: bad key',
    },
    {
      name: 'error JSON with code only',
      outcome: response(503, 'json', { code: 'UNAVAILABLE' }, 'application/json'),
      want: 'GET /catalog answered HTTP 503 UNAVAILABLE',
    },
    {
      name: 'error JSON without code',
      outcome: response(500, 'json', { error: 'x' }, 'application/json'),
      want: 'GET /catalog answered HTTP 500',
    },
    {
      name: 'error HTML page',
      outcome: response(404, 'html', undefined, 'text/html'),
      want: 'GET /catalog answered HTTP 404 with an HTML page (content-type text/html): the base URL looks like a website or frontend, not the provider API',
    },
    {
      name: '200 empty body',
      outcome: response(200, 'empty', undefined, ''),
      want: 'GET /catalog answered an empty body (no content-type)',
    },
    {
      name: '200 not JSON',
      outcome: response(200, 'not-json', undefined, 'text/plain'),
      want: 'GET /catalog answered a body that is not JSON (content-type text/plain)',
    },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.want ?? 'usable'}`, () => {
      expect(whyNotJson200('GET /catalog', c.outcome)).toBe(c.want);
    });
  }
});

describe('createResources against the reference provider', () => {
  let contract: Contract;
  let provider: RunningProvider;
  let client: ProviderClient & { close(): Promise<void> };
  const closers: (() => Promise<void>)[] = [];

  const clientFor = (url: string, credential = CREDENTIAL): ProviderClient & { close(): Promise<void> } => {
    const c = createProviderClient(
      { baseUrl: url, authMethod: 'API_KEY', credential, timeoutMs: 5000, maxBodyBytes: 1024 * 1024 },
      { redactor: new Redactor([credential]) },
    );
    closers.push(() => c.close());
    return c;
  };
  const resourcesFor = (c: ProviderClient, url = provider.url): Resources =>
    createResources({ client: c, contract, config: testConfig(url), clock: systemClock, runId: 'run1' });
  const startProvider = async (faults: FaultName[] = []): Promise<RunningProvider> => {
    const p = await startReferenceProvider({
      authMethod: 'API_KEY',
      credential: CREDENTIAL,
      webhookSecret: WEBHOOK_SECRET,
      faults,
    });
    closers.push(() => p.close());
    return p;
  };
  /** Requests the provider received since `from`, as "METHOD /path". */
  const sentSince = (p: RunningProvider, from: number): string[] =>
    p.requests.slice(from).map((r) => `${r.method} ${r.path}`);

  beforeAll(async () => {
    contract = await loadContract();
    provider = await startProvider();
    client = clientFor(provider.url);
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('shares one GET /provider-info among concurrent callers', async () => {
    const from = provider.requests.length;
    const resources = resourcesFor(client);
    const infos = await Promise.all(Array.from({ length: 5 }, () => resources.providerInfo()));
    expect(sentSince(provider, from)).toEqual(['GET /provider-info']);
    expect(new Set(infos).size).toBe(1);
    expect(infos[0]?.capabilities).toContain('QUOTE');
    await resources.providerInfo();
    expect(sentSince(provider, from)).toEqual(['GET /provider-info']);
  });

  it('shares one GET /catalog, and the selections reuse both', async () => {
    const from = provider.requests.length;
    const resources = resourcesFor(client);
    const [cat1, cat2, selection, derived] = await Promise.all([
      resources.catalog(),
      resources.catalog(),
      resources.selection(),
      resources.derivedSelection(),
    ]);
    expect(cat1).toBe(cat2);
    expect(sentSince(provider, from).sort()).toEqual(['GET /catalog', 'GET /provider-info']);
    expect(selection).toMatchObject({
      source: 'certificationInput',
      locationId: CERTIFICATION_INPUT.locationId,
      items: CERTIFICATION_INPUT.items,
    });
    expect(derived.source).toBe('catalog');
    expect(derived.locationId).toBe(CERTIFICATION_INPUT.locationId);
    expect(exercisesMath(derived.items, cat1)).toBe(true);
    expect(await resources.selection()).toBe(selection);
  });

  it('sends a new POST /quote at every requestQuote and freshQuote', async () => {
    const from = provider.requests.length;
    const resources = resourcesFor(client);
    const [a, b] = await Promise.all([resources.requestQuote(), resources.freshQuote()]);
    expect(a.quote?.id).toBeDefined();
    expect(b.quote.id).not.toBe(a.quote?.id);
    expect(sentSince(provider, from).filter((r) => r === 'POST /quote')).toHaveLength(2);
  });

  it('creates one pending action for concurrent callers, and a new one per createAction', async () => {
    const from = provider.requests.length;
    const resources = resourcesFor(client);
    const pending = await Promise.all([
      resources.pendingAction(),
      resources.pendingAction(),
      resources.pendingAction(),
    ]);
    expect(new Set(pending).size).toBe(1);
    expect(pending[0]?.idempotencyKey).toBe('provcert-test-run1-pending');
    expect(sentSince(provider, from).filter((r) => r === 'POST /actions')).toHaveLength(1);

    const second = await resources.createAction('second');
    expect(second.idempotencyKey).toBe('provcert-test-run1-second');
    expect(second.action.id).not.toBe(pending[0]?.action.id);
    expect(second.body).toMatchObject({
      idempotencyKey: 'provcert-test-run1-second',
      userConfirmed: true,
      quoteId: second.quote.id,
    });
    expect(sentSince(provider, from).filter((r) => r === 'POST /actions')).toHaveLength(2);

    expect(resources.createdActions().map((c) => c.id)).toEqual([pending[0]?.action.id, second.action.id]);
    resources.markCancelled(second.action.publicId);
    expect(resources.createdActions().map((c) => c.cancelled)).toEqual([false, true]);
  });

  it('records an action noted outside createAction once', () => {
    const resources = resourcesFor(client);
    resources.noteCreatedAction({ id: 'a-1' });
    resources.noteCreatedAction({ id: 'a-1', publicId: 'P-1' });
    expect(resources.createdActions()).toEqual([{ id: 'a-1', publicId: 'a-1', cancelled: false }]);
  });

  it('blames metadata (once, memoized) when provider-info is refused', async () => {
    const from = provider.requests.length;
    const resources = resourcesFor(clientFor(provider.url, 'not-the-credential'));
    const errors = await Promise.all(
      [resources.providerInfo(), resources.providerInfo()].map((p) => p.catch((e: unknown) => e)),
    );
    for (const error of errors) {
      expect(error).toBeInstanceOf(PrerequisiteError);
      expect(error).toMatchObject({
        checkId: 'metadata',
        message: expect.stringMatching(/^GET \/provider-info answered HTTP 401 UNAUTHORIZED/),
      });
    }
    await expect(resources.selection()).rejects.toMatchObject({ checkId: 'metadata' });
    expect(sentSince(provider, from)).toEqual(['GET /provider-info']);
  });

  it('blames catalog when the catalog does not match the schema', async () => {
    const faulty = await startProvider(['catalog-missing-field']);
    const resources = resourcesFor(clientFor(faulty.url), faulty.url);
    await expect(resources.catalog()).rejects.toMatchObject({
      name: 'PrerequisiteError',
      checkId: 'catalog',
      message: expect.stringMatching(/^GET \/catalog does not match the schema \(.+\)$/),
    });
    await expect(resources.derivedSelection()).rejects.toMatchObject({ checkId: 'catalog' });
  });

  it('blames quote-math when no quote can be had, and sends no POST through an unsafe guard', async () => {
    const from = provider.requests.length;
    const resources = resourcesFor(guardPosts(client, () => false));
    await expect(resources.freshQuote()).rejects.toMatchObject({
      checkId: 'quote-math',
      message: expect.stringMatching(/^POST \/quote: not sent: /),
    });
    await expect(resources.pendingAction()).rejects.toMatchObject({ checkId: 'quote-math' });
    expect(sentSince(provider, from).filter((r) => r.startsWith('POST'))).toEqual([]);
  });

  it('validates a GET against the operation schema', async () => {
    const resources = resourcesFor(client);
    const { outcome, problems } = await resources.getValidated('/locations', 'GET /locations', { activeOnly: true });
    expect(outcome).toMatchObject({ kind: 'response', status: 200 });
    expect(problems).toEqual([]);
  });
});
