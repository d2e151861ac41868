import { createHmac } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/load.js';
import { type OpenRun, openRun } from '../../../src/runner/open-run.js';
import { deliverEvent, sign, untilShown as until } from '../../server/support/http-client.js';
import { testConfig } from '../../support/certify.js';
import { captureIo, runCommand, runMain } from '../../support/cli-io.js';
import { scratchDir } from '../../support/scratch.js';

// A run's own receiver (openRun, as `provcert run` opens it) on loopback, real signed webhook requests, the
// events command in-process signing its GETs with the webhook secret.
const SECRET = 'run-webhook-secret-follow-9143';
const CREDENTIAL = 'run-credential-follow-2250';
const SLUG = 'demo';
const env = { SERVICE_WEBHOOK_SECRET: SECRET };
/** The signature of the empty body works like a key: no output may show it either. */
const EMPTY_SIGNATURE = sign(SECRET, '');

let dir: string;
let run: OpenRun;
let receiver: string;

beforeAll(async () => {
  dir = await scratchDir('events-receiver');
  // No provider is needed: the receiver listens from the run's opening; the slug comes from GET /provider-info.
  run = await openRun(testConfig('http://127.0.0.1:9'), {
    contract: await loadContract(),
    credential: CREDENTIAL,
    webhookSecret: SECRET,
  });
  run.listEventsOf(SLUG);
  receiver = run.receiverUrl ?? '';
});
afterAll(async () => {
  await run.close();
  await rm(dir, { recursive: true, force: true });
});

/** Posts one event to the run's receiver, signed with `secret`; resolves with its eventId. */
const deliver = (secret: string, overrides: Record<string, unknown> = {}): Promise<string> =>
  deliverEvent(run.inbox.urlFor(SLUG), SLUG, secret, overrides);

async function listing(slug: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await request(`${receiver}/api/v1/providers/${slug}/events`, { headers });
  return { status: res.statusCode, text: await res.body.text() };
}

describe("provcert events --secret-env: a running run's receiver", () => {
  it('the run has a receiver of its own, and it serves the events listing beside the webhook routes', () => {
    expect(receiver).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('shows a signed event within a second of its arrival, and a badly signed one with its reason', async () => {
    const before = await deliver(SECRET, { actionId: 'act-before' });
    const { io, out, err } = captureIo(dir, env);
    const stop = new AbortController();
    const following = runCommand(
      io,
      ['events', SLUG, '--follow', '--core', receiver, '--secret-env', 'SERVICE_WEBHOOK_SECRET'],
      stop.signal,
    );
    await until(err, 'Following the events of demo');

    const sentAt = performance.now();
    const id = await deliver(SECRET, { actionId: 'act-live', newStatus: 'CANCELLED' });
    await until(out, id);
    const shownAfter = performance.now() - sentAt;
    const forged = await deliver('not-the-run-secret', { actionId: 'act-forged' });
    await until(out, forged);
    stop.abort('SIGINT');

    expect(await following).toBe(0);
    expect(shownAfter).toBeLessThan(1_000);
    const lines = out().trim().split('\n');
    expect(out()).not.toContain(before);
    expect(lines[0]).toMatch(new RegExp(`#\\d+  action\\.status_updated ${id}  act-live → CANCELLED  ✓ verified  200`));
    expect(lines[1]).toMatch(/act-forged.*✗ not verified {2}401 {2}\S/);
    for (const secret of [SECRET, EMPTY_SIGNATURE]) expect(out() + err()).not.toContain(secret);
  });

  it('--secret-env without a name reads SERVICE_WEBHOOK_SECRET; --json prints CoreEvent lines, filtered', async () => {
    const good = await deliver(SECRET, { actionId: 'act-json' });
    const bad = await deliver('wrong-secret-json', { actionId: 'act-json-bad' });
    const r = await runMain(
      dir,
      ['events', SLUG, '--core', receiver, '--json', '--status', 'rejected', '--secret-env'],
      { env },
    );
    expect(r.code, r.err).toBe(0);
    const shown = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { eventId?: string; verified: boolean; answeredStatus: number; slug: string });
    expect(shown.some((e) => e.eventId === bad && !e.verified && e.answeredStatus === 401 && e.slug === SLUG)).toBe(
      true,
    );
    expect(shown.some((e) => e.eventId === good)).toBe(false);
  });

  it('a secret a provider echoes in its event is masked in the listing (the run masks what it knows)', async () => {
    const echoed = await deliver(SECRET, {
      actionId: `act-${SECRET}`,
      newStatus: CREDENTIAL,
      eventType: `type-${EMPTY_SIGNATURE}`,
    });
    const r = await runMain(dir, ['events', SLUG, '--core', receiver, '--json', '--secret-env'], { env });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(echoed);
    const raw = await listing(SLUG, { 'x-service-signature': EMPTY_SIGNATURE });
    for (const text of [r.out, raw.text]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(CREDENTIAL);
      // The empty body's signature reads this listing: a provider repeating it must not hand it on.
      expect(text).not.toContain(EMPTY_SIGNATURE);
    }
  });

  const hmac = (secret: string, body: string): string => createHmac('sha256', secret).update(body).digest('hex');
  it.each([
    ['no signature', SLUG, {}, 401],
    ['signed with another secret', SLUG, { 'x-service-signature': hmac('another-secret', '') }, 401],
    ['the signature of another body', SLUG, { 'x-service-signature': hmac(SECRET, '{}') }, 401],
    ['the secret itself as the signature', SLUG, { 'x-service-signature': SECRET }, 401],
    ['the operator-token way (a bearer secret)', SLUG, { authorization: `Bearer ${SECRET}` }, 401],
    ['uppercase hex (either case verifies)', SLUG, { 'x-service-signature': EMPTY_SIGNATURE.toUpperCase() }, 200],
    ['lowercase hex', SLUG, { 'x-service-signature': EMPTY_SIGNATURE }, 200],
    ['another slug, correctly signed', 'other-provider', { 'x-service-signature': EMPTY_SIGNATURE }, 404],
    ['another slug, unsigned (refused before the slug is looked at)', 'other-provider', {}, 401],
  ] as const)('%s: %s', async (_name, slug, headers, status) => {
    const r = await listing(slug, headers);
    expect(r.status).toBe(status);
    const body = JSON.parse(r.text) as { code?: string; data?: unknown[] };
    if (status === 401) expect(body.code).toBe('UNAUTHORIZED');
    if (status === 404) expect(body.code).toBe('NOT_FOUND');
    if (status === 200) expect(Array.isArray(body.data)).toBe(true);
    expect(r.text).not.toContain(SECRET);
    expect(r.text).not.toContain(EMPTY_SIGNATURE);
  });

  it.each([
    [
      ['events', SLUG, '--secret-env', 'RUN_SECRET'],
      { RUN_SECRET: 'wrong-run-secret-7310' },
      /the receiver refused the webhook secret: 401/,
    ],
    [
      ['events', 'other-provider', '--secret-env'],
      env,
      /the receiver knows no provider "other-provider": 404 .*lists the events of demo only/,
    ],
    [['events', SLUG, '--secret-env', 'UNSET_SECRET'], env, /UNSET_SECRET is not set/],
    [
      ['events', SLUG, '--secret-env', '--admin-token-env', 'TOKEN'],
      { ...env, TOKEN: 'operator-token-unused-6620' },
      /exclude each other/,
    ],
  ] as const)('%j: exit 2 in one line, no secret shown', async (args, withEnv, message) => {
    const r = await runMain(dir, [...args, '--core', receiver], { env: withEnv });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    for (const secret of [...Object.values(withEnv), EMPTY_SIGNATURE, hmac('wrong-run-secret-7310', '')])
      expect(r.out + r.err).not.toContain(secret);
  });

  it('a receiver that is not there: exit 1 naming the run', async () => {
    const r = await runMain(dir, ['events', SLUG, '--core', 'http://127.0.0.1:9', '--secret-env'], { env });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /could not reach the receiver at http:\/\/127\.0\.0\.1:9\/api\/v1: connection refused \(is the provcert run running\?\)/,
    );
    expect(r.err).not.toContain(SECRET);
  });
});

