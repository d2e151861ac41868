import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/model/report.js';
import { type ClockedCli, startClockedCli } from '../../support/cli-clock.js';

/**
 * provcert demo in-process on a manual clock (test/support/cli-clock.ts): what a failing demo prints, its quotes
 * expiring when the run's clock says so. demo.e2e.test.ts runs the built CLI (the README quick start, exit codes);
 * demo-keep-alive.e2e.test.ts keeps the demo's provider up in a real process.
 */
let clocked: ClockedCli & { stop(): void };
beforeAll(() => {
  clocked = startClockedCli();
});
afterAll(() => clocked.stop());

describe('provcert demo (the README quick start)', () => {
  it('shows a failure with --fault: exit 1, the check named, a JSON report on stdout', async () => {
    const r = await clocked.runCli(['demo', '--fault', 'duplicate-creates-new', '--json', '-']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as RunReport;
    expect(report.verdict).toBe('FAIL');
    expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toContain('idempotency');
    expect(r.stderr).toMatch(/✗ idempotency/);
  });
});

/** demo's reproduce lines reach a provider that lives only while demo runs (issue 34). */
describe('provcert demo --keep-alive', () => {
  it('without it: says the reproduce lines live only while the demo runs, and shows no credential', async () => {
    const r = await clocked.runCli(['demo', '--fault', 'catalog-wrong-type']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "the reproduce lines above reach this demo's provider, which stops now; provcert demo --keep-alive keeps it up",
    );
    expect(r.stdout + r.stderr).not.toMatch(/export DEMO_PROVIDER_CREDENTIAL=/);
  });
});
