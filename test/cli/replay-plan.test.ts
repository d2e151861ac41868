import { describe, expect, it } from 'vitest';
import {
  compareResults,
  isStillFailing,
  planReplay,
  type ReplayVerdict,
  replaySummary,
} from '../../src/cli/replay-plan.js';
import type { CheckId, CheckStatus } from '../../src/model/check-ids.js';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { recordRunInputs } from '../../src/model/run-inputs.js';
import { resolveRunConfig } from '../../src/model/run-values.js';

const result = (id: CheckId, status: CheckStatus, message = `${id} ${status}`): CheckResult => ({
  id,
  title: id,
  rule: 'rule',
  requirements: ['TEST-RULE'],
  status,
  message,
  evidence: [],
  findings: [],
  durationMs: 1,
});

/** Inputs as reports before provcert 0.2 recorded them (authMethod, timeoutMs, webhookTimeoutMs, maxExpiryWaitS). */
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
    provider: {
      baseUrl: 'https://from-provider-section.example',
      authMethod: 'API_KEY',
      profile: 'TRANSACTIONAL',
      capabilities: [],
      fulfillment: 'REMOTE',
    },
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

const mixed = [
  result('metadata', 'pass'),
  result('quote-math', 'fail'),
  result('search', 'skip'),
  result('webhook', 'error'),
  result('cancel', 'pass'),
];

