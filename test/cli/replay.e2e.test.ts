import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_SLUG, startReferenceProvider, type FaultName } from '../../fixtures/provider/index.js';
import { runCli } from '../support/cli.js';
import { freePort } from '../support/ports.js';

const env = { PROVIDER_API_KEY: 'replay-key-31', SERVICE_WEBHOOK_SECRET: 'replay-secret-77' };


async function providerOn(port: number, webhookPort: number, faults: FaultName[]) {
  return startReferenceProvider({
    port, authMethod: 'API_KEY', credential: env.PROVIDER_API_KEY, webhookSecret: env.SERVICE_WEBHOOK_SECRET,
    webhookUrl: `http://127.0.0.1:${webhookPort}/api/v1/webhooks/${REFERENCE_SLUG}`, faults,
    dataFile: join(await mkdtemp(join(tmpdir(), 'provcert-replay-')), 'data.json'),
  });
}

describe('provcert replay (operator flow)', () => {
  it('reruns the failed check from a report: reproduced while broken, not once fixed', async () => {
    const [port, webhookPort] = [await freePort(), await freePort()];
    const dir = await mkdtemp(join(tmpdir(), 'provcert-replay-report-'));
    const reportPath = join(dir, 'report.json');

    let provider = await providerOn(port, webhookPort, ['changed-payload-accepted']);
    try {
      const run = await runCli(['run', '--base-url', provider.url, '--auth', 'API_KEY', '--local', '--webhook-port', String(webhookPort), '--skip', 'quote-expiry', '--json', reportPath], { env });
      expect(run.code).toBe(1);
      const replay = await runCli(['replay', reportPath], { env });
      expect(replay.code).toBe(1);
      expect(replay.stdout).toMatch(/replaying idempotency against http:\/\/127\.0\.0\.1:\d+ \(seed \w+\)/);
      expect(replay.stdout).toMatch(/^idempotency: (reproduced|still fail)/m);
      expect(replay.stdout).toContain('1 of 1 failure(s) still reproduce');
    } finally {
      await provider.close();
    }

    provider = await providerOn(port, webhookPort, []);
    try {
      const replay = await runCli(['replay', reportPath, '--check', 'idempotency'], { env });
      expect(replay.code).toBe(0);
      expect(replay.stdout).toMatch(/^idempotency: no longer fails/m);
    } finally {
      await provider.close();
    }
  });

  it.each([
    [['replay', 'missing.json'], /cannot read report missing\.json/],
    [['replay', 'package.json'], /is not a provcert JSON report/],
  ])('%j exits 2 with one line', async (args, message) => {
    const r = await runCli(args, { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('refuses a report with nothing to replay', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'provcert-replay-pass-')), 'pass.json');
    await writeFile(path, JSON.stringify({ reportVersion: 1, verdict: 'PASS', checks: [{ id: 'catalog', status: 'pass' }], inputs: {}, provider: { baseUrl: 'http://x', authMethod: 'API_KEY' } }));
    const r = await runCli(['replay', path], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no failed check to replay/);
  });
});

describe('provcert list', () => {
  it('lists every check with its rule and where it applies, as text and JSON', async () => {
    const text = await runCli(['list']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^quote-math +Quote matches the selection and its math holds$/m);
    const json = await runCli(['list', '--json']);
    const rows = JSON.parse(json.stdout) as { id: string; rule: string; appliesTo: string; createsOrders: boolean }[];
    expect(rows).toHaveLength(22);
    expect(rows.every((r) => r.rule.length > 20 && r.appliesTo.length > 0)).toBe(true);
    expect(rows.find((r) => r.id === 'idempotency')?.createsOrders).toBe(true);
  });
});
