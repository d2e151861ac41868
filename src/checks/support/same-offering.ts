import type { HttpOutcome } from '../../http/types.js';
import type { OfferingView } from '../framework/views.js';
import type { Findings } from '../outcome.js';
import { diffTopLevel } from './compare.js';
import { keepEvidence } from './evidence.js';

/** The provider and product ids: "refer to the same provider and product ids" is the rule; other values may differ. */
const ID_FIELDS = new Set(['id', 'providerId']);

export interface OfferingJudgement {
  problems: string[];
  warnings: string[];
}

/**
 * The catalog's offering against the same offering from another route. A different id or providerId fails
 * (contract: "refer to the same provider and product ids"); other values (tags, order, metadata, a fuller
 * description) are warnings, since the catalog may be a summary and the contract does not require equal values.
 */
export function judgeSameOffering(reference: OfferingView, actual: unknown, what: string): OfferingJudgement {
  const diff = diffTopLevel(reference as unknown as Record<string, unknown>, actual as Record<string, unknown>, {
    reference: 'catalog',
    actual: what,
  });
  const isId = (change: string): boolean => ID_FIELDS.has(change.split(' ')[0] ?? '');
  const ids = diff.changed.filter(isId);
  const values = diff.changed.filter((c) => !isId(c));
  return {
    problems:
      ids.length === 0
        ? []
        : [
            `${what} differs from the catalog's offering ${reference.id}: ${ids.join('; ')}; catalog, single-offering and search results must refer to the same provider and product ids`,
          ],
    warnings: [
      ...diff.oneSided.map((w) => `${what}: ${w}`),
      ...(values.length === 0
        ? []
        : [`${what} has other values than the catalog's offering ${reference.id}: ${values.join('; ')}`]),
    ],
  };
}

export function expectSameOffering(
  f: Findings,
  reference: OfferingView,
  actual: unknown,
  what: string,
  outcome: HttpOutcome,
): boolean {
  const judged = judgeSameOffering(reference, actual, what);
  for (const w of judged.warnings) f.warn(w, 'CATALOG-SAME-IDS-ACROSS-ROUTES');
  if (judged.problems.length === 0) return true;
  keepEvidence(f, outcome);
  for (const p of judged.problems) f.problem(p, 'CATALOG-SAME-IDS-ACROSS-ROUTES');
  return false;
}
