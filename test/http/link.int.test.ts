import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderClient } from '../../src/http/client.js';
import { linkOnBaseHost } from '../../src/http/link.js';
import type { AuthMethod } from '../../src/model/contract-constants.js';
import { Redactor } from '../../src/util/redact.js';

describe('linkOnBaseHost: provcert opens a provider link only on the base address host', () => {
  it.each([
    ['https://api.shop.example/v1', 'https://api.shop.example/checkout/1', undefined],
    ['https://api.shop.example/v1', 'https://API.shop.example:443/pay?x=1', undefined],
    ['https://api.shop.example/v1', 'http://api.shop.example/checkout/1', undefined],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/checkout/a', undefined],
    [
      'http://127.0.0.1:4010',
      'http://127.0.0.1:4011/checkout/a',
      /is on 127\.0\.0\.1:4011, not on the base address's host 127\.0\.0\.1:4010/,
    ],
    ['https://api.shop.example', 'https://pay.shop.example/checkout/1', /is on pay\.shop\.example/],
    ['https://api.shop.example', 'https://api.shop.example:8443/checkout/1', /is on api\.shop\.example:8443/],
    ['https://api.shop.example', 'http://169.254.169.254/latest/meta-data', /is on 169\.254\.169\.254/],
    ['https://api.shop.example', 'https://user:pw@api.shop.example/checkout', /carries user info/],
    ['https://api.shop.example', 'javascript:alert(1)', /uses javascript:, not http or https/],
    ['https://api.shop.example', 'file:///etc/passwd', /uses file:/],
    ['https://api.shop.example', '/checkout/1', /is not an absolute URL/],
  ] as const)('%s + %s', (base, link, refused) => {
    const verdict = linkOnBaseHost(base, link);
    if (refused === undefined) expect(verdict.ok).toBe(true);
    else expect(verdict.ok ? 'opened' : verdict.reason).toMatch(refused);
  });
});

const CREDENTIAL = 'link-test-credential-9d1e';
const seen: { path: string; headers: IncomingMessage['headers'] }[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    if (req.url === '/moved') res.writeHead(302, { location: `${baseUrl}/checkout/1` }).end();
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Pay</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (authMethod: AuthMethod) =>
  createProviderClient(
    { baseUrl, authMethod, credential: CREDENTIAL, timeoutMs: 2_000, maxBodyBytes: 50_000 },
    { redactor: new Redactor([CREDENTIAL]) },
  );

describe('the client opens a link as a browser would', () => {
  it.each<AuthMethod>(['API_KEY', 'BEARER_TOKEN', 'HMAC_SIGNATURE'])(
    'outside the base path, with no credential whatever auth was asked (%s)',
    async (authMethod) => {
      seen.length = 0;
      const c = client(authMethod);
      const link = `${new URL(baseUrl).origin}/checkout/1`;
      const outcome = await c.send({ method: 'GET', path: link, link, auth: { kind: 'configured' } });
      await c.close();
      expect(outcome.kind === 'response' && outcome.status).toBe(200);
      expect(seen.map((s) => s.path)).toEqual(['/checkout/1']);
      const headers = seen[0]?.headers ?? {};
      expect(Object.keys(headers).filter((h) => /api-key|authorization|signature/.test(h))).toEqual([]);
      expect(outcome.exchange.request.auth).toBe('none');
    },
  );

  it('sends nothing to a link on another host, and says why', async () => {
    seen.length = 0;
    const c = client('API_KEY');
    const link = 'http://127.0.0.2:9/checkout/1';
    const outcome = await c.send({ method: 'GET', path: link, link });
    await c.close();
    expect(outcome.kind === 'failure' && outcome.failure).toBe('blocked');
    expect(outcome.kind === 'failure' && outcome.message).toMatch(/not opened: the link .* is on 127\.0\.0\.2:9/);
    expect(seen).toEqual([]);
  });

  it('does not follow a redirect, and names it without advice about the base URL', async () => {
    seen.length = 0;
    const c = client('API_KEY');
    const link = `${new URL(baseUrl).origin}/moved`;
    const outcome = await c.send({ method: 'GET', path: link, link });
    await c.close();
    expect(outcome.kind === 'failure' && outcome.failure).toBe('redirect');
    expect(outcome.kind === 'failure' && outcome.message).toMatch(
      /answered a redirect 302 to .*\/checkout\/1; redirects are not followed$/,
    );
    expect(seen.map((s) => s.path)).toEqual(['/moved']);
  });

  it('opens a link with GET only', async () => {
    seen.length = 0;
    const c = client('API_KEY');
    const link = `${new URL(baseUrl).origin}/checkout/1`;
    const outcome = await c.send({ method: 'POST', path: link, link, json: {} });
    await c.close();
    expect(outcome.kind === 'failure' && outcome.failure).toBe('blocked');
    expect(seen).toEqual([]);
  });
});
