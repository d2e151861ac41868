import { describe, expect, it } from 'vitest';
import type { CheckId } from '../../src/model/check-ids.js';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import type { FaultName } from '../../src/reference-provider/index.js';
import { certifyThroughProxy } from '../support/certify.js';
import type { ProxyRule, RequestDelay } from '../support/rewriting-proxy.js';

/**
 * provcert's own slowness must not fail a provider: a proxy on loopback holds POST /actions past the quote's
 * validity before the reference provider sees it (as a loaded machine does to provcert's own requests). The
 * provider then rightly answers QUOTE_EXPIRED; provcert re-quotes, and when every attempt is held it reports an
 * error naming its own slowness. A provider that expires a quote before its expiresAt still fails.
 */

const TTL_S = 2;
/** Longer than the quote's validity, so the provider sees the action after expiresAt. */
const HOLD_MS = TTL_S * 1000 + 600;
const CHECKS: CheckId[] = ['quote-binding', 'payment-pending', 'cancel'];

const result = (report: RunReport, id: CheckId): CheckResult => {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no ${id} result`);
  return found;
};
const explain = (r: CheckResult): string => `${r.id} ${r.status}: ${r.message}\n${(r.details ?? []).join('\n')}`;

const keyOf = (body: string): string => {
  try {
    const key = (JSON.parse(body) as { idempotencyKey?: unknown }).idempotencyKey;
    return typeof key === 'string' ? key : '';
  } catch {
    return '';
  }
};
const isAction = (method: string, path: string): boolean => method === 'POST' && path === '/actions';
/** The first attempt of each check's action (not its re-quotes, nor quote-binding's changed orders). */
const FIRST_ATTEMPT = /-(pending|cancel|quote-binding-unchanged)$/;

async function certifyThrough(
  only: CheckId[],
  rule: ProxyRule,
  hold?: RequestDelay,
  faults: FaultName[] = [],
): Promise<RunReport> {
  const { report } = await certifyThroughProxy(
    { only, faults, quoteTtlSeconds: TTL_S },
    { rule, ...(hold ? { requestDelay: hold } : {}) },
  );
  return report;
}

const forward: ProxyRule = () => undefined;

describe('a quote expired by provcert’s own delay', () => {
  it('is taken again: quote-binding, payment-pending and cancel pass and say they re-quoted', async () => {
    const report = await certifyThrough(CHECKS, forward, ({ method, path, body }) =>
      isAction(method, path) && FIRST_ATTEMPT.test(keyOf(body)) ? HOLD_MS : 0,
    );
    for (const id of CHECKS) {
      const r = result(report, id);
      expect(r.status, explain(r)).toBe('pass');
      expect(r.message, explain(r)).toMatch(
        // Held in flight, the first action was sent before expiresAt; a loaded machine may also send it late, or re-quote twice.
        /re-quoted (once|twice) because the quote expired before provcert's action reached the provider: (the answer to the first action \(sent \d+\.\d s before the quote expired\) came back \d+\.\d s after it|provcert sent the first action \d+\.\d s after the quote expired)/,
      );
      // The provider's QUOTE_EXPIRED answer is kept as evidence of the re-quote.
      expect(
        r.evidence.some((e) => e.response?.status === 422),
        explain(r),
      ).toBe(true);
    }
  });

  it('is an error naming provcert’s slowness, not a provider failure, when every attempt is held', async () => {
    const report = await certifyThrough(['payment-pending', 'cancel'], forward, ({ method, path }) =>
      isAction(method, path) ? HOLD_MS : 0,
    );
    for (const id of ['payment-pending', 'cancel'] as const) {
      const r = result(report, id);
      expect(r.status, explain(r)).toBe('error');
      expect(r.message).toMatch(
        new RegExp(
          `^provcert took longer than the quote's validity \\(${TTL_S}\\.\\d s\\) between the quote and POST /actions on all 3 attempts`,
        ),
      );
      expect(r.message).toMatch(/QUOTE-MIN-VALIDITY.*rerun on a less loaded machine/);
      expect(r.message).not.toMatch(/bug in provcert/);
    }
  });

  it('still fails a provider that answers QUOTE_EXPIRED before the quote’s expiresAt', async () => {
    const report = await certifyThrough(['quote-binding', 'payment-pending'], ({ method, path, body }) =>
      isAction(method, path) && FIRST_ATTEMPT.test(keyOf(body))
        ? { answer: { status: 422, json: { code: 'QUOTE_EXPIRED', message: 'quote expired' } } }
        : undefined,
    );
    const binding = result(report, 'quote-binding');
    expect(binding.status, explain(binding)).toBe('fail');
    expect(binding.message).toMatch(
      /^POST \/actions with quote \S+ and the unchanged quoted order was answered HTTP 422 QUOTE_EXPIRED before the quote's expiresAt \(\S+\); the provider controls expiresAt and must honour it: expected the action to be created$/,
    );
    expect(binding.findings.filter((x) => x.severity === 'fail').map((x) => x.requirement)).toEqual([
      'QUOTE-MIN-VALIDITY',
    ]);
    const pending = result(report, 'payment-pending');
    expect(pending.status, explain(pending)).toBe('fail');
    expect(pending.message).toMatch(/^creating a test action failed: POST \/actions answered HTTP 422 QUOTE_EXPIRED/);
    for (const r of [binding, pending]) expect(r.message).not.toMatch(/re-quoted/);
  });

  // The changed-order probes want a refusal, so an expiry provcert caused would pass them without testing binding.
  const FIRST_QUANTITY_PROBE = /-quote-binding-quantity$/;
  const QUANTITY_PROBE = /-quote-binding-quantity(-requote-\d)?$/;

  it('does not count as a changed order refused: the probe is sent again and a provider ignoring the items fails', async () => {
    const report = await certifyThrough(
      ['quote-binding'],
      forward,
      ({ method, path, body }) => (isAction(method, path) && FIRST_QUANTITY_PROBE.test(keyOf(body)) ? HOLD_MS : 0),
      ['quote-binding-items-ignored'],
    );
    const r = result(report, 'quote-binding');
    expect(r.status, explain(r)).toBe('fail');
    expect(r.message, explain(r)).toMatch(
      /^POST \/actions with quote \S+ with quantity \d+ instead of \d+ for \S+ was answered 20\d and created action/,
    );
    expect(r.findings.filter((x) => x.severity === 'fail').map((x) => x.requirement)).toContain('QUOTE-BINDING');
    expect(explain(r)).toMatch(
      /re-quoted once because the quote expired before provcert's action reached the provider/,
    );
  });

  it('passes a provider that binds its quotes when the first changed-order probe is held', async () => {
    const report = await certifyThrough(['quote-binding'], forward, ({ method, path, body }) =>
      isAction(method, path) && FIRST_QUANTITY_PROBE.test(keyOf(body)) ? HOLD_MS : 0,
    );
    const r = result(report, 'quote-binding');
    expect(r.status, explain(r)).toBe('pass');
    expect(r.message, explain(r)).toMatch(
      /refused a changed quantity, .*re-quoted once because the quote expired before provcert's action reached the provider/,
    );
  });

  it('is an error naming the binding not tested when every attempt of a changed-order probe is held', async () => {
    const report = await certifyThrough(['quote-binding'], forward, ({ method, path, body }) =>
      isAction(method, path) && QUANTITY_PROBE.test(keyOf(body)) ? HOLD_MS : 0,
    );
    const r = result(report, 'quote-binding');
    expect(r.status, explain(r)).toBe('error');
    expect(r.message).toMatch(
      /^binding of the quantity was not tested \(POST \/actions with quantity \d+ instead of \d+ for \S+\): provcert took longer than the quote's validity \(\d\.\d s\) between the quote and POST \/actions on all 3 attempts/,
    );
    expect(r.message).toMatch(/rerun on a less loaded machine/);
  });
});
