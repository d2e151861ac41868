import { isRecord } from '../util/json.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import type { QuoteItemInput } from './framework/views.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { describeAnswer, expectError } from './support/expect.js';
import { quoteReferenceRows, type ReferenceRow } from './support/probe-tables/quote-references.js';
import { type InvalidSelection, invalidSelections } from './support/quote-selections.js';
import { markReproduce, problemAt, success } from './support/tx.js';

/** 4xx statuses an ErrorResponse for a rejected selection may carry (the contract documents 400, 404, 422). */
const CLIENT_ERROR_STATUSES = Array.from({ length: 100 }, (_, i) => 400 + i);

interface QuotedLine {
  offeringId?: string;
  variantId?: string;
}

const linesOf = (json: unknown): QuotedLine[] => {
  const lines = isRecord(json) ? json['lines'] : undefined;
  return Array.isArray(lines) ? lines.filter((l): l is QuotedLine => isRecord(l)) : [];
};

const isUnavailableCase = (c: InvalidSelection): boolean =>
  c.name === 'unavailable-offering' || c.name === 'unavailable-variant';

/** The requirement a rejected selection stands on: availability, or the quantity and option limits. */
const requirementOf = (c: InvalidSelection): string =>
  isUnavailableCase(c) ? 'QUOTE-UNAVAILABLE' : 'QUOTE-SELECTION-LIMITS';

/**
 * What a 2xx answer to an unavailable item did: quoted it anyway, replaced it silently, or offered an explicit
 * alternative (the answer names the unavailable item while quoting something else — DECISIONS, optional fields).
 */
export function judgeUnavailableAnswer(
  c: InvalidSelection,
  json: unknown,
): 'quoted-anyway' | 'substituted' | 'alternative' {
  const wanted = c.variantId ?? c.offeringId ?? '';
  const lines = linesOf(json);
  const quotesWanted = lines.some((l) =>
    c.variantId !== undefined ? l.variantId === c.variantId : l.offeringId === c.offeringId,
  );
  if (quotesWanted) return 'quoted-anyway';
  const { lines: _lines, ...rest } = (json ?? {}) as Record<string, unknown>;
  const namesWanted = wanted !== '' && JSON.stringify(rest).includes(JSON.stringify(wanted));
  return namesWanted ? 'alternative' : 'substituted';
}

async function tryCase(
  ctx: CheckContext,
  f: Findings,
  c: InvalidSelection,
  items: QuoteItemInput[],
  base: Record<string, unknown>,
): Promise<void> {
  const { outcome } = await ctx.resources.requestQuote({ ...base, items });
  const what = `POST /quote with ${c.describe}`;
  const requirement = requirementOf(c);
  const accepted = success(outcome);
  if (!accepted) {
    if (!expectError(f, outcome, { what, statuses: CLIENT_ERROR_STATUSES, requirement }))
      markReproduce(f, ctx, outcome);
    return;
  }
  if (isUnavailableCase(c)) {
    const verdict = judgeUnavailableAnswer(c, accepted.json);
    const quoted = linesOf(accepted.json)
      .map((l) => l.variantId ?? l.offeringId ?? '?')
      .join(', ');
    if (verdict === 'alternative') {
      keepEvidence(f, outcome);
      f.warn(
        `${what} was answered ${accepted.status} with an explicit alternative (${quoted}) that names the unavailable item; a clear error is the unambiguous answer`,
        requirement,
      );
      return;
    }
    if (verdict === 'substituted') {
      problemAt(
        f,
        ctx,
        outcome,
        `silent substitution: ${what} was answered ${accepted.status} quoting ${quoted || 'nothing'} instead; expected a 4xx ErrorResponse or an explicit alternative that names the unavailable item`,
        requirement,
      );
      return;
    }
  }
  problemAt(
    f,
    ctx,
    outcome,
    `${what} was accepted (${describeAnswer(outcome)}); expected a 4xx ErrorResponse`,
    requirement,
  );
}

/** A reference row (probe-tables/quote-references.ts): any 4xx ErrorResponse refuses it; a 2xx or a 5xx fails. */
async function tryReference(
  ctx: CheckContext,
  f: Findings,
  row: ReferenceRow,
  base: Record<string, unknown>,
): Promise<void> {
  const body = { ...base, ...(row.locationId !== undefined ? { locationId: row.locationId } : {}), items: row.items };
  const { outcome } = await ctx.resources.requestQuote(body);
  const what = `POST /quote with ${row.describe}`;
  const accepted = success(outcome);
  if (!accepted) {
    if (!expectError(f, outcome, { what, statuses: CLIENT_ERROR_STATUSES, requirement: row.requirement }))
      markReproduce(f, ctx, outcome);
    return;
  }
  problemAt(
    f,
    ctx,
    outcome,
    `${what} was accepted (${describeAnswer(outcome)}); expected a 4xx ErrorResponse`,
    row.requirement,
  );
}

/** A location GET /locations?activeOnly=false lists with isActive false, if the provider has locations. */
async function inactiveLocation(ctx: CheckContext, declared: readonly string[]): Promise<string | undefined> {
  if (!declared.includes('LOCATIONS')) return undefined;
  const { outcome } = await ctx.resources.getValidated('/locations', 'GET /locations', { activeOnly: false });
  const listed = success(outcome)?.json;
  if (!Array.isArray(listed)) return undefined;
  const inactive = listed.find((l) => isRecord(l) && l['isActive'] === false && typeof l['id'] === 'string');
  return isRecord(inactive) ? String(inactive['id']) : undefined;
}

export const check: CheckDefinition = {
  id: 'quote-validation',
  group: 'transactional',
  title: 'Invalid selections are rejected, never substituted',
  rule: 'Contract, Provider route behaviour rule 1: "Availability, quantity and option selection limits are checked … An unavailable item or variant produces a clear error or supported alternative, never a silent replacement"; Errors: "| 404 | NOT_FOUND | endpoint or id does not exist" (an unknown locationId)',
  requirements: ['QUOTE-SELECTION-LIMITS', 'QUOTE-UNAVAILABLE', 'ERROR-NOT-FOUND'],
  needs: ['catalog'],
  appliesTo: { operations: ['POST /quote'], description: 'providers with QUOTE (required in TRANSACTIONAL)' },
  async run(ctx) {
    const f = new Findings();
    const [info, catalog, selection] = await Promise.all([
      ctx.resources.providerInfo(),
      ctx.resources.catalog(),
      ctx.resources.selection(),
    ]);
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
    // The reference table: a location, option or variant the provider does not have where the order names it.
    const inactiveLocationId = await inactiveLocation(ctx, info.capabilities);
    const references = quoteReferenceRows({
      catalog,
      items: selection.items,
      locations: info.capabilities.includes('LOCATIONS'),
      ...(inactiveLocationId !== undefined ? { inactiveLocationId } : {}),
      seed: ctx.config.seed,
    });
    await Promise.all(references.rows.map((row) => tryReference(ctx, f, row, base)));
    const nothing = references.absent.map((a) => `${a.name} (${a.reason})`);
    return f.outcome(
      `rejected with a 4xx ErrorResponse: ${[...tested.filter((t) => t !== undefined), ...references.rows.map((r) => r.describe)].join('; ')}${nothing.length > 0 ? `; nothing to probe for ${nothing.join(', ')}` : ''}`,
    );
  },
};
