import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineCertifier } from '../../src/cli/commands/serve.js';
import { resolveServeSettings } from '../../src/config/serve.js';
import { loadContract } from '../../src/contract/load.js';
import { certify } from '../../src/lib/certify.js';
import type { RunReport } from '../../src/model/report.js';
import type { ExpectedFailure } from '../../src/model/waivers.js';
import {
  ALL_CAPABILITIES,
  type FaultName,
  REFERENCE_SLUG,
  type RunningProvider,
  startReferenceProvider,
} from '../../src/reference-provider/index.js';
import { startServe } from '../../src/server/serve.js';
import { ManualClock } from '../../src/util/manual-clock.js';
import { readFleetJson, startTestFleet, writeFleetFile } from '../fleet/support.js';
import { captureIo, runCommand } from '../support/cli-io.js';
import { freePort } from '../support/ports.js';
import { registration } from '../support/registration.js';

/**
 * One waiver, one verdict: the same expectedFailures entry against the same broken reference provider gives the
 * same verdict and waiver state through every entry point (run, batch, serve's certify route, the library).
 */

const FAR = '2099-12-31';
const CREDENTIAL = randomBytes(12).toString('hex');
const WEBHOOK_SECRET = randomBytes(12).toString('hex');

interface Judged {
  verdict: string;
  states: string[];
}

/** What a test started, stopped in reverse order when it ends (the tests run at once, each with its own). */
type Cleanups = (() => Promise<unknown>)[];

async function scratch(cleanups: Cleanups): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'provcert-waivers-everywhere-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function provider(
  cleanups: Cleanups,
  faults: FaultName[],
  webhookUrl: string,
  dir: string,
  options: { port?: number; secret?: string; clock?: ManualClock } = {},
) {
  const { port, secret = WEBHOOK_SECRET, clock } = options;
  const running: RunningProvider = await startReferenceProvider({
    ...(port ? { port } : {}),
    ...(clock ? { clock } : {}),
    authMethod: 'API_KEY',
    credential: CREDENTIAL,
    webhookSecret: secret,
    webhookUrl,
    faults,
    dataFile: join(dir, `provider-${randomBytes(3).toString('hex')}.json`),
    quoteTtlSeconds: 5,
  });
  cleanups.push(() => running.close());
  return running;
}

const yamlList = (waivers: readonly ExpectedFailure[]): string =>
  `expectedFailures:\n${waivers.map((w) => `  - ${JSON.stringify(w)}\n`).join('')}`;

const judged = (report: RunReport): Judged => ({
  verdict: report.verdict,
  states: (report.waivers ?? []).map((w) => w.state),
});

type EntryPoint = (faults: FaultName[], waivers: ExpectedFailure[], cleanups: Cleanups) => Promise<Judged>;

