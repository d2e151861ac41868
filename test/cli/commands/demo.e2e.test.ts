import { describe, expect, it } from 'vitest';
import { CHECK_IDS } from '../../../src/model/check-ids.js';
import { runCli } from '../../support/cli.js';

// demo.int.test.ts runs demo in-process on a manual clock: what a failing demo prints.
describe('provcert demo (the README quick start)', () => {
  it('certifies the reference provider end to end with no configuration: exit 0, PASS', async () => {
    const r = await runCli(['demo']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // Every check passes but signature (HMAC_SIGNATURE only; the demo uses API_KEY).
    expect(r.stdout).toMatch(new RegExp(`^PASS {2}${CHECK_IDS.length - 1} passed, 0 failed, 1 skipped, 0 errors`, 'm'));
    expect(r.stdout).toMatch(/webhook receiver: http:\/\/127\.0\.0\.1:\d+\/api\/v1\/webhooks\/demo-kitchen/);
  });

  it('rejects an unknown fault with exit 2', async () => {
    const r = await runCli(['demo', '--fault', 'everything-broken']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown fault everything-broken\n {2}see provcert mock-provider --list-faults/);
  });
});
