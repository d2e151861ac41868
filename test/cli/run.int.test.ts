import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import {
  type ClockedCli,
  type ClockedReference,
  startClockedCli,
  startClockedReference,
} from '../support/cli-clock.js';
import { freePort } from '../support/ports.js';
import { scratchDir } from '../support/scratch.js';

/**
 * provcert run in-process on a manual clock (test/support/cli-clock.ts): exit codes and what a failed run says.
 * run.e2e.test.ts runs the built CLI (a passing run, Ctrl-C).
 */
const CANARY_CREDENTIAL = 'canary-credential-Zq81xT';
const CANARY_SECRET = 'canary-webhook-secret-Pm42vW';
const env = { PROVIDER_API_KEY: CANARY_CREDENTIAL, SERVICE_WEBHOOK_SECRET: CANARY_SECRET };

let reference: ClockedReference | undefined;
let clocked: ClockedCli & { stop(): void };
let dir = '';
beforeAll(async () => {
  clocked = startClockedCli();
  dir = await scratchDir('run-int');
});
afterAll(() => clocked.stop());
afterEach(async () => {
  await reference?.close();
  reference = undefined;
});

/** On the reference provider's clock when a test started one, else on a clock of its own. */
const runCli: ClockedCli['runCli'] = (args, options) => (reference ?? clocked).runCli(args, { cwd: dir, ...options });

describe('provcert run against the reference provider (in-process)', () => {
  it('fails with exit 1 naming the check, the problem and a reproduce command', async () => {
    reference = await startClockedReference({
      authMethod: 'HMAC_SIGNATURE',
      credential: CANARY_CREDENTIAL,
      webhookSecret: CANARY_SECRET,
      faults: ['quote-total-wrong'],
    });
    const port = reference.webhookPort;
    const r = await runCli(
      [
        'run',
        '--base-url',
        reference.url,
        '--auth',
        'HMAC_SIGNATURE',
        '--local',
        '--webhook-port',
        String(port),
        '--skip',
        'quote-expiry',
        '--json',
        '-',
      ],
      { env },
    );
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as RunReport;
    const check = report.checks.find((c) => c.id === 'quote-math');
    expect(check?.status).toBe('fail');
    expect(check?.message).toMatch(/^total is \d+; expected \d+ = /);
    expect(check?.reproduce).toContain('openssl dgst -sha256 -hmac "$PROVIDER_API_KEY"');
    expect(r.stdout + r.stderr).not.toContain(CANARY_CREDENTIAL);
  });

  it('reports an unreachable provider as a failed run with the reason, not a stack trace', async () => {
    const port = await freePort();
    const r = await runCli(
      [
        'run',
        '--base-url',
        `http://127.0.0.1:${port}`,
        '--auth',
        'API_KEY',
        '--local',
        '--webhook-port',
        '0',
        '--timeout',
        '2000',
        '--json',
        '-',
      ],
      { env },
    );
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as RunReport;
    expect(report.checks.find((c) => c.id === 'base-url')?.message).toMatch(/refused/);
    expect(report.checks.find((c) => c.id === 'catalog')?.message).toMatch(/could not be reached/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 with one line when the webhook port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const r = await runCli(
        ['run', '--base-url', 'http://127.0.0.1:1', '--auth', 'API_KEY', '--local', '--webhook-port', String(port)],
        { env },
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`port ${port} is in use; pass --webhook-port`));
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
