import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveServeSettings } from '../../../src/config/serve.js';
import { loadContract } from '../../../src/contract/load.js';
import { type RunningServe, startServe } from '../../../src/server/serve.js';
import { deliverEvent, untilShown as until } from '../../server/support/http-client.js';
import { captureIo, runCommand, runMain } from '../../support/cli-io.js';
import { scratchDir } from '../../support/scratch.js';

// A real core (provcert serve) on loopback, real signed webhook requests, the command in-process.
const ADMIN = 'admin-token-events-cli-5577';
const SECRET = 'server-webhook-secret-events-cli-8811';
const SLUG = 'demo';
const env = { PROVCERT_ADMIN_TOKEN: ADMIN, SERVICE_WEBHOOK_SECRET: SECRET };

let dir: string;
let serve: RunningServe;

beforeAll(async () => {
  dir = await scratchDir('events-cli');
  const settings = await resolveServeSettings({ port: '0', dataDir: dir, local: true, slug: SLUG }, dir);
  serve = await startServe(settings, {
    contract: await loadContract(),
    certify: () => Promise.reject(new Error('not used')),
    env,
    cwd: dir,
    log: () => undefined,
  });
});
afterAll(async () => {
  await serve.close();
  await rm(dir, { recursive: true, force: true });
});

/** Posts one event to the core, signed with `secret`; resolves with its eventId. */
const deliver = (secret: string, overrides: Record<string, unknown> = {}): Promise<string> =>
  deliverEvent(serve.core.urlFor(SLUG), SLUG, secret, overrides);

describe('provcert events --follow', () => {
  it('shows a signed event within a second of its arrival, and a badly signed one with its reason', async () => {
    const before = await deliver(SECRET, { actionId: 'act-before' });
    const { io, out, err } = captureIo(dir, env);
    const stop = new AbortController();
    const following = runCommand(io, ['events', SLUG, '--follow', '--core', serve.core.url], stop.signal);
    await until(err, 'Following the events of demo');

    const sentAt = performance.now();
    const id = await deliver(SECRET, { actionId: 'act-live', newStatus: 'CANCELLED' });
    await until(out, id);
    const shownAfter = performance.now() - sentAt;
    const forged = await deliver('not-the-secret', { actionId: 'act-forged' });
    await until(out, forged);
    stop.abort('SIGINT');

    expect(await following).toBe(0);
    expect(shownAfter).toBeLessThan(1_000);
    const lines = out().trim().split('\n');
    // The backlog is skipped: --follow shows what arrives from now on.
    expect(out()).not.toContain(before);
    expect(lines[0]).toMatch(new RegExp(`#\\d+  action\\.status_updated ${id}  act-live → CANCELLED  ✓ verified  200`));
    expect(lines[1]).toMatch(/act-forged.*✗ not verified {2}401 {2}\S/);
    expect(out() + err()).not.toContain(ADMIN);
    expect(out() + err()).not.toContain(SECRET);
  });

  it('filters by status and prints JSON lines with --json', async () => {
    const good = await deliver(SECRET, { actionId: 'act-json' });
    const bad = await deliver('wrong-secret-json', { actionId: 'act-json-bad' });
    const r = await runMain(dir, ['events', SLUG, '--core', serve.core.url, '--json', '--status', 'rejected'], { env });
    expect(r.code).toBe(0);
    const shown = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { eventId?: string; verified: boolean; answeredStatus: number });
    expect(shown.some((e) => e.eventId === bad && !e.verified && e.answeredStatus === 401)).toBe(true);
    expect(shown.some((e) => e.eventId === good)).toBe(false);
    const verified = await runMain(dir, ['events', SLUG, '--core', serve.core.url, '--verified'], { env });
    expect(verified.out).toContain(good);
    expect(verified.out).not.toContain(bad);
  });

  it.each([
    [['events', SLUG, '--core', 'http://127.0.0.1:1'], {}, /PROVCERT_ADMIN_TOKEN is not set/],
    [['events', 'nobody'], 'core', /knows no provider "nobody"/],
    [['events', SLUG, '--status', 'maybe'], 'core', /--status "maybe" is not one of/],
    [['events', SLUG, '--verified', '--unverified'], 'core', /exclude each other/],
  ] as const)('%j: exit 2 in one line', async (args, withEnv, message) => {
    const core = withEnv === 'core' ? ['--core', serve.core.url] : [];
    const r = await runMain(dir, [...args, ...core], { env: withEnv === 'core' ? env : {} });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err).not.toContain(ADMIN);
  });

  it('a wrong operator token: exit 2, the token not printed', async () => {
    const wrong = 'wrong-operator-token-4242';
    const r = await runMain(dir, ['events', SLUG, '--core', serve.core.url], {
      env: { PROVCERT_ADMIN_TOKEN: wrong },
    });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/refused the operator token/);
    expect(r.out + r.err).not.toContain(wrong);
  });
});

describe('provcert events resend', () => {
  it('posts the stored bytes again, signed afresh; the core takes it as a duplicate of the same event', async () => {
    const id = await deliver(SECRET, { actionId: 'act-resend' });
    const r = await runMain(
      dir,
      ['events', 'resend', id, '--slug', SLUG, '--to', serve.core.url, '--core', serve.core.url],
      { env },
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`"eventId":"${id}"`);
    expect(r.out).toMatch(/→ 200/);
    expect(r.out + r.err).not.toContain(SECRET);
    const listed = await runMain(dir, ['events', SLUG, '--core', serve.core.url, '--status', 'duplicate'], { env });
    expect(listed.out).toContain(id);
  });

  it('an event the core does not hold: exit 2 naming it', async () => {
    const r = await runMain(
      dir,
      ['events', 'resend', 'evt-missing', '--slug', SLUG, '--to', serve.core.url, '--core', serve.core.url],
      { env },
    );
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no accepted event "evt-missing"/);
  });
});
