import { describe, expect, it } from 'vitest';
import type { CheckId } from '../../src/model/check-ids.js';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import type { FaultName, Variant } from '../../src/reference-provider/index.js';
import { certify, certifyThroughProxy, FAULTS } from '../support/certify.js';
import { strayFailCitations } from '../support/citations.js';

/**
 * quote-explore proven both ways against the reference provider over loopback: every explore fault keeps
 * manifest.certificationInput correct (quote-math passes) and quote-explore fails with a minimal order and its
 * curl reproduce; the conforming variants pass.
 */

const ONLY: CheckId[] = ['quote-math', 'quote-explore'];

const result = (report: RunReport, id: CheckId): CheckResult => {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no result for ${id}`);
  return found;
};

const explain = (r: CheckResult): string =>
  `${r.id}: ${r.status} — ${r.message}${r.details ? `\n  ${r.details.join('\n  ')}` : ''}${r.warnings ? `\n  warnings: ${r.warnings.join('\n  ')}` : ''}`;

/** What each fault's failure message names, and the most items its minimal order may keep. */
const EXPECTED: Record<string, { message: RegExp; items: number }> = {
  'explore-variant-line-total': { message: /^line 1 lineTotal is \d+; expected \d+ = 1250 × \d+ \+ \d+/, items: 1 },
  'explore-option-quantity-ignored': { message: /^line 1 optionsTotal is \d+; expected \d+ = .*× [2-4] × /, items: 1 },
  'explore-max-selections-refused': {
    message:
      /^the valid side of a limit was refused: POST \/quote with 2 option\(s\) in group .* \(exactly maxSelections 2\)/,
    items: 1,
  },
  'explore-min-selections-refused': {
    message: /^the valid side of a limit was refused: POST \/quote with .* answered HTTP 400 INVALID_ARGUMENT/,
    items: 1,
  },
  'explore-group-second-option-free': { message: /^line 1 optionsTotal is \d+; expected \d+ = .* \+ /, items: 1 },
  'explore-cart-lines-dropped': { message: /^the quote has no line for the selected offering/, items: 3 },
  'explore-same-offering-merged': {
    message: /^(the quote has no line for the selected offering|quote line 1 \(offering .*\) has quantity)/,
    items: 2,
  },
  'explore-large-quantity-capped': {
    message: /^line 1 lineTotal is \d+; expected \d+ = \d+ × (1\d|[2-4]\d) \+/,
    items: 1,
  },
  'explore-large-order-fee-unsummed': {
    message: /^totalFees is \d+; expected \d+ = .* \+ 500 \(Σ fees\[\]\.amount\)/,
    items: 6,
  },
  'explore-second-location-total': { message: /^total is \d+; expected \d+ = .*"locationId":"loc-airport"/s, items: 1 },
  'explore-stale-option-price': { message: /^line 1 optionsTotal is \d+; expected \d+ = .*180 × 1 × /, items: 1 },
  'explore-large-cart-error': { message: /^POST \/quote answered HTTP 500, and again on one retry/, items: 5 },
  'explore-above-max-accepted': {
    message: /^POST \/quote with \d options in group .* \(maxSelections \d\) was accepted \(HTTP 200\)/,
    items: 1,
  },
  'explore-required-default-filled': {
    message: /^POST \/quote with no choice in group .*crust .* \(required\) was accepted/,
    items: 1,
  },
  'explore-unavailable-option-accepted': {
    message: /POST \/quote with unavailable option opt-.*-top-jalapeno .* was accepted/,
    items: 1,
  },
  'explore-foreign-option-accepted': {
    message: /POST \/quote with option .* of offering .*'s group .* on offering .* was accepted/,
    items: 1,
  },
  'explore-negative-quantity-accepted': {
    message: /POST \/quote with quantity -1 of offering .* was accepted/,
    items: 1,
  },
  'explore-subtotal-third-line-missing': { message: /^subtotal is \d+; expected \d+ = \d+ \+ \d+ \+ \d+/, items: 3 },
  'explore-toppings-fee': {
    message: /^fee "Extra toppings" \(\d+\) equals the options' contribution .* and its name says it charges options/,
    items: 1,
  },
  'explore-large-cart-short-validity': { message: /^expiresAt .* is only [\d.]+ s after the request/, items: 4 },
  'explore-repeat-offering-no-id': {
    message: /^the answer does not match NormalizedQuote: .*"id"/,
    items: 2,
  },
  'explore-unknown-option-code': {
    message:
      /POST \/quote with unknown option id provcert-unknown-option .* was refused with code OPTION_NOT_FOUND, which is not a documented error code/,
    items: 1,
  },
  'explore-unknown-variant-ignored': {
    message: /silent substitution: POST \/quote with unknown variant id provcert-unknown-variant .* was answered 200/,
    items: 1,
  },
};

/** What two runs of one seed must report alike: verdict, texts and citations (not timings, ports or evidence). */
const comparable = (r: CheckResult) => ({
  status: r.status,
  message: r.message,
  summary: [r.message, ...(r.details ?? [])].find((l) => l.startsWith('explored ')),
  warnings: r.warnings ?? [],
  findings: r.findings.map((f) => `${f.severity} ${f.requirement} ${f.message}`),
});

/** The order a failure names ("minimal order (…): {…}" or "(order {…})"). */
function namedOrder(line: string): { items: unknown[] } {
  const start = line.indexOf('{"');
  const end = line.lastIndexOf('}');
  return JSON.parse(line.slice(start, end + 1)) as { items: unknown[] };
}

const exploreFaults = (Object.keys(FAULTS) as FaultName[]).filter((name) => FAULTS[name].check === 'quote-explore');

describe('quote-explore against the reference provider', () => {
  it('passes on the conforming provider and reports what it reached, with its seed', async () => {
    const { report, provider } = await certify({ only: ONLY, seed: '20261126' });
    const r = result(report, 'quote-explore');
    expect(r.status, explain(r)).toBe('pass');
    expect(r.message).toMatch(
      /^explored 100 generated order\(s\) and \d+ limit case\(s\) with seed 20261126 \(seed: 20261126 repeats them\)/,
    );
    expect(r.message).toMatch(/reached 6\/6 offerings, 4\/4 variants, 15\/15 options, 10\/10 group boundaries/);
    expect(r.message).not.toContain('shaped by the provider');
    // Only POST /quote and GET: exploration never creates an order.
    expect(provider.requests.filter((q) => q.method === 'POST' && q.path !== '/quote')).toEqual([]);
  });

  it('sends the same requests for the same seed, and others for another seed', async () => {
    const bodies = async (seed: string) => {
      const { provider } = await certify({ only: ['quote-explore'], seed, explore: 30 });
      return [...provider.quoteBodies].sort();
    };
    const first = await bodies('7');
    expect(first.length).toBeGreaterThan(30);
    expect(await bodies('7')).toEqual(first);
    expect(await bodies('8')).not.toEqual(first);
  });

  // The bounded variant refuses carts above 4 items and quantities above 20 (a clear 4xx: smaller orders are sent
  // and later orders stay within the bound); explore-min-selections-refused refuses every order leaving an optional
  // group empty; explore-large-quantity-capped also fails generated orders, which are shrunk. The second run's
  // refusals reach the explorer 40 ms late, as on a network: what is sent and found must not depend on it.
  it.each([
    { variant: 'bounded' as Variant, faults: [] as FaultName[] },
    { variant: 'bounded' as Variant, faults: ['explore-large-quantity-capped'] as FaultName[] },
    { variant: 'standard' as Variant, faults: ['explore-min-selections-refused'] as FaultName[] },
  ])(
    'sends the same orders and finds the same for one seed when the provider refuses some ($variant $faults)',
    async ({ variant, faults }) => {
      const run = async (refusalDelayMs: number) => {
        const { report, provider } = await certifyThroughProxy(
          { only: ['quote-explore'], seed: '7', explore: 100, variant, faults },
          {
            answerDelay: ({ path }, status) =>
              path === '/quote' && status >= 400 && status < 500 ? refusalDelayMs : 0,
          },
        );
        return { bodies: [...provider.quoteBodies].sort(), found: comparable(result(report, 'quote-explore')) };
      };
      const prompt = await run(0);
      const late = await run(40);
      // Generated orders were refused, so what came next depended on refusals.
      expect(prompt.found.warnings.some((w) => w.startsWith('refused a valid order'))).toBe(true);
      expect(late.bodies).toEqual(prompt.bodies);
      expect(late.found).toEqual(prompt.found);
      // ...and the report names the orders that depended on them.
      expect(prompt.found.summary).toMatch(/; \d+ generated order\(s\) were shaped by the provider's refusals \(#\d+/);
    },
  );

  it('is off with an explore budget of 0 and sends nothing', async () => {
    const { report, provider } = await certify({ only: ['quote-explore'], explore: 0 });
    expect(result(report, 'quote-explore')).toMatchObject({
      status: 'skip',
      message: 'exploration is off (explore: 0); no generated order was sent',
    });
    expect(provider.quoteBodies).toEqual([]);
  });

  it.each(['bounded', 'lines-reordered', 'options-reordered'] as Variant[])(
    'passes on the conforming %s variant',
    async (variant) => {
      const { report } = await certify({ only: ONLY, variant });
      for (const id of ONLY) expect(result(report, id).status, explain(result(report, id))).toBe('pass');
      const warnings = result(report, 'quote-explore').warnings ?? [];
      if (variant === 'bounded')
        expect(warnings.some((w) => /^refused a valid order: HTTP 400 INVALID_ARGUMENT: at most/.test(w))).toBe(true);
    },
  );

  it('has an expected message for every explore fault', () => {
    expect(exploreFaults.length).toBeGreaterThanOrEqual(23);
    for (const fault of exploreFaults) expect(EXPECTED[fault], fault).toBeDefined();
  });

  it.each(exploreFaults)('%s: quote-math passes, quote-explore fails on a minimal order', async (fault) => {
    const { report } = await certify({ only: ONLY, faults: [fault] });
    const math = result(report, 'quote-math');
    expect(math.status, explain(math)).toBe('pass');
    const r = result(report, 'quote-explore');
    expect(r.status, explain(r)).toBe('fail');
    const expected = EXPECTED[fault];
    const line = [r.message, ...(r.details ?? [])].find((l) => expected?.message.test(l));
    expect(line, explain(r)).toBeDefined();
    // The failure stands on the requirement the fault breaks.
    expect(r.findings.filter((f) => f.severity === 'fail').map((f) => f.requirement)).toContain(
      FAULTS[fault].requirement,
    );
    // ...and every failure stands on a rule the fault breaks.
    expect(strayFailCitations(r, FAULTS[fault]), explain(r)).toEqual([]);
    // Minimal: no more items than the fault needs; the reproduce sends exactly the first failing order.
    const order = namedOrder(r.message);
    expect(order.items.length, r.message).toBeLessThanOrEqual(expected?.items ?? 1);
    expect(r.reproduce).toMatch(/curl .* -X POST '.*\/quote'/s);
    expect(r.reproduce).toContain(JSON.stringify(order.items));
    expect(r.evidence.length).toBeGreaterThan(0);
  });
});
