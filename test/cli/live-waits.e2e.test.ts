import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECK_IDS } from '../../src/model/check-ids.js';
import type { RunReport } from '../../src/model/report.js';
import type { RunningProvider } from '../../src/reference-provider/index.js';
import { startReferenceForRun } from '../support/reference-run.js';
import { scratchDir } from '../support/scratch.js';
import { silentServer, spawnCli } from './live-spawn.js';

const CREDENTIAL = 'live-waits-credential-83Kq';
const SECRET = 'live-waits-webhook-secret-Vb27';
const env = { PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: SECRET };

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The reference provider (5 s quotes) and the port its events go to. */
async function referenceProvider(faults: string[]): Promise<{ provider: RunningProvider; webhookPort: number }> {
  const { provider, webhookPort } = await startReferenceForRun({
    credential: CREDENTIAL,
    webhookSecret: SECRET,
    faults: faults as never[],
  });
  closers.push(() => provider.close());
  return { provider, webhookPort };
}

async function unansweringProvider(): Promise<string> {
  const server = await silentServer();
  closers.push(() => server.close());
  return server.url;
}

const runArgs = (baseUrl: string, ...extra: string[]) => [
  'run',
  '--base-url',
  baseUrl,
  '--auth',
  'API_KEY',
  '--local',
  '--webhook-port',
  '0',
  ...extra,
];

describe('long waits say what they wait for (output on a pipe)', () => {
  it('prints one line when the quote-expiry wait starts, and one for a webhook wait whose state never changes', async () => {
    const { provider, webhookPort } = await referenceProvider(['webhook-not-sent']);
    const args = [
      'run',
      '--base-url',
      provider.url,
      '--auth',
      'API_KEY',
      '--local',
      '--webhook-port',
      String(webhookPort),
      '--webhook-timeout',
      '2000',
    ];
    const cli = spawnCli([...args, '--json', '-'], env);
    const { code } = await cli.exit;
    expect(code, cli.stderr()).toBe(1);
    const report = JSON.parse(cli.stdout()) as RunReport;
    expect(report.checks.find((c) => c.id === 'webhook')?.status).toBe('fail');
    const waits = cli
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('… '));
    const expiryLine = /^… quote-expiry: waiting for quote \S+ to expire, \d\.\d s left$/;
    expect(waits.filter((line) => line.startsWith('… quote-expiry: '))).toEqual([expect.stringMatching(expiryLine)]);
    // Nothing arrives, so the wait's state never changes: one line, however long the countdown.
    const webhookLine = /^… webhook: 0 of \d+ expected events received, up to \d\.\d s left$/;
    expect(waits.filter((line) => line.startsWith('… webhook: '))).toEqual([expect.stringMatching(webhookLine)]);
  });
});

describe('a provider that accepts connections but never answers', () => {
  it('gets the header at once, and Ctrl-C (SIGINT) stops the run with the report written: exit 130', async () => {
    const url = await unansweringProvider();
    const dir = await scratchDir('live-sigint');
    // No request could end on its own within the test: only the header before the first request, then SIGINT, end it.
    const cli = spawnCli(runArgs(url, '--timeout', '600000', '--json', join(dir, 'report.json')), env);
    await cli.waitFor(
      /^provcert certifying http:\/\/127\.0\.0\.1:\d+: reading GET \/provider-info first \(requests time out after 600 s\)$/m,
    );
    const signalled = performance.now();
    cli.signal('SIGINT');
    const { code } = await cli.exit;
    expect(performance.now() - signalled).toBeLessThan(10_000);
    expect(code, cli.output()).toBe(130);
    expect(cli.stdout()).toMatch(/^INTERRUPTED {2}0 passed/m);
    expect(cli.stdout()).toContain(`The run was stopped (SIGINT): 0 of ${CHECK_IDS.length} checks ran to the end`);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as RunReport;
    expect(report.checks.every((c) => c.status === 'skip')).toBe(true);
    // Stopped while GET /provider-info was pending: no root cause is blamed, every check is recorded as not run.
    expect(report.notRun).toEqual(report.checks.map((c) => c.id));
  });

  it('SIGTERM during a request that never answers: exit 143, the report written', async () => {
    const url = await unansweringProvider();
    const cli = spawnCli(runArgs(url, '--timeout', '600000', '--json', '-'), env);
    await cli.waitFor(/^provcert certifying /m);
    cli.signal('SIGTERM');
    const { code } = await cli.exit;
    expect(code, cli.stderr()).toBe(143);
    expect((JSON.parse(cli.stdout()) as RunReport).checks).toHaveLength(CHECK_IDS.length);
  });

  it('ends within a few request timeouts with a line naming the cause (it took 30.5 s before)', async () => {
    const url = await unansweringProvider();
    const cli = spawnCli(runArgs(url, '--timeout', '1500'), env);
    const { code, ms } = await cli.exit;
    expect(code, cli.output()).toBe(1);
    expect(ms).toBeLessThan(20_000);
    expect(cli.stdout()).toMatch(/^✗ base-url {2}.*timed out after 1500 ms/m);
  });

  it('doctor says what it probes before each probe (it was silent for the whole timeout)', async () => {
    const url = await unansweringProvider();
    const cli = spawnCli(['doctor', '--base-url', url, '--auth', 'API_KEY', '--timeout', '600000'], env);
    // Waiting on the HTTP probe that never ends: the line is there while it waits.
    await cli.waitFor(
      /^doctor: asking the API: GET on the base address, \/provider-info, \/health, \/catalog \(HTTP\), up to 600 s…$/m,
    );
    expect(cli.stderr()).toMatch(/^doctor: connecting to 127\.0\.0\.1:\d+ \(TCP\), up to 600 s…$/m);
    expect(cli.stdout()).toBe('');
    cli.signal('SIGTERM');
    await cli.exit;
  });
});
