import { describe, expect, it } from 'vitest';
import type { CheckId } from '../../src/model/check-ids.js';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import type { FaultName } from '../../src/reference-provider/index.js';
import { certifyThroughProxy } from '../support/certify.js';
import type { AnswerDelay, ProxyRule, RequestDelay } from '../support/rewriting-proxy.js';

/**
 * provcert's own slowness must not fail a provider, and a provider's slowness must not pass as provcert's. A proxy on
 * loopback holds POST /quote answers past the quote's validity before provcert gets them (as a loaded machine delays
 * provcert between the quote and POST /actions): provcert then sends its action after expiresAt, measured, and the
 * provider rightly answers QUOTE_EXPIRED; provcert re-quotes, and when every attempt is late the rule is not tested
 * (untested, the run INCOMPLETE). A request that left provcert well before expiresAt and was held (here by the
 * proxy, in flight) is the provider's finding, as is a QUOTE_EXPIRED answered before expiresAt.
 */

const TTL_S = 2;
/** Longer than the quote's validity: a held quote answer reaches provcert after its expiresAt. */
const HOLD_MS = TTL_S * 1000 + 600;

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
  holds: { request?: RequestDelay; answer?: AnswerDelay } = {},
  faults: FaultName[] = [],
): Promise<RunReport> {
  const { report } = await certifyThroughProxy(
    { only, faults, quoteTtlSeconds: TTL_S },
    {
      rule,
      ...(holds.request ? { requestDelay: holds.request } : {}),
      ...(holds.answer ? { answerDelay: holds.answer } : {}),
    },
  );
  return report;
}

const forward: ProxyRule = () => undefined;
const isQuote = (method: string, path: string): boolean => method === 'POST' && path === '/quote';

/** Holds every POST /quote answer until the proxy has seen a POST /actions matching `first` (then none). */
function holdQuotesUntilAction(first: RegExp = /./): { rule: ProxyRule; hold: AnswerDelay } {
  let seen = false;
  return {
    rule: ({ method, path, body }) => {
      if (isAction(method, path) && first.test(keyOf(body))) seen = true;
      return undefined;
    },
    hold: ({ method, path }) => (isQuote(method, path) && !seen ? HOLD_MS : 0),
  };
}
const holdEveryQuote: AnswerDelay = ({ method, path }) => (isQuote(method, path) ? HOLD_MS : 0);

