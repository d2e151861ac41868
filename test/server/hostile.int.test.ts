import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '../../src/contract/contract.js';
import { loadContract } from '../../src/contract/load.js';
import { type LogIo, NODE_LOG_IO } from '../../src/server/append-log.js';
import { type CoreServer, type CoreServerOptions, startCoreServer } from '../../src/server/core-server.js';
import { scratchDir } from '../support/scratch.js';
import { halfSentHeaders, heapUsed, hostilePost, type Outcome } from './support/hostile.js';
import { event, pool, post, sign } from './support/http-client.js';

const SECRET = 'whsec_hostile_demo';
const OWN_SECRET = 'whsec_hostile_owned';
const MiB = 1024 * 1024;
/** Generous: the flood below would retain hundreds of MiB if bodies were kept. */
const HEAP_GROWTH_BOUND = 64 * MiB;

let contract: Contract;
const dirs: string[] = [];
const logLines: string[] = [];
let server: CoreServer;

async function scratch(): Promise<string> {
  const dir = await scratchDir('hostile');
  dirs.push(dir);
  return dir;
}

async function start(extra: Partial<CoreServerOptions> = {}): Promise<CoreServer> {
  return startCoreServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: await scratch(),
    contract,
    secretFor: (slug) => (slug === 'demo' ? SECRET : slug === 'owned' ? OWN_SECRET : undefined),
    log: (l) => logLines.push(l),
    ...extra,
  });
}

const signedHeaders = (secret: string, body: string | Buffer): Record<string, string> => ({
  'content-type': 'application/json',
  'x-service-signature': sign(secret, body),
});
const genuine = async (
  target: CoreServer,
  slug = 'demo',
  secret = SECRET,
  overrides: Record<string, unknown> = {},
): Promise<{ status: number; eventId: string }> => {
  const e = event({ providerSlug: slug, ...overrides });
  const body = JSON.stringify(e);
  return {
    status: (await post(target.urlFor(slug), body, signedHeaders(secret, body))).status,
    eventId: String(e['eventId']),
  };
};
const loggedIds = async (dataDir: string, file: string): Promise<string[]> => {
  const text = await readFile(join(dataDir, 'webhooks', `${file}.jsonl`), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { eventId: string }).eventId);
};
const statusOf = (o: Outcome): number | 'reset' => o.status;

beforeAll(async () => {
  contract = await loadContract();
  server = await start({ limits: { maxBodyBytes: 64 * 1024, bodyTimeoutMs: 500 } });
});

