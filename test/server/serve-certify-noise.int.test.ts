import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engineCertifier } from '../../src/cli/commands/serve.js';
import { resolveServeSettings } from '../../src/config/serve.js';
import { loadContract } from '../../src/contract/load.js';
import type { RunReport } from '../../src/model/report.js';
import {
  ALL_CAPABILITIES,
  REFERENCE_SLUG,
  type RunningProvider,
  startReferenceProvider,
} from '../../src/reference-provider/index.js';
import { type RunningServe, startServe } from '../../src/server/serve.js';
import { freePort } from '../support/ports.js';
import { registration } from '../support/registration.js';
import { apiClient, event, post, sign } from './support/http-client.js';

const ADMIN = 'admin-token-noise-e2e-27';
const PROVIDER_KEY = 'provider-key-noise-e2e-81';
const OTHER = 'other-kitchen';
const json = { 'content-type': 'application/json' };

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/**
 * serve's certify reads the same core every provider and stranger posts to: strangers' unsigned posts on the
 * provider's route, and another registered provider's signed events (its own route and the legacy one), must not
 * decide the certification.
 */
describe("provcert serve: certify does not count strangers' or other providers' webhooks", () => {
  it('certifies PASS through unsigned junk and a neighbour’s signed events, counting only the junk apart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'provcert-serve-noise-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const settings = await resolveServeSettings({ port: '0', dataDir, local: true }, dataDir);
    const contract = await loadContract();
    const serve: RunningServe = await startServe(settings, {
      contract,
      certify: engineCertifier(contract, settings),
      env: { PROVCERT_ADMIN_TOKEN: ADMIN, DEMO_KEY: PROVIDER_KEY, OTHER_KEY: 'unused' },
      cwd: dataDir,
      log: () => undefined,
    });
    cleanups.push(() => serve.close());
    const call = apiClient(`${serve.core.url}/api/v1`, ADMIN);
    const register = async (slug: string, baseUrl: string, credentialEnv: string) => {
      const answer = await call(
        'POST',
        '/providers/register',
        registration({ name: slug, slug, baseUrl, capabilities: [...ALL_CAPABILITIES], credentialEnv }),
      );
      expect(answer.status).toBe(201);
      return answer.json['webhook'] as { url: string; secret: string };
    };
    const providerPort = await freePort();
    const webhook = await register(REFERENCE_SLUG, `http://127.0.0.1:${providerPort}`, 'DEMO_KEY');
    const other = await register(OTHER, 'http://127.0.0.1:9', 'OTHER_KEY');
    const provider: RunningProvider = await startReferenceProvider({
      port: providerPort,
      authMethod: 'API_KEY',
      credential: PROVIDER_KEY,
      webhookSecret: webhook.secret,
      webhookUrl: webhook.url,
      dataFile: join(dataDir, 'provider.json'),
    });
    cleanups.push(() => provider.close());

    // Once the provider's first own event is in, a stranger and the neighbour post theirs.
    const legacy = `${serve.core.url}/api/v1/webhooks`;
    let noise: Promise<number[]> | undefined;
    const unsubscribe = serve.core.subscribe((w) => {
      if (noise !== undefined || w.attributedTo !== REFERENCE_SLUG) return;
      const signedByOther = (target: string) => {
        const body = JSON.stringify(event({ providerSlug: OTHER, actionId: 'other-action' }));
        return post(target, body, { ...json, 'x-service-signature': sign(other.secret, body) }).then((a) => a.status);
      };
      const unsigned = () =>
        post(webhook.url, JSON.stringify(event({ providerSlug: REFERENCE_SLUG })), json).then((a) => a.status);
      noise = Promise.all([
        ...Array.from({ length: 5 }, unsigned),
        ...Array.from({ length: 3 }, () => signedByOther(legacy)),
        ...Array.from({ length: 3 }, () => signedByOther(other.url)),
      ]);
    });
    cleanups.push(async () => unsubscribe());

    const certified = await call('POST', `/providers/${REFERENCE_SLUG}/certify`);
    expect(certified.status).toBe(200);
    expect(await noise).toEqual([401, 401, 401, 401, 401, 200, 200, 200, 200, 200, 200]);
    const report = certified.json['report'] as RunReport;
    const failing = report.checks.filter((c) => c.status === 'fail' || c.status === 'error');
    expect(failing.map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(certified.json['verdict']).toBe('PASS');
    expect(report.webhooks.ignored).toEqual({ count: 5, byStatus: { '401': 5 } });
    expect(report.webhooks.events.some((e) => e.actionId === 'other-action')).toBe(false);
    expect(JSON.stringify(report.checks)).not.toContain('other-action');
    await provider.webhooksSettled();
  }, 90_000);
});
