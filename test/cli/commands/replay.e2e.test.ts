import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECK_IDS } from '../../../src/model/check-ids.js';
import type { RunReport } from '../../../src/model/report.js';
import { REFERENCE_SLUG, type RunningProvider, startReferenceProvider } from '../../../src/reference-provider/index.js';
import { runCli } from '../../support/cli.js';
import { startClockedReference } from '../../support/cli-clock.js';
import { scratchDir } from '../../support/scratch.js';

/**
 * provcert replay through the built CLI: a failure that still reproduces, its exit code and output through a real
 * process. What replay decides and prints is in replay.int.test.ts (in-process, on a manual clock).
 */
const CREDENTIAL = 'replay-key-31a9f';
const env = { PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: 'replay-secret-77c2e' };
const secrets = { credential: env.PROVIDER_API_KEY, webhookSecret: env.SERVICE_WEBHOOK_SECRET };

describe.concurrent('provcert replay (the built CLI)', () => {
  let provider: RunningProvider | undefined;
  afterAll(async () => {
    await provider?.close();
  });

  it('replays the failure of a report against the same provider: "still fails", exit 1, the credential never shown', async () => {
    const dir = await scratchDir('replay-e2e');
    const reportPath = join(dir, 'report.json');
    // The report comes from an in-process run on a manual clock; the replay through a real process meets the same
    // provider restarted on the wall clock (quote-math waits for nothing), at the address --base-url gives: a new
    // port, since the old one, once freed, may already be another test's.
    const reference = await startClockedReference({ ...secrets, faults: ['quote-total-wrong'] });
    const { url, webhookPort } = reference;
    try {
      const run = await reference.cli(
        ['run', '--base-url', url, '--auth', 'API_KEY', '--local', '--webhook-port', String(webhookPort)].concat([
          '--skip',
          'quote-expiry,quote-explore',
          '--json',
          reportPath,
        ]),
        { cwd: dir, env },
      );
      expect(run.code, run.err).toBe(1);
    } finally {
      await reference.close();
    }
    const report = JSON.parse(await readFile(reportPath, 'utf8')) as RunReport;
    expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual(['quote-math']);
    provider = await startReferenceProvider({
      authMethod: 'API_KEY',
      credential: CREDENTIAL,
      webhookSecret: env.SERVICE_WEBHOOK_SECRET,
      webhookUrl: `http://127.0.0.1:${webhookPort}/api/v1/webhooks/${REFERENCE_SLUG}`,
      faults: ['quote-total-wrong'],
      dataFile: join(dir, 'data.json'),
    });
    const replay = await runCli(['replay', reportPath, '--base-url', provider.url, '--auth', 'API_KEY'], {
      env,
      cwd: dir,
    });
    expect(replay.stdout).toMatch(/^replaying quote-math against http:\/\/127\.0\.0\.1:\d+ \(seed \w+\)$/m);
    expect(replay.stdout).toMatch(/^quote-math: still fails — total is \d+; expected \d+ = /m);
    expect(replay.stdout.trimEnd().split('\n').at(-1)).toBe('replayed 1 check: 1 still fails');
    expect(replay.stdout + replay.stderr).not.toContain(CREDENTIAL);
    expect(replay.code).toBe(1);
  });

  it('a report that cannot be read is one line on stderr, exit 2', async () => {
    const r = await runCli(['replay', 'missing.json'], { env, cwd: await scratchDir('replay-e2e-missing') });
    expect(r.stderr).toBe('provcert: cannot read report missing.json (no such file)\n');
    expect(r.stdout).toBe('');
    expect(r.code).toBe(2);
  });
});

describe.concurrent('provcert list', () => {
  it('lists every check with its rule and where it applies, as text and JSON', async () => {
    const [text, json] = await Promise.all([runCli(['list']), runCli(['list', '--json'])]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^quote-math +Quote matches the selection and its math holds$/m);
    const rows = JSON.parse(json.stdout) as { id: string; rule: string; appliesTo: string; createsOrders: boolean }[];
    expect(rows.map((r) => r.id)).toEqual([...CHECK_IDS]);
    expect(rows.every((r) => r.rule.length > 20 && r.appliesTo.length > 0)).toBe(true);
    expect(rows.find((r) => r.id === 'idempotency')?.createsOrders).toBe(true);
  });
});
