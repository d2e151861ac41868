import { describe, expect, it } from 'vitest';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { certifyThroughProxy } from '../support/certify.js';
import type { ProxyRule } from '../support/rewriting-proxy.js';

/**
 * Issue 24 item 10, end to end through a rewriting proxy in front of the reference provider: a 5xx that does not
 * repeat on one retry, and a provider's own bound (a clear 4xx) on the selection provcert derives, never fail
 * quote-math; a 5xx that repeats does.
 */

const quoteMath = (report: RunReport): CheckResult => {
  const found = report.checks.find((c) => c.id === 'quote-math');
  if (!found) throw new Error('no quote-math result');
  return found;
};

async function certifyThrough(rule: ProxyRule): Promise<CheckResult> {
  return quoteMath((await certifyThroughProxy({ only: ['quote-math'] }, { rule })).report);
}

const internalError = { answer: { status: 503, json: { code: 'INTERNAL_ERROR', message: 'busy, try again' } } };

describe('quote-math and a valid order answered 4xx or 5xx', () => {
  it('passes, with a warning, when a 5xx does not repeat on one retry', async () => {
    const seen = new Set<string>();
    const r = await certifyThrough(({ method, path, body }) => {
      if (method !== 'POST' || path !== '/quote' || seen.has(body)) return undefined;
      seen.add(body);
      return internalError;
    });
    expect(r.status, r.message).toBe('pass');
    expect(r.warnings?.some((w) => /answered HTTP 503 INTERNAL_ERROR once; it was retried/.test(w))).toBe(true);
  });

  it('fails when the 5xx happens again on the retry', async () => {
    const r = await certifyThrough(({ method, path }) =>
      method === 'POST' && path === '/quote' ? internalError : undefined,
    );
    expect(r.status).toBe('fail');
    expect(r.message).toMatch(/answered HTTP 503 INTERNAL_ERROR; expected 200 with a NormalizedQuote/);
  });

  it("warns, without failing, when the provider's own bound refuses the selection provcert derived", async () => {
    // The certification input is made one of quantity 1, so quote-math also quotes a derived selection of
    // quantity 2; the provider refuses any quantity above 1 with a clear 400.
    const r = await certifyThrough(({ method, path, body }) => {
      if (method === 'GET' && path === '/provider-info')
        return {
          rewrite: (json) => {
            const info = json as { manifest: { certificationInput: { items: { quantity: number }[] } } };
            for (const item of info.manifest.certificationInput.items) item.quantity = 1;
            return info;
          },
        };
      if (method === 'POST' && path === '/quote' && /"quantity":[2-9]/.test(body))
        return { answer: { status: 400, json: { code: 'INVALID_ARGUMENT', message: 'at most 1 of each item' } } };
      return undefined;
    });
    expect(r.status, `${r.message}\n${(r.details ?? []).join('\n')}`).toBe('pass');
    expect(
      r.warnings?.some((w) => /refused a valid order: HTTP 400 INVALID_ARGUMENT: at most 1 of each item/.test(w)),
    ).toBe(true);
  });
});
