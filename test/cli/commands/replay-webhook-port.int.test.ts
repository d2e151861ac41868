import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/model/report.js';
import { REFERENCE_SLUG, type RunningProvider } from '../../../src/reference-provider/index.js';
import { ManualClock } from '../../../src/util/manual-clock.js';
import { type CliResult, REPO_ROOT } from '../../support/cli.js';
import { runMainOnClock } from '../../support/cli-clock.js';
import { startReferenceForRun } from '../../support/reference-run.js';
import { scratchDir } from '../../support/scratch.js';

const CREDENTIAL = 'replay-port-key-5d1e';
const WEBHOOK_SECRET = 'replay-port-secret-90af';
const env = { PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: WEBHOOK_SECRET };

/*
 * In-process, the replays and every provider here on one manual clock (test/support/cli-clock.ts): a replay whose
 * provider delivers elsewhere gives up at once instead of after 5 real seconds.
 */
const clock = new ManualClock();
const reference = (webhookSecret: string) => startReferenceForRun({ credential: CREDENTIAL, webhookSecret, clock });
const runCli = async (args: string[], options: { env: NodeJS.ProcessEnv }): Promise<CliResult> => {
  const r = await runMainOnClock(args, { cwd: REPO_ROOT, clock, ...options });
  return { code: r.code, stdout: r.out, stderr: r.err };
};

const receiverUrl = (port: number): string => `http://127.0.0.1:${port}/api/v1/webhooks/${REFERENCE_SLUG}`;
const mine = (provider: RunningProvider): string[] => ['--base-url', provider.url, '--auth', 'API_KEY', '--local'];

