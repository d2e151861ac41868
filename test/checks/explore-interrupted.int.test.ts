import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { runCertification } from '../../src/runner/run.js';
import { TEST_CREDENTIAL, TEST_WEBHOOK_SECRET, testConfig } from '../support/certify.js';
import { startReferenceForRun } from '../support/reference-run.js';

/** An interrupted run never shows ✓ quote-explore for orders it did not explore (issue 34). */
describe('quote-explore cut short by a stop', () => {
  it('is not a pass: the run marks it interrupted, with what was explored in its details', async () => {
    const { provider, webhookPort } = await startReferenceForRun({
      credential: TEST_CREDENTIAL,
      webhookSecret: TEST_WEBHOOK_SECRET,
    });
    try {
      const stop = new AbortController();
      // Stopped once exploring has begun: after the provider's tenth POST /quote.
      const watch = setInterval(() => {
        if (provider.requests.filter((r) => r.method === 'POST' && r.path === '/quote').length >= 10)
          stop.abort('SIGINT');
      }, 2);
      const report = await runCertification(testConfig(provider.url, { only: ['quote-explore'], webhookPort }), {
        contract: await loadContract(),
        credential: TEST_CREDENTIAL,
        webhookSecret: TEST_WEBHOOK_SECRET,
        signal: stop.signal,
      });
      clearInterval(watch);
      const explore = report.checks.find((c) => c.id === 'quote-explore');
      expect(report.verdict).toBe('INTERRUPTED');
      expect(explore?.status).toBe('skip');
      expect(explore?.message).toMatch(/^interrupted/);
      expect(explore?.details?.join('\n')).toMatch(/the run was stopped after \d+ of \d+ generated orders/);
      expect(report.notRun).toContain('quote-explore');
    } finally {
      await provider.close();
    }
  });
});
