import type { HttpOutcome } from '../../http/types.js';
import type { Findings } from '../outcome.js';
import type { OfferingView } from '../views.js';
import { diffTopLevel } from './compare.js';
import { keepEvidence } from './evidence.js';

/**
 * An offering answered by another route must be the catalog's offering: the same values wherever both
 * carry a field (ids, code, title, price…). A field only one side carries is a warning, since the
 * catalog may be a summary of the detail.
 */
export function expectSameOffering(
  f: Findings,
  reference: OfferingView,
  actual: unknown,
  what: string,
  outcome: HttpOutcome,
): boolean {
  const diff = diffTopLevel(reference as unknown as Record<string, unknown>, actual as Record<string, unknown>, {
    reference: 'catalog',
    actual: what,
  });
  for (const w of diff.oneSided) f.warn(`${what}: ${w}`);
  if (diff.changed.length === 0) return true;
  keepEvidence(f, outcome);
  f.problem(
    `${what} differs from the catalog's offering ${reference.id}: ${diff.changed.join('; ')}; catalog, single-offering and search results must refer to the same ids and values`,
  );
  return false;
}