afterAll(async () => {
  await server.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

interface FloodCase {
  name: string;
  requests: number;
  concurrency: number;
  send(): Promise<Outcome>;
  /** Statuses every answer must have ('reset': the server cut a body it refused to read). */
  allowed: (number | 'reset')[];
  /** A status at least one answer must have (the clear error). */
  expected: number;
}

const ONE_MIB = Buffer.alloc(MiB, 'x');
const NEAR_CAP = Buffer.from(JSON.stringify(event({ padding: 'y'.repeat(60 * 1024) })));

const floods: FloodCase[] = [
  {
    name: '1 MiB unsigned bodies at the slugless legacy route',
    requests: 200,
    concurrency: 16,
    send: () => hostilePost(`${server.url}/api/v1/webhooks`, { body: ONE_MIB }),
    allowed: [413, 'reset'],
    expected: 413,
  },
  {
    name: '1 MiB wrongly signed chunked bodies at a slug route',
    requests: 100,
    concurrency: 16,
    send: () =>
      hostilePost(server.urlFor('demo'), {
        body: ONE_MIB,
        chunked: true,
        headers: { 'x-service-signature': sign('wrong', ONE_MIB) },
      }),
    allowed: [413, 'reset'],
    expected: 413,
  },
  {
    name: 'bodies just under the cap with bad signatures, at volume',
    requests: 400,
    concurrency: 16,
    send: () =>
      hostilePost(server.urlFor('demo'), {
        body: NEAR_CAP,
        headers: { 'x-service-signature': sign('wrong', NEAR_CAP) },
      }),
    allowed: [401],
    expected: 401,
  },
  {
    name: 'legacy route, bodies just under the cap signed with a guessed secret',
    requests: 300,
    concurrency: 16,
    send: () =>
      hostilePost(`${server.url}/api/v1/webhooks`, {
        body: NEAR_CAP,
        headers: { 'x-service-signature': sign('guess', NEAR_CAP) },
      }),
    allowed: [401],
    expected: 401,
  },
  {
    name: 'unknown slug with a declared 1 MiB body that never comes (refused before reading)',
    requests: 200,
    concurrency: 16,
    send: () => hostilePost(server.urlFor('nobody'), { declaredLength: MiB }),
    allowed: [404],
    expected: 404,
  },
];

describe('hostile traffic against the core server', () => {
  it.each(floods)('$name: bounded memory, a clear error, genuine events still accepted', async (c) => {
    const before = heapUsed();
    const outcomes = await pool(
      Array.from({ length: c.requests }, (_, i) => i),
      c.concurrency,
      () => c.send(),
    );
    const growth = heapUsed() - before;
    const statuses = outcomes.map(statusOf);
    expect(statuses.filter((s) => !c.allowed.includes(s))).toEqual([]);
    expect(statuses).toContain(c.expected);
    const answered = outcomes.find((o): o is Exclude<Outcome, { status: 'reset' }> => o.status === c.expected);
    expect(JSON.parse(answered?.text ?? '{}')).toMatchObject({
      code: expect.any(String) as unknown,
      message: expect.any(String) as unknown,
    });
    expect(growth).toBeLessThan(HEAP_GROWTH_BOUND);
    // What is kept in memory of rejected requests is bounded per request.
    expect(
      server
        .all()
        .filter((w) => !w.verified)
        .every((w) => w.rawBody.length <= 1024),
    ).toBe(true);
    const ok = await genuine(server);
    expect(ok.status).toBe(200);
    expect(await loggedIds(server.dataDir, 'demo')).toContain(ok.eventId);
  });

  it('answers 503 with Retry-After once the in-flight body bytes are spent, and recovers when they are released', async () => {
    const tight = await start({
      limits: { maxBodyBytes: 32 * 1024, maxInflightBytes: 64 * 1024, bodyTimeoutMs: 1_500 },
    });
    try {
      // Two senders each park 30 KiB of a body they never finish.
      const part = Buffer.alloc(30 * 1024, ' ');
      const parked = [
        hostilePost(tight.urlFor('demo'), {
          body: part,
          declaredLength: 31 * 1024,
          headers: { 'x-service-signature': 'ab'.repeat(32) },
        }),
        hostilePost(tight.urlFor('demo'), {
          body: part,
          declaredLength: 31 * 1024,
          headers: { 'x-service-signature': 'ab'.repeat(32) },
        }),
      ];
      const last: { outcome?: Outcome } = {};
      await expect
        .poll(
          async () => {
            last.outcome = await hostilePost(tight.urlFor('demo'), {
              body: Buffer.alloc(20 * 1024, ' '),
              headers: { 'x-service-signature': 'ab'.repeat(32) },
            });
            return last.outcome.status;
          },
          { timeout: 4_000, interval: 50 },
        )
        .toBe(503);
      const busy = last.outcome;
      expect(
        busy !== undefined && busy.status !== 'reset' ? [busy.headers['retry-after'], JSON.parse(busy.text)] : [],
      ).toEqual(['1', { code: 'INTERNAL_ERROR', message: expect.stringMatching(/too much data at once/) as unknown }]);
      // The parked bodies time out (408) and release their bytes; genuine events flow again.
      expect((await Promise.all(parked)).map(statusOf)).toEqual([408, 408]);
      expect((await genuine(tight)).status).toBe(200);
    } finally {
      await tight.close();
    }
  });

  it('slowloris: half-sent headers beyond the connection cap do not starve genuine senders', async () => {
    const capped = await start({ limits: { maxConnections: 50 } });
    const sockets: Socket[] = [];
    let closedByServer = 0;
    try {
      for (let i = 0; i < 300; i++) {
        const socket = await halfSentHeaders(capped.port);
        socket.once('close', () => closedByServer++);
        sockets.push(socket);
      }
      const results = await pool(
        Array.from({ length: 20 }, (_, i) => i),
        4,
        () => genuine(capped),
      );
      expect(results.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200));
      // The server holds at most its cap: the oldest half-sent connections were dropped to make room.
      await expect.poll(() => closedByServer, { timeout: 5_000 }).toBeGreaterThanOrEqual(300 - 50);
    } finally {
      for (const s of sockets) s.destroy();
      await capped.close();
    }
  });

  it('slowloris: a connection that never finishes its headers is answered 408 and closed after headersTimeoutMs', async () => {
    const strict = await start({ limits: { headersTimeoutMs: 200 } });
    try {
      const socket = await halfSentHeaders(strict.port);
      const closed = new Promise<string>((resolve) => {
        let answer = '';
        socket.on('data', (d: Buffer) => (answer += d.toString()));
        socket.once('close', () => resolve(answer));
      });
      // node's own status for a request that timed out: a browser retries a 408 on a reused connection.
      await expect(closed).resolves.toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    } finally {
      await strict.close();
    }
  });

  // node's own status for the other client errors, on the wire before the socket closes.
  it.each([
    [
      'headers larger than node accepts',
      `x-big: ${'a'.repeat(32 * 1024)}\r\n`,
      /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/,
    ],
    ['a malformed header line', 'not a header line\r\n', /^HTTP\/1\.1 400 Bad Request\r\n/],
  ])("%s is answered with node's own status and the connection closed", async (_case, header, status) => {
    const socket = connect(server.port, '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('error', () => undefined); // the server may reset after answering
      socket.once('close', () => resolve(text));
    });
    socket.write(`POST /api/v1/webhooks/demo HTTP/1.1\r\nhost: 127.0.0.1\r\n${header}\r\n`);
    await expect(answer).resolves.toMatch(status);
  });

  it('a legacy event signed with another secret never counts for a provider with its own, nor shadows its genuine event', async () => {
    const spoof = JSON.stringify(event({ providerSlug: 'owned', eventId: 'evt-spoofed-1' }));
    const answer = await post(`${server.url}/api/v1/webhooks`, spoof, signedHeaders(SECRET, spoof));
    expect(answer.status).toBe(401);
    const real = await genuine(server, 'owned', OWN_SECRET, { eventId: 'evt-spoofed-1' });
    expect(real.status).toBe(200);
    expect(
      server
        .all()
        .filter((w) => w.event?.['eventId'] === 'evt-spoofed-1')
        .map((w) => [w.answeredStatus, w.duplicate]),
    ).toEqual([
      [401, false],
      [200, false],
    ]);
    expect(await loggedIds(server.dataDir, 'owned')).toContain('evt-spoofed-1');
    expect(await loggedIds(server.dataDir, '_legacy')).not.toContain('evt-spoofed-1');
  });

  it('control characters in a slug never reach the console log raw', async () => {
    const hostileSlug =
      'x%1b%5b2J%0d%0a2026-01-01T00:00:00.000Z%20webhook%20demo%20%E2%86%92%20200%20verified%e2%80%ae';
    // A fresh server: the floods above spent this second's budget of rejection lines.
    const fresh = await start();
    const answer = await hostilePost(`${fresh.url}/api/v1/webhooks/${hostileSlug}`, {
      body: Buffer.from('{}'),
    }).finally(() => fresh.close());
    expect(statusOf(answer)).toBe(404);
    const line = logLines.findLast((l) => l.includes('2J')) ?? '';
    expect(line).toMatch(/^webhook x\\x1b\[2J\\x/);
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
  });
});

/** Writes fail with ENOSPC while `full` is set: a disk that fills up and frees again. */
function fillableDisk(): { io: LogIo; setFull(full: boolean): void } {
  let full = false;
  const enospc = (): Error => Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
  return {
    setFull: (f) => (full = f),
    io: {
      ...NODE_LOG_IO,
      async write(handle, data, position) {
        if (!full) return NODE_LOG_IO.write(handle, data, position);
        // A full disk takes part of the batch, then fails: a torn line is left behind.
        await NODE_LOG_IO.write(handle, data.subarray(0, Math.max(1, Math.floor(data.length / 2))), position);
        throw enospc();
      },
    },
  };
}

describe('recovery', () => {
  it('after a full disk, the slug answers 500, then recovers by itself; every acknowledged event survives a restart', async () => {
    const dataDir = await scratch();
    const disk = fillableDisk();
    const first = await start({ dataDir, logIo: disk.io });
    const acknowledged: string[] = [];
    const sendBatch = async (n: number): Promise<number[]> => {
      const results = await pool(
        Array.from({ length: n }, (_, i) => i),
        8,
        () => genuine(first),
      );
      for (const r of results) if (r.status === 200) acknowledged.push(r.eventId);
      return results.map((r) => r.status);
    };
    expect(new Set(await sendBatch(20))).toEqual(new Set([200]));
    disk.setFull(true);
    const during = await sendBatch(20);
    expect(new Set(during)).toEqual(new Set([500]));
    disk.setFull(false);
    expect(new Set(await sendBatch(20))).toEqual(new Set([200]));
    await first.close();

    const text = await readFile(join(dataDir, 'webhooks', 'demo.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(
      text
        .split('\n')
        .filter(Boolean)
        .every((l) => {
          try {
            JSON.parse(l);
            return true;
          } catch {
            return false;
          }
        }),
    ).toBe(true);
    const second = await start({ dataDir });
    try {
      const listed = await second.events('demo', undefined, 1_000);
      expect(listed.items.map((w) => w.event?.['eventId'])).toEqual(acknowledged);
    } finally {
      await second.close();
    }
  });

  interface TornCase {
    name: string;
    content: (good: string) => string;
    survivors: string[];
  }
  const goodLine = (id: string): string =>
    JSON.stringify({
      v: 1,
      receivedAt: new Date().toISOString(),
      slug: 'demo',
      providerSlug: 'demo',
      eventId: id,
      signatureHeader: 'x-service-signature',
      rawBody: JSON.stringify(event({ eventId: id })),
    });
  const torn: TornCase[] = [
    { name: 'a torn last line', content: () => `${goodLine('a')}\n${goodLine('b').slice(0, 40)}`, survivors: ['a'] },
    {
      name: 'a torn line with a corrupt byte, then a newline-less tail',
      content: () => `${goodLine('a')}\n${goodLine('b').slice(0, 30)}\u0000\u00ff${goodLine('c').slice(0, 10)}`,
      survivors: ['a'],
    },
    {
      name: 'a record glued onto a torn line (older versions)',
      content: () => `${goodLine('a')}\n${goodLine('b').slice(0, 30)}${goodLine('c')}\n`,
      survivors: ['a', 'c'],
    },
    {
      name: 'a damaged line in the middle',
      content: () => `${goodLine('a')}\n{"v":1,"broken\n${goodLine('c')}\n`,
      survivors: ['a', 'c'],
    },
  ];
  it.each(torn)(
    '$name: cut back to the last complete record; the next acknowledged event survives restart',
    async (c) => {
      const dataDir = await scratch();
      await mkdir(join(dataDir, 'webhooks'), { recursive: true });
      await writeFile(join(dataDir, 'webhooks', 'demo.jsonl'), c.content(''));
      const first = await start({ dataDir });
      const next = await genuine(first);
      expect(next.status).toBe(200);
      await first.close();
      const second = await start({ dataDir });
      try {
        const listed = await second.events('demo', undefined, 1_000);
        expect(listed.items.map((w) => w.event?.['eventId'])).toEqual([...c.survivors, next.eventId]);
      } finally {
        await second.close();
      }
    },
  );

  it("the run's receiver (no dataDir) removes its temporary folder at close", async () => {
    const ephemeral = await startCoreServer({ host: '127.0.0.1', port: 0, contract, secretFor: () => SECRET });
    expect(ephemeral.dataDir).toMatch(/provcert-run-/);
    expect((await genuine(ephemeral)).status).toBe(200);
    await ephemeral.close();
    await expect(stat(ephemeral.dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('lists every accepted event on disk page by page, beyond any in-memory bound', async () => {
    const dataDir = await scratch();
    const target = await start({ dataDir });
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    try {
      const ids = Array.from({ length: 250 }, (_, i) => `page-${String(i).padStart(3, '0')}`);
      await pool(ids, 16, async (id) => {
        const body = JSON.stringify(event({ eventId: id, timestamp: new Date().toISOString() }));
        return post(target.urlFor('demo'), body, signedHeaders(SECRET, body), agent);
      });
      const listed: string[] = [];
      let cursor: Parameters<CoreServer['events']>[1];
      for (let pages = 0; pages < 10; pages++) {
        const page = await target.events('demo', cursor, 100);
        expect(page.total).toBe(250);
        listed.push(...page.items.map((w) => String(w.event?.['eventId'])));
        if (!page.nextCursor) break;
        const { decodeCursor } = await import('../../src/server/event-pages.js');
        cursor = decodeCursor(page.nextCursor);
      }
      expect([...listed].sort()).toEqual(ids);
      expect(new Set(listed).size).toBe(250);
    } finally {
      agent.destroy();
      await target.close();
    }
  });
});
