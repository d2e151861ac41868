import { describe, expect, it } from 'vitest';
import { budgetRemedy } from '../../src/checks/lifecycle.js';
import { exploreCapRemedy } from '../../src/checks/quote-explore.js';
import { spellAsFlag } from '../../src/cli/setting-flags.js';
import { RUN_SETTING_DEFAULTS } from '../../src/model/generated/run-settings.js';
import { spellAsConfigKey } from '../../src/model/setting-speller.js';

/**
 * The budgets that can end a run INCOMPLETE name the run setting that would test the rule: as a flag in the CLI, as
 * a config key everywhere else (the library, fleet files, serve).
 */

describe('quote-explore: a time cap that ran out names exploreTimeCap', () => {
  it('suggests a cap that sends the minimum and every limit case at the measured pace', () => {
    // 3.2 s a quote (4 in flight), 20 generated orders and 12 limit cases, each within half of the cap: 205 s.
    const remedy = exploreCapRemedy(spellAsFlag, { capS: 20, perQuoteS: 3.2, cases: 32 });
    expect(remedy).toMatch(/^rerun with --explore-time-cap 205, or answer POST \/quote faster in the test environment/);
    expect(exploreCapRemedy(spellAsConfigKey, { capS: 20, perQuoteS: 3.2, cases: 32 })).toMatch(
      /^rerun with exploreTimeCap: 205, /,
    );
  });

  it('at least doubles the cap, and stays within the setting', () => {
    expect(exploreCapRemedy(spellAsConfigKey, { capS: 20, perQuoteS: 0.1, cases: 32 })).toMatch(/exploreTimeCap: 40,/);
    expect(exploreCapRemedy(spellAsConfigKey, { capS: 20, perQuoteS: undefined, cases: 32 })).toMatch(
      /exploreTimeCap: 80, .*more than the cap per quote/,
    );
    expect(exploreCapRemedy(spellAsConfigKey, { capS: 3000, perQuoteS: 60, cases: 120 })).toMatch(
      /exploreTimeCap: 3600,/,
    );
  });

  it('defaults to the 20 s cap the check had', () => {
    expect(RUN_SETTING_DEFAULTS.exploreTimeCap).toBe(20);
  });
});

describe('lifecycle: an order budget that ran out names lifecycleOrders', () => {
  it('suggests twice the budget when the exploration spent it', () => {
    expect(budgetRemedy(spellAsFlag, { created: 5, budget: 6 })).toBe(
      "rerun with --lifecycle-orders 12 (the exploration's order budget, 6, ran out first)",
    );
    expect(budgetRemedy(spellAsConfigKey, { created: 6, budget: 6 })).toMatch(/^rerun with lifecycleOrders: 12 /);
    expect(budgetRemedy(spellAsConfigKey, { created: 900, budget: 900 })).toMatch(/lifecycleOrders: 1000 /);
  });

  it('blames the time cap, not the budget, when orders were left', () => {
    const remedy = budgetRemedy(spellAsFlag, { created: 2, budget: 6 });
    expect(remedy).toMatch(/^rerun where the provider answers faster .*ran out after 2 of its 6 orders/);
    expect(remedy).not.toMatch(/lifecycle-orders/);
  });

  it('defaults to the 6 orders the check had', () => {
    expect(RUN_SETTING_DEFAULTS.lifecycleOrders).toBe(6);
  });
});