describe('planReplay', () => {
  it('reruns the failed and erroring checks with the recorded run settings; targets and secrets only shown', () => {
    expect(planReplay(report(mixed))).toEqual({
      checks: ['quote-math', 'webhook'],
      unblocked: [],
      flags: {
        profile: 'TRANSACTIONAL',
        capabilities: ['METADATA', 'CATALOG', 'QUOTE'],
        fulfillment: 'DELIVERY',
        webhookHost: '0.0.0.0',
        webhookPort: 8787,
        timeout: 7000,
        webhookTimeout: 20000,
        maxExpiryWait: 45,
        seed: 'seed-123',
        only: ['quote-math', 'webhook'],
      },
      recorded: {
        baseUrl: 'https://provider.example/api',
        authMethod: 'HMAC_SIGNATURE',
        credential: { kind: 'env', name: 'MY_PROVIDER_SECRET' },
        local: false,
      },
    });
  });

  it('reads the inputs a run records now (each setting under its one name) to the same plan as an older report', () => {
    const { config } = resolveRunConfig(
      {
        baseUrl: 'https://provider.example/api',
        auth: 'HMAC_SIGNATURE',
        profile: 'TRANSACTIONAL',
        capabilities: ['METADATA', 'CATALOG', 'QUOTE'],
        fulfillment: 'DELIVERY',
        webhookHost: '0.0.0.0',
        timeout: 7000,
        webhookTimeout: 20000,
        maxExpiryWait: 45,
        seed: 'seed-123',
      },
      {
        credential: 'k',
        credentialSource: { kind: 'env', name: 'MY_PROVIDER_SECRET' },
        webhookSecret: 'w',
        webhookSecretSource: { kind: 'generated' },
      },
    );
    const inputs = recordRunInputs(config, 'r1');
    expect(inputs).toMatchObject({ auth: 'HMAC_SIGNATURE', timeout: 7000, webhookTimeout: 20000, maxExpiryWait: 45 });
    expect(inputs).not.toHaveProperty('timeoutMs');
    const now = planReplay(report(mixed, inputs));
    const before = planReplay(report(mixed));
    // The new report also records the default budgets and strictness; an older one left them to the default.
    const budgets = { explore: 100, exploreTimeCap: 20, lifecycleOrders: 6 };
    expect(now).toEqual({ ...before, flags: { ...('flags' in before ? before.flags : {}), ...budgets } });
  });

  it('an older name beside the new one: the new one is read', () => {
    const plan = planReplay(report(mixed, recordedInputs({ timeout: 9000 })));
    expect(plan).toMatchObject({ flags: { timeout: 9000 } });
  });

  const credentialCases: { name: string; source: unknown; want: unknown }[] = [
    {
      name: 'env var by name',
      source: { kind: 'env', name: 'PROVIDER_API_KEY' },
      want: { kind: 'env', name: 'PROVIDER_API_KEY' },
    },
    {
      name: 'file by path',
      source: { kind: 'file', path: '/secrets/provider.key' },
      want: { kind: 'file', path: '/secrets/provider.key' },
    },
    { name: 'nothing recorded', source: undefined, want: undefined },
    { name: 'a malformed source', source: { kind: 'env', name: '' }, want: undefined },
  ];
  for (const c of credentialCases) {
    it(`records the credential source only as what the original run used, never as a flag: ${c.name}`, () => {
      const plan = planReplay(report(mixed, recordedInputs({ credentialSource: c.source })));
      if ('error' in plan) throw new Error(plan.error);
      expect(plan.recorded.credential).toEqual(c.want);
      expect(plan.flags).not.toHaveProperty('credentialEnv');
      expect(plan.flags).not.toHaveProperty('credentialFile');
    });
  }

  it('keeps the recorded webhook host and port, so the provider reaches the rerun at the same address', () => {
    const plan = planReplay(
      report(mixed, recordedInputs({ webhookHost: '192.0.2.10', webhookPort: 9443, local: true })),
    );
    expect(plan).toMatchObject({
      flags: { webhookHost: '192.0.2.10', webhookPort: 9443 },
      recorded: { local: true },
    });
  });

  it('leaves out what the original run left to inference and falls back to the provider section', () => {
    const inputs = recordedInputs({
      baseUrl: undefined,
      authMethod: undefined,
      profile: null,
      capabilities: null,
      fulfillment: null,
    });
    const plan = planReplay(report(mixed, inputs));
    if ('error' in plan) throw new Error(plan.error);
    expect(plan.recorded.baseUrl).toBe('https://from-provider-section.example');
    expect(plan.recorded.authMethod).toBe('API_KEY');
    for (const key of ['profile', 'capabilities', 'fulfillment'] as const) expect(plan.flags).not.toHaveProperty(key);
  });

  it('reruns one named check with --check, even one that passed', () => {
    const plan = planReplay(report(mixed), 'cancel');
    expect(plan).toMatchObject({ checks: ['cancel'], flags: { only: ['cancel'] } });
  });

  it('refuses a --check id the report does not contain', () => {
    expect(planReplay(report(mixed), 'idempotency')).toEqual({ error: 'the report has no check "idempotency"' });
  });

  it('refuses a report without failures, pointing at --check', () => {
    const plan = planReplay(report([result('metadata', 'pass'), result('search', 'skip')]));
    expect(plan).toEqual({
      error: 'the report has no failed check to replay (verdict PASS); pass --check ID to rerun one anyway',
    });
  });

  it('reruns what an interrupted run did not run (its recorded notRun) with its failures, not its other skips', () => {
    const stopped: RunReport = {
      ...report([
        result('metadata', 'pass'),
        result('quote-math', 'fail'),
        // Its message need not say so: what did not run is read from notRun, never from the text.
        result('quote-expiry', 'skip', 'cut short'),
        result('webhook', 'skip', 'applies only to TRANSACTIONAL providers'),
      ]),
      verdict: 'INTERRUPTED',
      interruptedBy: 'SIGTERM',
      notRun: ['quote-expiry', 'cancel'],
    };
    expect(planReplay(stopped)).toMatchObject({
      checks: ['quote-math', 'quote-expiry', 'cancel'],
      flags: { only: ['quote-math', 'quote-expiry', 'cancel'] },
    });
    // A check the stopped run has no result for can still be named alone.
    expect(planReplay(stopped, 'cancel')).toMatchObject({ checks: ['cancel'] });
    // The same report, not interrupted: skips are not failures, so only the failure is replayed.
    const { interruptedBy: _by, notRun: _notRun, ...whole } = stopped;
    expect(planReplay({ ...whole, verdict: 'FAIL' })).toMatchObject({ checks: ['quote-math'] });
  });

  it('an interrupted report written before notRun was recorded: what the stop cut off, as its messages said', () => {
    const only = ['metadata', 'quote-math', 'quote-expiry', 'webhook'];
    const stopped: RunReport = {
      ...report(
        [
          result('metadata', 'pass'),
          result('quote-math', 'skip', 'interrupted before this check finished (the run was stopped)'),
          result('webhook', 'skip', 'applies only to TRANSACTIONAL providers'),
        ],
        recordedInputs({ only }),
      ),
      verdict: 'INTERRUPTED',
      interruptedBy: 'SIGTERM',
    };
    // quote-expiry was selected but has no result: the stop kept it from running too.
    expect(planReplay(stopped)).toMatchObject({ checks: ['quote-math', 'quote-expiry'] });
  });

  it('carries the recorded exploration budget with the seed; an older report without one leaves the default', () => {
    expect(planReplay(report(mixed, recordedInputs({ explore: 7 })))).toMatchObject({
      flags: { seed: 'seed-123', explore: 7 },
    });
    expect(planReplay(report(mixed, recordedInputs({ explore: 0 })))).toMatchObject({ flags: { explore: 0 } });
    expect(planReplay(report(mixed))).not.toHaveProperty('flags.explore');
  });

  it('carries --strict, so a warning that failed the run fails the rerun too', () => {
    expect(planReplay(report(mixed, recordedInputs({ strict: true })))).toMatchObject({ flags: { strict: true } });
    const plain = planReplay(report(mixed, recordedInputs({ strict: false })));
    expect(plain).not.toHaveProperty('flags.strict');
  });

  it('never carries a secret value, only where the credential comes from', () => {
    const plan = planReplay(
      report(mixed, recordedInputs({ credential: 'super-secret-value', webhookSecret: 'another-secret' })),
    );
    expect(JSON.stringify(plan)).not.toMatch(/secret-value|another-secret/);
  });
});

