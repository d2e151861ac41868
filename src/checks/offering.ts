import type { CheckContext, CheckDefinition } from './framework/types.js';
import type { OfferingView } from './framework/views.js';
import { Findings } from './outcome.js';
import { expectError, expectJson, expectSchema } from './support/expect.js';
import { expectSameOffering } from './support/same-offering.js';

/** How many catalog offerings are fetched one by one (first, middle, last: enough to catch a mapping bug). */
const SAMPLE_SIZE = 3;

export function sampleOfferings<T>(offerings: readonly T[], size = SAMPLE_SIZE): T[] {
  if (offerings.length <= size) return [...offerings];
  const picks = new Set<number>([0, Math.floor((offerings.length - 1) / 2), offerings.length - 1]);
  return [...picks].slice(0, size).flatMap((i) => (offerings[i] === undefined ? [] : [offerings[i]]));
}

async function fetchAndCompare(
  ctx: CheckContext,
  f: Findings,
  reference: OfferingView,
  key: string,
  by: 'id' | 'offeringCode',
): Promise<void> {
  const path = `/offerings/${encodeURIComponent(key)}`;
  const what = `GET ${path} (by ${by})`;
  const outcome = await ctx.client.send({ method: 'GET', path });
  if (!expectJson(f, outcome, what, 200, 'OFFERING-BY-ID-OR-CODE')) return;
  if (!expectSchema(f, ctx.contract, outcome, 'GET /offerings/{id}', what, 'OFFERING-REQUIRED-FIELDS')) return;
  expectSameOffering(f, reference, outcome.json, what, outcome);
}

export const check: CheckDefinition = {
  id: 'offering',
  group: 'read',
  title: 'Single offering by id and by offeringCode',
  rule: 'Contract, Endpoints: GET /offerings/{id}, "path id: offering id or offeringCode"; Catalog rules: "Catalog, single-offering and search results use the same schema and refer to the same provider and product ids"; Errors: 404 NOT_FOUND "endpoint or id does not exist"',
  requirements: [
    'CATALOG-SAME-IDS-ACROSS-ROUTES',
    'OFFERING-REQUIRED-FIELDS',
    'OFFERING-BY-ID-OR-CODE',
    'CANONICAL-FIELD-NAMES',
    'ERROR-NOT-FOUND',
  ],
  needs: ['catalog'],
  appliesTo: {
    operations: ['GET /offerings/{id}'],
    description: 'every provider (CATALOG is required in both profiles)',
  },
  async run(ctx) {
    const f = new Findings();
    const catalog = await ctx.resources.catalog();
    const sample = sampleOfferings(catalog.offerings);
    const unknownId = `provcert-unknown-offering-${ctx.config.seed}`;
    const [, unknown] = await Promise.all([
      Promise.all(
        sample.flatMap((o) => [
          fetchAndCompare(ctx, f, o, o.id, 'id'),
          ...(o.offeringCode !== o.id ? [fetchAndCompare(ctx, f, o, o.offeringCode, 'offeringCode')] : []),
        ]),
      ),
      ctx.client.send({ method: 'GET', path: `/offerings/${encodeURIComponent(unknownId)}` }),
    ]);
    expectError(f, unknown, {
      what: `GET /offerings/${unknownId} (an id that does not exist)`,
      statuses: [404],
      codes: ['NOT_FOUND'],
      requirement: 'ERROR-NOT-FOUND',
    });
    if (sample.length === 0) f.warn('the catalog has no offerings, so no offering could be fetched by id');
    return f.outcome(
      `${sample.length} offering(s) fetched by id and by offeringCode match the catalog; an unknown id answers 404 NOT_FOUND`,
    );
  },
};
