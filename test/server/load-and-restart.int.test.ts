import { readFile, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { type CoreServer, startCoreServer } from '../../src/server/core-server.js';
import { scratchDir } from '../support/scratch.js';
import { event, pool, post, sign } from './support/http-client.js';

const SECRET = 'whsec_load_canary';
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function start(dataDir: string): Promise<CoreServer> {
  return startCoreServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    contract: await loadContract(),
    secretFor: (s) => (s === 'demo' ? SECRET : undefined),
  });
}

async function logIds(dataDir: string): Promise<string[]> {
  const text = await readFile(join(dataDir, 'webhooks', 'demo.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { eventId: string }).eventId);
}

describe('webhook receiver under load', () => {
  it('records 2,000 distinct events at concurrency 50 exactly once, and applies 500 redeliveries zero times', async () => {
    const dataDir = await scratchDir('load');
    dirs.push(dataDir);
    const server = await start(dataDir);
    const agent = new Agent({ keepAlive: true, maxSockets: 50 });
    try {
      const bodies = Array.from({ length: 2_000 }, (_, i) => JSON.stringify(event({ eventId: `load-${i}` })));
      const send = (b: string): Promise<number> =>
        post(
          server.urlFor('demo'),
          b,
          { 'content-type': 'application/json', 'x-service-signature': sign(SECRET, b) },
          agent,
        ).then((a) => a.status);

      const statuses = await pool(bodies, 50, send);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const ids = await logIds(dataDir);
      expect(ids).toHaveLength(2_000);
      expect(new Set(ids).size).toBe(2_000);

      const redeliveries = await pool(bodies.slice(0, 500), 50, send);
      expect(redeliveries.every((s) => s === 200)).toBe(true);
      expect(await logIds(dataDir)).toHaveLength(2_000);
      expect(server.all().filter((w) => w.duplicate)).toHaveLength(500);
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  it('reloads the log on restart: history survives and redeliveries stay duplicates', async () => {
    const dataDir = await scratchDir('restart');
    dirs.push(dataDir);
    const bodies = Array.from({ length: 5 }, (_, i) => JSON.stringify(event({ eventId: `r-${i}` })));
    const headersFor = (b: string): Record<string, string> => ({
      'content-type': 'application/json',
      'x-service-signature': sign(SECRET, b),
    });

    const first = await start(dataDir);
    for (const b of bodies) expect((await post(first.urlFor('demo'), b, headersFor(b))).status).toBe(200);
    await first.close();

    const second = await start(dataDir);
    try {
      const page = await second.events('demo');
      expect(page.items.map((w) => w.event?.['eventId'])).toEqual(bodies.map((_, i) => `r-${i}`));
      expect(page.items.every((w) => w.restored === true && w.verified)).toBe(true);
      expect(second.all()).toHaveLength(0);
      const again = await post(second.urlFor('demo'), bodies[0] ?? '', headersFor(bodies[0] ?? ''));
      expect(again.status).toBe(200);
      expect(second.all()[0]?.duplicate).toBe(true);
      expect(await logIds(dataDir)).toHaveLength(5);
    } finally {
      await second.close();
    }
  });

  it('rejects with a typed error naming the flag when the port is in use', async () => {
    const dataDir = await scratchDir('port');
    dirs.push(dataDir);
    const a = await start(dataDir);
    try {
      const attempt = startCoreServer({
        host: '127.0.0.1',
        port: a.port,
        dataDir,
        contract: await loadContract(),
        secretFor: () => SECRET,
      });
      await expect(attempt).rejects.toMatchObject({
        name: 'UsageError',
        message: expect.stringMatching(new RegExp(`port ${a.port} is in use; pass webhookPort`)) as unknown,
      });
    } finally {
      await a.close();
    }
  });
});
