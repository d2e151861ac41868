import { mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it, type TestContext } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import type { CheckId } from '../../src/model/check-ids.js';
import type { RunReport } from '../../src/model/report.js';
import {
  type FaultName,
  REFERENCE_SLUG,
  type RunningProvider,
  startReferenceProvider,
} from '../../src/reference-provider/index.js';
import { runCertification } from '../../src/runner/run.js';
import { event, post, sign } from '../server/support/http-client.js';
import { testConfig } from '../support/certify.js';
import { freePort } from '../support/ports.js';

const CREDENTIAL = 'hostile-sender-credential-4c1e';
const SECRET = 'hostile-sender-webhook-secret-9d07';
const STRANGER_SECRET = 'a-strangers-own-secret-0b52';
/** The payment-pending action's event arrives first; quote-expiry's wait (5 s) keeps the webhook check after the junk. */
const ONLY: CheckId[] = ['payment-pending', 'quote-expiry', 'webhook'];

interface Target {
  /** The provider's own route, /api/v1/webhooks/demo-kitchen. */
  route: string;
  /** The legacy slugless route. */
  legacy: string;
}

interface HostileCase {
  name: string;
  /** The requests a stranger sends once the provider's first own event has arrived; returns the statuses answered. */
  send(t: Target, agent: Agent): Promise<number[]>;
  /** What the stranger is answered, each time. */
  answered: number;
  /** How the report counts them apart: { status: count }; undefined = not counted for this provider at all. */
  ignored: Record<string, number> | undefined;
  faults?: FaultName[];
  verdict: 'PASS' | 'FAIL';
  /** The webhook check's message when the provider's own events are at fault. */
  webhookMessage?: RegExp;
  /** When the junk is sent: once the provider's first own event is in (default), or as quote-expiry starts. */
  trigger?: 'first-event' | 'quote-expiry';
}

const json = { 'content-type': 'application/json' };
const times = <T>(n: number, make: () => Promise<T>): Promise<T[]> => Promise.all(Array.from({ length: n }, make));
const statusOf = (a: { status: number }): number => a.status;
/** A plausible event: the right slug, a status, an action id a stranger might guess. */
const lure = (): string => JSON.stringify(event({ providerSlug: REFERENCE_SLUG, actionId: 'act-guessed-1' }));
const MIB = 1024 * 1024;
const DEEP = 5_000;

