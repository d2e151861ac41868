import { PrerequisiteError } from '../runner/resources.js';
import { Findings } from './outcome.js';
import { judgeCatalogConsistency } from './support/catalog-consistency.js';
import { evidenceOnce, expectJson, expectSchema } from './support/expect.js';
import type { CheckContext, CheckDefinition } from './types.js';

/** How many consistency problems are listed one by one; the rest are counted. */
const MAX_LISTED = 20;

async function providerSlug(ctx: CheckContext): Promise<string | undefined> {
  try {
    return (await ctx.resources.providerInfo()).slug;
  } catch (error) {
    if (error instanceof PrerequisiteError) return undefined; // metadata reports it
    throw error;
  }
}

export const check: CheckDefinition = {
  id: 'catalog',
  title: 'Catalog schema and consistency',
  rule:
    'Contract, Catalog and Offering: required fields and types (money amounts are integers), Category offeringsCount, OptionGroup "minSelections and maxSelections constrain the choices"; "When optional values are unavailable they are omitted unless the schema allows null"; route rule 5: "malformed catalog identified"',
  appliesTo: { operations: ['GET /catalog'], description: 'every provider (CATALOG is required in both profiles)' },
  async run(ctx) {
    const f = new Findings();
    const [outcome, slug] = await Promise.all([ctx.client.send({ method: 'GET', path: '/catalog' }), providerSlug(ctx)]);
    if (!expectJson(f, outcome, 'GET /catalog')) return f.outcome('');
    // Schema problems and consistency problems are both listed: a provider fixes them in one go.
    const schemaValid = expectSchema(f, ctx.contract, outcome, 'GET /catalog');
    const { problems, warnings } = judgeCatalogConsistency(outcome.json, slug);
    for (const p of problems.slice(0, MAX_LISTED)) f.problem(`GET /catalog: ${p}`);
    if (problems.length > MAX_LISTED) f.problem(`GET /catalog: … and ${problems.length - MAX_LISTED} more consistency problems`);
    for (const w of warnings) f.warn(`GET /catalog: ${w}`);
    if (problems.length > 0 && schemaValid) evidenceOnce(f, outcome);
    const body = outcome.json as { categories?: unknown[]; offerings?: unknown[] };
    return f.outcome(`${body.offerings?.length ?? 0} offering(s) in ${body.categories?.length ?? 0} categor${body.categories?.length === 1 ? 'y' : 'ies'}; schema valid, ids unique, categories and option groups consistent`);
  },
};
