import { readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { type CoreServer, startCoreServer } from '../../src/server/core-server.js';
import { scratchDir } from '../support/scratch.js';
import { event, post, type RawAnswer, sign } from './support/http-client.js';

const SECRET = 'whsec_canary_5f1d2e';
const logLines: string[] = [];
let server: CoreServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = await scratchDir('webhook');
  server = await startCoreServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    contract: await loadContract(),
    secretFor: (slug) => (slug === 'demo' || slug === 'other' ? SECRET : undefined),
    limits: { maxBodyBytes: 64 * 1024, bodyTimeoutMs: 200 },
    log: (line) => logLines.push(line),
  });
});

afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

const url = (slug = 'demo'): string => server.urlFor(slug);
const signedPost = (body: string, headers: Record<string, string> = {}, target = url()): Promise<RawAnswer> =>
  post(target, body, { 'content-type': 'application/json', 'x-service-signature': sign(SECRET, body), ...headers });

async function loggedEventIds(slugFile = 'demo'): Promise<string[]> {
  let text = '';
  try {
    text = await readFile(join(dataDir, 'webhooks', `${slugFile}.jsonl`), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { eventId: string }).eventId);
}

/** After a rejection the server still accepts a good event. */
async function stillServes(): Promise<void> {
  const answer = await signedPost(JSON.stringify(event()));
  expect(answer.status).toBe(200);
}

describe('webhook receiver: accepted events', () => {
  it('accepts a correctly signed event, answers {success:true} and logs it durably', async () => {
    const e = event();
    const answer = await signedPost(JSON.stringify(e));
    expect(answer).toMatchObject({ status: 200, json: { success: true } });
    expect(await loggedEventIds()).toContain(e['eventId']);
    const received = server.all().find((w) => w.event?.['eventId'] === e['eventId']);
    expect(received).toMatchObject({
      verified: true,
      answeredStatus: 200,
      duplicate: false,
      signatureHeader: 'x-service-signature',
      slug: 'demo',
      attributedTo: 'demo',
      schemaValid: true,
    });
  });

  it('accepts the compatibility header x-provider-signature', async () => {
    const body = JSON.stringify(event());
    const answer = await post(url(), body, {
      'content-type': 'application/json; charset=utf-8',
      'x-provider-signature': sign(SECRET, body),
    });
    expect(answer.status).toBe(200);
    expect(server.all().at(-1)?.signatureHeader).toBe('x-provider-signature');
  });

  it.each([
    ['uppercase', (hex: string) => hex.toUpperCase()],
    ['mixed-case', (hex: string) => hex.replace(/[a-f]/g, (d, i: number) => (i % 2 ? d.toUpperCase() : d))],
  ])('accepts a %s hex signature (the contract says "hex"), on the slug and the legacy route', async (_n, recase) => {
    for (const target of [url(), `${server.url}/api/v1/webhooks`]) {
      const body = JSON.stringify(event());
      const signature = recase(sign(SECRET, body));
      expect(signature).not.toBe(sign(SECRET, body));
      const answer = await post(target, body, { 'content-type': 'application/json', 'x-service-signature': signature });
      expect(answer.status).toBe(200);
      expect(server.all().at(-1)).toMatchObject({ verified: true, schemaValid: true, attributedTo: 'demo' });
    }
  });

  it('accepts the legacy slugless route and logs it apart', async () => {
    const e = event();
    const answer = await signedPost(JSON.stringify(e), {}, `${server.url}/api/v1/webhooks`);
    expect(answer.status).toBe(200);
    expect(await loggedEventIds('_legacy')).toContain(e['eventId']);
  });

  it('acknowledges a redelivery, records it as duplicate and applies it once', async () => {
    const body = JSON.stringify(event());
    const first = await signedPost(body);
    const second = await signedPost(body);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.json).toEqual({ success: true });
    const id = (JSON.parse(body) as { eventId: string }).eventId;
    expect((await loggedEventIds()).filter((x) => x === id)).toHaveLength(1);
    expect(
      server
        .all()
        .filter((w) => w.event?.['eventId'] === id)
        .map((w) => w.duplicate),
    ).toEqual([false, true]);
  });

  it('waitFor resolves with a past or a future event, and undefined after the timeout', async () => {
    const e = event();
    // A long budget costs nothing (it ends when the event arrives) and outlasts a loaded machine's stalls.
    const waiting = server.waitFor((w) => w.event?.['eventId'] === e['eventId'], 30_000);
    await signedPost(JSON.stringify(e));
    expect((await waiting)?.verified).toBe(true);
    expect(await server.waitFor((w) => w.event?.['eventId'] === e['eventId'], 10)).toBeDefined();
    expect(await server.waitFor(() => false, 10)).toBeUndefined();
  });
});