const ENTRY_POINTS: Record<string, EntryPoint> = {
  async run(faults, waivers, cleanups) {
    const dir = await scratch(cleanups);
    const port = await freePort();
    // The run and the provider on one manual clock, moved on whenever both only wait (as test/support/cli-clock.ts).
    const clock = new ManualClock();
    const p = await provider(cleanups, faults, `http://127.0.0.1:${port}/api/v1/webhooks/${REFERENCE_SLUG}`, dir, {
      clock,
    });
    const stopClock = clock.advanceWhenIdle(() => p.busy());
    cleanups.push(async () => stopClock());
    const config = [`baseUrl: ${p.url}`, 'auth: API_KEY', 'local: true', `webhookPort: ${port}`, 'json: r.json'];
    await writeFile(join(dir, 'provcert.config.yaml'), `${config.join('\n')}\n${yamlList(waivers)}`);
    const env = { PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: WEBHOOK_SECRET, NO_COLOR: '1' };
    const { io } = captureIo(dir, env);
    await runCommand({ ...io, clock }, ['run']);
    return judged(JSON.parse(await readFile(join(dir, 'r.json'), 'utf8')) as RunReport);
  },

  async batch(faults, waivers, cleanups) {
    const fleet = await startTestFleet([{ slug: 'north', faults }]);
    cleanups.push(() => fleet.close());
    const file = await writeFleetFile(fleet, { tail: yamlList(waivers) });
    const { io } = captureIo(fleet.dir, { ...fleet.env, NO_COLOR: '1' });
    await runCommand(io, ['batch', file, '--out', 'out']);
    const report = (await readFleetJson(fleet.dir, 'out')).providers[0]?.report;
    if (!report) throw new Error('batch wrote no provider report');
    return judged(report);
  },

  async serve(faults, waivers, cleanups) {
    const dir = await scratch(cleanups);
    await writeFile(join(dir, 'serve.yaml'), yamlList(waivers));
    const settings = await resolveServeSettings(
      { port: '0', dataDir: join(dir, 'data'), local: true, config: 'serve.yaml' },
      dir,
    );
    const contract = await loadContract();
    const admin = randomBytes(8).toString('hex');
    const serve = await startServe(settings, {
      contract,
      certify: engineCertifier(contract, settings),
      env: { PROVCERT_ADMIN_TOKEN: admin, DEMO_KEY: CREDENTIAL },
      cwd: dir,
    });
    cleanups.push(() => serve.close());
    const call = async (path: string, body?: unknown): Promise<Record<string, unknown>> => {
      const res = await fetch(`${serve.core.url}/api/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const providerPort = await freePort();
    const registered = await call(
      '/providers/register',
      registration({
        slug: REFERENCE_SLUG,
        baseUrl: `http://127.0.0.1:${providerPort}`,
        capabilities: [...ALL_CAPABILITIES],
        credentialEnv: 'DEMO_KEY',
      }),
    );
    const webhook = registered['webhook'] as { url: string; secret: string };
    await provider(cleanups, faults, webhook.url, dir, { port: providerPort, secret: webhook.secret });
    const certified = await call(`/providers/${REFERENCE_SLUG}/certify`);
    const report = certified['report'] as RunReport;
    expect(certified['verdict']).toBe(report.verdict);
    return judged(report);
  },

  async library(faults, waivers, cleanups) {
    const dir = await scratch(cleanups);
    const port = await freePort();
    const p = await provider(cleanups, faults, `http://127.0.0.1:${port}/api/v1/webhooks/${REFERENCE_SLUG}`, dir);
    const report = await certify({
      baseUrl: p.url,
      auth: 'API_KEY',
      credential: CREDENTIAL,
      webhookSecret: WEBHOOK_SECRET,
      local: true,
      webhookPort: port,
      expectedFailures: waivers,
    });
    return judged(report);
  },
};

const CASES: [string, { faults: FaultName[]; waivers: ExpectedFailure[]; want: Judged }][] = [
  [
    // A wrong total fails quote-math and quote-explore (every generated order carries it): one waiver each.
    'waivers covering every failure',
    {
      faults: ['quote-total-wrong'],
      waivers: [
        { check: 'quote-math', requirement: 'QUOTE-TOTAL-FORMULA', reason: 'rounding fix in 2.4', until: FAR },
        { check: 'quote-explore', requirement: 'QUOTE-TOTAL-FORMULA', reason: 'rounding fix in 2.4', until: FAR },
      ],
      want: { verdict: 'PASS', states: ['applied', 'applied'] },
    },
  ],
  [
    'a waiver on a root cause (metadata, safeTestEnvironment false) is refused',
    {
      faults: ['unsafe-test-environment'],
      waivers: [{ check: 'metadata', reason: 'we will flip the flag later', until: FAR }],
      want: { verdict: 'FAIL', states: ['unmatched'] },
    },
  ],
];

// Each test starts its own servers on its own ports and folders: they run at once.
describe.concurrent('the same waiver gives the same verdict through every entry point', () => {
  for (const [name, { faults, waivers, want }] of CASES) {
    it.each(Object.keys(ENTRY_POINTS))(
      `${name}: %s`,
      async (entry) => {
        const cleanups: Cleanups = [];
        try {
          const got = await (ENTRY_POINTS[entry] as EntryPoint)(faults, waivers, cleanups);
          expect(got).toEqual(want);
        } finally {
          for (const undo of cleanups.reverse()) await undo();
        }
      },
      60_000,
    );
  }
});
