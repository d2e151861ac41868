import { mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { runFleet } from '../../src/fleet/run-fleet.js';
import type { CheckId } from '../../src/model/check-ids.js';
import type { FleetReport } from '../../src/model/fleet-report.js';
import { type RunningProvider, startReferenceProvider } from '../../src/reference-provider/index.js';
import { ManualClock } from '../../src/util/manual-clock.js';
import { event, post, sign } from '../server/support/http-client.js';
import { testConfig } from '../support/certify.js';
import { freePort } from '../support/ports.js';

const QUIET = 'quiet-kitchen';
const FLOODER = 'flood-kitchen';
/** More accepted events than the receiver kept for a whole fleet before (5,000, trimmed at 110 %). */
const FLOOD = 6_000;
/** payment-pending's action sends the first event; quote-expiry's wait keeps the webhook check after the flood. */
const ONLY: CheckId[] = ['payment-pending', 'quote-expiry', 'webhook'];

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** FLOOD correctly signed events on the flooder's own route, 32 at a time; resolves with how many were accepted. */
async function flood(url: string, secret: string): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  let next = 0;
  let accepted = 0;
  try {
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < FLOOD) {
          next++;
          const body = JSON.stringify(event({ providerSlug: FLOODER, actionId: `flood-${next}` }));
          const status = await post(
            url,
            body,
            { 'content-type': 'application/json', 'x-service-signature': sign(secret, body) },
            agent,
          ).then(
            (a) => a.status,
            () => 0,
          );
          if (status === 200) accepted++;
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return accepted;
}

describe('batch: a flooding fleet member fails only itself', () => {
  it(`${FLOOD} signed events on one member's route evict none of its neighbour's`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'provcert-fleet-flood-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const port = await freePort();
    const secrets = { [QUIET]: 'quiet-webhook-secret-61', [FLOODER]: 'flood-webhook-secret-83' };
    // The time the runs and providers share (the test's own limit is generous: the flood is CPU work, slow on a
    // loaded machine, and nothing else in the test depends on how long it takes): it stands still while the flood is on its way, so the neighbour's
    // quote-expiry wait (and with it its webhook check) cannot end before the flood has landed, however long the
    // flood takes; the rest of the time it moves on whenever everything only waits (no quote validity waited out).
    const clock = new ManualClock();
    const providers = new Map<string, RunningProvider>();
    for (const slug of [QUIET, FLOODER] as const) {
      const provider = await startReferenceProvider({
        slug,
        authMethod: 'API_KEY',
        credential: `${slug}-credential`,
        webhookSecret: secrets[slug],
        webhookUrl: `http://127.0.0.1:${port}/api/v1/webhooks/${slug}`,
        dataFile: join(dir, `${slug}.json`),
        clock,
        // The neighbour's quotes live long enough (its quote-expiry wait) for the whole flood to land first.
        // (The flood takes about 17 s on a quiet machine: the neighbour's quote-expiry waits 45 s on the clock.)
        quoteTtlSeconds: slug === QUIET ? 45 : 5,
      });
      providers.set(slug, provider);
      cleanups.push(() => provider.close());
    }

    let flooding: Promise<number> | undefined;
    let floodDone = false;
    let floodMs = 0;
    let floodBeforeQuietCheck = false;
    const floodOnItsWay = (): boolean => flooding !== undefined && !floodDone;
    const stopClock = clock.advanceWhenIdle(
      () => floodOnItsWay() || [...providers.values()].some((provider) => provider.busy()),
    );
    const report: FleetReport = await runFleet({
      identity: { name: 'flood', digest: '0'.repeat(64), slugs: [FLOODER, QUIET] },
      members: [QUIET, FLOODER].map((slug) => {
        const provider = providers.get(slug) as RunningProvider;
        return {
          slug,
          baseUrl: provider.url,
          run: {
            config: testConfig(provider.url, { webhookPort: port, only: ONLY, maxExpiryWait: 60 }),
            credential: `${slug}-credential`,
            webhookSecret: secrets[slug as keyof typeof secrets],
          },
        };
      }),
      contract: await loadContract(),
      webhookHost: '127.0.0.1',
      webhookPort: port,
      concurrency: 2,
      expectedFailures: [],
      clock,
      hooks: {
        runHooks: (slug) =>
          slug !== QUIET
            ? undefined
            : {
                // Once the neighbour's first event is in, the flooder floods its own route.
                onWebhook: () => {
                  const started = performance.now();
                  flooding ??= flood(`http://127.0.0.1:${port}/api/v1/webhooks/${FLOODER}`, secrets[FLOODER]).finally(
                    () => {
                      floodDone = true;
                      floodMs = Math.round(performance.now() - started);
                    },
                  );
                },
                onCheckStart: (id) => {
                  if (id === 'webhook') floodBeforeQuietCheck = floodDone;
                },
              },
      },
    }).finally(stopClock);
    await Promise.all([...providers.values()].map((p) => p.webhooksSettled()));

    expect(await flooding).toBe(FLOOD);
    // Else the neighbour's check ran before the flood landed, and this test would prove nothing.
    expect(floodBeforeQuietCheck, `the flood took ${floodMs} ms`).toBe(true);
    const quiet = report.providers.find((p) => p.slug === QUIET);
    const flooder = report.providers.find((p) => p.slug === FLOODER);
    const quietWebhook = quiet?.report?.checks.find((c) => c.id === 'webhook');
    // Certified with --only: a passing narrowed run is PARTIAL.
    expect(quiet?.verdict, quietWebhook?.message).toBe('PARTIAL');
    expect(quietWebhook?.status).toBe('pass');
    expect(quiet?.report?.webhooks.events.length).toBeGreaterThan(0);
    // The flood is the flooder's own (signed with its secret): its events name actions it never created.
    expect(flooder?.verdict).toBe('FAIL');
    expect(flooder?.report?.checks.find((c) => c.id === 'webhook')?.status).toBe('fail');
  }, 300_000);
});
