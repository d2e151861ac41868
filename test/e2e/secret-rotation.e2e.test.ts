import { describe, expect, it } from 'vitest';
import { event, post, sign } from '../server/support/http-client.js';
import { freePort } from '../support/ports.js';
import { registration } from '../support/registration.js';
import { scratchDir } from '../support/scratch.js';
import { type ServeProcess, spawnServe } from '../support/serve.js';

const ADMIN = 'admin-token-rotation-e2e-31d0';
const SLUG = 'demo-kitchen';

/** A real `provcert serve` process (test/support/serve.ts); resolves once it listens, ends with the test. */
function serve(port: number, dataDir: string, flags: string[]): Promise<ServeProcess> {
  return spawnServe(port, dataDir, { flags, env: { PROVCERT_ADMIN_TOKEN: ADMIN, DEMO_KEY: 'demo-key-e2e' } });
}

async function call(core: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${core}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(res.ok, `${method} ${path} → ${res.status}`).toBe(true);
  return (await res.json()) as Record<string, unknown>;
}

async function webhook(core: string, secret: string, eventId: string): Promise<number> {
  const body = JSON.stringify(event({ providerSlug: SLUG, eventId }));
  const answer = await post(`${core}/api/v1/webhooks/${SLUG}`, body, {
    'content-type': 'application/json',
    'x-service-signature': sign(secret, body),
  });
  return answer.status;
}

describe('provcert serve: webhook secret rotation across SIGKILL', () => {
  it('an acknowledged rotation survives SIGKILL: after the restart the new secret verifies and the old one overlaps, marked previous', async () => {
    const port = await freePort();
    const core = `http://127.0.0.1:${port}`;
    const dataDir = await scratchDir('rotation-e2e');
    const first = await serve(port, dataDir, ['--webhook-secret-overlap', '900']);
    expect(first.output()).toContain('a rotated-out webhook secret verifies for 900 s more');
    const registered = await call(
      core,
      'POST',
      '/providers/register',
      registration({ slug: SLUG, credentialEnv: 'DEMO_KEY' }),
    );
    const old = (registered['webhook'] as { secret: string }).secret;
    const rotation = await call(core, 'POST', `/admin/providers/${SLUG}/rotate-webhook-secret`);
    expect(rotation['overlapSeconds']).toBe(900);
    const fresh = (rotation['webhook'] as { secret: string }).secret;

    await first.stop('SIGKILL');

    const second = await serve(port, dataDir, []);
    expect(await webhook(core, fresh, 'by-new')).toBe(200);
    expect(await webhook(core, old, 'by-old')).toBe(200);
    const listed = (await call(core, 'GET', `/providers/${SLUG}/events`))['data'] as Record<string, unknown>[];
    expect(listed.find((e) => e['eventId'] === 'by-old')).toMatchObject({ verifiedWith: 'previous' });
    expect(listed.find((e) => e['eventId'] === 'by-new')).not.toHaveProperty('verifiedWith');
    const log = (await call(core, 'GET', '/admin/logs/events?kind=secret-rotation'))['data'] as Record<
      string,
      unknown
    >[];
    expect(log).toHaveLength(1);
    expect(`${first.output()}${second.output()}`).not.toContain(fresh);
  }, 60_000);
});
