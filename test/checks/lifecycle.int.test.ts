import { describe, expect, it } from 'vitest';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { ALL_CAPABILITIES, FAULTS, type FaultName } from '../../src/reference-provider/index.js';
import { VARIANTS } from '../../src/reference-provider/variants.js';
import { certify } from '../support/certify.js';
import { strayFailCitations, undeclaredCitations } from '../support/citations.js';

/** The lifecycle exploration, proven both ways against the reference provider over loopback. */

const lifecycle = (report: RunReport): CheckResult => {
  const found = report.checks.find((c) => c.id === 'lifecycle');
  if (!found) throw new Error('no lifecycle result');
  return found;
};

const explain = (r: CheckResult): string =>
  `${r.id}: ${r.status} — ${r.message}${r.details ? `\n  ${r.details.join('\n  ')}` : ''}`;

// Quotes live 1 s: the exploration waits for expiry, so a short (non-conforming) validity keeps the tests fast;
// the lifecycle check judges no validity (quote-math does).
const QUOTE_TTL_SECONDS = 1;

/** What each fault's shrunk failure must say: the broken answer, then the shortest sequence that leads to it. */
const A = String.raw`action DK-\d+(?: \(id act_\S+\))?`;
const START = String.raw`1\. quote 1 \(POST \/quote → HTTP 200 q_\S+\); 2\. create an action on quote 1 with a fresh key \(POST \/actions → HTTP 200 DK-\d+\)`;
const WAIT = String.raw`\d\. wait until every quote has expired`;
const CANCEL = String.raw`3\. cancel action 1 \(open\)`;
const names = (...parts: string[]): RegExp => new RegExp(parts.join(''));
const NAMES: Record<string, RegExp> = {
  // A repeat after a cancel makes a new attempt: a second order, or (its quote expired too) a QUOTE_EXPIRED refusal.
  'lifecycle-repeat-after-cancel-creates': names(
    String.raw`^repeating POST \/actions with the key and body of `,
    A,
    String.raw` \(cancelled.*\) (returned action DK-\d+: a retry created a second order|was answered HTTP 422 QUOTE_EXPIRED; expected the identical existing action) — shortest sequence \(\d+ step\(s\).*: `,
    START,
    '; ',
    CANCEL,
  ),
  'lifecycle-repeat-after-expiry-refused': names(
    String.raw`^repeating POST \/actions with the key and body of `,
    A,
    String.raw` \((open|cancelled), its quote expired\) was answered HTTP 422 QUOTE_EXPIRED; expected the identical existing action — shortest sequence \(\d+ step\(s\).*: `,
    START,
    '; .*',
    WAIT,
  ),
  'lifecycle-changed-after-cancel-accepted': names(
    String.raw`^repeating POST \/actions with the key of `,
    A,
    String.raw` \(cancelled.*\) and a changed .* was answered 200 with the existing action; expected 409 IDEMPOTENCY_KEY_REUSED_WITH_DIFFERENT_PAYLOAD — shortest sequence \(\d+ step\(s\).*: `,
    START,
    '; ',
    CANCEL,
  ),
  'lifecycle-used-quote-expiry-unchecked': names(
    String.raw`^POST \/actions with quote q_\S+ \(expired at .* and already used by action 1\) was answered 200 and created action DK-\d+; an expired quote creates no action — shortest sequence \(\d+ step\(s\).*: `,
    START,
    '; ',
    WAIT,
    String.raw`.*; 4\. create an action on quote 1 \(expired and already used by action 1\)`,
  ),
  'lifecycle-cancelled-total-changed': names(
    String.raw`^GET \/actions\/act_\S+ of action DK-\d+ \(cancelled.*\) reports total 0 \(was \d+\): not the order creation answered — shortest sequence \(\d+ step\(s\).*: `,
    START,
    '; ',
    CANCEL,
  ),
  'lifecycle-repeat-reopens-cancelled': names(
    String.raw`^GET \/actions\/act_\S+ of action DK-\d+ \(cancelled.*\) says status "AWAITING_PAYMENT"; the latest event about it \(.*\) says newStatus CANCELLED — shortest sequence \(\d+ step\(s\).*: `,
    START,
    '; ',
    CANCEL,
    String.raw`.*; 4\. repeat action 1 \(cancelled.*\): same key, same body`,
  ),
  'lifecycle-payment-options-cancelled-object': names(
    String.raw`^GET \/actions\/act_\S+\/payment-options of action DK-\d+ \(cancelled.*\) was answered HTTP 200 with an object \(keys options\); expected a top-level array of PaymentOption — shortest sequence \(\d+ step\(s\).*: `,
    START,
    '; ',
    CANCEL,
  ),
};