/** Something else holding a port on loopback, as another replay's receiver would. */
function occupy(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

// The report's run received its webhooks on `recordedPort`; for the whole file something else holds that port, so
// every replay here either moves its receiver with --webhook-port or is refused.
describe.concurrent('provcert replay --webhook-port: the receiver where the person says, not where the report says', () => {
  const providers: RunningProvider[] = [];
  let recordedPort = 0;
  let blocker: Server | undefined;
  let reportPath = '';

  let stopClock: () => void = () => undefined;

  beforeAll(async () => {
    stopClock = clock.advanceWhenIdle(() => providers.some((p) => p.busy()));
    // The webhook check fails: the provider signs its events with another secret.
    const broken = await reference('not-the-receivers-secret');
    providers.push(broken.provider);
    recordedPort = broken.webhookPort;
    reportPath = join(await scratchDir('replay-port'), 'report.json');
    const run = await runCli(
      [
        'run',
        ...mine(broken.provider),
        '--webhook-port',
        String(recordedPort),
        '--only',
        'webhook',
        // Recorded, so each replay waits as long: the one whose provider delivers elsewhere gives up soon.
        '--webhook-timeout',
        '5000',
        '--json',
        reportPath,
      ],
      { env },
    );
    const report = JSON.parse(await readFile(reportPath, 'utf8')) as RunReport;
    expect(report.checks.find((c) => c.id === 'webhook')?.status, run.stdout).toBe('fail');
    expect(report.webhooks.url).toBe(receiverUrl(recordedPort));
    blocker = await occupy(recordedPort);
  });
  afterAll(async () => {
    await new Promise((resolve) => (blocker ? blocker.close(resolve) : resolve(undefined)));
    await Promise.all(providers.map((p) => p.close()));
    stopClock();
  });

  it('the recorded port taken and no --webhook-port: one clear error naming the port and the flag, exit 2', async () => {
    const provider = (await reference(WEBHOOK_SECRET)).provider;
    providers.push(provider);
    const replay = await runCli(['replay', reportPath, ...mine(provider)], { env });
    expect(replay.stderr).toBe(
      `provcert: port ${recordedPort}, where the report's run received its webhooks, is in use; pass --webhook-port with a free port (0 picks one)\n` +
        "  the provider must then deliver its webhooks to the replay's address, which replay prints\n",
    );
    expect(replay.stdout).not.toMatch(/^webhook:/m);
    expect(replay.code).toBe(2);
  });

  it('a --webhook-port that is taken too: the same clear error, naming that port', async () => {
    const provider = (await reference(WEBHOOK_SECRET)).provider;
    providers.push(provider);
    const replay = await runCli(['replay', reportPath, ...mine(provider), '--webhook-port', String(recordedPort)], {
      env,
    });
    expect(replay.stderr).toBe(
      `provcert: port ${recordedPort} is in use; pass --webhook-port with a free port (0 picks one)\n`,
    );
    expect(replay.code).toBe(2);
  });

  it('two replays of one report at once, each with its own --webhook-port: both receive their events', async () => {
    // Each fixed provider delivers only to its own port: "fixed" needs its events to reach that replay's receiver.
    const [first, second] = await Promise.all([reference(WEBHOOK_SECRET), reference(WEBHOOK_SECRET)]);
    providers.push(first.provider, second.provider);
    const replays = await Promise.all(
      [first, second].map(({ provider, webhookPort }) =>
        runCli(['replay', reportPath, ...mine(provider), '--webhook-port', String(webhookPort)], { env }),
      ),
    );
    for (const [i, { webhookPort }] of [first, second].entries()) {
      const replay = replays[i];
      expect(replay?.stderr).toBe('');
      expect(replay?.stdout).toContain(
        `the provider must deliver its webhooks to ${receiverUrl(webhookPort)}, this replay's receiver ` +
          `(a provider configured for the report's run's ${receiverUrl(recordedPort)} delivers them there, not here)\n`,
      );
      expect(replay?.stdout).toMatch(/^webhook: fixed — passes now \(was fail: /m);
      expect(replay?.code).toBe(0);
    }
  });

  it('--webhook-host and --webhook-port 0 are read as run reads them; the address printed is the one listened on', async () => {
    const provider = (await reference(WEBHOOK_SECRET)).provider;
    providers.push(provider);
    const replay = await runCli(
      // The provider delivers elsewhere, so the check fails: only the receiver's address is looked at here.
      ['replay', reportPath, ...mine(provider), '--webhook-port', '0', '--webhook-host', 'localhost'],
      { env },
    );
    const said = /^the provider must deliver its webhooks to http:\/\/localhost:(\d+)\/api\/v1\/webhooks\/\S+, /m.exec(
      replay.stdout,
    );
    expect(said?.[1], replay.stdout + replay.stderr).toBeDefined();
    expect(Number(said?.[1])).not.toBe(recordedPort);
    expect(Number(said?.[1])).toBeGreaterThan(0);
  });

  it('a report naming a receiver host beyond loopback (0.0.0.0): replay listens on 127.0.0.1 and says so', async () => {
    const report = JSON.parse(await readFile(reportPath, 'utf8')) as RunReport;
    const edited = join(await scratchDir('replay-host'), 'report.json');
    await writeFile(edited, JSON.stringify({ ...report, inputs: { ...report.inputs, webhookHost: '0.0.0.0' } }));
    const provider = (await reference(WEBHOOK_SECRET)).provider;
    providers.push(provider);
    const replay = await runCli(['replay', edited, ...mine(provider), '--webhook-port', '0'], { env });
    expect(replay.stdout, replay.stderr).toContain(
      "the report's run received its webhooks on 0.0.0.0; this replay listens on 127.0.0.1 only (pass --webhook-host 0.0.0.0 to listen there)\n",
    );
    expect(replay.stdout).toMatch(/^the provider must deliver its webhooks to http:\/\/127\.0\.0\.1:\d+\//m);
  });

  it.each([
    [['--webhook-port', '99999'], 'provcert: --webhook-port must be a whole number from 0 to 65535 (got "99999")\n'],
    [['--webhook-port', 'eighty'], 'provcert: --webhook-port must be a whole number from 0 to 65535 (got "eighty")\n'],
  ])('replay %j is refused with the message run gives, exit 2', async (flags, message) => {
    const replay = await runCli(
      ['replay', reportPath, '--base-url', 'http://127.0.0.1:9', '--auth', 'API_KEY', ...flags],
      {
        env,
      },
    );
    expect(replay.stderr).toBe(message);
    expect(replay.code).toBe(2);
  });
});