describe('a follower attached when the run ends', () => {
  it("does not hold the receiver's shutdown: its held poll is answered and its connection closed", async () => {
    const ending = await openRun(testConfig('http://127.0.0.1:9'), {
      contract: await loadContract(),
      credential: CREDENTIAL,
      webhookSecret: SECRET,
    });
    ending.listEventsOf(SLUG);
    const { io, out, err } = captureIo(dir, env);
    const stop = new AbortController();
    const following = runCommand(
      io,
      ['events', SLUG, '--follow', '--core', ending.receiverUrl ?? '', '--secret-env'],
      stop.signal,
    );
    await until(err, 'Following the events of demo');
    // The follower asks at once after that line; a moment later its poll is held (nothing arrives). The run ends.
    await new Promise((r) => setTimeout(r, 300));
    const closedAt = performance.now();
    await ending.close();
    const took = performance.now() - closedAt;
    await until(err, 'could not reach the receiver');
    stop.abort('SIGINT');

    expect(await following).toBe(0);
    // A held poll on a kept-alive connection would keep the server open until its forced close (2 s).
    expect(took).toBeLessThan(1_000);
    expect(err()).toMatch(
      /could not reach the receiver at http:\/\/127\.0\.0\.1:\d+\/api\/v1: .*; retrying every second/,
    );
    for (const secret of [SECRET, EMPTY_SIGNATURE]) expect(out() + err()).not.toContain(secret);
  });
});

describe('a hostile receiver echoing the signature it was sent', () => {
  /** Answers every GET with `status` and a body repeating the request's x-service-signature. */
  async function echoing(status: number, shape: 'error' | 'list'): Promise<{ url: string; close(): Promise<void> }> {
    const server = createServer((req, res) => {
      const sig = String(req.headers['x-service-signature']);
      const body =
        shape === 'error'
          ? { code: 'UNAUTHORIZED', message: `bad signature ${sig}` }
          : {
              data: [
                {
                  seq: 1,
                  receivedAt: sig,
                  slug: SLUG,
                  eventId: sig,
                  verified: true,
                  duplicate: false,
                  answeredStatus: 200,
                  problem: sig,
                },
              ],
              total: 1,
            };
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it.each([
    [401, 'error', 2, /the receiver refused the webhook secret: 401 bad signature/],
    [404, 'error', 2, /the receiver knows no provider "demo"/],
    [500, 'error', 1, /the receiver answered 500 bad signature/],
    [200, 'list', 0, /./],
    [200, 'json-lines', 0, /./],
  ] as const)('%s %s: exit %s, the signature masked', async (status, shape, code, message) => {
    const hostile = await echoing(status, shape === 'error' ? 'error' : 'list');
    try {
      const json = shape === 'json-lines' ? ['--json'] : [];
      const r = await runMain(dir, ['events', SLUG, '--core', hostile.url, '--secret-env', ...json], { env });
      expect(r.code).toBe(code);
      expect(r.out + r.err).toMatch(message);
      expect(r.out + r.err).not.toContain(EMPTY_SIGNATURE);
      expect(r.out + r.err).not.toContain(SECRET);
    } finally {
      await hostile.close();
    }
  });
});