const faults = (Object.keys(FAULTS) as FaultName[]).filter((name) => FAULTS[name].check === 'lifecycle');

describe('lifecycle exploration against the reference provider', () => {
  // long-quotes outlive the expiry wait: lifecycle is then untested (not-tested.int.test.ts).
  it.each(VARIANTS.filter((v) => v !== 'long-quotes'))(
    'passes on the conforming %s variant, reaching every state within its budget',
    async (variant) => {
      const { report, provider } = await certify({ only: ['lifecycle'], variant, quoteTtlSeconds: QUOTE_TTL_SECONDS });
      const r = lifecycle(report);
      expect(r.status, explain(r)).toBe('pass');
      expect(r.message).toMatch(/reached: .*repeat \(cancelled.*\).*/);
      expect(r.message).toMatch(/its quote expired/);
      expect(undeclaredCitations(report)).toEqual([]);
      // Bounded: a small number of orders, each cancelled after its sequence.
      const created = provider.requests.filter((q) => q.method === 'POST' && q.path === '/actions').length;
      expect(created).toBeGreaterThan(0);
      const orders = Number(/(\d+) order\(s\) created/.exec(r.message)?.[1]);
      expect(orders).toBeGreaterThan(0);
      expect(orders).toBeLessThanOrEqual(6);
    },
  );

  it('is untested (naming the setting, never a pass) when quotes outlive the expiry wait', async () => {
    const { report, provider } = await certify({ only: ['lifecycle'], quoteTtlSeconds: 20, maxExpiryWaitS: 5 });
    const r = lifecycle(report);
    expect(r.status, explain(r)).toBe('untested');
    expect(r.message).toMatch(
      /^ACTION-DUPLICATE-SAME-ACTION not tested: the lifecycle exploration reached no a repeat after the quote expired: quote \S+ is valid for 2\d s, longer than .*max-?expiry-?wait.* 5/i,
    );
    expect(r.untested?.map((u) => u.requirement)).toEqual([
      'ACTION-DUPLICATE-SAME-ACTION',
      'ACTION-EXPIRED-QUOTE-NO-ACTION',
    ]);
    expect(report.verdict).toBe('INCOMPLETE');
    expect(r.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    // It still explored what it could, within its budget, and cancelled what it created.
    const cancels = provider.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/cancel')).length;
    expect(cancels).toBeGreaterThan(0);
    expect(cancels).toBeLessThanOrEqual(6);
  });

  it('explores without cancels when the provider does not declare ACTION_CANCEL', async () => {
    const capabilities = ALL_CAPABILITIES.filter((c) => c !== 'ACTION_CANCEL');
    const { report, provider } = await certify({
      only: ['lifecycle'],
      capabilities,
      portalCapabilities: capabilities,
      quoteTtlSeconds: QUOTE_TTL_SECONDS,
    });
    const r = lifecycle(report);
    expect(r.status, explain(r)).toBe('pass');
    expect(r.message).not.toMatch(/\(cancelled/);
    expect(provider.requests.filter((q) => q.path.endsWith('/cancel'))).toEqual([]);
  });

  it('covers every lifecycle fault with a message', () => {
    expect(faults.length).toBeGreaterThan(0);
    for (const name of faults) expect(NAMES[name], `no expected message for fault ${name}`).toBeDefined();
  });

  it.each(faults)('fault %s fails with the shortest sequence and a curl line per step', async (fault) => {
    const { report } = await certify({ faults: [fault], only: ['lifecycle'], quoteTtlSeconds: QUOTE_TTL_SECONDS });
    const r = lifecycle(report);
    expect(r.status, explain(r)).toBe('fail');
    expect(r.message, explain(r)).toMatch(NAMES[fault] as RegExp);
    const steps = Number(/shortest sequence \((\d+) step/.exec(r.message)?.[1]);
    // One curl line per request step (a wait sends none).
    const curls = (r.reproduce ?? '').split('\n').filter((l) => l.startsWith('curl ') || l.startsWith('BODY='));
    expect(curls.filter((l) => l.startsWith('curl ')).length, explain(r)).toBe(
      steps - (r.message.includes('wait until every quote has expired') ? 1 : 0),
    );
    expect(r.reproduce).not.toContain('test-credential');
    expect(r.evidence.length).toBeGreaterThan(0);
    expect(
      r.findings.filter((f) => f.severity === 'fail').map((f) => f.requirement),
      explain(r),
    ).toContain(FAULTS[fault].requirement);
    expect(strayFailCitations(r, FAULTS[fault]), explain(r)).toEqual([]);
    expect(undeclaredCitations(report)).toEqual([]);
  });
});
