import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/model/errors.js';
import { type RunningProvider, startReferenceProvider } from '../../src/reference-provider/index.js';
import { captureIo, runCommand } from '../support/cli-io.js';

const CREDENTIAL = 'slug-test-credential-41ab';
let provider: RunningProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function get(path: string): Promise<Record<string, unknown> & unknown[]> {
  const res = await fetch(`${provider?.url}${path}`, { headers: { 'x-provider-api-key': CREDENTIAL } });
  return (await res.json()) as Record<string, unknown> & unknown[];
}

async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${provider?.url}${path}`, {
    method: 'POST',
    headers: { 'x-provider-api-key': CREDENTIAL, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('a reference provider under another slug', () => {
  it('carries the slug and name in every answer that names the provider', async () => {
    provider = await startReferenceProvider({
      slug: 'north-kitchen',
      name: 'North Kitchen',
      authMethod: 'API_KEY',
      credential: CREDENTIAL,
      webhookSecret: 'slug-test-webhook-secret',
    });
    const info = await get('/provider-info');
    expect(info).toMatchObject({ slug: 'north-kitchen', id: 'prov-north-kitchen' });
    expect(info['name']).toBe('North Kitchen (provcert reference provider)');
    expect((await get('/catalog'))['providerSlug']).toBe('north-kitchen');
    const locations = (await get('/locations')) as unknown as { providerId: string }[];
    expect(locations.every((l) => l.providerId === 'prov-north-kitchen')).toBe(true);

    const items = [{ offeringId: 'off-lemonade', variantId: 'var-lemonade-050', quantity: 1, selectedOptions: [] }];
    const quote = await post('/quote', { providerSlug: 'north-kitchen', locationId: 'loc-downtown', items });
    expect(quote.status, JSON.stringify(quote.json)).toBe(200);
    expect(quote.json['providerSlug']).toBe('north-kitchen');
    const foreign = await post('/quote', { providerSlug: 'demo-kitchen', locationId: 'loc-downtown', items });
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(foreign.json)).toContain('providerSlug must be \\"north-kitchen\\"');
  });

  it('keeps demo-kitchen and its ids by default', async () => {
    provider = await startReferenceProvider({
      authMethod: 'API_KEY',
      credential: CREDENTIAL,
      webhookSecret: 'w-secret',
    });
    expect(provider.slug).toBe('demo-kitchen');
    expect(await get('/provider-info')).toMatchObject({
      slug: 'demo-kitchen',
      id: 'prov-demo-kitchen',
      name: 'Demo Kitchen (provcert reference provider)',
    });
  });

  it('names another slug in title case when no name is given', async () => {
    provider = await startReferenceProvider({
      slug: 'harbour-grill-2',
      authMethod: 'API_KEY',
      credential: CREDENTIAL,
      webhookSecret: 'w-secret',
    });
    expect((await get('/provider-info'))['name']).toBe('Harbour Grill 2 (provcert reference provider)');
  });
});

describe('provcert mock-provider --slug --name', () => {
  const env = { PROVIDER_API_KEY: CREDENTIAL };

  it('serves and announces the provider under the slug', async () => {
    const { io, out } = captureIo(process.cwd(), env);
    const stop = new AbortController();
    stop.abort('SIGTERM'); // stands for Ctrl-C right after start: the command starts, prints, stops
    const code = await runCommand(
      io,
      ['mock-provider', '--port', '0', '--slug', 'south-kitchen', '--name', 'South'],
      stop.signal,
    );
    expect(code).toBe(0);
    expect(out()).toMatch(/^reference provider south-kitchen listening on http:\/\/127\.0\.0\.1:\d+ /m);
  });

  it.each([
    [['--slug', 'South_Kitchen'], /--slug must be lowercase letters, digits and dashes/],
    [['--slug', '-south'], /--slug must be lowercase letters, digits and dashes/],
    [['--name', '  '], /--name must not be empty/],
  ])('refuses %j with a usage error', async (args, message) => {
    const { io } = captureIo(process.cwd(), env);
    const run = runCommand(io, ['mock-provider', '--port', '0', ...args]);
    await expect(run).rejects.toThrow(UsageError);
    await expect(runCommand(io, ['mock-provider', '--port', '0', ...args])).rejects.toThrow(message);
  });
});
