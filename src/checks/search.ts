import { PrerequisiteError } from './framework/resources.js';
import type { CheckDefinition } from './framework/types.js';
import type { CatalogView, OfferingView } from './framework/views.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { expectJson, expectSchema } from './support/expect.js';
import { expectSameOffering } from './support/same-offering.js';

/** "limit integer optional default 20" (Endpoints; Limits). */
export const SEARCH_DEFAULT_LIMIT = 20;

/** Searched for when neither certificationInput.searchQuery nor an offering title gives a text. */
const FALLBACK_QUERY = 'test';

/** certificationInput.searchQuery, else the longest word of the first offering's title. */
export function searchQueryFor(catalog: CatalogView, searchQuery: string | undefined): string | undefined {
  if (searchQuery && searchQuery.trim() !== '') return searchQuery.trim();
  const title = catalog.offerings[0]?.title ?? '';
  const words = title.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
  return words.sort((a, b) => b.length - a.length)[0];
}

export const check: CheckDefinition = {
  id: 'search',
  group: 'read',
  title: 'Search returns catalog offerings and honours limit',
  rule: 'Contract, Endpoints: GET /search "query q string required; limit integer optional default 20" answers an array of Offering; Catalog rules: "Catalog, single-offering and search results use the same schema and refer to the same provider and product ids"',
  requirements: [
    'SEARCH-LIMIT',
    'ROUTE-SEARCH',
    'CATALOG-SAME-IDS-ACROSS-ROUTES',
    'OFFERING-REQUIRED-FIELDS',
    'CANONICAL-FIELD-NAMES',
  ],
  needs: ['catalog'],
  appliesTo: { operations: ['GET /search'], description: 'when SEARCH is declared' },
  async run(ctx) {
    const f = new Findings();
    const [info, catalog] = await Promise.all([ctx.resources.providerInfo(), ctx.resources.catalog()]);
    const q = searchQueryFor(catalog, info.manifest?.certificationInput?.searchQuery);
    const query = q ?? FALLBACK_QUERY;
    // Where the text came from breaks no rule by itself; it explains the findings an unhelpful text causes.
    const origin = info.manifest?.certificationInput?.searchQuery?.trim()
      ? 'taken from certificationInput.searchQuery'
      : q !== undefined
        ? 'taken from an offering title'
        : 'a stand-in, as neither certificationInput.searchQuery nor an offering title gives one';
    const what = `GET /search?q=${query}`;
    const [outcome, limited] = await Promise.all([
      ctx.client.send({ method: 'GET', path: '/search', query: { q: query } }),
      ctx.client.send({ method: 'GET', path: '/search', query: { q: query, limit: 1 } }),
    ]);
    if (outcome.kind === 'response' && outcome.status === 404) {
      // The capabilities check reports a declared route that does not exist; one root cause, one red.
      throw new PrerequisiteError('capabilities', `${what} answered 404: the declared SEARCH route does not exist`);
    }
    if (
      // A search without limit is the route's plain use: an error answer to it is the route's, not the limit's.
      !expectJson(f, outcome, what, 200, 'ROUTE-SEARCH') ||
      !expectSchema(f, ctx.contract, outcome, 'GET /search', what, 'OFFERING-REQUIRED-FIELDS')
    )
      return f.outcome('');
    const results = outcome.json as OfferingView[];
    const byId = new Map(catalog.offerings.map((o) => [o.id, o]));
    for (const result of results) {
      const reference = byId.get(result.id);
      if (!reference) {
        keepEvidence(f, outcome);
        f.problem(
          `${what} returned offering id "${result.id}", which is not in GET /catalog; search must use the catalog's ids`,
          'CATALOG-SAME-IDS-ACROSS-ROUTES',
        );
      } else {
        expectSameOffering(f, reference, result, `${what} result ${result.id}`, outcome);
      }
    }
    // Without `limit` the contract's default applies: at most 20 results.
    if (results.length > SEARCH_DEFAULT_LIMIT) {
      keepEvidence(f, outcome);
      f.problem(
        `${what} (no limit) returned ${results.length} results; limit defaults to ${SEARCH_DEFAULT_LIMIT}`,
        'SEARCH-LIMIT',
      );
    }
    // Nothing returned, nothing compared: whether search refers to the catalog's offerings was not tested.
    if (results.length === 0)
      f.warn(
        `${what} returned no result (the search text is ${origin}); whether search results refer to the catalog's offerings was not tested`,
        'CATALOG-SAME-IDS-ACROSS-ROUTES',
      );

    const limitWhat = `${what}&limit=1`;
    if (
      expectJson(f, limited, limitWhat, 200, 'SEARCH-LIMIT') &&
      expectSchema(f, ctx.contract, limited, 'GET /search', limitWhat, 'OFFERING-REQUIRED-FIELDS')
    ) {
      const count = (limited.json as unknown[]).length;
      if (count > 1) {
        keepEvidence(f, limited);
        f.problem(`${limitWhat} returned ${count} results; limit must be honoured (at most 1)`, 'SEARCH-LIMIT');
        f.expected = '≤ 1 result';
        f.actual = `${count} results`;
      } else if (results.length <= 1) {
        f.warn(
          `limit could not be tested: "${query}" (${origin}) matches ${results.length} offering(s); set certificationInput.searchQuery to a text matching several`,
          'SEARCH-LIMIT',
        );
      }
    }
    // A pass claims only what was checked: limit=1 proves something only when more than one offering matches.
    const limitTested = results.length > 1 ? '; limit=1 honoured' : '';
    return f.outcome(`"${query}" (${origin}) found ${results.length} catalog offering(s)${limitTested}`);
  },
};
