import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderClient } from '../../src/http/client.js';
import type { AuthMethod } from '../../src/model/contract-constants.js';
import { hmacHex } from '../../src/util/hmac.js';
import { Redactor } from '../../src/util/redact.js';

const CREDENTIAL = 'client-test-credential-42';
const seen: { headers: IncomingMessage['headers']; body: string }[] = [];

/** A loopback server with one route per way a provider can answer badly. */
const routes: Record<string, (req: IncomingMessage, res: ServerResponse, body: string) => void> = {
  '/json': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
  '/echo': (req, res, body) => {
    seen.push({ headers: req.headers, body });
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ echoed: req.headers['x-provider-api-key'] ?? null }));
  },
  '/html': (_q, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>Welcome</body></html>'),
  '/empty': (_q, res) => res.writeHead(200).end(),
  '/truncated': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"offerings":[{"id":"a"'),
  '/text': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('OK'),
  '/redirect': (_q, res) => res.writeHead(301, { location: 'https://elsewhere.example/api' }).end(),
  '/huge': (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`[${'"x",'.repeat(20_000)}"x"]`);
  },
  '/slow': (_q, res) => setTimeout(() => res.writeHead(200).end('{}'), 2_000),
  // A kept-alive connection the server closes as a request arrives: the first request on each path gets no answer.
  '/closes-first': (req, res) => {
    resets.set(req.url ?? '', (resets.get(req.url ?? '') ?? 0) + 1);
    if (resets.get(req.url ?? '') === 1) res.socket?.destroy();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  },
  '/closes-always': (req, res) => {
    resets.set(req.url ?? '', (resets.get(req.url ?? '') ?? 0) + 1);
    res.socket?.destroy();
  },
};
const resets = new Map<string, number>();

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () =>
      (routes[(req.url ?? '').split('?')[0] ?? ''] ?? ((_q, r) => r.writeHead(404).end()))(req, res, body),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * The product's request timeout, where a test is not about timeouts: loopback answers take milliseconds, but a loaded
 * machine can stall this process for seconds, and a request timeout fired meanwhile would change the outcome.
 */
const TIMEOUT_MS = 10_000;

function client(authMethod: AuthMethod = 'API_KEY', timeoutMs = TIMEOUT_MS) {
  return createProviderClient(
    { baseUrl, authMethod, credential: CREDENTIAL, timeoutMs, maxBodyBytes: 50_000 },
    { redactor: new Redactor([CREDENTIAL]) },
  );
}

describe('provider client: what the provider answered, named', () => {
  it.each([
    ['/json', 'json'],
    ['/html', 'html'],
    ['/empty', 'empty'],
    ['/truncated', 'truncated-json'],
    ['/text', 'not-json'],
  ])('%s is classified as %s', async (path, kind) => {
    const c = client();
    const outcome = await c.send({ method: 'GET', path });
    await c.close();
    expect(outcome.kind).toBe('response');
    if (outcome.kind === 'response') expect(outcome.bodyKind).toBe(kind);
  });

  it.each([
    [
      '/redirect',
      'redirect',
      /redirect 301 to https:\/\/elsewhere\.example\/api; redirects are not followed/,
      TIMEOUT_MS,
    ],
    ['/huge', 'too-large', /answered more than 50000 bytes/, TIMEOUT_MS],
    // /slow answers after 2 s, and this process's timers fire in order: the 1 s timeout always comes first.
    ['/slow', 'timeout', /timed out after 1000 ms/, 1_000],
  ])('%s is a %s failure with a message saying what to do', async (path, failure, message, timeoutMs) => {
    const c = client('API_KEY', timeoutMs);
    const outcome = await c.send({ method: 'GET', path });
    await c.close();
    expect(outcome.kind).toBe('failure');
    if (outcome.kind === 'failure') {
      expect(outcome.failure).toBe(failure);
      expect(outcome.message).toMatch(message);
      expect(outcome.exchange.failure).toBe(outcome.message);
    }
  });

  it('reports a refused connection without throwing', async () => {
    const c = createProviderClient(
      {
        baseUrl: 'http://127.0.0.1:1',
        authMethod: 'API_KEY',
        credential: CREDENTIAL,
        timeoutMs: 1_000,
        maxBodyBytes: 1_000,
      },
      { redactor: new Redactor([]) },
    );
    const outcome = await c.send({ method: 'GET', path: '/health' });
    await c.close();
    expect(outcome).toMatchObject({ kind: 'failure', failure: 'refused' });
  });

  it.each(['GET', 'POST'] as const)(
    '%s: a connection closed before any answer is tried once more on a new one, and the answer counts',
    async (method) => {
      const c = client();
      const outcome = await c.send({ method, path: '/closes-first', query: { m: method }, json: {} });
      await c.close();
      expect(outcome).toMatchObject({ kind: 'response', status: 200 });
      expect(resets.get(`/closes-first?m=${method}`)).toBe(2);
    },
  );

  it("a connection closed before any answer twice is the provider's failure, and says it was tried twice", async () => {
    const c = client();
    const outcome = await c.send({ method: 'POST', path: '/closes-always', json: {} });
    await c.close();
    expect(outcome).toMatchObject({ kind: 'failure', failure: 'reset' });
    if (outcome.kind === 'failure') {
      expect(outcome.message).toMatch(/closed before a complete answer arrived \(twice: .*new connection\)/);
      expect(outcome.exchange.failure).toBe(outcome.message);
    }
    expect(resets.get('/closes-always')).toBe(2);
  });
});

describe('provider client: authentication and redaction', () => {
  it.each([
    ['API_KEY', 'x-provider-api-key', CREDENTIAL],
    ['BEARER_TOKEN', 'authorization', `Bearer ${CREDENTIAL}`],
  ] as const)('%s sends %s', async (method, header, value) => {
    const c = client(method);
    seen.length = 0;
    await c.send({ method: 'GET', path: '/echo' });
    await c.close();
    expect(seen[0]?.headers[header]).toBe(value);
  });

  it('HMAC signs the exact bytes sent (and the empty string for a GET)', async () => {
    const c = client('HMAC_SIGNATURE');
    seen.length = 0;
    await c.send({ method: 'POST', path: '/echo', json: { b: 2, a: [1, 'é'] } });
    await c.send({ method: 'GET', path: '/echo' });
    await c.send({
      method: 'POST',
      path: '/echo',
      json: { a: 1 },
      auth: { kind: 'sign-other-bytes', bytes: '{"a":2}' },
    });
    await c.close();
    expect(seen[0]?.headers['x-service-signature']).toBe(hmacHex(CREDENTIAL, seen[0]?.body ?? ''));
    expect(seen[1]?.headers['x-service-signature']).toBe(hmacHex(CREDENTIAL, ''));
    expect(seen[2]?.headers['x-service-signature']).toBe(hmacHex(CREDENTIAL, '{"a":2}'));
  });

  it('masks credential headers in evidence and redacts the secret wherever a provider echoes it', async () => {
    const c = client('API_KEY');
    const outcome = await c.send({ method: 'GET', path: '/echo' });
    await c.close();
    const evidence = JSON.stringify(outcome.exchange);
    expect(outcome.exchange.request.headers['x-provider-api-key']).toBe('****');
    expect(evidence).not.toContain(CREDENTIAL);
    expect(outcome.exchange.response?.body).toBe('{"echoed":"****"}');
  });

  it('sends no credential with auth none, and a substitute credential when asked', async () => {
    const c = client('API_KEY');
    seen.length = 0;
    await c.send({ method: 'GET', path: '/echo', auth: { kind: 'none' } });
    await c.send({ method: 'GET', path: '/echo', auth: { kind: 'credential', credential: 'wrong' } });
    await c.close();
    expect(seen[0]?.headers['x-provider-api-key']).toBeUndefined();
    expect(seen[1]?.headers['x-provider-api-key']).toBe('wrong');
  });
});
