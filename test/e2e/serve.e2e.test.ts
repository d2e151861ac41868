import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ALL_CAPABILITIES,
  REFERENCE_SLUG,
  type RunningProvider,
  startReferenceProvider,
} from '../../src/reference-provider/index.js';
import { apiClient } from '../server/support/http-client.js';
import { freePorts } from '../support/ports.js';
import { registration } from '../support/registration.js';
import { scratchDir } from '../support/scratch.js';
import { spawnServe } from '../support/serve.js';

const ADMIN = 'admin-token-e2e-91ac';
const PROVIDER_KEY = 'provider-key-e2e-55d0';

let provider: RunningProvider | undefined;
afterAll(async () => {
  await provider?.close();
});

/** The operator flow of the README, against a real `provcert serve` process and the real engine. */
describe('provcert serve: register, certify, events, submit for review', () => {
  it('certifies a registered provider whose webhooks arrive at the same core', async () => {
    const [corePort = 0, providerPort = 0] = await freePorts(2);
    const core = `http://127.0.0.1:${corePort}/api/v1`;
    // Required: no request before it listens (test/support/serve.ts waits for its line; the serve ends with the test).
    const serve = await spawnServe(corePort, await scratchDir('serve-e2e'), {
      env: { PROVCERT_ADMIN_TOKEN: ADMIN, DEMO_KEY: PROVIDER_KEY },
    });
    expect(serve.output()).toContain(`http://127.0.0.1:${corePort}`);

    const call = apiClient(core, ADMIN);

    expect((await fetch(`${core}/providers/${REFERENCE_SLUG}/certifications`)).status).toBe(401);
    const registered = await call(
      'POST',
      '/providers/register',
      registration({
        slug: REFERENCE_SLUG,
        baseUrl: `http://127.0.0.1:${providerPort}`,
        capabilities: [...ALL_CAPABILITIES],
        credentialEnv: 'DEMO_KEY',
      }),
    );
    expect(registered.status).toBe(201);
    const webhook = registered.json['webhook'] as { url: string; secret: string };
    expect(webhook.url).toBe(`${core}/webhooks/${REFERENCE_SLUG}`);

    // The provider developer configures the handed-off webhook address and secret, then starts the backend.
    provider = await startReferenceProvider({
      port: providerPort,
      authMethod: 'API_KEY',
      credential: PROVIDER_KEY,
      webhookSecret: webhook.secret,
      webhookUrl: webhook.url,
      dataFile: join(await scratchDir('serve-e2e-provider'), 'data.json'),
    });

    const certified = await call('POST', `/providers/${REFERENCE_SLUG}/certify`);
    expect(certified.status).toBe(200);
    const report = certified.json['report'] as {
      verdict: string;
      checks: { id: string; status: string; message: string }[];
    };
    expect(report.checks.filter((c) => c.status === 'fail' || c.status === 'error')).toEqual([]);
    expect(certified.json['verdict']).toBe('PASS');

    const list = await call('GET', `/providers/${REFERENCE_SLUG}/certifications`);
    expect((list.json['data'] as { id: string }[])[0]?.id).toBe(certified.json['id']);

    const events = await call('GET', `/providers/${REFERENCE_SLUG}/events`);
    const received = events.json['data'] as { verified: boolean; newStatus?: string }[];
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((e) => e.verified)).toBe(true);
    expect(received.map((e) => e.newStatus)).toContain('CANCELLED');

    const review = await call('POST', `/providers/${REFERENCE_SLUG}/submit-review`);
    expect(review).toMatchObject({ status: 200, json: { reviewStatus: 'PENDING_APPROVAL' } });

    // Secrets: the credential never, the webhook secret only in the one registration answer.
    expect(serve.output()).not.toContain(PROVIDER_KEY);
    expect(serve.output()).not.toContain(webhook.secret);
    expect(JSON.stringify([certified, list, events, review])).not.toContain(webhook.secret);
  }, 60_000);
});