describe('a quote expired by provcert’s own delay', () => {
  it.each(['payment-pending', 'cancel'] as const)('is taken again: %s passes and says it re-quoted', async (id) => {
    const { rule, hold } = holdQuotesUntilAction();
    const report = await certifyThrough([id], rule, { answer: hold });
    const r = result(report, id);
    expect(r.status, explain(r)).toBe('pass');
    expect(r.message, explain(r)).toMatch(
      /re-quoted (once|twice) because the quote expired before provcert's action reached the provider: provcert sent the first action \d+\.\d s after the quote expired/,
    );
    // The provider's QUOTE_EXPIRED answer is kept as evidence of the re-quote.
    expect(
      r.evidence.some((e) => e.response?.status === 422),
      explain(r),
    ).toBe(true);
  });

  it('is not tested (INCOMPLETE, no provider failure) when every attempt is late', async () => {
    const report = await certifyThrough(['payment-pending', 'cancel'], forward, { answer: holdEveryQuote });
    for (const id of ['payment-pending', 'cancel'] as const) {
      const r = result(report, id);
      expect(r.status, explain(r)).toBe('untested');
      expect(r.message).toMatch(
        /^[A-Z-]+ not tested: provcert took longer than the quote's validity \((\d\.\d s|already over when the quote reached provcert)\) between the quote and POST \/actions on all 3 attempts/,
      );
      expect(r.untested?.[0]?.remedy).toMatch(/rerun on a less loaded machine/);
      expect(r.findings.filter((x) => x.severity === 'fail')).toEqual([]);
      expect(r.message).not.toMatch(/bug in provcert/);
    }
    // `--only` pulls in quote-math (these checks take their quote from it): it judges the quotes the proxy held as
    // too short, a finding of its own. What the named checks could not test fails nothing.
    expect(report.pulledIn?.map((c) => c.id)).toContain('quote-math');
    expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual(['quote-math']);
    expect(report.summary.untested).toBeGreaterThan(0);
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
      /^POST \/actions with quote \S+ and the unchanged quoted order was answered QUOTE_EXPIRED \d+\.\d s before the quote's expiresAt \(HTTP 422 QUOTE_EXPIRED; expiresAt \S+\); the provider controls expiresAt and must honour it: expected the action to be created$/,
    );
    expect(binding.findings.filter((x) => x.severity === 'fail').map((x) => x.requirement)).toEqual([
      'QUOTE-MIN-VALIDITY',
    ]);
    const pending = result(report, 'payment-pending');
    expect(pending.status, explain(pending)).toBe('fail');
    expect(pending.message).toMatch(
      /^creating a test action failed: POST \/actions with quote \S+ \(expiresAt \S+\) was answered QUOTE_EXPIRED \d+\.\d s before the quote's expiresAt/,
    );
    for (const r of [binding, pending]) expect(r.message).not.toMatch(/re-quoted/);
  });

  it('blames the provider when the request left well before expiresAt and was held past it (in flight, measured)', async () => {
    const report = await certifyThrough(['payment-pending'], forward, {
      request: ({ method, path }) => (isAction(method, path) ? HOLD_MS : 0),
    });
    const pending = result(report, 'payment-pending');
    expect(pending.status, explain(pending)).toBe('fail');
    expect(pending.message).toMatch(
      /^creating a test action failed: POST \/actions with quote \S+ \(expiresAt \S+\) left provcert \d+\.\d s before the quote's expiresAt \(its last byte, measured\), and the provider held it and answered QUOTE_EXPIRED \d+\.\d s after it/,
    );
    expect(pending.message).not.toMatch(/provcert took longer|less loaded machine/);
    // The request's last byte was recorded on its evidence.
    expect(pending.evidence.some((e) => typeof e.sentMs === 'number')).toBe(true);
  });

  // The changed-order probes want a refusal, so an expiry provcert caused would pass them without testing binding.
  const FIRST_QUANTITY_PROBE = /-quote-binding-quantity$/;

  it('does not count as a changed order refused: the probe is sent again and a provider ignoring the items fails', async () => {
    const { rule, hold } = holdQuotesUntilAction(FIRST_QUANTITY_PROBE);
    const report = await certifyThrough(['quote-binding'], rule, { answer: hold }, ['quote-binding-items-ignored']);
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

  it('passes a provider that binds its quotes when the first changed-order probe is late', async () => {
    const { rule, hold } = holdQuotesUntilAction(FIRST_QUANTITY_PROBE);
    const report = await certifyThrough(['quote-binding'], rule, { answer: hold });
    const r = result(report, 'quote-binding');
    expect(r.status, explain(r)).toBe('pass');
    expect(r.message, explain(r)).toMatch(
      /refused a changed quantity, .*re-quoted once because the quote expired before provcert's action reached the provider/,
    );
  });

  it('is not tested, naming the binding, when every attempt of a changed-order probe is late', async () => {
    const report = await certifyThrough(['quote-binding'], forward, { answer: holdEveryQuote });
    const r = result(report, 'quote-binding');
    expect(r.status, explain(r)).toBe('untested');
    expect(r.message).toMatch(
      /^QUOTE-BINDING not tested: binding of the quantity was not tested \(POST \/actions with quantity \d+ instead of \d+ for \S+\): provcert took longer than the quote's validity \((\d\.\d s|already over when the quote reached provcert)\) between the quote and POST \/actions on all 3 attempts/,
    );
    expect(r.untested?.[0]?.remedy).toMatch(/rerun on a less loaded machine/);
    // `--only` pulls in quote-math (these checks take their quote from it): it judges the quotes the proxy held as
    // too short, a finding of its own. What the named checks could not test fails nothing.
    expect(report.pulledIn?.map((c) => c.id)).toContain('quote-math');
    expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual(['quote-math']);
    expect(report.summary.untested).toBeGreaterThan(0);
  });
});
