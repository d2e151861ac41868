import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderClient } from '../../src/http/client.js';
import { Redactor } from '../../src/util/redact.js';

/**
 * Issue 32, item 10: the blame for a timeout goes to the party that was slow. A provider that answers at once
 * (a 5 MB catalog, sent whole) is not reported as timed out because provcert's own work held its event loop past
 * the deadline (validating another large answer); a provider that really is slow still times out, and the
 * message says how long provcert itself was busy.
 */

const CATALOG = JSON.stringify({
  offerings: Array.from({ length: 40_000 }, (_, i) => ({ id: `o-${i}`, title: 'x'.repeat(100) })),
});
const TIMEOUT_MS = 1000;
/** Far past the timeout: the request's timer fires this late, whatever the machine's load. */
const BUSY_MS = 3 * TIMEOUT_MS;

let server: Server;
let baseUrl = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/slow') return void setTimeout(() => res.writeHead(200).end('{}'), 20_000);
    res.writeHead(200, { 'content-type': 'application/json' }).end(CATALOG);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Keeps this process's event loop busy, as provcert's own work on a large answer does. */
function holdEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('a request whose deadline passed while provcert itself was busy', () => {
  it.each([
    ['a 5 MB catalog sent at once: answered, not timed out', '/catalog', 'response'],
    ['a provider that really is slow: still timed out, saying provcert was busy too', '/slow', 'failure'],
  ] as const)('%s', async (_name, path, kind) => {
    const client = createProviderClient(
      {
        baseUrl,
        authMethod: 'API_KEY',
        credential: 'busy-test-credential-77',
        timeoutMs: TIMEOUT_MS,
        maxBodyBytes: 6 * 1024 * 1024,
      },
      { redactor: new Redactor(['busy-test-credential-77']) },
    );
    try {
      const pending = client.send({ method: 'GET', path });
      holdEventLoop(BUSY_MS);
      const outcome = await pending;
      expect(outcome.kind, outcome.kind === 'failure' ? outcome.message : '').toBe(kind);
      if (outcome.kind === 'response') expect(outcome.text.length).toBe(CATALOG.length);
      if (outcome.kind === 'failure') {
        expect(outcome.failure).toBe('timeout');
        expect(outcome.message).toMatch(
          /provcert's own work held it up \d+ ms past its deadline, so it waited 1000 ms more (once|\d times)/,
        );
      }
    } finally {
      await client.close();
    }
  });
});
