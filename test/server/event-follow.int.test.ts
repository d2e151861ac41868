import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveServeSettings } from '../../src/config/serve.js';
import { loadContract } from '../../src/contract/load.js';
import { type RunningServe, startServe } from '../../src/server/serve.js';
import { scratchDir } from '../support/scratch.js';
import { event, post, sign } from './support/http-client.js';
import { send } from './support/raw-request.js';

// GET …/events?after=&wait=: the long poll `provcert events --follow` asks with.
const ADMIN = 'admin-token-follow-7310';
const SECRET = 'server-webhook-secret-follow-2291';
const SLUG = 'follow-kitchen';
const BEARER = { authorization: `Bearer ${ADMIN}` };

let dir: string;
let serve: RunningServe;

beforeAll(async () => {
  dir = await scratchDir('event-follow');
  const settings = await resolveServeSettings({ port: '0', dataDir: dir, local: true, slug: SLUG }, dir);
  serve = await startServe(settings, {
    contract: await loadContract(),
    certify: () => Promise.reject(new Error('not used')),
    env: { PROVCERT_ADMIN_TOKEN: ADMIN, SERVICE_WEBHOOK_SECRET: SECRET },
    cwd: dir,
    log: () => undefined,
  });
});
afterAll(async () => {
  await serve.close();
  await rm(dir, { recursive: true, force: true });
});

const list = (query: string) =>
  send(serve.core.url, 'GET', `/api/v1/providers/${SLUG}/events?${query}`, { headers: BEARER });
const seqs = (json: unknown): number[] => (json as { data: { seq: number }[] }).data.map((e) => e.seq);

async function deliver(): Promise<void> {
  const body = JSON.stringify(event({ providerSlug: SLUG }));
  await post(serve.core.urlFor(SLUG), body, {
    'content-type': 'application/json',
    'x-service-signature': sign(SECRET, body),
  });
}

describe('GET /providers/{slug}/events with after and wait', () => {
  it('lists only entries after `after`; a held poll answers when the next one arrives', async () => {
    await deliver();
    await deliver();
    const all = await list('');
    expect(seqs(all.json)).toEqual([1, 2]);
    expect(seqs((await list('after=1')).json)).toEqual([2]);
    // Nothing after 2 yet: the poll is held until the third event arrives, then answers with it alone.
    const held = list('after=2&wait=30');
    await deliver();
    const answer = await held;
    expect(answer.status).toBe(200);
    expect(seqs(answer.json)).toEqual([3]);
  });

  it('answers an empty page when the wait ends with nothing new', async () => {
    const answer = await list('after=1000&wait=1');
    expect({ status: answer.status, data: (answer.json as { data: unknown[] }).data }).toEqual({
      status: 200,
      data: [],
    });
  });

  it.each([
    ['wait=61', /wait must be a whole number of seconds from 0 to 60/],
    ['wait=-1', /wait must be/],
    ['after=x', /after must be a whole number/],
    ['after=1.5', /after must be a whole number/],
  ])('%s: 400 naming the parameter', async (query, message) => {
    const answer = await list(query);
    expect(answer.status).toBe(400);
    expect((answer.json as { message: string }).message).toMatch(message);
  });
});
