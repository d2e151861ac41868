import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'provcert-waivers-everywhere-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function provider(faults: FaultName[], webhookUrl: string, dir: string, port?: number, secret = WEBHOOK_SECRET) {
  const running: RunningProvider = await startReferenceProvider({
    ...(port ? { port } : {}),
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

type EntryPoint = (faults: FaultName[], waivers: ExpectedFailure[]) => Promise<Judged>;

const ENTRY_POINTS: Record<string, EntryPoint> = {
  async run(faults, waivers) {
    const dir = await scratch();
    const port = await freePort();
    const p = await provider(faults, `http://127.0.0.1:${port}/api/v1/webhooks/${REFERENCE_SLUG}`, dir);
    const config = [`baseUrl: ${p.url}`, 'auth: API_KEY', 'local: true', `webhookPort: ${port}`, 'json: r.json'];
    await writeFile(join(dir, 'provcert.config.yaml'), `${config.join('\n')}\n${yamlList(waivers)}`);
    const env = { PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: WEBHOOK_SECRET, NO_COLOR: '1' };
    const { io } = captureIo(dir, env);
    await runCommand(io, ['run']);
    return judged(JSON.parse(await readFile(join(dir, 'r.json'), 'utf8')) as RunReport);
  },

  async batch(faults, waivers) {
    const fleet = await startTestFleet([{ slug: 'north', faults }]);
    cleanups.push(() => fleet.close());
    const file = await writeFleetFile(fleet, { tail: yamlList(waivers) });
    const { io } = captureIo(fleet.dir, { ...fleet.env, NO_COLOR: '1' });
    await runCommand(io, ['batch', file, '--out', 'out']);
    const report = (await readFleetJson(fleet.dir, 'out')).providers[0]?.report;
    if (!report) throw new Error('batch wrote no provider report');
    return judged(report);
  },

  async serve(faults, waivers) {
    const dir = await scratch();
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
    await provider(faults, webhook.url, dir, providerPort, webhook.secret);
    const certified = await call(`/providers/${REFERENCE_SLUG}/certify`);
    const report = certified['report'] as RunReport;
    expect(certified['verdict']).toBe(report.verdict);
    return judged(report);
  },

  async library(faults, waivers) {
    const dir = await scratch();
    const port = await freePort();
    const p = await provider(faults, `http://127.0.0.1:${port}/api/v1/webhooks/${REFERENCE_SLUG}`, dir);
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

describe('the same waiver gives the same verdict through every entry point', () => {
  for (const [name, { faults, waivers, want }] of CASES) {
    it.each(Object.keys(ENTRY_POINTS))(
      `${name}: %s`,
      async (entry) => {
        const got = await (ENTRY_POINTS[entry] as EntryPoint)(faults, waivers);
        expect(got).toEqual(want);
      },
      60_000,
    );
  }
});
