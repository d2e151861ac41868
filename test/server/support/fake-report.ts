import type { RunReport } from '../../../src/model/report.js';

/** A minimal run report, as the injected certifier of `provcert serve` tests returns it. */
export function fakeReport(verdict: 'PASS' | 'FAIL'): RunReport {
  const now = new Date().toISOString();
  return {
    reportVersion: 1,
    tool: { name: 'provcert', version: '0.0.0' },
    contract: { version: '1.0.0', spec: 'test' },
    provider: {
      baseUrl: 'http://127.0.0.1:9',
      authMethod: 'API_KEY',
      profile: 'TRANSACTIONAL',
      capabilities: [],
      fulfillment: 'REMOTE',
    },
    verdict,
    startedAt: now,
    finishedAt: now,
    durationMs: 1,
    summary: { pass: verdict === 'PASS' ? 1 : 0, fail: verdict === 'FAIL' ? 1 : 0, skip: 0, error: 0 },
    checks: [],
    webhooks: { url: '', events: [] },
    inputs: {},
    requirements: {},
  };
}
