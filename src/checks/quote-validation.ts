import { Findings } from './outcome.js';
import { describeAnswer, expectError } from './support/expect.js';
import { invalidSelections, type InvalidSelection } from './support/quote-selections.js';
import { markReproduce, problemAt, success } from './support/tx.js';
import type { CheckContext, CheckDefinition } from './types.js';
import type { QuoteItemInput } from './views.js';

/** 4xx statuses an ErrorResponse for a rejected selection may carry (the contract documents 400, 404, 422). */
const CLIENT_ERROR_STATUSES = Array.from({ length: 100 }, (_, i) => 400 + i);

const offeringIdsOf = (json: unknown): string[] => {
  const lines = (json as { lines?: unknown } | null)?.lines;
  return Array.isArray(lines) ? lines.map((l) => (l as { offeringId?: unknown } | null)?.offeringId).filter((id): id is string => typeof id === 'string') : [];
};

async function tryCase(ctx: CheckContext, f: Findings, c: InvalidSelection, items: QuoteItemInput[], base: Record<string, unknown>): Promise<void> {
  const { outcome } = await ctx.resources.requestQuote({ ...base, items });
  const what = `POST /quote with ${c.describe}`;
  const accepted = success(outcome);
  if (!accepted) {
    if (!expectError(f, outcome, { what, statuses: CLIENT_ERROR_STATUSES })) markReproduce(f, ctx, outcome);
    return;
  }
  const quoted = offeringIdsOf(accepted.json);
  if (c.offeringId !== undefined && quoted.length > 0 && !quoted.includes(c.offeringId)) {
    problemAt(f, ctx, outcome, `silent substitution: ${what} was answered ${accepted.status} quoting offering ${quoted.join(', ')} instead; expected a 4xx ErrorResponse`);
    return;
  }
  problemAt(f, ctx, outcome, `${what} was accepted (${describeAnswer(outcome)}); expected a 4xx ErrorResponse`);
}

export const check: CheckDefinition = {
  id: 'quote-validation',
  title: 'Invalid selections are rejected, never substituted',
  rule:
    'Contract, Provider route behaviour rule 1: "Availability, quantity and option selection limits are checked … An unavailable item or variant produces a clear error or supported alternative, never a silent replacement"',
  appliesTo: { operations: ['POST /quote'], description: 'providers with QUOTE (required in TRANSACTIONAL)' },
  createsOrders: true,
  async run(ctx) {
    const f = new Findings();
    const [info, catalog, selection] = await Promise.all([ctx.resources.providerInfo(), ctx.resources.catalog(), ctx.resources.selection()]);
    const base = { providerSlug: info.slug, ...(selection.locationId ? { locationId: selection.locationId } : {}) };
    const cases = invalidSelections(catalog, selection.items);
    const tested = await Promise.all(
      cases.map(async (c) => {
        if (!c.items) {
          f.warn(`not tested: ${c.describe} (${c.notTestable ?? 'not derivable from the catalog'})`);
          return undefined;
        }
        await tryCase(ctx, f, c, c.items, base);
        return c.describe;
      }),
    );
    return f.outcome(`rejected with a 4xx ErrorResponse: ${tested.filter((t) => t !== undefined).join('; ')}`);
  },
};
