import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCertifier } from '../../../src/cli/commands/serve.js';
import { resolveServeSettings } from '../../../src/config/serve.js';
import { loadContract } from '../../../src/contract/load.js';
import { type RunningServe, startServe } from '../../../src/server/serve.js';
import { type HostileProvider, secretEncodings, startHostileProvider } from '../../support/hostile-provider.js';
import { registration } from '../../support/registration.js';
import { post, sign } from '../support/http-client.js';

const ADMIN = 'adm1n-t0k3n-h0st1le-6a0c2e';
const CREDENTIAL = 'cr3d3nt1al-h0st1le-19bd44';
const SERVER_SECRET = 's3rv3r-s3cr3t-h0st-8e71';

let dataDir: string;
let serve: RunningServe;
let hostile: HostileProvider;
let secrets: string[];
const api = async (path: string, token: string | null = ADMIN): Promise<string> => {
  const res = await fetch(`${serve.core.url}/api/v1${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return `${res.status} ${await res.text()}`;
};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'provcert-desk-hostile-'));
  const contract = await loadContract();
  const settings = await resolveServeSettings({ port: '0', dataDir, local: true }, dataDir);
  serve = await startServe(settings, {
    contract,
    certify: engineCertifier(contract, settings),
    env: { PROVCERT_ADMIN_TOKEN: ADMIN, HOSTILE_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: SERVER_SECRET },
    cwd: dataDir,
  });
}, 30_000);
afterAll(async () => {
  await serve.close();
  await hostile?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the review desk against a hostile-echo provider', () => {
  it('shows no secret, token or internal note in any encoding in any answer, log or export', async () => {
    // Registered at a placeholder first: the provider must learn the webhook secret before it can echo it.
    const body = registration({
      name: 'Echo',
      slug: 'echo',
      baseUrl: 'http://127.0.0.1:9',
      capabilities: ['METADATA', 'HEALTH', 'CATALOG', 'LOCATIONS', 'SEARCH'],
      credentialEnv: 'HOSTILE_KEY',
    });
    const register = async (extra: Record<string, unknown>) =>
      (
        await fetch(`${serve.core.url}/api/v1/providers/register`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...body, ...extra }),
        })
      ).json() as Promise<{ webhook: { secret: string }; providerToken?: { token: string } }>;
    const first = await register({});
    const webhookSecret = first.webhook.secret;
    const token = first.providerToken?.token ?? '';
    const note = 'internal-note-hostile-5c3d';
    // The provider token is a JWT: its header and claims are readable by design; its signature is what makes it a
    // credential, and what the server masks (without it the token is refused).
    const tokenSignature = token.split('.')[2] ?? '';
    expect(tokenSignature.length).toBeGreaterThan(40);
    secrets = [CREDENTIAL, webhookSecret, ADMIN, tokenSignature, SERVER_SECRET];
    hostile = await startHostileProvider(secrets);
    await register({ baseUrl: hostile.url });

    const certify = await fetch(`${serve.core.url}/api/v1/providers/echo/certify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(certify.status).toBe(200);
    // Signed events that carry every secret in every encoding, and an unsigned one.
    const forms = secrets.flatMap((s) => Object.values(secretEncodings(s)));
    for (const [i, form] of forms.entries()) {
      const event = JSON.stringify({
        eventId: `evt-${i}-${form}`,
        eventType: 'action.status_updated',
        providerSlug: 'echo',
        timestamp: new Date().toISOString(),
        actionId: form,
        newStatus: 'CANCELLED',
        reasonCode: 'OTHER',
        reason: `echo ${form}`,
      });
      await post(`${serve.core.url}/api/v1/webhooks/echo`, event, {
        'content-type': 'application/json',
        'x-service-signature': sign(webhookSecret, event),
      });
    }
    await post(`${serve.core.url}/api/v1/webhooks/echo`, JSON.stringify({ eventId: forms.join(' ') }), {
      'content-type': 'application/json',
      'x-service-signature': 'a'.repeat(64),
    });
    // A decision whose reason quotes a secret, and an internal note.
    await fetch(`${serve.core.url}/api/v1/admin/providers/echo/reopen`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ internalNote: note }),
    });

    const answers = [
      await api('/admin/logs/events?limit=1000'),
      await api('/admin/logs/export'),
      await api('/admin/logs/export?format=csv'),
      await api('/admin/providers'),
      await api('/admin/providers/echo'),
      await api('/providers/find', null),
      await api('/providers/me/dashboard', token),
      await api(`/providers/me/actions/${encodeURIComponent(secrets[0] ?? '')}`, token),
    ];
    expect(
      answers.every((a) => /^(200|404) /.test(a)),
      answers.map((a) => a.slice(0, 120)).join('\n'),
    ).toBe(true);
    expect(answers[0]).toContain('"kind":"webhook"');
    for (const [name, answer] of answers.entries()) {
      for (const secret of secrets)
        for (const [encoding, form] of Object.entries(secretEncodings(secret)))
          expect(
            answer.includes(form),
            `answer ${name} holds ${encoding} of secret ${secrets.indexOf(secret)}: …${answer.slice(Math.max(0, answer.indexOf(form) - 80), answer.indexOf(form) + 80)}…`,
          ).toBe(false);
      if (name !== 4) expect(answer).not.toContain(note);
    }
  }, 60_000);
});
