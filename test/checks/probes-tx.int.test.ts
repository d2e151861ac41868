import { describe, expect, it } from 'vitest';
import type { CheckId } from '../../src/model/check-ids.js';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { canonicalJson } from '../../src/reference-provider/http.js';
import { ALL_CAPABILITIES } from '../../src/reference-provider/info.js';
import { certify, certifyThroughProxy } from '../support/certify.js';

/**
 * Issue 33 item 2, the idempotency table's states, both ways beyond the faults (those are in tx.e2e.test.ts): what the
 * contract leaves open passes, and a state provcert could not reach is never a pass.
 */

const result = (report: RunReport, id: CheckId): CheckResult => {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no result for ${id}`);
  return found;
};
const explain = (r: CheckResult): string =>
  `${r.id}: ${r.status} — ${r.message}\n  ${r.findings.map((f) => `${f.severity} [${f.requirement}] ${f.message}`).join('\n  ')}`;

/** Every capability the reference provider declares, but ACTION_CANCEL. */
const WITHOUT_CANCEL = ALL_CAPABILITIES.filter((c) => c !== 'ACTION_CANCEL');

describe('idempotency in every state', () => {
  it('passes, with a warning, a provider that answers a changed payload QUOTE_EXPIRED once the quote expired', async () => {
    // The provider judges the quote before comparing payloads, for a changed payload only: after the expiry two stated
    // rules apply and the contract does not order them.
    const expiries = new Map<string, number>();
    const firstBody = new Map<string, string>();
    // The proxy judges expiry by the wall clock, so the run keeps it too.
    const { report } = await certifyThroughProxy(
      { only: ['idempotency'], quoteTtlSeconds: 5, clock: 'system' },
      {
        rule: ({ method, path, body }) => {
          if (method === 'POST' && path === '/quote')
            return {
              rewrite: (json) => {
                const q = json as { id?: string; expiresAt?: string };
                if (q.id && q.expiresAt) expiries.set(q.id, Date.parse(q.expiresAt));
                return json;
              },
            };
          if (method !== 'POST' || path !== '/actions') return undefined;
          const sent = JSON.parse(body) as { idempotencyKey?: string; quoteId?: string };
          const key = sent.idempotencyKey ?? '';
          // The payload, not its bytes: the same payload with its keys reordered is no changed payload.
          const payload = canonicalJson(sent);
          if (!firstBody.has(key)) firstBody.set(key, payload);
          const expired = Date.now() >= (expiries.get(sent.quoteId ?? '') ?? Number.POSITIVE_INFINITY);
          if (firstBody.get(key) === payload || !expired || sent.quoteId === undefined) return undefined;
          const original = JSON.parse(firstBody.get(key) ?? '{}') as { quoteId?: string };
          if (Date.now() < (expiries.get(original.quoteId ?? '') ?? Number.POSITIVE_INFINITY)) return undefined;
          return { answer: { status: 422, json: { code: 'QUOTE_EXPIRED', message: 'quote expired' } } };
        },
      },
    );
    const r = result(report, 'idempotency');
    expect(r.status, explain(r)).toBe('pass');
    expect(
      r.findings.some(
        (f) =>
          f.severity === 'warn' &&
          f.requirement === 'ACTION-KEY-REUSE-409' &&
          /^\[quote expired\] POST \/actions reusing an idempotencyKey with .* was answered HTTP 422 QUOTE_EXPIRED; 409 IDEMPOTENCY_KEY_REUSED_WITH_DIFFERENT_PAYLOAD names the reused key/.test(
            f.message,
          ),
      ),
      explain(r),
    ).toBe(true);
  });

  it('is never a pass when the quote outlives the expiry wait: the quote-expired state is untested', async () => {
    const { report } = await certify({ only: ['idempotency'], quoteTtlSeconds: 30, maxExpiryWaitS: 5 });
    const r = result(report, 'idempotency');
    expect(r.status, explain(r)).toBe('untested');
    expect(r.message).toMatch(
      /^ACTION-DUPLICATE-SAME-ACTION not tested: the quote-expired state: quote \S+ expires in \d+ s, longer than .*maxExpiryWait.* 5.*; to test it: rerun with/,
    );
    expect(report.verdict).toBe('INCOMPLETE');
  });

  it('probes the open and quote-expired states of a provider without ACTION_CANCEL, saying the cancelled one is not reached', async () => {
    const { report, provider } = await certify({
      only: ['idempotency'],
      quoteTtlSeconds: 5,
      capabilities: WITHOUT_CANCEL,
    });
    const r = result(report, 'idempotency');
    expect(r.status, explain(r)).toBe('pass');
    expect(r.message).toMatch(/in every state \(open, quote expired\)/);
    expect(r.message).toMatch(/the cancelled state is not probed: the provider does not declare ACTION_CANCEL/);
    expect(provider.requests.filter((q) => q.path.endsWith('/cancel'))).toEqual([]);
  });
});
