import type { RequirementId } from '../model/findings.js';
import { PrerequisiteError } from './framework/resources.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { judgeCatalogConsistency } from './support/catalog-consistency.js';
import { changedIds } from './support/catalog-ids.js';
import { keepEvidence } from './support/evidence.js';
import { describeAnswer, expectJson, expectSchema, type JsonResponse } from './support/expect.js';

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

/** The rule a consistency warning is advice about. */
function warningRequirement(warning: string): RequirementId {
  if (/Selections/.test(warning)) return 'OPTION-GROUP-LIMITS-CONSISTENT';
  if (/categorySlug|categoryTitle|offeringsCount/.test(warning)) return 'CATEGORY-FIELDS';
  if (/offeringCode/.test(warning)) return 'ORDER-FLOW-BY-IDS';
  if (/is negative/.test(warning)) return 'MONEY-INTEGERS';
  return 'CATALOG-REQUIRED-FIELDS';
}

/** A second GET /catalog must keep every id the first one gave (the order flow uses ids, not names). */
async function compareRefresh(ctx: CheckContext, f: Findings, first: JsonResponse): Promise<void> {
  const again = await ctx.client.send({ method: 'GET', path: '/catalog' });
  if (again.kind !== 'response' || again.status !== 200 || again.bodyKind !== 'json') {
    f.warn(
      `a second GET /catalog answered ${describeAnswer(again)}; id stability across refreshes was not judged`,
      'CATALOG-IDS-STABLE',
    );
    return;
  }
  const changes = changedIds(first.json, again.json);
  if (changes.length === 0) return;
  keepEvidence(f, first);
  keepEvidence(f, again);
  for (const c of changes.slice(0, MAX_LISTED))
    f.problem(`GET /catalog twice: ${c}; ids must be stable across catalog refreshes`, 'CATALOG-IDS-STABLE');
  if (changes.length > MAX_LISTED)
    f.problem(`GET /catalog twice: … and ${changes.length - MAX_LISTED} more changed ids`, 'CATALOG-IDS-STABLE');
}

export const check: CheckDefinition = {
  id: 'catalog',
  group: 'read',
  title: 'Catalog schema and consistency',
  rule: 'Contract, Catalog and Offering: required fields and types (money amounts are integers), Category offeringsCount, OptionGroup "minSelections and maxSelections constrain the choices"; "When optional values are unavailable they are omitted unless the schema allows null"; route rule 5: "malformed catalog identified"',
  requirements: [
    'CATALOG-REQUIRED-FIELDS',
    'OFFERING-REQUIRED-FIELDS',
    'CATEGORY-FIELDS',
    'OPTION-GROUP-LIMITS-CONSISTENT',
    'CATALOG-IDS-STABLE',
    'ORDER-FLOW-BY-IDS',
    'CATALOG-SAME-IDS-ACROSS-ROUTES',
    'MONEY-INTEGERS',
    'TIMESTAMPS-ISO8601',
    'CATALOG-OPTIONAL-OMITTED',
    'CANONICAL-FIELD-NAMES',
    'ROUTE-CATALOG',
  ],
  appliesTo: { operations: ['GET /catalog'], description: 'every provider (CATALOG is required in both profiles)' },
  async run(ctx) {
    const f = new Findings();
    const [outcome, slug] = await Promise.all([
      ctx.client.send({ method: 'GET', path: '/catalog' }),
      providerSlug(ctx),
    ]);
    if (!expectJson(f, outcome, 'GET /catalog', 200, 'ROUTE-CATALOG')) return f.outcome('');
    // Schema problems and consistency problems are both listed: a provider fixes them in one go.
    const schemaValid = expectSchema(
      f,
      ctx.contract,
      outcome,
      'GET /catalog',
      'GET /catalog',
      'CATALOG-REQUIRED-FIELDS',
    );
    const { problems, warnings, notes } = judgeCatalogConsistency(outcome.json, slug);
    for (const p of problems.slice(0, MAX_LISTED)) f.problem(`GET /catalog: ${p.text}`, p.requirement);
    if (problems.length > MAX_LISTED)
      f.problem(
        `GET /catalog: … and ${problems.length - MAX_LISTED} more consistency problems`,
        problems[MAX_LISTED]?.requirement,
      );
    for (const w of warnings) f.warn(`GET /catalog: ${w}`, warningRequirement(w));
    if (problems.length > 0 && schemaValid) keepEvidence(f, outcome);
    await compareRefresh(ctx, f, outcome);
    const body = outcome.json as { categories?: unknown[]; offerings?: unknown[] };
    const noted = notes.length > 0 ? ` (${notes.join('; ')})` : '';
    return f.outcome(
      `${body.offerings?.length ?? 0} offering(s) in ${body.categories?.length ?? 0} categor${body.categories?.length === 1 ? 'y' : 'ies'}; schema valid, ids unique and stable, categories and option groups consistent${noted}`,
    );
  },
};
