import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckId } from '../../src/model/check-ids.js';
import type { RunReport } from '../../src/model/report.js';
import type { FaultName } from '../../src/reference-provider/index.js';
import { type ClockedReference, startClockedReference } from '../support/cli-clock.js';
import { captureIo, runCommand } from '../support/cli-io.js';
import { scratchDir } from '../support/scratch.js';

const env = { PROVIDER_API_KEY: 'last-failed-key-8c1d2', SERVICE_WEBHOOK_SECRET: 'last-failed-secret-40aa7' };
/** Checks that wait out quote validities and webhook deliveries: not what these tests are about. */
const SLOW = 'webhook,lifecycle,quote-expiry';
/** What a broken catalog keeps from running, in report order. */
const BLOCKED: CheckId[] = [
  'offering',
  'search',
  'quote-math',
  'quote-validation',
  'quote-explore',
  'quote-binding',
  'idempotency',
];

let reference: ClockedReference | undefined;
afterEach(async () => {
  await reference?.close();
  reference = undefined;
});

/**
 * The reference provider on a fixed port (a fix is a restart without the fault), posting to a fixed receiver, on
 * the manual clock the in-process CLI runs on (test/support/cli-clock.ts).
 */
async function providerOn(faults: FaultName[]): Promise<{ url: string; webhookPort: number }> {
  if (reference) await reference.restart(faults);
  else
    reference = await startClockedReference({
      credential: env.PROVIDER_API_KEY,
      webhookSecret: env.SERVICE_WEBHOOK_SECRET,
      faults,
    });
  return reference;
}

async function cli(dir: string, args: string[]): Promise<{ code: number | undefined; out: string; err: string }> {
  const { io, out, err } = captureIo(dir, env);
  const code = await runCommand(reference ? { ...io, clock: reference.clock } : io, args);
  return { code, out: out(), err: err() };
}

const lastRun = async (dir: string): Promise<{ failed: CheckId[]; blocked: CheckId[] }> =>
  JSON.parse(await readFile(join(dir, '.provcert', 'last-run.json'), 'utf8'));

describe('run --last-failed (issue 34)', () => {
  it('in a fresh folder: says there is no last run and runs every check; the run leaves its state, git-ignored', async () => {
    const { url, webhookPort } = await providerOn([]);
    const dir = await scratchDir('last-failed-fresh');
    const common = ['--base-url', url, '--auth', 'API_KEY', '--local', '--webhook-port', String(webhookPort)];
    const run = await cli(dir, ['run', ...common, '--skip', SLOW, '--last-failed']);
    expect(run.err).toContain(
      '--last-failed: no last run in this folder (.provcert/last-run.json is written by each run): running every check',
    );
    expect(run.code).toBe(0);
    expect(await lastRun(dir)).toMatchObject({ verdict: 'PARTIAL', failed: [], blocked: [] });
    expect(await readFile(join(dir, '.provcert', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    const again = await cli(dir, ['run', ...common, '--skip', SLOW, '--last-failed']);
    expect(again.err).toMatch(
      /--last-failed: the last run in this folder \(PARTIAL, [^)]+\) left nothing failed: running every check/,
    );
  });

  it('after a run that --skip could not turn green: reruns the root cause and what it blocked; after the fix, exit 0', async () => {
    const dir = await scratchDir('last-failed-after');
    const { url, webhookPort } = await providerOn(['catalog-wrong-type']);
    const common = ['--base-url', url, '--auth', 'API_KEY', '--local', '--webhook-port', String(webhookPort)];
    // The gate of issue 34: skipping the one failure known does not hide that no quote check ran.
    const gate = await cli(dir, ['run', ...common, '--skip', `catalog,${SLOW}`, '--json', 'report.json']);
    expect(gate.code).toBe(1);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as RunReport;
    expect(report.verdict).toBe('FAIL');
    expect(await lastRun(dir)).toMatchObject({ verdict: 'FAIL', failed: ['catalog'], blocked: BLOCKED });

    await providerOn([]);
    const rerun = await cli(dir, ['run', ...common, '--last-failed', '--json', 'rerun.json']);
    expect(rerun.err).toContain(
      `--last-failed: rerunning catalog and ${BLOCKED.join(', ')} (not run because of them), from the last run in this folder (FAIL, `,
    );
    expect(rerun.code).toBe(0);
    const rerunReport = JSON.parse(await readFile(join(dir, 'rerun.json'), 'utf8')) as RunReport;
    // idempotency needs the pending action: pulled in, and said so.
    expect(rerun.err).toContain(
      '--last-failed also runs payment-pending: idempotency needs payment-pending for its test data',
    );
    expect(rerunReport.checks.filter((c) => c.status === 'pass').map((c) => c.id)).toEqual([
      'catalog',
      ...BLOCKED.slice(0, -1),
      'payment-pending',
      'idempotency',
    ]);
    expect(await lastRun(dir)).toMatchObject({ failed: [], blocked: [] });
  });

  it('refuses --only beside it, in one line', async () => {
    const dir = await scratchDir('last-failed-only');
    await expect(
      cli(dir, ['run', '--base-url', 'http://127.0.0.1:9', '--local', '--only', 'health', '--last-failed']),
    ).rejects.toThrow('--last-failed chooses the checks itself; pass it without --only');
    await expect(stat(join(dir, '.provcert'))).rejects.toThrow();
  });
});

describe('replay reruns the closure of a fixed root cause (issue 34)', () => {
  it('catalog fixed: its dependants are rerun in the same replay and say they now pass', async () => {
    const dir = await scratchDir('replay-closure');
    const { url, webhookPort } = await providerOn(['catalog-wrong-type']);
    const common = ['--base-url', url, '--auth', 'API_KEY', '--local', '--webhook-port', String(webhookPort)];
    expect((await cli(dir, ['run', ...common, '--skip', SLOW, '--json', 'report.json'])).code).toBe(1);

    const still = await cli(dir, ['replay', 'report.json', '--base-url', url, '--auth', 'API_KEY', '--local']);
    expect(still.code).toBe(1);
    expect(still.out).toContain(`and what it kept from running: ${BLOCKED.join(', ')}`);
    expect(still.out).toMatch(/^quote-math: still not run — skipped: GET \/catalog does not match the schema/m);

    await providerOn([]);
    const fixed = await cli(dir, ['replay', 'report.json', '--base-url', url, '--auth', 'API_KEY', '--local']);
    expect(fixed.out).toMatch(/^catalog: fixed — passes now/m);
    for (const id of BLOCKED)
      expect(fixed.out).toMatch(new RegExp(`^${id}: now runs and passes — was skipped because of catalog`, 'm'));
    expect(fixed.out).toContain(`replayed ${BLOCKED.length + 1} checks: 1 fixed, ${BLOCKED.length} now run and pass`);
    expect(fixed.code).toBe(0);
  });
});
