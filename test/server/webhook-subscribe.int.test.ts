import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import type { ReceivedWebhook } from '../../src/model/webhooks.js';
import { type CoreServer, startCoreServer } from '../../src/server/core-server.js';
import { scratchDir } from '../support/scratch.js';
import { event, post, sign } from './support/http-client.js';

const SECRET = 'whsec_subscribe_9c2e71';
let server: CoreServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = await scratchDir('subscribe');
  server = await startCoreServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    contract: await loadContract(),
    secretFor: (slug) => (slug === 'demo' ? SECRET : undefined),
  });
});

afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

const send = (body: string, secret = SECRET): Promise<unknown> =>
  post(server.urlFor('demo'), body, { 'content-type': 'application/json', 'x-service-signature': sign(secret, body) });

describe('WebhookInbox.subscribe', () => {
  it('hands each answered request to the listener as it is recorded, until unsubscribed', async () => {
    const seen: ReceivedWebhook[] = [];
    const unsubscribe = server.subscribe((w) => seen.push(w));
    const accepted = event({ providerSlug: 'demo' });
    await send(JSON.stringify(accepted));
    await send(JSON.stringify(event({ providerSlug: 'demo' })), 'not-the-secret');
    expect(seen.map((w) => [w.slug, w.event?.['eventId'] !== undefined, w.verified])).toEqual([
      ['demo', true, true],
      ['demo', true, false],
    ]);
    expect(seen[0]?.event?.['eventId']).toBe(accepted['eventId']);
    unsubscribe();
    await send(JSON.stringify(event({ providerSlug: 'demo' })));
    expect(seen).toHaveLength(2);
  });

  it('a listener that throws neither fails the request nor stops the other listeners', async () => {
    const seen: number[] = [];
    const off = [
      server.subscribe(() => {
        throw new Error('listener bug');
      }),
      server.subscribe((w) => seen.push(w.seq)),
    ];
    const answer = (await send(JSON.stringify(event({ providerSlug: 'demo' })))) as { status: number };
    expect(answer.status).toBe(200);
    expect(seen).toHaveLength(1);
    for (const unsubscribe of off) unsubscribe();
  });
});