describe('replay reruns what a failure kept from running (issue 34)', () => {
  const skippedFor = (id: CheckId, cause: CheckId): CheckResult => ({
    ...result(id, 'skip', `skipped: GET /catalog does not match the schema (see ${cause})`),
    skippedBecauseOf: cause,
  });

  it('the checks skipped because of a failure are rerun with it', () => {
    const plan = planReplay(
      report([
        result('catalog', 'fail'),
        skippedFor('quote-math', 'catalog'),
        skippedFor('action-status', 'catalog'),
        result('signature', 'skip', 'applies only to auth method HMAC_SIGNATURE'),
        result('health', 'pass'),
      ]),
    );
    expect(plan).toMatchObject({
      checks: ['catalog', 'quote-math', 'action-status'],
      unblocked: ['quote-math', 'action-status'],
      flags: { only: ['catalog', 'quote-math', 'action-status'] },
    });
  });

  it('a report written before every skip recorded its cause: the skip reason that names the failure', () => {
    const old = [
      result('catalog', 'fail'),
      result('offering', 'skip', 'skipped: GET /catalog answered 500 (see catalog)'),
    ];
    expect(planReplay(report(old))).toMatchObject({ checks: ['catalog', 'offering'], unblocked: ['offering'] });
  });

  it.each([
    [result('quote-math', 'pass'), 'now-passes', false],
    [result('quote-math', 'fail'), 'fails-now', true],
    [skippedFor('quote-math', 'catalog'), 'still-blocked', true],
    [result('quote-math', 'untested'), 'still-blocked', true],
    [undefined, 'still-blocked', true],
    [result('quote-math', 'skip', 'not part of the READ_ONLY profile'), 'was-not-a-failure', false],
  ] as [CheckResult | undefined, ReplayVerdict, boolean][])(
    'an unblocked check that %s now: %s (keeps the replay failing: %s)',
    (after, verdict, failing) => {
      const comparison = compareResults(skippedFor('quote-math', 'catalog'), after, true);
      expect(comparison.verdict).toBe(verdict);
      expect(isStillFailing(comparison.verdict)).toBe(failing);
    },
  );

  it('says what the fix unblocked: "2 fixed" is never the whole story', () => {
    expect(compareResults(skippedFor('quote-math', 'catalog'), result('quote-math', 'pass'), true).line).toBe(
      'quote-math: now runs and passes — was skipped because of catalog (skipped: GET /catalog does not match the schema (see catalog))',
    );
    expect(replaySummary(['fixed', 'now-passes', 'now-passes', 'fails-now'])).toBe(
      'replayed 4 checks: 1 fails now, 1 fixed, 2 now run and pass',
    );
  });
});