const cases: HostileCase[] = [
  {
    name: 'five unsigned posts on the provider route',
    send: (t, agent) => times(5, () => post(t.route, lure(), json, agent).then(statusOf)),
    answered: 401,
    ignored: { '401': 5 },
    verdict: 'PASS',
  },
  {
    name: "five posts signed with a stranger's secret",
    send: (t, agent) =>
      times(5, () => {
        const body = lure();
        return post(t.route, body, { ...json, 'x-service-signature': sign(STRANGER_SECRET, body) }, agent).then(
          statusOf,
        );
      }),
    answered: 401,
    ignored: { '401': 5 },
    verdict: 'PASS',
  },
  {
    name: 'a flood of twenty 1 MiB bodies (413)',
    send: (t, agent) => times(20, () => post(t.route, Buffer.alloc(MIB, 0x7b), json, agent).then(statusOf)),
    answered: 413,
    ignored: { '413': 20 },
    verdict: 'PASS',
  },
  {
    name: 'unsigned posts with the wrong Content-Type (the signature is checked first: 401)',
    send: (t, agent) => times(3, () => post(t.route, lure(), { 'content-type': 'text/plain' }, agent).then(statusOf)),
    answered: 401,
    ignored: { '401': 3 },
    verdict: 'PASS',
  },
  {
    name: `an unsigned body nested ${DEEP} deep (the signature diagnosis must not 500)`,
    send: async (t, agent) => [
      await post(t.route, `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`, json, agent).then(statusOf),
      await post(t.route, `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`, json, agent).then(statusOf),
    ],
    answered: 401,
    ignored: { '401': 2 },
    verdict: 'PASS',
  },
  {
    name: 'unsigned posts on the legacy route naming the provider',
    send: (t, agent) => times(4, () => post(t.legacy, lure(), json, agent).then(statusOf)),
    answered: 401,
    ignored: { '401': 4 },
    verdict: 'PASS',
  },
  {
    name: "another provider's signed events on the legacy route",
    send: (t, agent) =>
      times(3, () => {
        const body = JSON.stringify(event({ providerSlug: 'other-kitchen' }));
        return post(t.legacy, body, { ...json, 'x-service-signature': sign(STRANGER_SECRET, body) }, agent).then(
          statusOf,
        );
      }),
    answered: 401,
    // Not on this provider's route, not naming it: nothing of this provider's, not even noise.
    ignored: undefined,
    verdict: 'PASS',
  },
  {
    name: 'the same junk beside a provider whose own events are signed with the wrong secret',
    send: (t, agent) => times(5, () => post(t.route, lure(), json, agent).then(statusOf)),
    answered: 401,
    ignored: { '401': 5 },
    faults: ['webhook-wrong-secret'],
    verdict: 'FAIL',
    // Its own events name its test actions: they are its failure, the strangers' are not.
    webhookMessage: /rejected by the receiver \(HTTP 401: .*different secret/,
  },
  {
    name: 'the same junk beside a provider that sends no event at all',
    send: (t, agent) => times(5, () => post(t.route, lure(), json, agent).then(statusOf)),
    answered: 401,
    ignored: { '401': 5 },
    faults: ['webhook-not-sent'],
    trigger: 'quote-expiry',
    verdict: 'FAIL',
    // Its failure is the missing event; the junk is only mentioned, in case it was the provider's.
    webhookMessage:
      /^no webhook event arrived at .* \(5 unverifiable request\(s\) to its route were ignored, answered HTTP 401: if they were the provider's, check the webhook secret/,
  },
];

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

interface Outcome {
  report: RunReport;
  answers: number[];
  /** Every junk request had its answer before the webhook check began (so the check saw them all). */
  junkBeforeCheck: boolean;
}

/** A real `run`: the reference provider, the run's own embedded receiver on loopback, a stranger posting junk. */
async function runWithJunk(c: HostileCase): Promise<Outcome> {
  const dir = await mkdtemp(join(tmpdir(), 'provcert-hostile-sender-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const port = await freePort();
  const receiver = `http://127.0.0.1:${port}/api/v1/webhooks`;
  const provider: RunningProvider = await startReferenceProvider({
    authMethod: 'API_KEY',
    credential: CREDENTIAL,
    webhookSecret: SECRET,
    webhookUrl: `${receiver}/${REFERENCE_SLUG}`,
    faults: c.faults ?? [],
    dataFile: join(dir, 'provider.json'),
    quoteTtlSeconds: 5,
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  let junk: Promise<number[]> | undefined;
  let junkDone = false;
  let junkBeforeCheck = false;
  const sendJunk = (): void => {
    junk ??= c.send({ route: `${receiver}/${REFERENCE_SLUG}`, legacy: receiver }, agent).finally(() => {
      junkDone = true;
    });
  };
  try {
    const report = await runCertification(testConfig(provider.url, { webhookPort: port, only: ONLY }), {
      contract: await loadContract(),
      credential: CREDENTIAL,
      webhookSecret: SECRET,
      hooks: {
        onWebhook: (entry) => {
          // The provider's first own event: the run is counting deliveries from here on.
          if ((c.trigger ?? 'first-event') === 'first-event' && entry.actionId !== 'act-guessed-1') sendJunk();
        },
        onCheckStart: (id) => {
          if (id === 'quote-expiry' && c.trigger === 'quote-expiry') sendJunk();
          if (id === 'webhook') junkBeforeCheck = junkDone;
        },
      },
    });
    return { report, answers: junk ? await junk : [], junkBeforeCheck };
  } finally {
    agent.destroy();
    await provider.webhooksSettled();
    await provider.close();
  }
}

describe('hostile senders never decide a verdict (a real run on loopback)', () => {
  // Each row is a whole run that mostly waits (quote expiry): they run side by side.
  it.concurrent.for(cases)(
    '$name → answered $answered, webhook check $verdict',
    { timeout: 60_000 },
    async (c: HostileCase, { expect }: TestContext) => {
      const { report, answers, junkBeforeCheck } = await runWithJunk(c);
      expect(answers.length).toBeGreaterThan(0);
      expect(answers.every((s) => s === c.answered)).toBe(true);
      expect(junkBeforeCheck).toBe(true);

      const webhook = report.checks.find((r) => r.id === 'webhook');
      // The run checks only ONLY (--only): a passing narrowed run is PARTIAL, never PASS.
      const verdict = c.verdict === 'PASS' ? 'PARTIAL' : 'FAIL';
      expect(report.verdict, `${webhook?.message}\n${webhook?.details?.join('\n')}`).toBe(verdict);
      expect(webhook?.status).toBe(c.verdict === 'PASS' ? 'pass' : 'fail');
      if (c.webhookMessage) expect(webhook?.message).toMatch(c.webhookMessage);
      // The strangers' requests are counted apart, and never in the provider's own timeline.
      expect(report.webhooks.ignored?.byStatus).toEqual(c.ignored);
      expect(report.webhooks.events.some((e) => e.actionId === 'act-guessed-1')).toBe(false);
      expect(webhook?.webhookTimeline?.some((e) => e.actionId === 'act-guessed-1')).toBe(false);
      expect(JSON.stringify(webhook)).not.toContain('act-guessed-1');
    },
  );
});
