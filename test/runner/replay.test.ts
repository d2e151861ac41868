import { describe, expect, it } from 'vitest';
import type { CheckId, CheckResult, CheckStatus, RunReport } from '../../src/checks/types.js';
import { compareResults, planReplay, type ReplayVerdict } from '../../src/runner/replay.js';

const result = (id: CheckId, status: CheckStatus, message = `${id} ${status}`): CheckResult => ({ id, title: id, rule: 'rule', requirements: ['TEST-RULE'], status, message, evidence: [], findings: [], durationMs: 1 });

/** Inputs exactly as run.ts records them (recordInputs). */
const recordedInputs = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  baseUrl: 'https://provider.example/api',
  authMethod: 'HMAC_SIGNATURE',
  credentialSource: { kind: 'env', name: 'MY_PROVIDER_SECRET' },
  profile: 'TRANSACTIONAL',
  capabilities: ['METADATA', 'CATALOG', 'QUOTE'],
  fulfillment: 'DELIVERY',
  local: false,
  webhookHost: '0.0.0.0',
  webhookPort: 8787,
  timeoutMs: 7000,
  webhookTimeoutMs: 20000,
  maxExpiryWaitS: 45,
  only: null,
  skip: null,
  seed: 'seed-123',
  runId: 'r1',
  idempotencyKeys: 'provcert-{seed}-{runId}-{label}',
  ...overrides,
});

function report(checks: CheckResult[], inputs: Record<string, unknown> = recordedInputs()): RunReport {
  return {
    reportVersion: 1,
    tool: { name: 'provcert', version: '0.0.0' },
    contract: { version: '1.0.0', spec: 'spec/openapi.yaml' },
    requirements: {},
    provider: { baseUrl: 'https://from-provider-section.example', authMethod: 'API_KEY', profile: 'TRANSACTIONAL', capabilities: [], fulfillment: 'REMOTE' },
    verdict: checks.some((c) => c.status === 'fail' || c.status === 'error') ? 'FAIL' : 'PASS',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:10.000Z',
    durationMs: 10000,
    summary: { pass: 0, fail: 0, skip: 0, error: 0 },
    checks,
    webhooks: { url: 'http://127.0.0.1:8787/api/v1/webhooks/demo', events: [] },
    inputs,
  };
}

const mixed = [result('metadata', 'pass'), result('quote-math', 'fail'), result('search', 'skip'), result('webhook', 'error'), result('cancel', 'pass')];

