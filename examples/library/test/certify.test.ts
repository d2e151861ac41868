import { createServer } from 'node:net';
import { certify } from 'provcert';
import { startReferenceProvider } from 'provcert/reference-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * Start the backend and certify it in one test file. Here the backend is provcert's reference provider; in a
 * provider's repository it is the provider's own server, started the same way.
 */

const credential = 'example-api-key';
const webhookSecret = 'example-webhook-secret';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

let backend: Awaited<ReturnType<typeof startReferenceProvider>>;
let webhookPort = 0;

beforeAll(async () => {
  webhookPort = await freePort();
  backend = await startReferenceProvider({
    authMethod: 'API_KEY',
    credential,
    webhookSecret,
    webhookUrl: `http://127.0.0.1:${webhookPort}/api/v1/webhooks/demo-kitchen`,
  });
});

afterAll(async () => {
  await backend?.close();
});

describe('certification in a provider test suite', () => {
  it('our backend passes certification', async () => {
    const report = await certify({
      baseUrl: backend.url,
      auth: 'API_KEY',
      credential,
      webhookSecret,
      local: true,
      webhookPort,
    });
    const failed = report.checks.filter((c) => c.status === 'fail' || c.status === 'error');
    expect(failed.map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(report.verdict).toBe('PASS');
  }, 60_000);
});