interface BadCase {
  name: string;
  send(): Promise<RawAnswer>;
  status: number;
  code: string;
  message: RegExp;
  problem?: RegExp;
  /**
   * What the receiver records besides the rejection: the signature and schema facts, and whom the request is
   * attributed to. Default: an unverified, unattributed request (noise).
   */
  facts?: { verified: boolean; attributedTo: string; schemaValid?: boolean };
}

const body = (overrides: Record<string, unknown> = {}): string => JSON.stringify(event(overrides));

const badCases: BadCase[] = [
  {
    name: 'missing signature',
    send: () => post(url(), body(), { 'content-type': 'application/json' }),
    status: 401,
    code: 'UNAUTHORIZED',
    message: /x-service-signature/,
    problem: /no signature header/,
  },
  {
    name: 'signature with a wrong secret',
    send: () => {
      const b = body();
      return post(url(), b, { 'content-type': 'application/json', 'x-service-signature': sign('another-secret', b) });
    },
    status: 401,
    code: 'UNAUTHORIZED',
    message: /does not match/,
    problem: /different secret/,
  },
  {
    name: 'signature of other bytes (pretty-printed JSON signed, compact sent)',
    send: () => {
      const e = event();
      return post(url(), JSON.stringify(e), {
        'content-type': 'application/json',
        'x-service-signature': sign(SECRET, JSON.stringify(e, null, 2)),
      });
    },
    status: 401,
    code: 'UNAUTHORIZED',
    message: /does not match/,
    problem: /pretty-printed with 2 spaces/,
    facts: { verified: false, attributedTo: 'demo' },
  },
  {
    name: 'correct signature in the non-canonical x-signature header',
    send: () => {
      const b = body();
      return post(url(), b, { 'content-type': 'application/json', 'x-signature': sign(SECRET, b) });
    },
    status: 401,
    code: 'UNAUTHORIZED',
    message: /x-service-signature/,
    problem: /"x-signature", which is not accepted/,
    facts: { verified: false, attributedTo: 'demo' },
  },
  {
    name: 'empty body, signed',
    send: () => signedPost(''),
    status: 400,
    code: 'INVALID_ARGUMENT',
    message: /empty/,
    facts: { verified: true, attributedTo: 'demo', schemaValid: false },
  },
  {
    name: 'empty body, unsigned',
    send: () => post(url(), '', { 'content-type': 'application/json' }),
    status: 401,
    code: 'UNAUTHORIZED',
    message: /missing signature/,
  },
  {
    name: 'invalid JSON, signed',
    send: () => signedPost('{"eventId": "x",'),
    status: 400,
    code: 'INVALID_ARGUMENT',
    message: /not valid JSON/,
    facts: { verified: true, attributedTo: 'demo', schemaValid: false },
  },
  {
    name: 'JSON that is not an object',
    send: () => signedPost('[1,2]'),
    status: 400,
    code: 'INVALID_ARGUMENT',
    message: /JSON object/,
    facts: { verified: true, attributedTo: 'demo', schemaValid: false },
  },
  {
    name: 'schema-invalid event (no eventId)',
    send: () => {
      const e = event();
      delete e['eventId'];
      return signedPost(JSON.stringify(e));
    },
    status: 400,
    code: 'INVALID_ARGUMENT',
    message: /NormalizedWebhookEvent: .*required field "eventId"/,
    facts: { verified: true, attributedTo: 'demo', schemaValid: false },
  },
  {
    name: 'wrong content type',
    send: () => {
      const b = body();
      return post(url(), b, { 'content-type': 'text/plain', 'x-service-signature': sign(SECRET, b) });
    },
    status: 415,
    code: 'INVALID_ARGUMENT',
    message: /application\/json.*text\/plain/,
    facts: { verified: true, attributedTo: 'demo' },
  },
  {
    name: 'huge body (declared length)',
    send: () => signedPost(JSON.stringify(event({ padding: 'x'.repeat(100 * 1024) }))),
    status: 413,
    code: 'INVALID_ARGUMENT',
    message: /exceeds the limit of 65536 bytes/,
  },
  {
    name: 'unknown slug',
    send: () => {
      const b = body({ providerSlug: 'nobody' });
      return signedPost(b, {}, url('nobody'));
    },
    status: 404,
    code: 'NOT_FOUND',
    message: /"nobody"/,
  },
  {
    name: 'path slug and body providerSlug disagree',
    send: () => signedPost(body({ providerSlug: 'demo' }), {}, url('other')),
    status: 400,
    code: 'INVALID_ARGUMENT',
    message: /"demo" in the body does not match "other"/,
    facts: { verified: true, attributedTo: 'other', schemaValid: true },
  },
];