describe('planReplay', () => {
  it('reruns the failed and erroring checks with the recorded flags', () => {
    expect(planReplay(report(mixed))).toEqual({
      checks: ['quote-math', 'webhook'],
      flags: {
        baseUrl: 'https://provider.example/api',
        auth: 'HMAC_SIGNATURE',
        credentialEnv: 'MY_PROVIDER_SECRET',
        profile: 'TRANSACTIONAL',
        capabilities: 'METADATA,CATALOG,QUOTE',
        fulfillment: 'DELIVERY',
        local: false,
        webhookHost: '0.0.0.0',
        webhookPort: '8787',
        timeout: '7000',
        webhookTimeout: '20000',
        maxExpiryWait: '45',
        seed: 'seed-123',
        only: 'quote-math,webhook',
      },
    });
  });

  const credentialCases: { name: string; source: unknown; want: Record<string, string> }[] = [
    { name: 'env var by name', source: { kind: 'env', name: 'PROVIDER_API_KEY' }, want: { credentialEnv: 'PROVIDER_API_KEY' } },
    { name: 'file by path', source: { kind: 'file', path: '/secrets/provider.key' }, want: { credentialFile: '/secrets/provider.key' } },
    { name: 'nothing recorded', source: undefined, want: {} },
  ];
  for (const c of credentialCases) {
    it(`takes the credential from the recorded source: ${c.name}`, () => {
      const plan = planReplay(report(mixed, recordedInputs({ credentialSource: c.source })));
      if ('error' in plan) throw new Error(plan.error);
      expect({ credentialEnv: plan.flags.credentialEnv, credentialFile: plan.flags.credentialFile }).toEqual({ credentialEnv: undefined, credentialFile: undefined, ...c.want });
    });
  }

  it('keeps the recorded webhook host and port, so the provider reaches the rerun at the same address', () => {
    const plan = planReplay(report(mixed, recordedInputs({ webhookHost: '192.0.2.10', webhookPort: 9443, local: true })));
    expect(plan).toMatchObject({ flags: { webhookHost: '192.0.2.10', webhookPort: '9443', local: true } });
  });

  it('leaves out what the original run left to inference and falls back to the provider section', () => {
    const inputs = recordedInputs({ baseUrl: undefined, authMethod: undefined, profile: null, capabilities: null, fulfillment: null });
    const plan = planReplay(report(mixed, inputs));
    if ('error' in plan) throw new Error(plan.error);
    expect(plan.flags.baseUrl).toBe('https://from-provider-section.example');
    expect(plan.flags.auth).toBe('API_KEY');
    for (const key of ['profile', 'capabilities', 'fulfillment'] as const) expect(plan.flags).not.toHaveProperty(key);
  });

  it('reruns one named check with --check, even one that passed', () => {
    const plan = planReplay(report(mixed), 'cancel');
    expect(plan).toMatchObject({ checks: ['cancel'], flags: { only: 'cancel' } });
  });

  it('refuses a --check id the report does not contain', () => {
    expect(planReplay(report(mixed), 'idempotency')).toEqual({ error: 'the report has no check "idempotency"' });
  });

  it('refuses a report without failures, pointing at --check', () => {
    const plan = planReplay(report([result('metadata', 'pass'), result('search', 'skip')]));
    expect(plan).toEqual({ error: 'the report has no failed check to replay (verdict PASS); pass --check ID to rerun one anyway' });
  });

  it('never carries a secret value, only where the credential comes from', () => {
    const plan = planReplay(report(mixed, recordedInputs({ credential: 'super-secret-value', webhookSecret: 'another-secret' })));
    expect(JSON.stringify(plan)).not.toMatch(/secret-value|another-secret/);
  });
});

describe('compareResults', () => {
  const cases: { name: string; before: CheckResult; after: CheckResult | undefined; verdict: ReplayVerdict; line: string }[] = [
    {
      name: 'same status and message',
      before: result('quote-math', 'fail', 'total 2300 ≠ 2400'),
      after: result('quote-math', 'fail', 'total 2300 ≠ 2400'),
      verdict: 'reproduced',
      line: 'quote-math: reproduced — total 2300 ≠ 2400',
    },
    {
      name: 'same status, new message',
      before: result('quote-math', 'fail', 'total 2300 ≠ 2400'),
      after: result('quote-math', 'fail', 'subtotal 100 ≠ 200'),
      verdict: 'reproduced',
      line: 'quote-math: still fail — now: subtotal 100 ≠ 200 (was: total 2300 ≠ 2400)',
    },
    {
      name: 'now passes',
      before: result('webhook', 'error', 'boom'),
      after: result('webhook', 'pass', 'ok'),
      verdict: 'not-reproduced',
      line: 'webhook: no longer fails (was error: boom)',
    },
    {
      name: 'now skipped',
      before: result('idempotency', 'fail', 'second action created'),
      after: result('idempotency', 'skip', 'skipped: depends on payment-pending, which failed'),
      verdict: 'changed',
      line: 'idempotency: now skip — skipped: depends on payment-pending, which failed (was fail: second action created)',
    },
    { name: 'failure became error', before: result('cancel', 'fail', 'a'), after: result('cancel', 'error', 'b'), verdict: 'changed', line: 'cancel: now error — b (was fail: a)' },
    { name: 'not run', before: result('cancel', 'fail', 'a'), after: undefined, verdict: 'changed', line: 'cancel: not run this time' },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.verdict}`, () => {
      expect(compareResults(c.before, c.after)).toEqual({ verdict: c.verdict, line: c.line });
    });
  }
});
