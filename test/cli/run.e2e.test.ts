import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import { REFERENCE_SLUG, type RunningProvider } from '../../src/reference-provider/index.js';
import { runCli } from '../support/cli.js';
import { startReferenceForRun } from '../support/reference-run.js';
import { scratchDir } from '../support/scratch.js';

const CANARY_CREDENTIAL = 'canary-credential-Zq81xT';
const CANARY_SECRET = 'canary-webhook-secret-Pm42vW';

let provider: RunningProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function startProvider(faults: string[] = []): Promise<{ provider: RunningProvider; port: number }> {
  const started = await startReferenceForRun({
    authMethod: 'HMAC_SIGNATURE',
    credential: CANARY_CREDENTIAL,
    webhookSecret: CANARY_SECRET,
    faults: faults as never[],
  });
  provider = started.provider;
  return { provider, port: started.webhookPort };
}

const env = { PROVIDER_API_KEY: CANARY_CREDENTIAL, SERVICE_WEBHOOK_SECRET: CANARY_SECRET };

// The rest of run's behaviour in-process on a manual clock: run.int.test.ts.
describe('provcert run against the reference provider (real CLI, real HTTP)', () => {
  it('passes with exit 0, writes a JSON report, and never prints the secrets', async () => {
    const { provider: p, port } = await startProvider();
    const dir = await scratchDir('cli-report');
    const r = await runCli(
      [
        'run',
        '--base-url',
        p.url,
        '--auth',
        'hmac',
        '--local',
        '--webhook-port',
        String(port),
        // The wait ends when the events arrive; a loaded CI machine can hold one for seconds.
        '--webhook-timeout',
        '10000',
        '--json',
        join(dir, 'r.json'),
        '--junit',
        join(dir, 'r.xml'),
      ],
      { env },
    );
    const json = await readFile(join(dir, 'r.json'), 'utf8');
    const junit = await readFile(join(dir, 'r.xml'), 'utf8');
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain(`http://127.0.0.1:${port}/api/v1/webhooks/${REFERENCE_SLUG}`);
    expect((JSON.parse(json) as RunReport).verdict).toBe('PASS');
    for (const text of [r.stdout, r.stderr, json, junit]) {
      expect(text).not.toContain(CANARY_CREDENTIAL);
      expect(text).not.toContain(CANARY_SECRET);
    }
  });
});

describe('provcert run: interrupted', () => {
  it('Ctrl-C ends the run early with exit 130, still writes the report, and cut-short checks are skipped, not failed', async () => {
    const started = await startReferenceForRun({
      credential: CANARY_CREDENTIAL,
      webhookSecret: CANARY_SECRET,
      quoteTtlSeconds: 60,
    });
    provider = started.provider;
    const port = started.webhookPort;
    const dir = await scratchDir('cli-int');
    const { spawn } = await import('node:child_process');
    const child = spawn(
      process.execPath,
      [
        join(import.meta.dirname, '../../bin/provcert.js'),
        'run',
        '--base-url',
        provider.url,
        '--auth',
        'API_KEY',
        '--local',
        '--webhook-port',
        String(port),
        '--json',
        join(dir, 'r.json'),
      ],
      {
        env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', CI: '1', ...env },
      },
    );
    let out = '';
    // Interrupt once the quick checks are done and only the 60 s expiry wait remains: waited for as long as a loaded
    // machine takes (not a fixed time, after which the interrupt could come before the run handles it), up to 50 s,
    // well before the quote expires.
    const quickChecksDone = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 50_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('✓ webhook') || out.includes('✓ cancel')) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.on('close', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (!(await quickChecksDone)) {
      child.kill('SIGKILL');
      throw new Error(`the run did not finish its quick checks within 50 s:\n${out}`);
    }
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    const report = JSON.parse(await readFile(join(dir, 'r.json'), 'utf8')) as RunReport;
    expect(report.checks.find((c) => c.id === 'quote-expiry')?.status).toBe('skip');
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
  }, 90_000);
});