describe('webhook receiver: bad inputs', () => {
  it.each(badCases)('$name → $status $code, not accepted, server keeps serving', async (c) => {
    const before = server.all().length;
    const logged = (await loggedEventIds()).length + (await loggedEventIds('other')).length;
    const answer = await c.send();
    expect(answer.status).toBe(c.status);
    expect(answer.json).toMatchObject({ code: c.code });
    expect((answer.json as { message: string }).message).toMatch(c.message);
    const entry = server.all()[before];
    expect(entry).toMatchObject({ answeredStatus: c.status, verified: c.facts?.verified ?? false });
    // The signature and schema facts are separate; only a verified (or provably own) request names its sender.
    expect(entry?.attributedTo).toBe(c.facts?.attributedTo);
    expect(entry?.schemaValid).toBe(c.facts?.schemaValid);
    if (c.problem) expect(entry?.problem).toMatch(c.problem);
    expect((await loggedEventIds()).length + (await loggedEventIds('other')).length).toBe(logged);
    await stillServes();
  });

  it.each([
    [
      're-formatted, with its original signature',
      (b: string) => JSON.stringify(JSON.parse(b), null, 2),
      'x-service-signature',
    ],
    ['in the non-canonical x-signature header', (b: string) => b, 'x-signature'],
  ])(
    "a captured accepted event re-sent %s is a stranger's replay: 401 and not the provider's",
    async (_name, alter, header) => {
      const original = JSON.stringify(event());
      expect((await signedPost(original)).status).toBe(200);
      const before = server.all().length;
      const answer = await post(url(), alter(original), {
        'content-type': 'application/json',
        [header]: sign(SECRET, original),
      });
      expect(answer.status).toBe(401);
      const entry = server.all()[before];
      // The digest is provably made with the secret, but of an event already accepted: nobody's mistake to blame.
      expect(entry?.problem).toMatch(/otherwise right/);
      expect(entry).toMatchObject({ verified: false, answeredStatus: 401 });
      expect(entry?.attributedTo).toBeUndefined();
    },
  );

  it('cuts a chunked body over the limit with 413 without reading it all', async () => {
    const answer = await new Promise<{ status: number; sentBytes: number }>((resolve, reject) => {
      let sent = 0;
      const req = request(
        url(),
        { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': 'ab'.repeat(32) } },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, sentBytes: sent });
        },
      );
      req.on('error', reject);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = (): void => {
        while (sent < 4 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(answer.status).toBe(413);
    expect(answer.sentBytes).toBeLessThan(4 * 1024 * 1024);
    await stillServes();
  });

  it('answers 408 to a body that does not arrive in time', async () => {
    const answer = await new Promise<RawAnswer>((resolve, reject) => {
      const req = request(
        url(),
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': '100',
            'x-service-signature': 'ab'.repeat(32),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            resolve({ status: res.statusCode ?? 0, text, json: JSON.parse(text) as unknown });
            req.destroy();
          });
        },
      );
      req.on('error', reject);
      req.write('{"eventId":');
    });
    expect(answer.status).toBe(408);
    expect(answer.json).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/within 200 ms/) as unknown,
    });
    await stillServes();
  });

  it('answers 405 to a GET on the webhook route', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      request(url(), { method: 'GET' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(405);
  });

  it('never writes the secret in logs, answers or recorded headers', async () => {
    const b = body();
    await post(url(), b, { 'content-type': 'application/json', 'x-service-signature': sign(`${SECRET}\n`, b) });
    const last = server.all().at(-1);
    expect(last?.problem).toMatch(/secret followed by a newline/);
    const everything = JSON.stringify({ logLines, all: server.all() });
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(sign(SECRET, b));
    expect(last?.headers['x-service-signature']).toMatch(/^\*\*\*/);
  });
});