describe('compareResults', () => {
  const cases: {
    name: string;
    before: CheckResult;
    after: CheckResult | undefined;
    verdict: ReplayVerdict;
    failing: boolean;
    line: string;
  }[] = [
    {
      name: 'fail → fail, same message',
      before: result('quote-math', 'fail', 'total 2300 ≠ 2400'),
      after: result('quote-math', 'fail', 'total 2300 ≠ 2400'),
      verdict: 'still-fails',
      failing: true,
      line: 'quote-math: still fails — total 2300 ≠ 2400 (as before)',
    },
    {
      name: 'fail → fail, new message',
      before: result('quote-math', 'fail', 'total 2300 ≠ 2400'),
      after: result('quote-math', 'fail', 'subtotal 100 ≠ 200'),
      verdict: 'still-fails',
      failing: true,
      line: 'quote-math: still fails — subtotal 100 ≠ 200 (was: total 2300 ≠ 2400)',
    },
    {
      name: 'error → fail',
      before: result('webhook', 'error', 'boom'),
      after: result('webhook', 'fail', 'unsigned'),
      verdict: 'still-fails',
      failing: true,
      line: 'webhook: still fails — unsigned (was error: boom)',
    },
    {
      name: 'fail → pass',
      before: result('cancel', 'fail', 'kept'),
      after: result('cancel', 'pass', 'ok'),
      verdict: 'fixed',
      failing: false,
      line: 'cancel: fixed — passes now (was fail: kept)',
    },
    {
      name: 'error → pass',
      before: result('webhook', 'error', 'boom'),
      after: result('webhook', 'pass', 'ok'),
      verdict: 'fixed',
      failing: false,
      line: 'webhook: fixed — passes now (was error: boom)',
    },
    {
      name: 'fail → error',
      before: result('cancel', 'fail', 'a'),
      after: result('cancel', 'error', 'b'),
      verdict: 'now-errors',
      failing: true,
      line: 'cancel: now errors — b (was fail: a)',
    },
    {
      name: 'error → error, same message',
      before: result('cancel', 'error', 'b'),
      after: result('cancel', 'error', 'b'),
      verdict: 'now-errors',
      failing: true,
      line: 'cancel: now errors — b (as before)',
    },
    {
      name: 'fail → skip',
      before: result('idempotency', 'fail', 'second action created'),
      after: result('idempotency', 'skip', 'skipped: the provider could not be reached (see base-url)'),
      verdict: 'not-run',
      failing: true,
      line: 'idempotency: not run — skipped: the provider could not be reached (see base-url) (was fail: second action created)',
    },
    {
      name: 'fail → no result',
      before: result('cancel', 'fail', 'a'),
      after: undefined,
      verdict: 'not-run',
      failing: true,
      line: 'cancel: not run — the rerun has no result for it (was fail: a)',
    },
    {
      name: 'pass → pass',
      before: result('health', 'pass', 'healthy'),
      after: result('health', 'pass', 'healthy again'),
      verdict: 'was-not-a-failure',
      failing: false,
      line: 'health: was not a failure — originally passed; now passes: healthy again',
    },
    {
      name: 'skip → skip',
      before: result('search', 'skip', 'SEARCH not declared'),
      after: result('search', 'skip', 'SEARCH not declared'),
      verdict: 'was-not-a-failure',
      failing: false,
      line: 'search: was not a failure — originally skipped; now skipped: SEARCH not declared',
    },
    {
      name: 'pass → fail',
      before: result('health', 'pass', 'healthy'),
      after: result('health', 'fail', 'latencyMs missing'),
      verdict: 'fails-now',
      failing: true,
      line: 'health: fails now — latencyMs missing (was pass: healthy)',
    },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.verdict}`, () => {
      const comparison = compareResults(c.before, c.after);
      expect({ verdict: comparison.verdict, line: comparison.line }).toEqual({ verdict: c.verdict, line: c.line });
      expect(isStillFailing(comparison.verdict)).toBe(c.failing);
      // The rerun's result comes along exactly when it shows a problem, to be printed with its evidence.
      expect(comparison.failure).toBe(
        c.after && (c.after.status === 'fail' || c.after.status === 'error') ? c.after : undefined,
      );
    });
  }
});

describe('replaySummary', () => {
  const cases: { verdicts: ReplayVerdict[]; want: string }[] = [
    { verdicts: ['was-not-a-failure'], want: 'replayed 1 check: 1 was not a failure' },
    { verdicts: ['still-fails'], want: 'replayed 1 check: 1 still fails' },
    {
      verdicts: ['fixed', 'still-fails', 'still-fails', 'now-errors'],
      want: 'replayed 4 checks: 2 still fail, 1 now errors, 1 fixed',
    },
    {
      verdicts: ['not-run', 'fails-now', 'was-not-a-failure', 'was-not-a-failure'],
      want: 'replayed 4 checks: 1 not run, 1 fails now, 2 were not failures',
    },
  ];
  for (const c of cases) {
    it(`${c.verdicts.join(', ')} → "${c.want}"`, () => {
      expect(replaySummary(c.verdicts)).toBe(c.want);
    });
  }
});
